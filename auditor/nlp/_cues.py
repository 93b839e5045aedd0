"""Modal cues of one sentence: where they stand, and which are orders at all ("the terminal
cannot ...", "to ensure ...", "the max CPU was 93%" are not). A "no ..." subject turns the
permission after it into a prohibition, and cues a few words apart merge into one."""

from __future__ import annotations

import re
from dataclasses import dataclass

from ._lexicon import CUE_PATTERN, CUE_TABLE, NO_NOUN_PATTERN, Polarity, Strength

_MERGE_GAP = 14
#: A break between clauses strong enough that a cue before it does not reach past it.
STRONG_BREAK = re.compile(r"[;:]\s|\s[\u2014\u2013-]\s|,\s*(?:but|so)\s|\sbut\s")


@dataclass(frozen=True)
class Cue:
    """A modal cue of a sentence: its span, its words, and the strength and polarity it gives."""

    start: int
    end: int
    text: str
    strength: Strength
    polarity: Polarity


_CAPABILITY = frozenset({"cannot", "can't", "can not", "may not"})
_NEGATORS = frozenset({"not", "doesn't", "don't", "isn't", "aren't", "won't", "wasn't", "weren't"})
_PURPOSE = frozenset({"ensure", "make sure"})
_PERSONS = frozenset({"you"})
#: "I need a literature scan" is a request of the speaker's, not an order to pass on; so is "Need
#: a literature scan", its "I" dropped.
_WANTS = frozenset({"need", "needs", "need to", "needs to", "require", "requires"})
_FIRST_PERSON = frozenset({"i", "we", "i'd", "we'd", "i'll", "we'll"})


def _is_directive_cue(low: str, start: int, text: str) -> bool:
    """Drop cue words used descriptively: "the terminal cannot ..." or "there may not be ..."
    (a capability or a possibility, not an order), "to ensure ..." (a purpose clause) and
    "doesn't always ..." (a negated frequency)."""
    before = low[:start].split()
    previous = before[-1] if before else ""
    if text in _CAPABILITY:  # an order when addressed to "you", or a rule in the passive ("cannot be approved")
        after = low[start + len(text):].split()[:2]
        passive = len(after) == 2 and after[0] == "be" and (after[1].endswith(("ed", "en")) or after[1] in _PARTICIPLES)
        return not before or previous in _PERSONS or passive
    if text in _PURPOSE:
        return previous != "to"
    if text in _WANTS:  # "Need the May note by Friday" drops its "I" as chat does: the speaker's too
        return previous not in _FIRST_PERSON and not (not before and text in ("need", "need to"))
    if text in _SHORT_BOUNDS:  # "max 150 characters per caption", "42 characters max": not "the max CPU was 93%"
        return _BOUND_NUMBER_AFTER.match(low, start + len(text)) is not None \
            or (text in ("max", "maximum") and _BOUND_NUMBER_BEFORE.search(low, max(0, start - 40), start) is not None)
    if text in _HARD_BOUNDS:  # "a hard cap of 32 GPUs", "Hard cap: 32": not "not a hard cap", "we hit the hard limit"
        return _BOUND_NUMBER_AFTER.match(low, start + len(text)) is not None and _DENIED.search(
            low, max(0, start - 16), start) is None
    if text in ("is to", "are to"):  # "Refunds are to be sent ...", "Coder is to report ...": not "The plan is to ..."
        return previous not in _PLAN_NOUNS and _INFORMING.match(low, start + len(text)) is None
    if text in ("always", "never"):
        return previous not in _NEGATORS
    if text in _DO_NOT:  # "the hikes that do not meet ...": a description, not an order
        return previous not in _SUBJECTS and not (previous.endswith("s") and previous not in _PERSONS)
    return True


#: "min" after a number is minutes ("12 min"), so only "max" may follow its number.
_SHORT_BOUNDS = frozenset({"max", "maximum", "min", "minimum"})
_HARD_BOUNDS = frozenset({"hard cap", "hard limit"})
_BOUND_NUMBER_AFTER = re.compile(r"\.?\s*(?:of\s+|at\s+|:\s*)?[$\u20ac\u00a3~]?\d")
#: A number and at most one unit word (and a "per" phrase) just before "max": "42 characters max",
#: "8 max", "25,000 per night max".
_BOUND_NUMBER_BEFORE = re.compile(r"\d[\d,.]*\s*(?:[a-z%]+\s*)?(?:per\s+[a-z]+\s*)?$")
_DENIED = re.compile(r"\b(?:not|no|never|rather than|isn't|wasn't)\b(?:\s+a)?\s*$")
#: A statement of intent, not an order: "The plan is to ship Friday", "This is to confirm ...".
_PLAN_NOUNS = frozenset({"plan", "goal", "aim", "idea", "intent", "intention", "hope", "purpose", "point", "objective",
                         "this", "that", "what", "which", "thing", "option", "alternative", "fix", "answer", "step"})
_INFORMING = re.compile(r"\s+(?:confirm|say|let|inform|notify|remind|advise|acknowledge)\b")
_PARTICIPLES = frozenset({"done", "sent", "made", "shown", "given", "paid", "kept", "held", "sold", "run", "set", "put",
                          "shared", "used", "left", "told", "read", "built", "spent", "bought", "brought"})
_DO_NOT = frozenset({"do not", "don't", "did not", "didn't"})
_SUBJECTS = frozenset({"that", "which", "who", "they", "we", "it", "he", "she", "i", "those", "these", "people",
                       "users", "customers", "things", "ones"})


_REPORTED_AFTER_NO = re.compile(r"[^.;:!?]{0,80}?\b(?:(?:has|have|had)\b(?!\s+to\b)|was|were|did)\b")


def find_cues(low: str) -> list[Cue]:
    cues = [
        Cue(m.start(), m.end(), m.group(0), *CUE_TABLE[m.group(0)]) for m in CUE_PATTERN.finditer(low)
        if _is_directive_cue(low, m.start(), m.group(0))
    ]
    for no in NO_NOUN_PATTERN.finditer(low):
        if _REPORTED_AFTER_NO.match(low, no.end()):
            continue  # "None of the pods have restarted", "No secrets were found": a report, not a rule
        start = no.start("word")
        if not any(c.start <= start < c.end for c in cues):
            cues.append(Cue(start, no.end(), no.group("word"), Strength.ABSOLUTE, "prohibition"))
    cues.sort(key=lambda c: c.start)
    cues = _unpermitted(cues, low)
    merged: list[Cue] = []
    for cue in cues:
        if merged and cue.start - merged[-1].end <= _MERGE_GAP and not _has_word_between(low, merged[-1], cue):
            prev = merged[-1]
            merged[-1] = Cue(
                prev.start, cue.end, low[prev.start:cue.end], prev.strength,
                "prohibition" if "prohibition" in (prev.polarity, cue.polarity) else "obligation",
            )
        else:
            merged.append(cue)
    return merged


_NO_WORDS = frozenset({"no", "nothing", "none", "nobody", "no one"})
_MODAL_PERMISSIONS = frozenset({"may", "can", "could", "is allowed", "are allowed", "allowed to", "is permitted",
                                "are permitted", "permitted to"})
_PERMITTED_AFTER_NO = 60  # how far after "no ..." its "may" can stand ("Nothing from that room may ship")


def _unpermitted(cues: list[Cue], low: str) -> list[Cue]:
    """A permission whose subject is "no ..." permits nothing: "Nothing from that room may ship
    until QA releases it", "No payment can go out before ..." forbid. The "no" cue's prohibition
    covers the clause, whose verb is the permission's; the permission opens no rule of its own."""
    out: list[Cue] = []
    for cue in cues:
        lead = out[-1] if out else None
        if lead is not None and lead.text.lower() in _NO_WORDS and cue.text in _MODAL_PERMISSIONS \
                and cue.start - lead.end <= _PERMITTED_AFTER_NO and not STRONG_BREAK.search(low, lead.end, cue.start) \
                and not re.search(r"[.;,!?]", low[lead.end:cue.start]):
            continue
        out.append(cue)
    return out


def _has_word_between(low: str, a: Cue, b: Cue) -> bool:
    between = low[a.end:b.start].split()
    return any(w not in {"also", "still", "ideally", "really", "absolutely", "strictly", "definitely", "be", "been"}
               for w in between)
