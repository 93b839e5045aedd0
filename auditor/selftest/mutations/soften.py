"""soften: weaken a kept hard constraint in every sentence of the handoff that carries it:
each modal cue is weakened ("must not" -> "should try not to"; "Never" -> "Try not to"), a bare
imperative gets a hedge ("Where possible, hold ..."), and a carrier with neither gets a trailing
condition the upstream lacked (", if possible")."""

from __future__ import annotations

import re

from .._cues import SOFTEN, imperative_opening, rewrite_all
from .._splice import Splice
from ._target import CONSTRAINTS, Plan, Target, finding_key, pick

NAME = "soften"


def plan(target: Target) -> Plan | str:
    kept = target.kept_constraints()
    if not kept:
        return "no kept constraint carried by this message"
    finding = pick(target, kept, finding_key)
    splices: list[Splice] = []
    words: list[str] = []
    for carrier in dict.fromkeys(finding.handoff):
        edits = rewrite_all(carrier.text, SOFTEN)
        verb = imperative_opening(target.analyzer, carrier.text)
        if verb is not None and not any(start <= verb < end for start, end, _ in edits):
            word = carrier.text[verb:].split(maxsplit=1)[0]
            edits.append((verb, verb + len(word), ("where possible, " if verb else "Where possible, ") + word[0].lower() + word[1:]))
        if not edits:
            body = carrier.text.rstrip()
            end_mark = re.search(r"[.!?:;]*$", body)
            at = end_mark.start() if end_mark else len(body)
            edits.append((at, at, ", if possible"))
        for start, end, text in sorted(edits):
            splices.append(Splice(carrier.field, carrier.start + start, carrier.start + end, text))
            words.append(f"{carrier.text[start:end]!r} -> {text!r}")
    return Plan(tuple(splices), f"{', '.join(words)} in {finding.handoff[0].field}", CONSTRAINTS, finding.upstream)
