"""What counts as a hard constraint in a sentence the source was told (``edge-audit.constraints.v1``).

A directive at the check's strength whose cue is explicit, or a bare imperative that restricts
the task rather than stating it; and the cheap prefilter that decides which sentences are worth
parsing as imperatives at all.
"""

from __future__ import annotations

import re

from ..nlp import Directive, Strength

_RESTRICTION = re.compile(r"\b(?:only|not|never|no|before|after|until|first|at least|at most|under|over|within|"
                         r"exactly|without|instead of|rather than|unless|except)\b|n't\b")
_PARAMETER = re.compile(r"\b(?:on|by|at|to|before|after|until|within|under|over|of)\s+[$\u20ac\u00a3]?\d")
_MEANS_VERBS = frozenset({"use", "keep", "stay", "set", "pin", "limit", "cap", "restrict", "exclude", "avoid", "hold",
                          "leave", "route", "send", "target"})


#: Verbs whose imperative is itself a restriction, whatever its object.
_RESTRICTING_VERBS = frozenset({"exclude", "avoid", "restrict", "limit", "cap", "pin", "omit", "redact", "withhold"})
_RESTRICTING_LEAD = re.compile(rf"^\s*(?:please\s+)?(?:{'|'.join(sorted(_RESTRICTING_VERBS))})\b")
_KEEP_OUT = re.compile(r"^\s*(?:please\s+)?keep\b.{1,60}?\b(?:out of|away from|off|private|confidential|secret|"
                       r"internal|unchanged|as is)\b")


def is_constraint(d: Directive, min_strength: Strength, sentence: str) -> bool:
    """A directive at the check's strength that orders something specific. A bare imperative
    is the task itself ("Implement retries in X") unless it restricts how: a negation, "only",
    a bound or an order in time, a number, or a verb that chooses the means ("use", "keep", "set")."""
    if d.epistemic or d.strength < min_strength:
        return False
    if d.has_explicit_cue:
        return True
    scope = sentence[d.scope[0]:d.scope[1]].lower()
    nouns = sum(1 for k in d.keys if k.kind in ("noun", "name", "code"))
    restricted = _RESTRICTION.search(scope) is not None
    if any(k.strong for k in d.keys):
        return d.action in _MEANS_VERBS or restricted or _PARAMETER.search(scope) is not None
    if d.action in _RESTRICTING_VERBS or _KEEP_OUT.search(scope):
        return nouns >= 1  # "Exclude users under 16", "Keep speaker names out of the subtitles"
    return restricted and nouns >= 2


_IMPERATIVE_LEAD = ("please ", "also ", "then ", "first ", "just ", "and ", "finally ")


_NOT_VERBS = frozenset({"the", "a", "an", "i", "we", "you", "it", "this", "that", "they", "he", "she", "there",
                        "here", "our", "my", "your", "if", "when", "for", "is", "are", "was", "were", "let"})


_DIGIT = re.compile(r"\d")


def looks_imperative(masked: str) -> bool:
    """A cheap prefilter: the sentence, or a clause after a semicolon, colon or dash, opens with
    a word that may be a bare verb (the parse decides), and the sentence has what an imperative
    constraint needs (``is_constraint``): a restriction, a number, an identifier, or a verb
    that restricts by itself."""
    low = masked.lower()
    if not (_RESTRICTION.search(low) or _DIGIT.search(low) or "Xx" in masked or _RESTRICTING_LEAD.match(low)
            or _KEEP_OUT.search(low)):
        return False
    for piece in re.split(r"[;:\u2014\u2013]|\s-\s", low):
        low = piece.lstrip()
        for lead in _IMPERATIVE_LEAD:
            if low.startswith(lead):
                low = low[len(lead):]
        word = re.sub(r"^[^a-z]+|[^a-z]+$", "", low.split(" ", 1)[0])
        if word.isalpha() and word not in _NOT_VERBS:
            return True
    return False
