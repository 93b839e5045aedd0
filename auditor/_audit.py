"""The public Python API: ``audit(paths, config) -> Report``. The CLI is a thin layer over it."""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable, Iterable
from dataclasses import asdict
from pathlib import Path

from . import __version__
from .checks import CheckContext, Finding, Prepares, make_check
from .config import AuditConfig
from .edges import build_edges
from .errors import TraceError
from .nlp import TextAnalyzer
from .report import (
    EdgeModel,
    FindingModel,
    InputErrorModel,
    QuoteModel,
    Report,
    Section,
    SkippedModel,
    Summary,
    TraceModel,
)
from .trace import Limits, load_paths

EXIT_OK = 0
EXIT_FAILURES = 1
EXIT_USAGE = 2
EXIT_INPUT = 3
EXIT_RUNTIME = 4

Progress = Callable[[int, int], None]
#: Traces whose edges are prepared (batch-parsed) together.
PREPARE_CHUNK = 64


def _finding_model(finding: Finding) -> FindingModel:
    def quote(q: object) -> QuoteModel:
        return QuoteModel.model_validate(asdict(q))  # type: ignore[call-overload]

    return FindingModel(
        check=finding.check, edge_id=finding.edge_id, verdict=finding.verdict, status=finding.status,
        summary=finding.summary, upstream=quote(finding.upstream) if finding.upstream else None,
        handoff=[quote(q) for q in finding.handoff], mentions=[quote(q) for q in finding.mentions],
        details=dict(finding.details),
    )


def _edge_status(findings: list[Finding], fail_on: set[str]) -> str:
    statuses = {f.status for f in findings}
    for status in ("fail", "warn", "unmeasured", "pass"):
        if status in statuses:
            return "fail" if status in fail_on else status
    return "no_findings"


def audit(paths: Iterable[str | Path], config: AuditConfig | None = None, *, format: str | None = None,
          analyzer: TextAnalyzer | None = None, progress: Progress | None = None) -> Report:
    """Load every trace under ``paths``, build its edges, run the configured checks, and
    return the report. Unreadable traces are listed in ``input_errors``; the rest are audited."""
    config = config or AuditConfig()
    limits = Limits(max_file_bytes=config.limits.max_file_bytes, max_text_chars=config.limits.max_text_chars)
    loaded = load_paths(paths, format=format, limits=limits)
    analyzer = analyzer or TextAnalyzer(config.nlp.pipeline, disable=config.nlp.disable)
    context = CheckContext(analyzer=analyzer, config_dir=config.base_dir)
    checks = [make_check(c.name, context, c.options) for c in config.checks]
    fail_on = set(config.gate.fail_on)

    traces: list[TraceModel] = []
    edges: list[EdgeModel] = []
    findings: list[Finding] = []
    skipped_total: Counter[str] = Counter()
    source_messages = 0
    edge_sets = [build_edges(item.trace) for item in loaded.traces]
    for done, (item, edge_set) in enumerate(zip(loaded.traces, edge_sets, strict=True), start=1):
        if (done - 1) % PREPARE_CHUNK == 0:
            chunk = [e for es in edge_sets[done - 1:done - 1 + PREPARE_CHUNK] for e in es.edges]
            for check in checks:
                if isinstance(check, Prepares):
                    check.prepare(chunk)
        source_messages += edge_set.source_messages
        skipped_total.update(edge_set.skipped_by_reason())
        traces.append(TraceModel(
            trace_id=item.trace.trace_id, path=item.path, line=item.line, format=item.format,
            score=item.trace.metadata.score, source_messages=edge_set.source_messages,
            edges=len(edge_set.edges),
            skipped=[SkippedModel(event_id=s.event_id, sender=s.sender, reason=s.reason) for s in edge_set.skipped],
        ))
        for edge in edge_set.edges:
            edge_findings = [f for check in checks for f in check(edge)]
            findings.extend(edge_findings)
            edges.append(EdgeModel(
                id=edge.id, trace_id=edge.trace_id, path=item.path, source=edge.source,
                destination=edge.destination, event_id=edge.message.id,
                status=_edge_status(edge_findings, fail_on),  # type: ignore[arg-type]
                counts=dict(Counter(f.verdict for f in edge_findings)),
            ))
        if progress is not None:
            progress(done, len(loaded.traces))

    errors = [_input_error(e) for e in loaded.errors]
    failing = [f for f in findings if f.status in fail_on]
    exit_code = EXIT_INPUT if errors else EXIT_FAILURES if failing else EXIT_OK
    summary = Summary(
        files=loaded.files, traces=len(loaded.traces), edges=len(edges), source_messages=source_messages,
        skipped_messages=dict(skipped_total), input_errors=len(errors),
        deterministic_by_status=dict(Counter(f.status for f in findings)),
        deterministic_by_verdict=dict(Counter(f.verdict for f in findings)),
        deterministic_by_check={name: dict(Counter(f.verdict for f in findings if f.check == name))
                                for name in dict.fromkeys(f.check for f in findings)},
        failed_edges=sum(1 for e in edges if e.status == "fail"), exit_code=exit_code,
    )
    return Report(
        tool_version=__version__, checks=[c.name for c in config.checks], nlp_pipeline=config.nlp.pipeline,
        summary=summary, traces=traces, edges=edges, input_errors=errors,
        deterministic=Section(ran=True, findings=[_finding_model(f) for f in findings]),
        semantic=Section(ran=False, note="no semantic graders are configured; needs_semantic findings are "
                                         "unmeasured"),
    )


def _input_error(error: TraceError) -> InputErrorModel:
    return InputErrorModel(path=error.path, line=error.line, where=error.where, kind=type(error).__name__,
                           reason=error.reason)
