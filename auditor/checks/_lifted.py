"""A rule lifted in a sentence that names it without carrying it: "Captions are optional this
time" for "Captions are mandatory for every video", "the Lufthansa option (4h10m layover) is fine"
for "I must not have a layover over 3 hours", "no need to loop in a lead" for "credits above $500
require approval from a billing lead".

Such a sentence shares the rule's specific keys (a name, an identifier, a noun it governs) but
too few of them to carry it, so alignment leaves it to the grader. An explicit permission of a
prohibition, or an explicit waiver of an obligation (or a permission of what a restrictive
obligation leaves out), is an inversion whatever else the sentence says. Only explicit phrases
count: a bare modal ("can", "may") permits too many things to be sure of, and a negation just
before the phrase ("no other egress is allowed") turns it back into a rule.
"""

from __future__ import annotations

import re

from ..nlp import CUE_PATTERN, NEGATION_PATTERN, Directive, text_forms
from ._gates import approval_restated, approver
from ._permissions import PERMISSION, WAIVERS, ok_phrases

_MODAL = frozenset({"may", "can", "could", "might"})
_CODE = re.compile(r"`[^`\n]*`")
_BOUNDARY = re.compile(r"[,;:!?\u2014\u2013]|\.\s|\s-\s")
_BEFORE = 25  # characters before the phrase in which a negation turns it back into a rule


def lifted(c: Directive, sentence: str, upstream: str = "") -> str | None:
    """The phrase of ``sentence`` that permits what ``c`` forbids or waives what it orders, if any.
    A rule gated on someone's approval ("no waiver above €500 in writing without GM approval") is
    not lifted by a permission that names them ("GM is fine with it"): that may be the approval; nor
    by one beside the gate restated ("up to one month's fee is fine; anything beyond needs the
    manager's OK")."""
    low = sentence.lower()
    gatekeeper = approver(upstream.lower())
    if gatekeeper is not None and re.search(rf"\b{re.escape(gatekeeper)}\b", low):
        return None
    found = [m for m in CUE_PATTERN.finditer(low) if m.group(0) in PERMISSION | WAIVERS]
    found += ok_phrases(low)
    for m in sorted(found, key=lambda m: m.start()):
        phrase = m.group(0)
        if NEGATION_PATTERN.search(low[max(0, m.start() - _BEFORE):m.start()]) or phrase in _MODAL:
            continue
        if not _names_rule(c, sentence, m.start(), m.end(), after_only="need" in phrase):
            continue  # "... after the 30 minutes — no need to wait for a sign-off": it waives something else
        permits = phrase not in WAIVERS
        if c.polarity == "prohibition" and permits and not approval_restated(upstream.lower(), low):
            return phrase
        if c.polarity == "obligation" and (not permits or c.restrictive):
            return phrase
    return None


def _names_rule(c: Directive, sentence: str, start: int, end: int, after_only: bool = False) -> bool:
    """The clause of the phrase (between commas, semicolons, colons and dashes) names one of the
    rule's things (a noun, a name, a number, an identifier; a verb's synonym is not enough: "no
    need to wait for a sign-off" does not lift "hold it for 30 minutes"): the permission or
    waiver is about the rule, not about another thing the sentence mentions. What a "need" phrase
    waives comes after it: "the lender doesn't need the gory detail" waives the detail, not what
    the lender must receive (``after_only``)."""
    plain = _CODE.sub(lambda m: "x" * len(m.group(0)), sentence)  # no boundary inside `# type: ignore`
    left = end if after_only else max((m.end() for m in _BOUNDARY.finditer(plain, 0, start)), default=0)
    right = _BOUNDARY.search(plain, end)
    clause = text_forms(sentence[left:right.start() if right else len(sentence)])
    return any(clause.has(k) for k in c.keys if k.kind not in ("verb", "action"))
