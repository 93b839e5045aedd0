"""Small shared helpers for the human-readable writers."""

from __future__ import annotations

from ._model import FindingModel, QuoteModel, Report

VERDICT_ORDER = ("contradicted", "inverted", "invented", "softened", "dropped", "needs_semantic", "kept", "grounded")


def where(quote: QuoteModel) -> str:
    return f"{quote.event_id}.{quote.field}[{quote.start}:{quote.end}]"


def one_line(text: str, limit: int = 240) -> str:
    flat = " ".join(text.split())
    return flat if len(flat) <= limit else flat[: limit - 1] + "…"


def finding_lines(finding: FindingModel) -> list[str]:
    """The evidence of one finding as plain lines: upstream quote, then the handoff quotes."""
    lines = []
    if finding.upstream is not None:
        lines.append(f"upstream {where(finding.upstream)}: {one_line(finding.upstream.text)}")
    for quote in finding.handoff:
        lines.append(f"handoff  {where(quote)}: {one_line(quote.text)}")
    if not finding.handoff:
        for quote in finding.mentions[:3]:
            lines.append(f"mentioned {where(quote)}: {one_line(quote.text)}")
    return lines


def findings_by_edge(report: Report) -> dict[str, list[FindingModel]]:
    grouped: dict[str, list[FindingModel]] = {}
    for finding in report.deterministic.findings:
        grouped.setdefault(finding.edge_id, []).append(finding)
    rank = {verdict: i for i, verdict in enumerate(VERDICT_ORDER)}
    return {edge: sorted(found, key=lambda f: rank.get(f.verdict, len(rank))) for edge, found in grouped.items()}


def counts_cell(counts: dict[str, int]) -> str:
    return " ".join(f"{v}:{counts[v]}" for v in VERDICT_ORDER if counts.get(v)) or "-"
