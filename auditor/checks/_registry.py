"""The check registry. A check is registered under a versioned name (``edge-audit.constraints.v1``)
as a factory that takes the shared context and its options and returns a pure ``Edge -> findings``."""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Protocol, runtime_checkable

from ..edges import Edge
from ..errors import ConfigError
from ..nlp import TextAnalyzer
from ..trace import Trace
from ._finding import Finding

CheckFn = Callable[[Edge], list[Finding]]


@runtime_checkable
class Prepares(Protocol):
    """Optional: a check that can do its expensive work for many edges at once (batched
    parsing). ``audit`` calls ``prepare`` with a chunk of edges before checking them one by
    one; the findings must not depend on whether it was called."""

    def prepare(self, edges: Sequence[Edge]) -> None: ...


@dataclass(frozen=True)
class Unit:
    """A graded unit that is not a message edge: one handoff attempt, identified by the
    application's own ids. The report lists it with the edges (kind ``handoff``)."""

    id: str
    source: str
    destination: str
    event_id: str


@runtime_checkable
class ChecksTraces(Protocol):
    """Optional: a check that also grades whole traces (handoff records joined by their ids),
    beside or instead of single edges."""

    def check_trace(self, trace: Trace) -> list[tuple[Unit, list[Finding]]]: ...


@dataclass(frozen=True)
class CheckContext:
    """What every check may share: the NLP analyzer with its per-run parse cache, and the
    folder of the config file, against which relative paths in check options resolve."""

    analyzer: TextAnalyzer
    config_dir: Path | None = None
    #: The project root (the folder holding ``config/edge-audit.yaml``), for defaults such as
    #: ``config/contracts``; None when the run has no project (built-in defaults).
    project_dir: Path | None = None


CheckFactory = Callable[..., CheckFn]
_CHECKS: dict[str, CheckFactory] = {}


def register_check(name: str) -> Callable[[CheckFactory], CheckFactory]:
    def decorate(factory: CheckFactory) -> CheckFactory:
        _CHECKS[name] = factory
        return factory

    return decorate


def registered_checks() -> list[str]:
    return sorted(_CHECKS)


def make_check(name: str, context: CheckContext, options: Mapping[str, Any]) -> CheckFn:
    try:
        factory = _CHECKS[name]
    except KeyError:
        raise ConfigError(f"unknown check {name!r}; registered: {', '.join(registered_checks())}") from None
    try:
        return factory(context, **dict(options))
    except TypeError as err:
        raise ConfigError(f"check {name!r}: bad options: {err}") from None
