"""Grading one answer of a golden case: banned-claim containment and required behaviours.

An answer is one or more texts (messages), each with an id. Forms and phrases match as whole
words, case and runs of whitespace folded, so "Refund  was\nissued" meets "refund was issued".
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass

from ._model import AsksQuestion, Behaviour, GoldenCase, Mentions, StatesFact
from ._report import BehaviourResult, ClaimHit, ContainmentResult
from ._stance import StanceReader


@dataclass(frozen=True)
class AnswerText:
    """One text of an answer: a message of the trace (its event id), or a replayed model answer."""

    id: str
    text: str


def _pattern(phrase: str) -> re.Pattern[str]:
    words = phrase.split()
    body = r"\s+".join(re.escape(w) for w in words)
    return re.compile((r"\b" if words[0][0].isalnum() else "") + body + (r"\b" if words[-1][-1].isalnum() else ""),
                      re.IGNORECASE)


def _matches(phrase: str, text: str) -> list[tuple[int, int]]:
    return [(m.start(), m.end()) for m in _pattern(phrase).finditer(text)] if phrase.split() else []


def containment(case: GoldenCase, answer: Sequence[AnswerText], reader: StanceReader) -> ContainmentResult:
    """Every occurrence of every banned form, with its stance; the answer passes when none is asserted."""
    hits: list[ClaimHit] = []
    for text in answer:
        for claim in case.banned_claims:
            seen: set[tuple[int, int]] = set()
            for form in claim.forms:
                for start, end in _matches(form, text.text):
                    if any(s < end and start < e for s, e in seen):
                        continue  # a longer form already covers this place
                    seen.add((start, end))
                    stance = reader.stance(text.text, start, end)
                    hits.append(ClaimHit(claim=claim.id, form=form, text_id=text.id, start=start, end=end,
                                         quote=text.text[start:end], stance=stance.stance, cue=stance.cue))
    hits.sort(key=lambda h: (h.text_id, h.start, h.claim))
    asserted = sorted({h.claim for h in hits if h.stance == "asserted"})
    return ContainmentResult(passed=not asserted, asserted=asserted, hits=hits)


def _behaviour(case: GoldenCase, b: Behaviour, answer: Sequence[AnswerText], reader: StanceReader) -> BehaviourResult:
    if isinstance(b, Mentions):
        for text in answer:
            for phrase in b.any:
                found = _matches(phrase, text.text)
                if found:
                    start, end = found[0]
                    return BehaviourResult(id=b.id, kind=b.kind, passed=True, text_id=text.id,
                                           evidence=text.text[start:end])
        return BehaviourResult(id=b.id, kind=b.kind, passed=False, evidence=None,
                               reason=f"none of {b.any} occurs in the answer")
    if isinstance(b, StatesFact):
        facts = b.facts or case.allowed_facts
        for text in answer:
            for fact in facts:
                for start, end in _matches(fact, text.text):
                    if reader.stance(text.text, start, end).stance == "asserted":
                        return BehaviourResult(id=b.id, kind=b.kind, passed=True, text_id=text.id,
                                               evidence=text.text[start:end])
        return BehaviourResult(id=b.id, kind=b.kind, passed=False, evidence=None,
                               reason=f"no allowed fact is stated: {facts}")
    assert isinstance(b, AsksQuestion)
    for text in answer:
        asked = next((s.strip() for s in reader.sentences(text.text) if s.strip().endswith("?")), None)
        if asked:
            return BehaviourResult(id=b.id, kind=b.kind, passed=True, text_id=text.id, evidence=asked)
    return BehaviourResult(id=b.id, kind=b.kind, passed=False, evidence=None, reason="the answer asks no question")


def behaviours(case: GoldenCase, answer: Sequence[AnswerText], reader: StanceReader) -> list[BehaviourResult]:
    return [_behaviour(case, b, answer, reader) for b in case.required_behaviours]
