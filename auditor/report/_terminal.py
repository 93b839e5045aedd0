"""The terminal summary (rich): a per-edge table, then the evidence for failing edges."""

from __future__ import annotations

from typing import Any

from ._fidelity import route_fidelity_rows, weights_text
from ._model import Report
from ._text import (
    counts_cell,
    finding_lines,
    findings_by_edge,
    plural,
    semantic_line,
    sufficiency_line,
    summary_line,
    usage_line,
)

#: Longest id or name shown in a terminal cell; the JSON report has them whole.
MAX_CELL = 300


def _e(text: str, limit: int = MAX_CELL) -> str:
    """Trace text for rich markup: shortened, and escaped so that ``[bold]`` or ``[/]`` in a
    trace is printed as it is, never read as markup."""
    from rich.markup import escape

    return escape(text if len(text) <= limit else text[: limit - 1] + "…")

_STYLE = {"fail": "bold red", "warn": "yellow", "unmeasured": "cyan", "pass": "green", "no_findings": "dim"}


def _print_fidelity(report: Report, console: Any, max_rows: int) -> None:
    from rich.table import Table

    section = report.fidelity
    if not section.routes:
        return
    table = Table(title=f"edge fidelity by route (per finding: {weights_text(section.weights)})")
    for column in ("route", "edges", "mean", "min", "lost", "unmeasured; sufficiency"):
        table.add_column(column, overflow="fold")
    for route, *rest in route_fidelity_rows(section)[:max_rows]:
        table.add_row(_e(route.replace("->", " → ")), *(_e(c) for c in rest))
    console.print(table)


def print_terminal(report: Report, console: Any, *, all_edges: bool = False, max_rows: int = 200) -> None:
    from rich.table import Table

    s = report.summary
    shown = [e for e in report.edges if all_edges or e.status in ("fail", "warn", "unmeasured")]
    table = Table(title=f"edge-audit: {plural(s.edges, 'edge')} in {plural(s.traces, 'trace')}", show_lines=False)
    for column in ("edge", "route", "status", "verdicts"):
        table.add_column(column, overflow="fold")
    for edge in shown[:max_rows]:
        table.add_row(_e(edge.id), f"{_e(edge.source)} → {_e(edge.destination)}",
                      f"[{_STYLE[edge.status]}]{edge.status}[/]", _e(counts_cell(edge.counts)))
    if shown:
        console.print(table)
    if len(shown) > max_rows:
        console.print(f"… {len(shown) - max_rows} more edges; see --json for all.")
    grouped = findings_by_edge(report)
    for edge in [e for e in shown if e.status in ("fail", "warn")][:max_rows]:
        console.print(f"\n[bold]{_e(edge.id)}[/] {_e(edge.source)} → {_e(edge.destination)}", highlight=False)
        for finding in grouped.get(edge.id, []):
            if finding.status in ("fail", "warn"):
                style = "red" if finding.status == "fail" else "yellow"
                console.print(f"  [{style}]{_e(finding.verdict)}[/] {_e(finding.summary, 2000)}", highlight=False)
                for line in finding_lines(finding):
                    console.print(f"    {line}", highlight=False, markup=False)
    _print_fidelity(report, console, max_rows)
    semantic = report.semantic
    if semantic.findings:
        console.print(f"\n[bold]Semantic[/] ({semantic.mode}; reported apart, never changes a verdict above): "
                      f"{_e(semantic.note, 2000)}", highlight=False)
        shown_semantic = [f for f in semantic.findings if f.status != "pass" or all_edges]
        for graded in shown_semantic[:max_rows]:
            console.print(f"  {semantic_line(graded)}", highlight=False, markup=False)
    if semantic.sufficiency:
        console.print("\n[bold]Sufficiency[/] (handoff alone vs the pipeline):", highlight=False)
        for result in semantic.sufficiency[:max_rows]:
            console.print(f"  {sufficiency_line(result)}", highlight=False, markup=False)
    if semantic.ran and (semantic.findings or semantic.sufficiency):
        console.print(f"  usage: {usage_line(semantic)}", highlight=False, markup=False)
    _print_triage(report, console)
    for error in report.input_errors:
        place = error.path + (f":{error.line}" if error.line else "") + (f" at {error.where}" if error.where else "")
        label = "internal error" if error.kind == "AuditFailure" else "unreadable"
        console.print(f"[bold red]{label}[/] {_e(place, 2000)}: {_e(error.reason, 2000)}", highlight=False)
    console.print(f"\nconfig: {report.config or 'built-in defaults (no config/edge-audit.yaml found)'}",
                  highlight=False, markup=False)
    console.print(summary_line(report), highlight=False, markup=False)


def _print_triage(report: Report, console: Any, rows: int = 10) -> None:
    """The worst edges first (the report's ``triage`` list keeps more), and what sampling left out."""
    if report.triage:
        console.print("\n[bold]Triage[/] (worst edges first):", highlight=False)
        for n, t in enumerate(report.triage[:rows], start=1):
            semantic = f", {t.semantic_fail} semantic fail" if t.semantic_fail else ""
            console.print(f"  {n:>2}. [{_STYLE[t.status]}]{t.status}[/] {_e(t.edge_id)} ({_e(t.route)}): "
                          f"{t.fail} fail, {t.warn} warn, {t.unmeasured} unmeasured{semantic}", highlight=False)
    if report.sampling is not None:
        s = report.sampling
        console.print(f"\nsampled: {s.audited:,} traces audited ({s.by_minimum:,} for a route minimum), "
                      f"{s.skipped:,} left out (rate {s.rate}, seed {s.seed})", highlight=False, markup=False)
