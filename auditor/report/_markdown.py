"""Markdown summary, sized for a CI step summary: totals, failing edges with quotes, input errors."""

from __future__ import annotations

from ..checks import Finding
from ._fidelity import route_fidelity_rows, weights_text
from ._model import EdgeModel, Report
from ._text import (
    counts_cell,
    finding_lines,
    findings_by_edge,
    plural,
    semantic_line,
    sufficiency_line,
    usage_line,
)

_MAX_EDGES = 50


def _cell(text: str) -> str:
    return text.replace("|", "\\|").replace("\n", " ").replace("`", "'")


def _edge_section(edges: list[EdgeModel], grouped: dict[str, list[Finding]], status: str) -> list[str]:
    """A table of ``edges`` and, for each, its findings of ``status`` with their quotes."""
    out = ["| edge | route | verdicts |", "|---|---|---|"]
    out += [f"| `{_cell(e.id)}` | {_cell(e.source)} → {_cell(e.destination)} | {counts_cell(e.counts)} |"
            for e in edges[:_MAX_EDGES]]
    if len(edges) > _MAX_EDGES:
        out.append(f"\n…and {len(edges) - _MAX_EDGES} more {status} edges (see the JSON report).")
    for edge in edges[:_MAX_EDGES]:
        out += ["", f"### `{_cell(edge.id)}`", ""]
        for finding in grouped.get(edge.id, []):
            if finding.status != status:
                continue
            out.append(f"- **{finding.verdict}** ({finding.check}): {_cell(finding.summary)}")
            out += [f"  - {_cell(line)}" for line in finding_lines(finding)]
    return out


def _fidelity_section(report: Report) -> list[str]:
    section = report.fidelity
    if not section.routes:
        return []
    out = ["", "## Edge fidelity by route", "",
           f"Each edge starts at 1.0 and loses points per finding: {weights_text(section.weights)}. Unmeasured "
           "items are counted apart, not scored; sufficiency is a separate bit.", "",
           "| route | edges | mean | min | lost | unmeasured; sufficiency |", "|---|---|---|---|---|---|"]
    out += [f"| {_cell(route.replace('->', ' → '))} | {' | '.join(_cell(c) for c in rest)} |"
            for route, *rest in route_fidelity_rows(section)]
    return out


def _triage(report: Report, rows: int = 10) -> list[str]:
    """The worst edges first (the JSON report's ``triage`` keeps up to 25)."""
    if not report.triage:
        return []
    out = ["## Triage (worst edges first)", "", "| # | edge | route | status | fail | warn | unmeasured |",
           "|---|---|---|---|---|---|---|"]
    out += [f"| {n} | `{_cell(t.edge_id)}` | {_cell(t.route)} | {t.status} | {t.fail} | {t.warn} | {t.unmeasured} |"
            for n, t in enumerate(report.triage[:rows], start=1)]
    if report.sampling is not None:
        s = report.sampling
        out += ["", f"Sampled: {s.audited:,} traces audited ({s.by_minimum:,} for a route minimum), "
                    f"{s.skipped:,} left out (rate {s.rate}, seed {s.seed})."]
    return [*out, ""]


def to_markdown(report: Report) -> str:
    s = report.summary
    out = [
        "# edge-audit report",
        "",
        f"{plural(s.traces, 'trace')}, {plural(s.edges, 'edge')}, {plural(s.failed_edges, 'failing edge')}, "
        f"{plural(s.input_errors, 'unreadable input')} (exit code {s.exit_code}).",
        "",
        f"Config: {'`' + _cell(report.config) + '`' if report.config else 'built-in defaults'}.",
        "",
        "| check | verdict | findings |",
        "|---|---|---|",
        *[f"| {check} | {verdict} | {count} |" for check, counts in s.deterministic_by_check.items()
          for verdict, count in sorted(counts.items())],
        "",
        *_triage(report),
        "## Deterministic findings",
        "",
    ]
    grouped = findings_by_edge(report)
    failing = [e for e in report.edges if e.status == "fail"]
    if not failing:
        out.append("No edge failed.")
    for status, title in (("fail", None), ("warn", "Warnings"), ("unmeasured", "Unmeasured (for the semantic graders)")):
        chosen = [e for e in report.edges if e.status == status]
        if not chosen:
            continue
        if title:
            out += ["", f"## {title}", ""]
        out += _edge_section(chosen, grouped, status)
    out += _fidelity_section(report)
    semantic = report.semantic
    out += ["", "## Semantic findings", "",
            f"Mode `{semantic.mode}`. {semantic.note}. These never change a deterministic verdict."]
    if semantic.ran:
        out += ["", f"Usage: {usage_line(semantic)}."]
    if semantic.findings:
        out += ["", "| verdict | count |", "|---|---|"]
        out += [f"| {v} | {n} |" for v, n in sorted(s.semantic_by_verdict.items())]
        out.append("")
        out += [f"- {_cell(semantic_line(f))}" for f in semantic.findings[:_MAX_EDGES * 4]]
    if semantic.sufficiency:
        out += ["", "## Sufficiency", "", "| route | edges | measured | stands alone | verdicts | missing fields |",
                "|---|---|---|---|---|---|"]
        for route, agg in semantic.sufficiency_routes.items():
            rate = f"{agg.stands_alone_rate:.0%}" if agg.stands_alone_rate is not None else "-"
            out.append(f"| {_cell(route)} | {agg.edges} | {agg.measured} | {rate} | "
                       f"{', '.join(f'{k} {v}' for k, v in sorted(agg.verdicts.items()))} | "
                       f"{_cell(', '.join(agg.missing_fields)) or '-'} |")
        out.append("")
        out += [f"- {_cell(sufficiency_line(r))}" for r in semantic.sufficiency[:_MAX_EDGES]]
    if report.input_errors:
        out += ["", "## Unreadable inputs", ""]
        out += [f"- `{e.path}{':' + str(e.line) if e.line else ''}`"
                f"{' at ' + e.where if e.where else ''}: {_cell(e.reason)}" for e in report.input_errors]
    return "\n".join(out) + "\n"
