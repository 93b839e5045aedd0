"""The check registry. A check is registered under a versioned name (``edge-audit.constraints.v1``)
with its options model, as a factory that takes the shared context and the validated options
and returns a pure ``Edge -> findings``. The options model is the one place of the options'
validation, defaults and JSON Schema."""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Literal, Protocol, runtime_checkable

from ..edges import Edge
from ..errors import ConfigError
from ..nlp import TextAnalyzer
from ..options import Options, OptionsT, validate_options
from ..plugins import load_plugins
from ..trace import Trace
from ._finding import Finding

CheckFn = Callable[[Edge], list[Finding]]


@runtime_checkable
class Prepares(Protocol):
    """Optional: a check that can do its expensive work for many edges at once (batched
    parsing). The runner calls ``prepare`` with a chunk of edges before checking them one by
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
    #: handoff: a handoff attempt (contracts); trace_rule: one rule of a trace contract on one trace.
    kind: Literal["handoff", "trace_rule"] = "handoff"


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

    def resolve(self, value: str | None, default: Path) -> Path:
        """An option's path: relative to the config file's folder; ``default`` when unset."""
        if value is None:
            return default
        path = Path(value)
        return path if path.is_absolute() or self.config_dir is None else self.config_dir / path


CheckFactory = Callable[[CheckContext, Any], CheckFn]


@dataclass(frozen=True)
class CheckEntry:
    factory: CheckFactory
    options: type[Options]


_CHECKS: dict[str, CheckEntry] = {}


def register_check(name: str, options: type[OptionsT]) -> Callable[
        [Callable[[CheckContext, OptionsT], CheckFn]], Callable[[CheckContext, OptionsT], CheckFn]]:
    """Register ``factory(context, options)`` under ``name``, its options validated by ``options``."""

    def decorate(factory: Callable[[CheckContext, OptionsT], CheckFn]) -> Callable[[CheckContext, OptionsT], CheckFn]:
        _CHECKS[name] = CheckEntry(factory, options)
        return factory

    return decorate


def registered_checks() -> list[str]:
    load_plugins("edge_audit.checks")
    return sorted(_CHECKS)


def _entry(name: str) -> CheckEntry:
    load_plugins("edge_audit.checks")
    try:
        return _CHECKS[name]
    except KeyError:
        raise ConfigError(f"unknown check {name!r}; registered: {', '.join(registered_checks())}") from None


def check_options(name: str) -> type[Options]:
    """The options model of the check ``name``."""
    return _entry(name).options


def make_check(name: str, context: CheckContext, options: Mapping[str, Any]) -> CheckFn:
    entry = _entry(name)
    return entry.factory(context, validate_options("check", name, entry.options, options))
