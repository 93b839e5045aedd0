"""The faults injected into one handoff message: small text edits, each ``None`` where it does not
apply (no hard constraint to soften, no observed number to contradict).

* ``soften``: every hard modal becomes a hedged preference ("Never charge" -> "Try not to charge");
* ``drop``: every sentence carrying a hard modal is removed;
* ``invert``: every hard modal permits what it forbade, or waives what it required;

The first three act on every hard modal of the message, not the first only: a message often states
its rule twice ("Never share ESC-311. … the writer must never share it"), and a fault that leaves
the restatement in place changed nothing the receiver relies on.
* ``invent``: a checkable claim nothing in the trace supports is appended (chosen by the seed);
* ``contradict``: the first number the message shares with a tool result its source saw (not one of
  the call's arguments, which name what was looked up) is changed.
"""

from __future__ import annotations

import random
import re
from collections.abc import Callable, Sequence
from dataclasses import dataclass

from ..nlp import mask, split_sentences

_HARD = re.compile(r"\b(?:must always|must not|must never|mustn't|shall not|may not|cannot|can't|do not|don't|never|"
                   r"must|always|have to|has to|is required to|are required to)\b", re.IGNORECASE)
_SOFT = {"must always": "should usually", "must not": "should ideally not", "must never": "should ideally never", "mustn't": "should ideally not",
         "shall not": "should ideally not", "may not": "should ideally not", "cannot": "should ideally not",
         "can't": "should ideally not", "do not": "try not to", "don't": "try not to", "never": "try not to",
         "must": "should ideally", "always": "usually", "have to": "should ideally", "has to": "should ideally",
         "is required to": "should ideally", "are required to": "should ideally"}
_INVERSE = {"must always": "need not", "must not": "may", "must never": "may", "mustn't": "may", "shall not": "may", "may not": "may",
            "cannot": "may", "can't": "may", "do not": "feel free to", "don't": "feel free to",
            "never": "feel free to", "must": "need not", "always": "never", "have to": "do not have to",
            "has to": "does not have to", "is required to": "is not required to",
            "are required to": "are not required to"}
#: Checkable claims no trace of ours supports: a test result, a path, a figure.
INVENTED = ("I ran the full test suite and all 112 tests pass.",
            "The refund policy is in config/refunds_v2.yaml.",
            "The p95 latency of the payment API is 340 ms.")
_NUMBER = re.compile(r"(?<![\w.])\d+(?:\.\d+)?(?![\w.]*\w)")


@dataclass(frozen=True)
class MutationInput:
    """What a mutation may read: the message, the results and arguments of the tool calls its source
    saw, and a seeded RNG."""

    text: str
    results: Sequence[str]
    arguments: Sequence[str]
    rng: random.Random


def _cased(replacement: str, original: str) -> str:
    return replacement[:1].upper() + replacement[1:] if original[:1].isupper() else replacement


def _swap(text: str, table: dict[str, str]) -> str | None:
    if _HARD.search(text) is None:
        return None
    return _HARD.sub(lambda m: _cased(table[m.group(0).lower()], m.group(0)), text)


def soften(source: MutationInput) -> str | None:
    return _swap(source.text, _SOFT)


def invert(source: MutationInput) -> str | None:
    return _swap(source.text, _INVERSE)


def drop(source: MutationInput) -> str | None:
    masked = mask(source.text).masked
    text = source.text
    hard = [(start, end) for start, end in split_sentences(masked) if _HARD.search(masked[start:end])]
    for start, end in reversed(hard):
        while end < len(text) and text[end] in " \t":
            end += 1
        text = text[:start] + text[end:]
    return text if hard else None


def invent(source: MutationInput) -> str | None:
    return source.text.rstrip() + "\n\n" + source.rng.choice(INVENTED)


def _numbers(texts: Sequence[str]) -> set[float]:
    return {float(m.group(0)) for text in texts for m in _NUMBER.finditer(text)}


def contradict(source: MutationInput) -> str | None:
    observed = _numbers(source.results) - _numbers(source.arguments)
    for m in _NUMBER.finditer(source.text):
        value = m.group(0)
        if float(value) in observed and float(value) > 1:
            decimals = len(value.split(".")[1]) if "." in value else 0
            other = f"{float(value) * 2 + 1:.{decimals}f}"
            return source.text[:m.start()] + other + source.text[m.end():]
    return None


Mutation = Callable[[MutationInput], "str | None"]
MUTATIONS: dict[str, Mutation] = {"soften": soften, "drop": drop, "invert": invert, "invent": invent,
                                  "contradict": contradict}
