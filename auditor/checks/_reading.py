"""What reading a carrier gives: a ``Reading`` of one constraint against the handoff, and the
``Unit`` of handoff text it is read in."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Literal

from ..nlp import Directive, Key

Verdict = Literal["kept", "fulfilled", "softened", "dropped", "inverted", "needs_semantic"]


@dataclass(frozen=True)
class Reading:
    verdict: Verdict
    why: str
    cued: bool = False
    """The clause holds a cue, an imperative or a negation: it states a rule, not a fact."""
    units: tuple[int, ...] = ()
    """Which of the units read (by position) the verdict rests on."""
    lifted: bool = False
    """An inversion that lifts the rule (a permission, a waiver, a gate skipped), not an opposite
    order: the permission itself says the rule no longer binds."""
    conflict: bool = False
    """needs_semantic because the clause contradicts itself or the constraint in a way the pass cannot
    resolve (a polarity about another action), not merely for lack of information."""


@dataclass(frozen=True)
class Unit:
    """One aligned stretch of the handoff: its text, its clauses (offsets into it), the
    constraint's keys it carries, and its parsed directives with their cue offsets."""

    words: str
    spans: Sequence[tuple[int, int]]
    hit: tuple[Key, ...]
    parsed: Sequence[tuple[int, Directive]]
