"""What an obligation excludes ("signed by the physician, not by admin staff"; "in statute miles,
not km"), and whether a handoff clause names it: a clause that orders or allows the excluded
thing inverts the rule (see ``_carrier``)."""

from __future__ import annotations

import re
from collections.abc import Sequence

from ..nlp import stem

_EXCLUSION = re.compile(r"\b(?:not|never|no)\b\s+(?:by|to|from|via|through|with|in|on|the|a|an|any)?\s*(.{1,60}?)"
                        r"(?=[,;.\u2014]|$)")
#: "not just the unit tests", "not only X": more than X is asked for; X itself is not excluded.
_NOT_JUST = re.compile(r"\b(?:not|never)\s+(?:just|only|merely|simply|solely)\b")


_BOUND = re.compile(r"\b(?:not|never|no)\s+(?:(?:more|less|fewer|later|earlier|longer|shorter|greater|higher|lower)\b|"
                    r"(?:over|under|above|below|before|after|beyond|exceed\w*)\s+(?:\w+\s+)?(?:[$\u20ac\u00a3~]?\d|"
                    r"(?:mon|tues|wednes|thurs|fri|satur|sun)day\b|(?:jan|feb|mar|apr|may|jun|jul|aug|sep|oct|nov|dec)[a-z]*\b|"
                    r"noon\b|midnight\b))")


def excludes_by_bound(low_up: str) -> bool:
    """What the rule excludes is all past a bound ("no more than one slide"): a clause that names
    the bounded thing ("fits on one slide") allows nothing excluded."""
    m = _EXCLUSION.search(low_up)
    return m is not None and _BOUND.match(low_up, m.start()) is not None


def asks_more_than(low_up: str) -> bool:
    """Whether the rule's exclusion is "not just X": a clause that names X may add the rest to it
    ("the participant count as well as the trial count") or settle for X alone, which only the
    grader can tell."""
    m = _EXCLUSION.search(low_up)
    return m is not None and _NOT_JUST.match(low_up, m.start()) is not None


def names_any(words: Sequence[str], low: str) -> bool:
    """Whether ``low`` names one of ``words``, in any inflection ("counted" / "as counts")."""
    stems = {stem(w) for w in re.findall(r"[a-z][a-z0-9-]*", low)}
    return any(stem(w) in stems for w in words)


def excluded_words(low_up: str) -> tuple[str, ...]:
    """The specific words (first and last) of what an obligation excludes: "signed by the
    physician, not by admin staff" excludes "admin" and "staff". Only words that occur nowhere
    else in the constraint's sentence, and only for a short exclusion (a relative clause after
    it, "... she mentioned", is not part of what is excluded)."""
    m = _EXCLUSION.search(low_up)
    if m is None:
        return ()
    excluded = _RELATIVE.split(m.group(1), maxsplit=1)[0]  # "the new one in leeds he mentioned"
    if len(excluded.split()) > 5:
        return ()
    rest = low_up[:m.start()] + " " + low_up[m.end():]
    words = [w for w in re.findall(r"[a-z][a-z0-9-]+", excluded)
             if w not in _FUNCTION and (len(w) > 2 or w in _UNIT_WORDS) and not re.search(rf"\b{re.escape(w)}\b", rest)]
    return tuple(dict.fromkeys(words[:1] + words[-1:]))


#: Two-letter words an exclusion can name ("in statute miles, not km").
_UNIT_WORDS = frozenset({"km", "kg", "mi", "ft", "lb", "oz", "mm", "cm", "ml", "gb", "mb", "kb", "ms", "pm", "am"})
_RELATIVE = re.compile(r"\s(?:he|she|they|we|you|i|it|that|which|who)\s")
_FUNCTION = frozenset({"the", "any", "and", "one", "per", "for", "with", "from", "our", "their", "this", "that", "its",
                       "them", "just", "even", "yet", "more", "less", "than", "all", "own"})
