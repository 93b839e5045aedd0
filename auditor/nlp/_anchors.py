"""Anchors: the concrete things a constraint governs, and how to find them in another text.

Strong anchors (code, calls, identifiers, paths, URLs, quoted strings, numbers, named
entities, proper nouns, compound noun phrases) are specific enough that their absence
proves a constraint was dropped. A weak anchor (a single common noun) can confirm a
match but never proves a drop on its own.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Literal

from ._text import norm_word, squash

AnchorKind = Literal[
    "code", "call", "path", "url", "identifier", "quoted", "number", "entity", "proper_noun", "noun_phrase",
    "noun",
]

_NUMBER = re.compile(
    r"(?<![\w.])(?:[$€£]\s?)?\d[\d,]*(?:\.\d+)?(?:\s?(?:%|percent|ms|s|sec|seconds?|minutes?|mins?|hours?|"
    r"hrs?|h|days?|weeks?|months?|years?|gb|mb|kb|tb|km|miles?|usd|eur|gbp|tokens?|requests?|rows?|"
    r"items?|characters?|words?|pages?|retries|attempts?|times|x)\b)?"
)
_QUOTED = re.compile(r"\"([^\"\n]{1,60})\"|\u201c([^\u201d\n]{1,60})\u201d|(?<![\w])'([^'\n]{2,60})'(?![\w])")
_CALL_NAME = re.compile(r"^([A-Za-z_][\w.]*)\(")
_DIGITS = re.compile(r"\d[\d,]*(?:\.\d+)?")
GENERIC_NOUNS = frozenset(
    ["thing", "way", "time", "step", "part", "kind", "type", "lot", "case", "point", "fact", "use", "need", "one", "everything", "anything", "something", "nothing", "question", "problem", "issue", "work", "job"]
)


@dataclass(frozen=True)
class Anchor:
    kind: AnchorKind
    text: str
    keys: tuple[str, ...]

    @property
    def strong(self) -> bool:
        return self.kind != "noun"


def number_key(text: str) -> str:
    digits = _DIGITS.search(text)
    if digits is None:
        return text
    value = digits.group(0).replace(",", "")
    if "." in value:
        value = value.rstrip("0").rstrip(".")
    return value


def numbers_in(text: str) -> frozenset[str]:
    return frozenset(number_key(m.group(0)) for m in _NUMBER.finditer(text))


def code_anchor(kind: str, text: str) -> Anchor:
    keys = [squash(text.strip("`"))]
    call = _CALL_NAME.match(text.strip("`"))
    if call:
        keys.append(call.group(1).lower())
    return Anchor(kind=kind, text=text, keys=tuple(dict.fromkeys(keys)))  # type: ignore[arg-type]


def text_anchors(text: str) -> list[Anchor]:
    """Quoted strings and numbers, found by pattern in unmasked prose."""
    found: list[Anchor] = []
    for m in _QUOTED.finditer(text):
        inner = next(g for g in m.groups() if g)
        if len(inner.split()) <= 8:
            found.append(Anchor("quoted", m.group(0), (squash(inner),)))
    for m in _NUMBER.finditer(text):
        if len(m.group(0).strip()) > 0:
            found.append(Anchor("number", m.group(0).strip(), (number_key(m.group(0)),)))
    return found


def words_anchor(kind: AnchorKind, text: str, words: list[str]) -> Anchor:
    return Anchor(kind=kind, text=text, keys=tuple(dict.fromkeys(norm_word(w) for w in words)))


@dataclass(frozen=True)
class Haystack:
    """A text prepared for anchor look-ups: squashed form, word set, numbers."""

    squashed: str
    words: frozenset[str]
    numbers: frozenset[str]

    def contains(self, anchor: Anchor) -> bool:
        if anchor.kind == "number":
            return anchor.keys[0] in self.numbers
        if anchor.kind in ("entity", "proper_noun", "noun_phrase", "noun"):
            return all(key in self.words for key in anchor.keys)
        return any(_bounded(key, self.squashed) for key in anchor.keys)


def _bounded(key: str, text: str) -> bool:
    start = text.find(key)
    while start != -1:
        before = text[start - 1] if start > 0 else " "
        end = start + len(key)
        after = text[end] if end < len(text) else " "
        if not (before.isalnum() or before == "_") and not (after.isalnum() or after == "_"):
            return True
        start = text.find(key, start + 1)
    return False
