"""The golden report on a terminal: one line per case, then what failed. Trace text is escaped."""

from __future__ import annotations

from rich.console import Console
from rich.markup import escape

from ._report import GoldenReport

_STYLE = {"pass": "green", "fail": "red", "unmeasured": "yellow"}


def print_golden(report: GoldenReport, console: Console) -> None:
    for case in report.cases:
        console.print(f"[{_STYLE[case.status]}]{case.status:10}[/] {escape(case.id)}")
        if case.unmeasured:
            console.print(f"  unmeasured: {escape(case.unmeasured)}")
        for hit in case.containment.hits if case.containment else []:
            mark = "ASSERTED" if hit.stance == "asserted" else f"{hit.stance} ({escape(hit.cue or '')})"
            console.print(f"  banned {escape(hit.claim)}: {mark} in {escape(hit.text_id)}: {escape(repr(hit.quote))}")
        for b in case.behaviours:
            if not b.passed:
                console.print(f"  behaviour {escape(b.id)} missing: {escape(b.reason or '')}")
        if case.edges is not None and case.edges.passed is not True:
            what = case.edges.error or "; ".join(case.edges.findings) or ", ".join(case.edges.failing)
            console.print(f"  edges: {escape(what)}")
    s = report.summary
    console.print(f"{s.cases} cases: {s.passed} passed, {s.failed} failed, {s.unmeasured} unmeasured; "
                  f"exit code {s.exit_code}")
