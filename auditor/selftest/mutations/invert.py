"""invert: turn a kept hard constraint into its opposite in every sentence of the handoff that
carries it: each modal cue is inverted ("must not X" -> "may X"; "Never X" -> "Feel free to X";
"must" -> "need not") and a bare imperative is negated ("Hold X" -> "Do not hold X")."""

from __future__ import annotations

from ...edges import Quote
from .._cues import INVERT, after_please, imperative_opening, rewrite_all
from .._splice import Splice
from ._target import Edit, Plan, Target, carrier_plan

NAME = "invert"


def carrier_edits(target: Target, carrier: Quote) -> list[Edit]:
    edits = rewrite_all(carrier.text, INVERT)
    verb = imperative_opening(target.analyzer, carrier.text)
    if verb is not None and not any(start <= verb < end for start, end, _ in edits):
        word = carrier.text[verb:].split(maxsplit=1)[0]
        edits.append((verb, verb + len(word), ("do not " if after_please(carrier.text[:verb]) else "Do not ") + word[0].lower() + word[1:]))
    return [(Splice(carrier.field, carrier.start + start, carrier.start + end, text),
             f"{carrier.text[start:end]!r} -> {text!r}") for start, end, text in sorted(edits)]


def plan(target: Target) -> Plan | str:
    return carrier_plan(target, carrier_edits, "no kept constraint's carrier states it as a rule (a modal cue or "
                                               "an imperative): nothing to invert")
