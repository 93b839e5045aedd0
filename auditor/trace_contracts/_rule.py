"""A compiled rule and its result."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

from ._facts import Facts
from ._outcome import Outcome


@dataclass(frozen=True)
class Rule:
    """One compiled, deterministic rule: ``id`` is stable (``tools.order.0``), ``intent`` is the
    line ``explain`` prints."""

    id: str
    intent: str
    evaluate: Callable[[Facts], Outcome]


@dataclass(frozen=True)
class RuleResult:
    rule: Rule
    outcome: Outcome
