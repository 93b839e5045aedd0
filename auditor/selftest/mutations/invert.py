"""invert: turn a kept hard constraint into its opposite in every sentence of the handoff that
carries it: each modal cue is inverted ("must not X" -> "may X"; "Never X" -> "Feel free to X";
"must" -> "need not") and a bare imperative is negated ("Hold X" -> "Do not hold X")."""

from __future__ import annotations

from ...checks import Finding
from .._cues import INVERT, imperative_opening, rewrite_all
from .._splice import Splice
from ._target import CONSTRAINTS, Plan, Target, finding_key, pick

NAME = "invert"


def _edits(target: Target, finding: Finding) -> list[tuple[Splice, str]]:
    out = []
    for carrier in dict.fromkeys(finding.handoff):
        edits = rewrite_all(carrier.text, INVERT)
        verb = imperative_opening(target.analyzer, carrier.text)
        if verb is not None and not any(start <= verb < end for start, end, _ in edits):
            word = carrier.text[verb:].split(maxsplit=1)[0]
            edits.append((verb, verb + len(word), ("do not " if verb else "Do not ") + word[0].lower() + word[1:]))
        out += [(Splice(carrier.field, carrier.start + start, carrier.start + end, text),
                 f"{carrier.text[start:end]!r} -> {text!r}") for start, end, text in sorted(edits)]
    return out


def plan(target: Target) -> Plan | str:
    kept = target.kept_constraints()
    if not kept:
        return "no kept constraint carried by this message"
    invertible = [(f, edits) for f in kept if (edits := _edits(target, f))]
    if not invertible:
        return "no kept constraint's carrier has a modal cue or an imperative to invert"
    finding, edits = pick(target, invertible, lambda pair: finding_key(pair[0]))
    return Plan(tuple(s for s, _ in edits), f"{', '.join(w for _, w in edits)} in {finding.handoff[0].field}",
                CONSTRAINTS, finding.upstream)
