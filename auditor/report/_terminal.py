"""The terminal summary (rich): a per-edge table, then the evidence for failing edges."""

from __future__ import annotations

from typing import Any

from ._model import Report
from ._text import counts_cell, finding_lines, findings_by_edge, semantic_line, sufficiency_line, usage_line

_STYLE = {"fail": "bold red", "warn": "yellow", "unmeasured": "cyan", "pass": "green", "no_findings": "dim"}


def print_terminal(report: Report, console: Any, *, all_edges: bool = False, max_rows: int = 200) -> None:
    from rich.table import Table

    s = report.summary
    shown = [e for e in report.edges if all_edges or e.status in ("fail", "warn", "unmeasured")]
    table = Table(title=f"edge-audit: {s.edges} edges in {s.traces} traces", show_lines=False)
    for column in ("edge", "route", "status", "verdicts"):
        table.add_column(column, overflow="fold")
    for edge in shown[:max_rows]:
        table.add_row(edge.id, f"{edge.source} → {edge.destination}",
                      f"[{_STYLE[edge.status]}]{edge.status}[/]", counts_cell(edge.counts))
    if shown:
        console.print(table)
    if len(shown) > max_rows:
        console.print(f"… {len(shown) - max_rows} more edges; see --json for all.")
    grouped = findings_by_edge(report)
    for edge in [e for e in shown if e.status == "fail"][:max_rows]:
        console.print(f"\n[bold]{edge.id}[/] {edge.source} → {edge.destination}", highlight=False)
        for finding in grouped.get(edge.id, []):
            if finding.status == "fail":
                console.print(f"  [red]{finding.verdict}[/] {finding.summary}", highlight=False, markup=True)
                for line in finding_lines(finding):
                    console.print(f"    {line}", highlight=False, markup=False)
    semantic = report.semantic
    if semantic.findings:
        console.print(f"\n[bold]Semantic[/] ({semantic.mode}; reported apart, never changes a verdict above): "
                      f"{semantic.note}", highlight=False)
        shown_semantic = [f for f in semantic.findings if f.status != "pass" or all_edges]
        for graded in shown_semantic[:max_rows]:
            console.print(f"  {semantic_line(graded)}", highlight=False, markup=False)
    if semantic.sufficiency:
        console.print("\n[bold]Sufficiency[/] (handoff alone vs the pipeline):", highlight=False)
        for result in semantic.sufficiency[:max_rows]:
            console.print(f"  {sufficiency_line(result)}", highlight=False, markup=False)
    if semantic.ran and (semantic.findings or semantic.sufficiency):
        console.print(f"  usage: {usage_line(semantic)}", highlight=False, markup=False)
    for error in report.input_errors:
        place = error.path + (f":{error.line}" if error.line else "") + (f" at {error.where}" if error.where else "")
        console.print(f"[bold red]unreadable[/] {place}: {error.reason}", highlight=False)
    verdicts = "; ".join(
        f"{check.removeprefix('edge-audit.')}: " + ", ".join(f"{k} {v}" for k, v in sorted(counts.items()))
        for check, counts in s.deterministic_by_check.items()) or "no findings"
    console.print(
        f"\n{s.traces} traces, {s.edges} edges ({sum(s.skipped_messages.values())} messages skipped), "
        f"{s.failed_edges} failing edges; {verdicts}; {s.input_errors} unreadable inputs. "
        f"Semantic ({report.semantic.mode}): "
        + (", ".join(f"{k} {v}" for k, v in sorted(s.semantic_by_verdict.items())) or "nothing to grade")
        + f". Exit code {s.exit_code}.",
        highlight=False,
    )
