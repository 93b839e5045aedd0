"""Alignment of a constraint with a handoff for ``edge-audit.constraints.v1``: the stretches of
a handoff a constraint may be restated in, and which of them hold its keys."""

from __future__ import annotations

import re
from dataclasses import dataclass

from ..edges import KeyedText, Quote
from ..nlp import HEDGE_PATTERN, SPELLED_NUMBER, Forms, Key, Sentence, coverage

#: Least weighted share of a constraint's keys that a carrier clause must hold.
ALIGN = 0.4
#: Least share of a sentence's content words a handoff must share for the sentence to be parsed,
#: when the receiver saw it (a cheap necessary condition of alignment).
MAY_ALIGN = 0.25
#: Least share of a bounded constraint's other keys a sentence must carry to restate it without its bound.
LOOSE = 0.6


@dataclass(frozen=True)
class AlignUnit:
    """A stretch of the handoff a constraint may be restated in: one sentence, two adjacent
    sentences (a restatement split in two), or a code block (config written out)."""

    text: KeyedText
    sentences: tuple[Sentence, ...]
    start: int
    end: int
    forms: Forms
    code: bool = False

    @property
    def words(self) -> str:
        return self.text.text[self.start:self.end]

    def quote(self) -> Quote:
        return Quote(self.text.event_id, self.text.field, self.start, self.end, self.words)


def may_align(sentence: frozenset[str], handoff: frozenset[str]) -> bool:
    """Whether a sentence could align with a handoff at all: it shares a number, or two content
    words making up a fair share (``MAY_ALIGN``) of its own (alignment needs ``ALIGN`` of its keys)."""
    stems = [f for f in sentence if f[0] not in "=#"]
    shared = [f for f in stems if f in handoff]
    return any(f[0] == "#" and f in handoff for f in sentence) or (
        len(shared) >= 2 and len(shared) >= MAY_ALIGN * len(stems))


def specific(keys: tuple[Key, ...]) -> bool:
    return any(k.strong for k in keys) or sum(k.weight for k in keys if k.kind in ("noun", "action")) >= 2


def aligned_units(keys: tuple[Key, ...], units: tuple[AlignUnit, ...]) -> list[tuple[AlignUnit, float, tuple[Key, ...]]]:
    """The units a constraint aligns with, best first: every sentence (or code block) holding at
    least ``ALIGN`` of its key weight, two keys or a strong one, and every number and identifier
    outside brackets; failing any, the best such pair of adjacent sentences. Aligned structured
    ``constraints`` items come first and alone."""
    structured = tuple(u for u in units if u.text.field.startswith("structured."))
    if structured and len(structured) < len(units):
        found = aligned_units(keys, structured)
        if found:
            return found
        units = tuple(u for u in units if u not in structured)
    exact = [k for k in keys if k.kind in ("number", "code") and not k.aside]
    scored = []
    for unit in units:
        share, hit = coverage(keys, unit.forms)
        if share >= ALIGN and (len(hit) >= 2 or any(k.strong for k in hit)) and all(k in hit for k in exact):
            scored.append((unit, share, hit))
    singles = [x for x in scored if len(x[0].sentences) <= 1]
    chosen = singles or ([max(scored, key=lambda x: x[1])] if scored else [])
    return sorted(chosen, key=lambda x: -x[1])


_BOUND = re.compile(r"\b(?:at least|at most|within|under|over|no more than|no less than|max(?:imum)?|min(?:imum)?|"
                    r"up to|less than|more than|fewer than|exceed|below|above|capped at|limit|before|after|until|"
                    r"no later than|no earlier than)\b")


def _bounded_after(low: str, numbers: list[Key], cue_at: int) -> bool:
    """A bound word shortly before one of the numbers, after the cue ("must not merge before a
    48-hour soak"; not "Any PO above £10,000 requires …")."""
    for key in numbers:
        at = low.find(key.text.lower(), cue_at)
        while at != -1:
            if _BOUND.search(low, max(cue_at, at - 25), at):
                return True
            at = low.find(key.text.lower(), at + 1)
    return False


#: A moment written out: a clock time, a weekday, a day and month, an ISO date.
_WHEN = re.compile(r"\b\d{1,2}:\d{2}\b|\b\d{1,2}\s?(?:am|pm)\b|\b(?:mon|tues|wednes|thurs|fri|satur|sun)day\b|"
                   r"\b(?:mon|tue|wed|thu|fri|sat|sun)\b|\b\d{1,2}(?:st|nd|rd|th)?\s+(?:jan|feb|mar|apr|may|jun|jul|aug|"
                   r"sep|oct|nov|dec)[a-z]*\b|\b(?:jan|feb|mar|apr|may|jun|jul|aug|sep|oct|nov|dec)[a-z]*\.?\s+\d{1,2}\b|"
                   r"\b\d{4}-\d{2}-\d{2}\b|\b(?:today|tomorrow|tonight|eod|cob|midnight|noon)\b", re.IGNORECASE)


#: An amount said loosely in place of a bound: "for a few days", "a day or two", "early November".
_VAGUE = re.compile(r"\b(?:a few|a couple|couple of|or two|or so|several|some ?time|early|late|(?:the )?end of|"
                    r"(?:the )?start of|(?:the )?beginning of|a bit|a little|a while|a handful)\b")
#: A number the sentence gives, in digits or words, hedged or not ("about 5 days", "five days or
#: so" for "at least 7 days" may move the bound).
_VALUE = re.compile(rf"(?<![\w.,])\d|\b(?:{SPELLED_NUMBER})\b")


def loosely_bounded(words: str, upstream: str) -> bool:
    """Whether a sentence puts a loose amount or a hedge where a bound stood, and no value of its
    own: only then does a restatement without the bound soften it. A number in the sentence may
    report a value or set another bound ("Deduct no more than £15.00 per week" for "capped at
    £12.60 a week"), and a loose word the rule's own sentence has too ("the late cutover") says
    nothing; those are for the grader."""
    low, up = words.lower(), upstream.lower()
    if _VALUE.search(_VAGUE.sub(" ", low)):  # "a day or two" is loose, "five days" is a value
        return False
    return any(m.group(0) not in up for pattern in (_VAGUE, HEDGE_PATTERN) for m in pattern.finditer(low))


def bound_lost(keys: tuple[Key, ...], units: tuple[AlignUnit, ...], sentence: str,
                whole: Forms, cue_at: int = 0) -> list[tuple[AlignUnit, tuple[Key, ...]]]:
    """Sentences that restate a bounded constraint without its bound: they carry at least
    ``LOOSE`` of its other keys (the action among them), while its number appears nowhere in
    the handoff ("keep the old cluster around for a few days" for "for at least 7 days"). A
    bound before the cue (at ``cue_at``) says when the rule applies ("Any PO above £10,000
    requires sign-off"): a handoff that applies it to its case without the threshold loses
    nothing of what is to be done, so that is not read here."""
    numbers = [k for k in keys if k.kind == "number" and not k.aside]
    if not numbers or not _bounded_after(sentence.lower(), numbers, cue_at) or any(whole.has(k) for k in numbers):
        return []
    rest = tuple(k for k in keys if k.kind != "number")
    actions = [k for k in rest if k.kind == "action"]
    out = []
    for unit in units:
        if unit.code or len(unit.sentences) != 1 or _WHEN.search(unit.words):
            continue  # "reply by 17:05", "live by 14 Nov": the bound may be restated as the moment it gives
        share, hit = coverage(rest, unit.forms)
        if share >= LOOSE and len(hit) >= 2 and all(a in hit for a in actions):
            out.append((unit, share, hit))
    return [(u, h) for u, _, h in sorted(out, key=lambda x: -x[1])]
