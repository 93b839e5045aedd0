"""The runner: reads the traces lazily, in chunks, builds each trace's edges and hands them to
every pass in order. A new kind of pass is one module with a ``make(audit)`` factory and one
line in ``PASSES``; the order of ``PASSES`` is the order the passes see each edge."""

from __future__ import annotations

from collections.abc import Iterable, Iterator
from pathlib import Path

from ..checks import CheckContext
from ..config import AuditConfig
from ..edges import EdgeSet, build_edges
from ..errors import AuditFailure, TraceError
from ..nlp import TextAnalyzer
from ..sampling import Sampler, route_of
from ..trace import Limits, Loaded, LoadedTrace, iter_paths
from . import checks, graders, sufficiency
from ._base import Audit, Graded, Hooks, Numbered, Pass, PassFactory

#: Every kind of pass, in the order each edge meets them. Graders read the checks' findings.
PASSES: dict[str, PassFactory] = {
    "checks": checks.make,
    "graders": graders.make,
    "sufficiency": sufficiency.make,
}
#: Traces whose edges are prepared (batch-parsed) together.
PREPARE_CHUNK = 64


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


def _crash(item: LoadedTrace, doing: str, err: Exception) -> AuditFailure:
    text = str(err)
    text = text if len(text) <= 200 else text[:199] + "…"
    return AuditFailure(item.path, f"internal error while {doing} ({type(err).__name__}: {text}); "
                                   "the other traces were audited", line=item.line, where=f"trace {item.trace.trace_id}")


def _audit_trace(audit: Audit, passes: list[Pass], item: LoadedTrace, edge_set: EdgeSet) -> None:
    """Every pass over one trace. A trace whose passes raise is listed as an ``AuditFailure``
    and adds nothing to the report; the other traces go on (exit 4)."""
    findings, graded = len(audit.findings), len(audit.graded)
    try:
        for edge in edge_set.edges:
            found: list[Numbered] = []
            for p in passes:
                p.edge(item, edge, found)
            audit.graded.append(Graded.of_edge(item, edge, found))
        for p in passes:
            p.trace(item)
    except Exception as err:  # noqa: BLE001 - one trace never stops the run
        del audit.findings[findings:], audit.graded[graded:]
        for p in passes:
            p.rollback()
        audit.crashes.append(_crash(item, "running the checks", err))
        return
    for p in passes:
        p.commit()
    audit.traces.append((item, edge_set))


def _sampled_in(audit: Audit, item: LoadedTrace, edge_set: EdgeSet) -> bool:
    """Whether ``--sample`` keeps the trace (always, when the run is not sampled)."""
    return audit.sampler is None or audit.sampler.keep(
        item.trace.trace_id, (route_of(e.source, e.destination) for e in edge_set.edges))


def run(paths: Iterable[str | Path], config: AuditConfig, *, format: str | None = None,
        analyzer: TextAnalyzer | None = None, hooks: Hooks | None = None,
        loaded: Iterable[LoadedTrace] | None = None, defer_model_calls: bool = False) -> Audit:
    """Every pass over every trace under ``paths``; the state they leave, for the report.
    ``loaded``, when given, are traces already in memory, audited instead of reading ``paths``
    (which then only name where they came from). With ``defer_model_calls`` (a shard of a
    parallel run) the model passes leave their jobs and cases in the state instead of running them."""
    analyzer = analyzer or TextAnalyzer(config.nlp.pipeline, disable=config.nlp.disable)
    context = CheckContext(analyzer=analyzer, config_dir=config.base_dir, project_dir=config.project_dir)
    audit = Audit(config, context, hooks or Hooks(), defer_model_calls=defer_model_calls)
    audit.sampler = Sampler(config.sampling) if config.sampling.active else None
    limits = Limits(max_file_bytes=config.limits.max_file_bytes, max_text_chars=config.limits.max_text_chars,
                    max_name_chars=config.limits.max_name_chars)
    audit.paths = [str(p) for p in paths]
    if loaded is None:
        items: Iterator[Loaded] = iter_paths(audit.paths, format=format, limits=limits, files=audit.files)
    else:
        audit.files = [Path(p) for p in audit.paths]
        items = iter(loaded)
    passes: list[Pass] = [p for make in PASSES.values() if (p := make(audit)) is not None]
    progress = audit.hooks.progress
    done = 0
    for chunk in _chunks(items, audit.errors, PREPARE_CHUNK):
        edge_sets: list[EdgeSet | None] = []
        for item in chunk:
            edge_set: EdgeSet | None = None
            try:
                edge_set = build_edges(item.trace, config.evidence.capture)
            except Exception as err:  # noqa: BLE001 - one trace never stops the run
                audit.crashes.append(_crash(item, "building its edges", err))
            edge_sets.append(edge_set if edge_set is not None and _sampled_in(audit, item, edge_set) else None)
        for p in passes:
            p.prepare([e for es in edge_sets if es is not None for e in es.edges])
        for item, edge_set in zip(chunk, edge_sets, strict=True):
            done += 1
            if edge_set is not None:
                _audit_trace(audit, passes, item, edge_set)
            if progress is not None:
                progress(done, None)
    if progress is not None:
        progress(done, done)
    for p in passes:
        p.finish()
    runner = audit.llm_used
    if runner is not None and runner.cassettes is not None and audit.hooks.cassettes_used is not None:
        audit.hooks.cassettes_used.update(str(p) for p in runner.cassettes.used)
    return audit
