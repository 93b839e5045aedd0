"""What the words of one clause say, apart from its modal cue: a negation and what it governs,
a report of work done, the rule's own verb or its antonym, and an approximation of another value
than the rule's. ``_carrier`` reads a carrier's clauses with them.
"""

from __future__ import annotations

import re
from typing import Literal

from ..nlp import CUE_PATTERN, HEDGE_PATTERN, NEGATION_PATTERN, VERB_GROUPS, Directive, stem, word_forms

_APPROXIMATIONS = frozenset({"about", "around", "roughly", "approximately"})
_APPROXIMATED = re.compile(r"\s+(?:[a-z]{2,4}\s?)?([$\u20ac\u00a3~]?\d[\d.,]*(?:(?:k|m|bn)\b|\s(?:thousand|million)\b)?)")
_CLOSING_PASSIVE = re.compile(r"\s*(?:[a-z]+ly\s+)?(?:be|get)\s+[a-z]+(?:\s+(?:out|up|off|in|away|back|down|aside))?"
                              r"\s*[.!;]?\s*$")
#: "no-commercial-value" is one word, no negation; the 0 of "v2.7.0", "1.0" or "10:05" is a digit of a number
_ZERO = re.compile(r"\b(?:no|nothing|none|zero|(?<![\d.,:])0(?![.,:]\d))\b(?!-\w)")
_FULFILLED = re.compile(r"\b(?:has been|have been|had been|was|were|already|is done|are done|is now|are now|"
                        r"done|complete|confirmed|ready|finished)\b")
_HAS_NONE = re.compile(r"\b(?:has|have|contains?|shows?|there (?:is|are))\s+(?:no\b|\d)")
_NOT_PAST = frozenset({"need", "speed", "seed", "feed", "bed", "red", "shed", "indeed", "exceed", "proceed",
                       "succeed", "embed", "breed", "weed", "deed", "hundred"})
_PAST = re.compile(r"\b([a-z]{2,}ed)\b")
_DONE = re.compile(r"\s*(?:(?:i|we)(?:'ve| have)?\s+)?([a-z]+ed)\b")


def own_numbers(c: Directive) -> set[float | None]:
    """The values of the rule's own numbers ("capped at $50" -> {50.0})."""
    return {digits(k.text) for k in c.keys if k.kind == "number"}


def other_value(low: str, hedge: re.Match[str], numbers: set[float | None]) -> bool:
    """An approximation of a number that is not the rule's ("about 170 g at 227 g/cup" for a rule
    on 227 g) hedges that value, not the rule."""
    value = _APPROXIMATED.match(low, hedge.end())
    return hedge.group(0) in _APPROXIMATIONS and value is not None and digits(value.group(1)) not in numbers


def digits(number: str) -> float | None:
    """The value a number is written for ("50,000", "50k" -> 50000.0)."""
    m = re.match(r"[$\u20ac\u00a3~]?(\d[\d,]*(?:\.\d+)?)(?:(k|m|bn)\b|\s(thousand|million)\b)?", number.strip())
    if m is None:
        return None
    scale = {"k": 1e3, "thousand": 1e3, "m": 1e6, "million": 1e6, "bn": 1e9}.get(m.group(2) or m.group(3) or "", 1.0)
    return float(m.group(1).replace(",", "")) * scale


def trailing(low: str, at: int) -> bool:
    """A hedge that ends its clause ("..., SSE-KMS if possible") governs the whole clause; so does
    a modal or hedge before the clause's closing passive ("sample sizes under 25 g should ideally
    be left out")."""
    return len(re.findall(r"[a-z]+", low[at:])) <= 2 or _CLOSING_PASSIVE.match(low, at) is not None


def cued(text: str) -> bool:
    low = text.lower()
    return CUE_PATTERN.search(low) is not None or is_negated(low) or HEDGE_PATTERN.search(low) is not None


def relation_to(action: str | None, words: str) -> Literal["same", "antonym", "none"]:
    """Whether a clause names the constraint's action (or a synonym), or only its antonym,
    by Snowball stems of the lexicon's verb rows."""
    if action is None:
        return "none"
    present = {stem(w) for w in re.findall(r"[a-z]+", words.lower())}
    own = stem(action)
    if own in present:
        return "same"
    rows = [(p, n) for p, n in VERB_GROUPS if action in p | n]
    if any({stem(v) for v in (p if action in p else n)} & present for p, n in rows):
        return "same"
    if any({stem(v) for v in (n if action in p else p)} & present for p, n in rows):
        return "antonym"
    return "none"


def reports_done(low: str) -> bool:
    """A clause that reports work done or a state reached ("was deleted", "were skipped",
    "is confirmed", "9,106 recordings deleted", "backend.yml has no caching", "the topic has 24
    partitions") rather than stating a rule."""
    return _FULFILLED.search(low) is not None or _HAS_NONE.search(low) is not None or any(
        m.group(1) not in _NOT_PAST for m in _PAST.finditer(low))


def done_by_source(action: str | None, low: str) -> bool:
    """The clause opens with the action in the past tense: "Refunded the duplicate charge"."""
    m = _DONE.match(low)
    return action is not None and m is not None and bool(word_forms(m.group(1)) & word_forms(action))


def negation_governs(action: str | None, low: str) -> bool:
    """A negation right before the constraint's own verb ("do not include", "never share",
    "no need to run", "without including"), not one about something else in the clause."""
    if action is None:
        return False
    own = word_forms(action)
    for m in re.finditer(r"\b(?:not|never|no|without|nothing|none)\b|n't\b", low):
        # a hyphenated compound is one word, headed by its last part: "no test-dropping shards" drops
        following = [w.rsplit("-", 1)[-1] for w in re.findall(r"[a-z]+(?:-[a-z]+)*", low[m.end():m.end() + 40])[:3]]
        if any(word_forms(w) & own for w in following):
            return True
    return False


def is_negated(low: str) -> bool:
    return NEGATION_PATTERN.search(low) is not None or _ZERO.search(low) is not None
