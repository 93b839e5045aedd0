"""What every pass shares: the run's state (``Audit``) and the ``Pass`` protocol.

The runner reads the traces in chunks and, for each pass in order, calls ``prepare`` with a
chunk's edges, ``edge`` with each edge and the findings the passes before it found on that edge,
``trace`` once a trace's edges are done, then ``commit`` (or ``rollback`` when a hook raised on
that trace, which is then reported as an internal error), and ``finish`` after the last trace.
A pass adds what it finds to the ``Audit``; a later pass may read what an earlier one added.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Protocol

from ..checks import CheckContext, Finding, Unit
from ..config import AuditConfig
from ..edges import Edge, EdgeSet
from ..errors import AuditFailure, TraceError
from ..graders import Job, SemanticFinding, SemanticRunner, make_runner
from ..report import EdgeKind
from ..sampling import Sampler
from ..sufficiency import Case
from ..sufficiency import Result as SufficiencyResult
from ..trace import LoadedTrace

#: Called with (done, total); total is None while it is not known yet (traces are read lazily).
Progress = Callable[[int, int | None], None]
#: A finding with its report id (``<edge or unit id>#<n>``).
Numbered = tuple[str, Finding]


@dataclass(frozen=True)
class Hooks:
    """Callbacks a caller may give: progress of the traces and of the model calls, the cost
    estimate heard before any sufficiency call, and a set receiving every cassette used."""

    progress: Progress | None = None
    semantic_progress: Progress | None = None
    sufficiency_estimate: Callable[[int, int], None] | None = None
    cassettes_used: set[str] | None = None


@dataclass(frozen=True)
class Graded:
    """One row of the report's edges: a message edge, or a unit that is not one (a handoff
    attempt, kind ``handoff``), with the findings on it."""

    item: LoadedTrace
    id: str
    kind: EdgeKind
    source: str
    destination: str
    event_id: str
    findings: list[Numbered]

    @classmethod
    def of_edge(cls, item: LoadedTrace, edge: Edge, findings: list[Numbered]) -> Graded:
        return cls(item, edge.id, "message", edge.source, edge.destination, edge.message.id, findings)

    @classmethod
    def of_unit(cls, item: LoadedTrace, unit: Unit, findings: list[Numbered]) -> Graded:
        return cls(item, unit.id, unit.kind, unit.source, unit.destination, unit.event_id, findings)


@dataclass
class Audit:
    """The state of one run: its settings, and what the passes found so far."""

    config: AuditConfig
    context: CheckContext
    hooks: Hooks = field(default_factory=Hooks)
    paths: list[str] = field(default_factory=list)
    files: list[Path] = field(default_factory=list)
    errors: list[TraceError] = field(default_factory=list)
    #: Traces whose passes crashed (a bug): listed with the input errors, exit 4.
    crashes: list[AuditFailure] = field(default_factory=list)
    traces: list[tuple[LoadedTrace, EdgeSet]] = field(default_factory=list)
    graded: list[Graded] = field(default_factory=list)
    findings: list[Numbered] = field(default_factory=list)
    semantic: list[SemanticFinding] = field(default_factory=list)
    sufficiency: list[SufficiencyResult] = field(default_factory=list)
    sufficiency_estimate: tuple[int, int] | None = None
    #: Set when ``sampling.rate`` is under 1: which traces were audited.
    sampler: Sampler | None = None
    #: A shard of a parallel run: the model passes leave their work here (below) for the
    #: parent, which runs it once for every shard, within one budget.
    defer_model_calls: bool = False
    #: Grader jobs left for the parent: (index of the grader in ``grader_specs``, job, route).
    deferred_jobs: list[tuple[int, Job, str | None]] = field(default_factory=list)
    #: Sufficiency cases this shard's selector kept, for the parent's selector.
    deferred_cases: list[Case] = field(default_factory=list)
    _llm: SemanticRunner | None = None

    def llm(self) -> SemanticRunner:
        """The one model runner (modes, cache, cassettes, budget) the semantic passes share."""
        if self._llm is None:
            self._llm = make_runner(self.config)
        return self._llm

    @property
    def llm_used(self) -> SemanticRunner | None:
        """The model runner, if a pass asked for one."""
        return self._llm


class Pass(Protocol):
    """One kind of pass. Every hook may do nothing."""

    def prepare(self, edges: Sequence[Edge]) -> None: ...

    def edge(self, item: LoadedTrace, edge: Edge, found: list[Numbered]) -> None: ...

    def trace(self, item: LoadedTrace) -> None: ...

    def commit(self) -> None: ...

    def rollback(self) -> None: ...

    def finish(self) -> None: ...


class BasePass:
    """A pass that does nothing: subclasses override the hooks they need."""

    def prepare(self, edges: Sequence[Edge]) -> None:
        return None

    def edge(self, item: LoadedTrace, edge: Edge, found: list[Numbered]) -> None:
        return None

    def trace(self, item: LoadedTrace) -> None:
        return None

    def commit(self) -> None:
        """The trace's hooks all succeeded: keep what this pass added for it."""
        return None

    def rollback(self) -> None:
        """A pass raised on the trace: drop what this pass added for it since the last commit."""
        return None

    def finish(self) -> None:
        return None


#: Makes the pass for a run, or None when the config does not ask for it.
PassFactory = Callable[[Audit], Pass | None]
