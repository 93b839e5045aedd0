"""Small shared helpers for the human-readable writers."""

from __future__ import annotations

from collections.abc import Mapping, Sequence

from ..checks import Finding
from ..edges import Quote
from ..graders import SemanticFinding
from ..sufficiency import Leg
from ..sufficiency import Result as SufficiencyResult
from ._model import Report, SemanticSection

VERDICT_ORDER = ("contradicted", "inverted", "invented", "softened", "dropped", "routing_mismatch",
                 "upstream_context_missing", "packaging_loss", "ingestion_loss", "unpermitted_key", "needs_semantic",
                 "insufficient_evidence", "version_mismatch", "contract_unknown", "kept", "grounded", "recovered",
                 "passed")


def route_gated(details: Mapping[str, object], routes: Sequence[str] | None) -> bool:
    """Whether a finding can fail the run under ``--gate-routes``: findings that name no route
    always can; a handoff finding only when its route is gated (``None``: every route)."""
    return routes is None or "route" not in details or details["route"] in routes


def plural(count: int, word: str, many: str | None = None) -> str:
    """``1 trace``, ``2 traces``."""
    return f"{count:,} {word if count == 1 else many or word + 's'}"


def summary_line(report: Report) -> str:
    """The closing line of the terminal summary, in plain words."""
    s = report.summary
    verdicts = "; ".join(
        f"{check.removeprefix('edge-audit.')}: " + ", ".join(f"{k} {v}" for k, v in sorted(counts.items()))
        for check, counts in s.deterministic_by_check.items()) or "no findings"
    semantic = ", ".join(f"{k} {v}" for k, v in sorted(s.semantic_by_verdict.items())) or "nothing to grade"
    return (f"{plural(s.traces, 'trace')}, {plural(s.edges, 'edge')} "
            f"({plural(sum(s.skipped_messages.values()), 'message')} skipped), "
            f"{plural(s.failed_edges, 'failing edge')}; {verdicts}; {_inputs(report)}. "
            f"Semantic ({report.semantic.mode}): {semantic}. Exit code {s.exit_code}.")


def _inputs(report: Report) -> str:
    crashes = sum(1 for e in report.input_errors if e.kind == "AuditFailure")
    text = plural(len(report.input_errors) - crashes, "unreadable input")
    return text + (f", {plural(crashes, 'internal error')}" if crashes else "")


def where(quote: Quote) -> str:
    return f"{quote.event_id}.{quote.field}[{quote.start}:{quote.end}]"


def one_line(text: str, limit: int = 240) -> str:
    flat = " ".join(text.split())
    return flat if len(flat) <= limit else flat[: limit - 1] + "…"


def finding_lines(finding: Finding) -> list[str]:
    """The evidence of one finding as plain lines: upstream quote, then the handoff quotes (or,
    for a finding whose details list ``evidence`` events, those events with their times)."""
    lines = []
    if finding.upstream is not None:
        lines.append(f"upstream {where(finding.upstream)}: {one_line(finding.upstream.text)}")
    evidence = finding.details.get("evidence")
    if isinstance(evidence, list) and evidence and all(isinstance(e, dict) for e in evidence):
        # events with their recorded times (trace-contract rules), in place of quoted sentences
        return lines + [f"evidence {one_line(str(e.get('event_id')))} ({e.get('kind')} {one_line(str(e.get('name')))}"
                        f") {e.get('start') or 'no start'} .. {e.get('end') or 'no end'}" for e in evidence]
    for quote in finding.handoff:
        lines.append(f"handoff  {where(quote)}: {one_line(quote.text)}")
    if not finding.handoff:
        for quote in finding.mentions[:3]:
            lines.append(f"mentioned {where(quote)}: {one_line(quote.text)}")
    return lines


def findings_by_edge(report: Report) -> dict[str, list[Finding]]:
    grouped: dict[str, list[Finding]] = {}
    for finding in report.deterministic.findings:
        grouped.setdefault(finding.edge_id, []).append(finding)
    rank = {verdict: i for i, verdict in enumerate(VERDICT_ORDER)}
    return {edge: sorted(found, key=lambda f: rank.get(f.verdict, len(rank))) for edge, found in grouped.items()}


def counts_cell(counts: dict[str, int]) -> str:
    known = [v for v in VERDICT_ORDER if counts.get(v)]
    others = sorted(v for v in counts if counts[v] and v not in VERDICT_ORDER)  # e.g. trace-contract verdicts
    return " ".join(f"{v}:{counts[v]}" for v in known + others) or "-"


def semantic_line(f: SemanticFinding) -> str:
    """One semantic finding: verdict, what it grades, provenance, and the quote or the reason."""
    rubric = f"{f.rubric.id}.v{f.rubric.version}" + (f"@{f.rubric.hash}" if f.rubric.hash else "")
    head = f"{f.verdict} ({f.status}) on {f.finding_id} by {f.grader.removeprefix('edge-audit.')} [{rubric}, {f.source}]"
    if f.quote is not None and f.quote_verified:
        return f"{head}: verified quote {where(f.quote)}: {one_line(f.quote.text, 160)}"
    if f.unmeasured_reason:
        why = f.details.get("grader_verdict_problem") or f.reason
        return f"{head}: {f.unmeasured_reason}: {one_line(str(why), 200)}"
    return f"{head}: {one_line(f.reason, 200)}"


def usage_line(section: SemanticSection) -> str:
    if not section.usage:
        return "no model calls"
    parts = []
    for source, u in sorted(section.usage.items()):
        cost = f", ${u.cost_usd:.4f}" if u.cost_usd is not None else ""
        parts.append(f"{source}: {u.calls} calls, {u.prompt_tokens}+{u.completion_tokens} tokens{cost}")
    errors = ", ".join(f"{k} {v}" for k, v in sorted(section.errors.items()))
    return "; ".join(parts) + (f"; failed calls: {errors}" if errors else "")


def sufficiency_line(r: SufficiencyResult) -> str:
    """One sufficiency result: verdict, both legs with their sources, and what was missing."""
    def leg(name: str, leg: Leg) -> str:
        state = leg.degraded_reason if leg.status == "degraded" else leg.status
        return f"{name} {state} ({leg.output_source}/{leg.decision_source})"

    parts = [f"{r.verdict} on {r.edge_id} [{r.route}]: {leg('off', r.context_off)}, {leg('on', r.context_on)}"]
    if r.questions:
        parts.append("missing: " + ", ".join(dict.fromkeys(q.missing_field for q in r.questions)))
    if r.ignored_context:
        parts.append("leaked: " + ", ".join(f"{c.term} ({c.event_id})" for c in r.ignored_context))
    if r.deterministic:
        parts.append("isolated output failed: " + one_line("; ".join(r.deterministic), 160))
    return "; ".join(parts)
