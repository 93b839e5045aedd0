"""The report of a run: the passes' state as the report model, the gate and the summary."""

from __future__ import annotations

from collections import Counter
from collections.abc import Collection

from .._version import __version__
from ..checks import Finding, Status
from ..errors import AuditFailure, TraceError, UnreadableTraceError
from ..report import (
    EdgeModel,
    EdgeStatus,
    InputErrorModel,
    Report,
    SamplingModel,
    Section,
    SemanticSection,
    SkippedModel,
    Summary,
    TraceModel,
    UsageModel,
    fidelity_section,
    route_gated,
    route_summary,
    triage,
)
from ..trace import TRACE_SUFFIXES
from ._base import Audit, Graded

STATUSES_WORST_FIRST: tuple[Status, ...] = ("fail", "warn", "unmeasured", "pass")
EXIT_OK = 0
EXIT_FAILURES = 1
EXIT_USAGE = 2
EXIT_INPUT = 3
EXIT_RUNTIME = 4


def _edge_status(findings: list[Finding], fail_on: Collection[str]) -> EdgeStatus:
    statuses = {f.status for f in findings}
    for status in STATUSES_WORST_FIRST:
        if status in statuses:
            return "fail" if status in fail_on else status
    return "no_findings"


def _edge_model(g: Graded, fail_on: Collection[str]) -> EdgeModel:
    findings = [f for _, f in g.findings]
    return EdgeModel(id=g.id, kind=g.kind, trace_id=g.item.trace.trace_id, path=g.item.path, source=g.source,
                     destination=g.destination, event_id=g.event_id, status=_edge_status(findings, fail_on),
                     counts=dict(Counter(f.verdict for f in findings)))


def _input_error(error: TraceError | AuditFailure) -> InputErrorModel:
    return InputErrorModel(path=error.path, line=error.line, where=error.where, kind=type(error).__name__,
                           reason=error.reason)


def _semantic_section(audit: Audit) -> SemanticSection:
    config, runner, semantic = audit.config, audit.llm_used, audit.semantic
    mode = config.semantic.mode
    if runner is None:
        return SemanticSection(ran=False, mode=mode, note="no semantic graders are configured")
    checked = audit.sufficiency
    acc = runner.accounting
    usage = {source: UsageModel(calls=acc.calls[source], prompt_tokens=u.prompt_tokens,
                                completion_tokens=u.completion_tokens, cost_usd=u.cost_usd)
             for source, u in acc.usage.items()}
    if mode == "off":
        count = f"{len(semantic)} item is" if len(semantic) == 1 else f"{len(semantic)} items are"
        note = f"semantic grading is off: {count} unmeasured (use --llm live|record|replay)"
    else:
        by_source = Counter(f.source for f in semantic)
        note = (f"{len(semantic)} item{'' if len(semantic) == 1 else 's'} graded by {config.semantic.model} ({mode}): "
                + ", ".join(f"{k} {v}" for k, v in sorted(by_source.items())))
    estimate = audit.sufficiency_estimate
    return SemanticSection(ran=mode != "off", mode=mode, model=config.semantic.model if mode != "off" else None,
                           note=note, findings=semantic, usage=usage,
                           errors=dict(acc.errors), sufficiency=checked, sufficiency_routes=route_summary(checked),
                           sufficiency_estimate={"calls": estimate[0], "tokens": estimate[1]} if estimate else None)


def to_report(audit: Audit) -> Report:
    """The report of a finished run, with its gate: the exit code it asks for."""
    config, findings = audit.config, audit.findings
    fail_on = set(config.gate.fail_on)
    traces = [TraceModel(
        trace_id=item.trace.trace_id, path=item.path, line=item.line, format=item.format,
        score=item.trace.metadata.score, source_messages=edge_set.source_messages, edges=len(edge_set.edges),
        skipped=[SkippedModel(event_id=s.event_id, sender=s.sender, reason=s.reason) for s in edge_set.skipped],
    ) for item, edge_set in audit.traces]
    edges = [_edge_model(g, fail_on) for g in audit.graded]
    skipped: Counter[str] = Counter()
    for _, edge_set in audit.traces:
        skipped.update(edge_set.skipped_by_reason())
    missing = [] if audit.files else [UnreadableTraceError(
        ", ".join(audit.paths), f"no trace files ({', '.join('*' + x for x in TRACE_SUFFIXES)}) found")]
    errors = [_input_error(e) for e in [*audit.errors, *missing]] + [_input_error(e) for e in audit.crashes]
    failing = any(f.status in fail_on and route_gated(f.details, config.gate.routes) for _, f in findings) or (
        config.gate.semantic and (any(f.status == "fail" for f in audit.semantic)
                                  or any(r.verdict in ("leaked_context", "broken") for r in audit.sufficiency)))
    exit_code = EXIT_RUNTIME if audit.crashes else EXIT_INPUT if errors else EXIT_FAILURES if failing else EXIT_OK
    summary = Summary(
        files=len(audit.files), traces=len(traces), edges=len(edges),
        source_messages=sum(es.source_messages for _, es in audit.traces), skipped_messages=dict(skipped),
        input_errors=len(errors),
        deterministic_by_status=dict(Counter(f.status for _, f in findings)),
        deterministic_by_verdict=dict(Counter(f.verdict for _, f in findings)),
        deterministic_by_check={name: dict(Counter(f.verdict for _, f in findings if f.check == name))
                                for name in dict.fromkeys(f.check for _, f in findings)},
        semantic_by_status=dict(Counter(f.status for f in audit.semantic)),
        semantic_by_verdict=dict(Counter(f.verdict for f in audit.semantic)),
        failed_edges=sum(1 for e in edges if e.status == "fail"), exit_code=exit_code,
    )
    return Report(
        tool_version=__version__, config=str(config.source) if config.source else None,
        checks=[c.name for c in config.checks], nlp_pipeline=config.nlp.pipeline,
        summary=summary, traces=traces, edges=edges, input_errors=errors,
        deterministic=Section(ran=True, findings=[f for _, f in findings]),
        semantic=_semantic_section(audit),
        fidelity=fidelity_section([(g.id, g.source, g.destination) for g in audit.graded if g.kind == "message"],
                                  [f for _, f in findings], audit.sufficiency, config.fidelity.weights),
        triage=triage(edges, [f for _, f in findings], audit.semantic), sampling=_sampling(audit),
    )


def _sampling(audit: Audit) -> SamplingModel | None:
    if audit.sampler is None:
        return None
    c, stats = audit.sampler.config, audit.sampler.stats
    return SamplingModel(rate=c.rate, seed=c.seed, min_per_route=dict(sorted(c.min_per_route.items())),
                         audited=stats.audited, by_minimum=stats.by_minimum, skipped=stats.skipped,
                         route_traces=dict(sorted(stats.route_traces.items())))
