"""Scale-out: the trace files split into contiguous shards, each audited in a worker (a local
process, or a Ray task), the shards' results joined in file order, then the model passes run once
in the parent, over every shard's grader jobs and sufficiency cases, within one budget.

So the report is the one a single process writes, byte for byte: every finding id is per edge,
the shards are joined in the order a single process reads the files, the grader jobs keep that
order, and the sufficiency selection is by hash (``sample:N``) or by edge id, not by position.
What cannot be split is refused: ``sampling.min_per_route`` counts traces in input order across
files. A file is never split, so one huge file is one worker's work.
"""

from __future__ import annotations

import glob
from collections.abc import Callable, Iterable, Sequence
from concurrent.futures import ProcessPoolExecutor
from dataclasses import dataclass
from multiprocessing import get_context
from pathlib import Path
from typing import Literal

from ..checks import CheckContext
from ..config import AuditConfig
from ..edges import EdgeSet
from ..errors import AuditFailure, TraceError, UsageError
from ..graders import Job, grader_specs
from ..nlp import TextAnalyzer
from ..passes import Audit, Graded, Hooks, Numbered, Progress, check_selected, grade, run, to_report
from ..report import Report
from ..sampling import Sampler, SampleStats
from ..sufficiency import Case, make_selector
from ..trace import LoadedTrace, find_trace_files

Executor = Literal["process", "ray"]
#: Shards per worker: enough that a slow shard does not leave the other workers idle.
SHARDS_PER_WORKER = 4
_GLOB = frozenset("*?[")


def expand_globs(paths: Iterable[str | Path]) -> list[str]:
    """Paths with glob patterns (``traces/**/*.jsonl``) expanded, sorted; a pattern that matches
    nothing is a usage error. Existing paths are kept as they are."""
    out: list[str] = []
    for raw in paths:
        text = str(raw)
        if Path(text).exists() or not _GLOB & set(text):
            out.append(text)
            continue
        matches = sorted(glob.glob(text, recursive=True))
        if not matches:
            raise UsageError(f"{text}: no file matches the pattern")
        out.extend(matches)
    return out


#: An input error as plain values: the exception classes do not survive pickling.
ErrorRow = tuple[type[TraceError] | type[AuditFailure], str, str, int | None, str | None]


def _row(e: TraceError | AuditFailure) -> ErrorRow:
    return type(e), e.path, e.reason, e.line, e.where


@dataclass
class Shard:
    """What a worker sends back: its part of the run's state, and the model work it left."""

    files: list[Path]
    errors: list[ErrorRow]
    crashes: list[ErrorRow]
    traces: list[tuple[LoadedTrace, EdgeSet]]
    graded: list[Graded]
    findings: list[Numbered]
    jobs: list[tuple[int, Job, str | None]]
    cases: list[Case]
    sampled: SampleStats | None = None
    done: int = 0


_ANALYZERS: dict[tuple[str, tuple[str, ...]], TextAnalyzer] = {}


def audit_shard(files: Sequence[str], config: AuditConfig, format: str | None = None) -> Shard:
    """Audit some files in this process (a worker), leaving the model calls to the parent. The
    spaCy pipeline is loaded once per worker process."""
    key = (config.nlp.pipeline, tuple(config.nlp.disable))
    if key not in _ANALYZERS:
        _ANALYZERS[key] = TextAnalyzer(config.nlp.pipeline, disable=config.nlp.disable)
    audit = run(files, config, format=format, analyzer=_ANALYZERS[key], defer_model_calls=True)
    return Shard(audit.files, [_row(e) for e in audit.errors], [_row(e) for e in audit.crashes], audit.traces,
                 audit.graded, audit.findings, audit.deferred_jobs, audit.deferred_cases,
                 audit.sampler.stats if audit.sampler else None, len(audit.traces))


def shard_files(files: Sequence[Path], shards: int) -> list[list[str]]:
    """``files`` cut into at most ``shards`` contiguous runs of about equal bytes, in order."""
    sizes = [max(f.stat().st_size, 1) if f.is_file() else 1 for f in files]
    target = sum(sizes) / max(1, min(shards, len(files)))
    out: list[list[str]] = [[]]
    filled = 0.0
    for f, size in zip(files, sizes, strict=True):
        if out[-1] and filled + size / 2 > target * len(out) and len(out) < shards:
            out.append([])
        out[-1].append(str(f))
        filled += size
    return [s for s in out if s]


def _merge(audit: Audit, shards: Iterable[Shard]) -> list[tuple[int, Job, str | None]]:
    jobs: list[tuple[int, Job, str | None]] = []
    for s in shards:
        audit.files.extend(s.files)
        audit.errors.extend(cls(path, reason, line=line, where=where)  # type: ignore[misc]
                            for cls, path, reason, line, where in s.errors)
        audit.crashes.extend(AuditFailure(path, reason, line=line, where=where)
                             for _, path, reason, line, where in s.crashes)
        audit.traces.extend(s.traces)
        audit.graded.extend(s.graded)
        audit.findings.extend(s.findings)
        audit.deferred_cases.extend(s.cases)
        jobs.extend(s.jobs)
        if audit.sampler is not None and s.sampled is not None:
            stats = audit.sampler.stats
            stats.audited += s.sampled.audited
            stats.skipped += s.sampled.skipped
            stats.by_minimum += s.sampled.by_minimum
            stats.route_traces.update(s.sampled.route_traces)
    return jobs


def _model_passes(audit: Audit, jobs: list[tuple[int, Job, str | None]]) -> None:
    """The graders, then sufficiency, as a single process runs them once every trace is read."""
    specs = grader_specs(audit.config)
    if specs:
        grade(audit, [(specs[n], job) for n, job, _ in jobs], [route for _, _, route in jobs])
    selector = make_selector(audit.config)
    if selector.active:
        for case in audit.deferred_cases:
            selector.offer(case)
        check_selected(audit, selector)
    runner = audit.llm_used
    if runner is not None and runner.cassettes is not None and audit.hooks.cassettes_used is not None:
        audit.hooks.cassettes_used.update(str(p) for p in runner.cassettes.used)


def _local(shards: list[list[str]], config: AuditConfig, format: str | None, workers: int,
           done: Callable[[Shard], None]) -> list[Shard]:
    # spawn, not fork: the parent may hold threads (a progress bar) that a fork would copy mid-step.
    with ProcessPoolExecutor(max_workers=workers, mp_context=get_context("spawn")) as pool:
        futures = [pool.submit(audit_shard, s, config, format) for s in shards]
        results = []
        for future in futures:
            results.append(future.result())
            done(results[-1])
        return results


def audit_parallel(paths: Iterable[str | Path], config: AuditConfig, *, workers: int = 2,
                   executor: Executor = "process", format: str | None = None, analyzer: TextAnalyzer | None = None,
                   progress: Progress | None = None, semantic_progress: Progress | None = None,
                   sufficiency_estimate: Callable[[int, int], None] | None = None,
                   cassettes_used: set[str] | None = None, ray_address: str | None = None) -> Report:
    """``audit`` over ``workers`` processes, or over a Ray cluster: the same report."""
    if config.sampling.min_per_route:
        raise UsageError("--min-per-route counts traces in input order across files: run it with --workers 1")
    if workers < 1:
        raise UsageError(f"--workers {workers}: give at least 1")
    given = expand_globs(paths)
    files = find_trace_files(given)
    hooks = Hooks(progress, semantic_progress, sufficiency_estimate, cassettes_used)
    context = CheckContext(analyzer=analyzer or TextAnalyzer(config.nlp.pipeline, disable=config.nlp.disable),
                           config_dir=config.base_dir, project_dir=config.project_dir)
    audit = Audit(config, context, hooks, paths=given)
    audit.sampler = Sampler(config.sampling) if config.sampling.active else None
    traces_done = 0

    def done(shard: Shard) -> None:
        nonlocal traces_done
        traces_done += shard.done + len(shard.crashes)
        if progress is not None:
            progress(traces_done, None)

    shards = shard_files(files, workers * SHARDS_PER_WORKER)
    if executor == "ray":
        from ._ray import audit_on_ray

        results = audit_on_ray(audit_shard, shards, config, format, done, address=ray_address, num_cpus=workers)
    else:
        results = _local(shards, config, format, workers, done)
    jobs = _merge(audit, results)
    if progress is not None:
        progress(traces_done, traces_done)
    _model_passes(audit, jobs)
    return to_report(audit)
