"""The public Python API: ``audit(paths, config) -> Report``. The CLI is a thin layer over it."""

from __future__ import annotations

import contextlib
from collections import Counter
from collections.abc import Callable, Collection, Iterable, Iterator
from dataclasses import asdict, dataclass, field
from pathlib import Path
from typing import Literal

from . import __version__
from .checks import CheckContext, CheckFn, ChecksTraces, Finding, Prepares, make_check
from .config import AuditConfig, load_config
from .edges import EdgeSet, Quote, build_edges
from .errors import AuditFailure, TraceError, UnreadableTraceError, UsageError
from .graders import GraderSpec, Job, SemanticFinding, SemanticRunner, grader_specs, make_runner
from .nlp import TextAnalyzer
from .report import (
    EdgeModel,
    FindingModel,
    InputErrorModel,
    QuoteModel,
    Report,
    RubricRefModel,
    Section,
    SemanticFindingModel,
    SemanticSection,
    SkippedModel,
    Summary,
    TraceModel,
    UsageModel,
    route_gated,
)
from .report._sufficiency import route_summary, sufficiency_model
from .sufficiency import AgentSpec, Case, Selector, load_agents, make_case, make_selector, make_sufficiency
from .sufficiency import Result as SufficiencyResult
from .trace import TRACE_SUFFIXES, Limits, Loaded, LoadedTrace, iter_paths

EXIT_OK = 0
EXIT_FAILURES = 1
EXIT_USAGE = 2
EXIT_INPUT = 3
EXIT_RUNTIME = 4

#: Called with (done, total); total is None while it is not known yet (traces are read lazily).
Progress = Callable[[int, int | None], None]
#: Traces whose edges are prepared (batch-parsed) together.
PREPARE_CHUNK = 64


def _quote(q: Quote) -> QuoteModel:
    return QuoteModel.model_validate(asdict(q))


def _finding_model(finding_id: str, finding: Finding) -> FindingModel:
    return FindingModel(
        id=finding_id, check=finding.check, edge_id=finding.edge_id, verdict=finding.verdict, status=finding.status,
        summary=finding.summary, upstream=_quote(finding.upstream) if finding.upstream else None,
        handoff=[_quote(q) for q in finding.handoff], mentions=[_quote(q) for q in finding.mentions],
        details=dict(finding.details),
    )


EdgeStatus = Literal["pass", "fail", "warn", "unmeasured", "no_findings"]


def _edge_status(findings: list[Finding], fail_on: Collection[str]) -> EdgeStatus:
    statuses = {f.status for f in findings}
    for status in ("fail", "warn", "unmeasured", "pass"):
        if status in statuses:
            return "fail" if status in fail_on else status
    return "no_findings"


def _chunks(items: Iterator[Loaded], errors: list[TraceError], size: int) -> Iterator[list[LoadedTrace]]:
    """Loaded traces in lists of ``size``, read lazily; errors go to ``errors`` as they come."""
    chunk: list[LoadedTrace] = []
    for item in items:
        if isinstance(item, TraceError):
            errors.append(item)
            continue
        chunk.append(item)
        if len(chunk) == size:
            yield chunk
            chunk = []
    if chunk:
        yield chunk


def _semantic_model(f: SemanticFinding) -> SemanticFindingModel:
    return SemanticFindingModel(
        grader=f.grader, edge_id=f.edge_id, finding_id=f.finding_id, verdict=f.verdict, status=f.status,
        reason=f.reason, rubric=RubricRefModel(id=f.rubric.id, version=f.rubric.version, hash=f.rubric.hash),
        model=f.model, source=f.source, quote=_quote(f.quote) if f.quote else None, quote_verified=f.quote_verified,
        grader_quote=f.grader_quote, unmeasured_reason=f.unmeasured_reason, details=dict(f.details),
    )


def audit(paths: Iterable[str | Path], config: AuditConfig | None = None, *, format: str | None = None,
          analyzer: TextAnalyzer | None = None, progress: Progress | None = None,
          semantic_progress: Progress | None = None, cassettes_used: set[str] | None = None,
          sufficiency_estimate: Callable[[int, int], None] | None = None) -> Report:
    """Load every trace under ``paths``, build its edges, run the configured checks, then the
    semantic graders on what the checks left undecided, and return the report. Unreadable
    traces are listed in ``input_errors``; the rest are audited. ``cassettes_used``, when
    given, receives the path of every cassette the run read or wrote. With sufficiency
    selected, ``sufficiency_estimate(calls, tokens)`` hears the cost estimate before any call."""
    config = config or load_config(None)
    limits = Limits(max_file_bytes=config.limits.max_file_bytes, max_text_chars=config.limits.max_text_chars,
                    max_name_chars=config.limits.max_name_chars)
    files: list[Path] = []
    path_list = list(paths)
    loaded = iter_paths(path_list, format=format, limits=limits, files=files)
    trace_errors: list[TraceError] = []
    analyzer = analyzer or TextAnalyzer(config.nlp.pipeline, disable=config.nlp.disable)
    context = CheckContext(analyzer=analyzer, config_dir=config.base_dir, project_dir=config.project_dir)
    checks = [make_check(c.name, context, c.options) for c in config.checks]
    fail_on = set(config.gate.fail_on)
    specs = grader_specs(config)
    selector = make_selector(config)
    agents = load_agents(config) if selector.active else {}
    runner = make_runner(config) if specs or selector.active else None
    jobs: list[tuple[GraderSpec, Job]] = []

    traces: list[TraceModel] = []
    edges: list[EdgeModel] = []
    findings: list[tuple[str, Finding]] = []
    skipped_total: Counter[str] = Counter()
    source_messages = 0
    done = 0
    crashes: list[AuditFailure] = []
    for chunk in _chunks(loaded, trace_errors, PREPARE_CHUNK):
        edge_sets: list[EdgeSet | None] = []
        for item in chunk:
            try:
                edge_sets.append(build_edges(item.trace, config.evidence.capture))
            except Exception as err:  # noqa: BLE001 - one trace never stops the run
                crashes.append(_crash(item, "building its edges", err))
                edge_sets.append(None)
        built = [e for es in edge_sets if es is not None for e in es.edges]
        for check in checks:
            if isinstance(check, Prepares):
                with contextlib.suppress(Exception):  # only a batch speed-up; each edge is checked below
                    check.prepare(built)
        for item, edge_set in zip(chunk, edge_sets, strict=True):
            done += 1
            if edge_set is None:
                continue
            out = _TraceOutcome()
            try:
                _audit_trace(item, edge_set, checks, fail_on, specs, selector, agents, out)
            except Exception as err:  # noqa: BLE001 - one trace never stops the run
                crashes.append(_crash(item, "running the checks", err))
                continue
            source_messages += edge_set.source_messages
            skipped_total.update(edge_set.skipped_by_reason())
            traces.append(out.trace_model(item, edge_set))
            edges.extend(out.edges)
            findings.extend(out.findings)
            jobs.extend(out.jobs)
            for case in out.cases:
                selector.offer(case)
            if progress is not None:
                progress(done, None)
    if progress is not None:
        progress(done, done)

    semantic = runner.run(jobs, semantic_progress) if runner is not None else []
    sufficiency: list[SufficiencyResult] = []
    estimate: tuple[int, int] | None = None
    if selector.active and runner is not None:
        missing = selector.missing()
        if missing:
            raise UsageError(f"--sufficiency edge:{missing[0]}: no such edge in the traces")
        checker = make_sufficiency(config, runner, context)
        cases = selector.cases()
        estimate = checker.estimate(cases)
        if sufficiency_estimate is not None:
            sufficiency_estimate(*estimate)
        sufficiency = checker.run(cases, semantic_progress)
    if runner is not None and runner.cassettes is not None and cassettes_used is not None:
        cassettes_used.update(str(p) for p in runner.cassettes.used)
    if not files:
        trace_errors.append(UnreadableTraceError(", ".join(str(p) for p in path_list),
                                                 f"no trace files ({', '.join('*' + x for x in TRACE_SUFFIXES)}) "
                                                 "found"))
    errors = [_input_error(e) for e in trace_errors] + [_input_error(e) for e in crashes]
    routes = config.gate.routes
    failing = any(f.status in fail_on and route_gated(f.details, routes) for _, f in findings) or (
        config.gate.semantic and (any(f.status == "fail" for f in semantic)
                                  or any(r.verdict in ("leaked_context", "broken") for r in sufficiency)))
    exit_code = EXIT_RUNTIME if crashes else EXIT_INPUT if errors else EXIT_FAILURES if failing else EXIT_OK
    summary = Summary(
        files=len(files), traces=len(traces), edges=len(edges), source_messages=source_messages,
        skipped_messages=dict(skipped_total), input_errors=len(errors),
        deterministic_by_status=dict(Counter(f.status for _, f in findings)),
        deterministic_by_verdict=dict(Counter(f.verdict for _, f in findings)),
        deterministic_by_check={name: dict(Counter(f.verdict for _, f in findings if f.check == name))
                                for name in dict.fromkeys(f.check for _, f in findings)},
        semantic_by_status=dict(Counter(f.status for f in semantic)),
        semantic_by_verdict=dict(Counter(f.verdict for f in semantic)),
        failed_edges=sum(1 for e in edges if e.status == "fail"), exit_code=exit_code,
    )
    return Report(
        tool_version=__version__, config=str(config.source) if config.source else None,
        checks=[c.name for c in config.checks], nlp_pipeline=config.nlp.pipeline,
        summary=summary, traces=traces, edges=edges, input_errors=errors,
        deterministic=Section(ran=True, findings=[_finding_model(fid, f) for fid, f in findings]),
        semantic=_semantic_section(config, runner, semantic, sufficiency, estimate),
    )


def _semantic_section(config: AuditConfig, runner: SemanticRunner | None, semantic: list[SemanticFinding],
                      sufficiency: list[SufficiencyResult], estimate: tuple[int, int] | None) -> SemanticSection:
    mode = config.semantic.mode
    if runner is None:
        return SemanticSection(ran=False, mode=mode, note="no semantic graders are configured")
    checked = [sufficiency_model(r) for r in sufficiency]
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
    return SemanticSection(ran=mode != "off", mode=mode, model=config.semantic.model if mode != "off" else None,
                           note=note, findings=[_semantic_model(f) for f in semantic], usage=usage,
                           errors=dict(acc.errors), sufficiency=checked, sufficiency_routes=route_summary(checked),
                           sufficiency_estimate={"calls": estimate[0], "tokens": estimate[1]} if estimate else None)


@dataclass
class _TraceOutcome:
    """What auditing one trace adds to the report; merged only when the whole trace succeeded."""

    edges: list[EdgeModel] = field(default_factory=list)
    findings: list[tuple[str, Finding]] = field(default_factory=list)
    jobs: list[tuple[GraderSpec, Job]] = field(default_factory=list)
    cases: list[Case] = field(default_factory=list)

    def trace_model(self, item: LoadedTrace, edge_set: EdgeSet) -> TraceModel:
        return TraceModel(
            trace_id=item.trace.trace_id, path=item.path, line=item.line, format=item.format,
            score=item.trace.metadata.score, source_messages=edge_set.source_messages, edges=len(edge_set.edges),
            skipped=[SkippedModel(event_id=s.event_id, sender=s.sender, reason=s.reason) for s in edge_set.skipped],
        )


def _audit_trace(item: LoadedTrace, edge_set: EdgeSet, checks: list[CheckFn], fail_on: Collection[str],
                 specs: list[GraderSpec], selector: Selector, agents: dict[str, AgentSpec], out: _TraceOutcome) -> None:
    for edge in edge_set.edges:
        edge_findings = [f for check in checks for f in check(edge)]
        numbered = [(f"{edge.id}#{n}", f) for n, f in enumerate(edge_findings, start=1)]
        out.findings.extend(numbered)
        for spec in specs:
            selected = [(fid, f) for fid, f in numbered if spec.grader.selects(f)]
            if selected:
                out.jobs.append((spec, spec.grader.job(edge, selected)))
        if selector.wants(edge.id):
            out.cases.append(make_case(item.trace, edge, agents))
        out.edges.append(EdgeModel(
            id=edge.id, trace_id=edge.trace_id, path=item.path, source=edge.source,
            destination=edge.destination, event_id=edge.message.id,
            status=_edge_status(edge_findings, fail_on), counts=dict(Counter(f.verdict for f in edge_findings)),
        ))
    for check in checks:
        if isinstance(check, ChecksTraces):
            for unit, unit_findings in check.check_trace(item.trace):
                out.findings.extend((f"{unit.id}#{n}", f) for n, f in enumerate(unit_findings, start=1))
                out.edges.append(EdgeModel(
                    id=unit.id, kind="handoff", trace_id=item.trace.trace_id, path=item.path,
                    source=unit.source, destination=unit.destination, event_id=unit.event_id,
                    status=_edge_status(unit_findings, fail_on),
                    counts=dict(Counter(f.verdict for f in unit_findings)),
                ))


def _crash(item: LoadedTrace, doing: str, err: Exception) -> AuditFailure:
    text = str(err)
    text = text if len(text) <= 200 else text[:199] + "…"
    return AuditFailure(item.path, f"internal error while {doing} ({type(err).__name__}: {text}); "
                                   "the other traces were audited", line=item.line, where=f"trace {item.trace.trace_id}")


def _input_error(error: TraceError | AuditFailure) -> InputErrorModel:
    return InputErrorModel(path=error.path, line=error.line, where=error.where, kind=type(error).__name__,
                           reason=error.reason)
