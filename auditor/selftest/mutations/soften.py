"""soften: weaken a kept hard constraint in every sentence of the handoff that carries it: each
modal cue is weakened ("must not" -> "should try not to"; "Never" -> "Try not to") and a bare
imperative gets a hedge ("Where possible, hold ..."). A carrier that states no rule (a statement
of fact the pass found to keep it) has nothing to soften."""

from __future__ import annotations

from ...edges import Quote
from .._cues import SOFTEN, after_please, imperative_opening, rewrite_all
from .._splice import Splice
from ._target import Edit, Plan, Target, carrier_plan

NAME = "soften"


def carrier_edits(target: Target, carrier: Quote) -> list[Edit]:
    edits = rewrite_all(carrier.text, SOFTEN)
    verb = imperative_opening(target.analyzer, carrier.text)
    if verb is not None and not any(start <= verb < end for start, end, _ in edits):
        word = carrier.text[verb:].split(maxsplit=1)[0]
        edits.append((verb, verb + len(word), ("where possible, " if after_please(carrier.text[:verb]) else "Where possible, ")
                      + word[0].lower() + word[1:]))
    return [(Splice(carrier.field, carrier.start + start, carrier.start + end, text),
             f"{carrier.text[start:end]!r} -> {text!r}") for start, end, text in sorted(edits)]


def plan(target: Target) -> Plan | str:
    return carrier_plan(target, carrier_edits, "no kept constraint's carrier states it as a rule (a modal cue or "
                                               "an imperative): nothing to soften")
