"""The public Python API: ``audit(paths, config) -> Report``. The CLI is a thin layer over it;
the passes and their runner are ``auditor.passes``."""

from __future__ import annotations

from collections.abc import Callable, Iterable
from pathlib import Path

from .config import AuditConfig, load_config
from .nlp import TextAnalyzer
from .passes import (
    EXIT_FAILURES,
    EXIT_INPUT,
    EXIT_OK,
    EXIT_RUNTIME,
    EXIT_USAGE,
    Hooks,
    Progress,
    run,
    to_report,
)
from .report import Report
from .trace import LoadedTrace, Trace

__all__ = ["EXIT_FAILURES", "EXIT_INPUT", "EXIT_OK", "EXIT_RUNTIME", "EXIT_USAGE", "audit", "audit_traces"]


def audit(paths: Iterable[str | Path], config: AuditConfig | None = None, *, format: str | None = None,
          analyzer: TextAnalyzer | None = None, progress: Progress | None = None,
          semantic_progress: Progress | None = None, cassettes_used: set[str] | None = None,
          sufficiency_estimate: Callable[[int, int], None] | None = None) -> Report:
    """Load every trace under ``paths``, build its edges, run the configured checks, then the
    semantic graders on what the checks left undecided, and return the report. Unreadable
    traces are listed in ``input_errors``; the rest are audited. ``cassettes_used``, when
    given, receives the path of every cassette the run read or wrote. With sufficiency
    selected, ``sufficiency_estimate(calls, tokens)`` hears the cost estimate before any call."""
    hooks = Hooks(progress, semantic_progress, sufficiency_estimate, cassettes_used)
    return to_report(run(paths, config or load_config(None), format=format, analyzer=analyzer, hooks=hooks))


def audit_traces(traces: Iterable[Trace], config: AuditConfig | None = None, *, origin: str = "<memory>",
                 analyzer: TextAnalyzer | None = None) -> Report:
    """``audit`` of traces held in memory (a golden case's inline trace, a pipeline's replay):
    ``origin`` stands for their path in the report. Each trace needs its own ``trace_id``: an
    analyzer shared across calls caches parses by ``<trace>/<event>/<field>``."""
    loaded = [LoadedTrace(trace, origin, None, "native") for trace in traces]
    return to_report(run([origin], config or load_config(None), analyzer=analyzer, loaded=loaded))
