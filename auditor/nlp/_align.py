"""Alignment: which handoff clause is about the same directive as an upstream constraint.

A constraint's **content keys** are what it governs: its action verb, the nouns, adjectives,
numbers, names and identifiers of its clause (cue words and light verbs left out). A key
matches a handoff text when one of its **forms** occurs there. A word's forms are its
Snowball stem and the synonym groups it belongs to (``SYNONYMS``: general directive
vocabulary, never words of one case), so "limits" meets "quota" and "approval" meets
"sign-off". An identifier's forms are its squashed text and its parts ("internal_note" meets
"internal notes"). A number's form is its value.

Coverage is the weighted share of a constraint's keys a text carries. Strong keys (numbers,
names, identifiers) weigh 2, the action and nouns 1, other verbs and adjectives 0.5.
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from dataclasses import dataclass
from functools import lru_cache
from typing import Literal

import snowballstemmer
from spacy.lang.en.stop_words import STOP_WORDS

from ._lexicon import SPELLED_NUMBER, VERB_GROUPS, spelled_value

KeyKind = Literal["number", "code", "name", "action", "noun", "verb", "adj"]
_WEIGHT: dict[KeyKind, float] = {"number": 2.0, "code": 2.0, "name": 2.0, "action": 1.0, "noun": 1.0,
                                 "verb": 0.5, "adj": 0.5}

_STEMMER = snowballstemmer.stemmer("english")
_WORD = re.compile(r"[A-Za-z][A-Za-z']*")
NUMBER = re.compile(r"(?<![\w.])(\d[\d,]*(?:\.\d+)?)(?:\s?(k|bn|thousand|million|billion)\b)?", re.IGNORECASE)
_SCALE = {"k": 1e3, "thousand": 1e3, "million": 1e6, "bn": 1e9, "billion": 1e9}
#: A number written as a word ("within one business day"); "one" after a determiner is a pronoun
#: ("this one", "the one we kept") and counts nothing.
_SPELLED = re.compile(r"(?<!\bthis )(?<!\bthat )(?<!\bthe )(?<!\bwhich )(?<!\beach )(?<!\bany )(?<!\bno )"
                      rf"\b{SPELLED_NUMBER}\b", re.IGNORECASE)


_DIGITS = re.compile(r"\d[\d,]*(?:\.\d+)?")
#: Nouns too general to say what a constraint governs.
GENERIC_NOUNS = frozenset(
    ["thing", "way", "time", "step", "part", "kind", "type", "lot", "case", "point", "fact", "use", "need", "one",
     "everything", "anything", "something", "nothing", "question", "problem", "issue", "work", "job"]
)


def number_key(text: str) -> str:
    """A number's value as text: thousands separators and trailing zeros dropped ("1,200.50" -> "1200.5")."""
    digits = _DIGITS.search(text)
    if digits is None:
        return text
    value = digits.group(0).replace(",", "")
    if "." in value:
        value = value.rstrip("0").rstrip(".")
    return value


def number_form(text: str) -> str:
    """A number's form: its value, with thousands separators and a k/M/bn scale resolved."""
    m = NUMBER.search(text)
    if m is None:
        return "#" + number_key(text)
    value = m.group(1).replace(",", "")
    scale = m.group(2)
    if scale:
        number = float(value) * _SCALE[scale.lower()]
        value = str(int(number)) if number.is_integer() else str(number)
    return "#" + number_key(value)
_CALL = re.compile(r"([A-Za-z_][\w.]*)\(")
_PARTS = re.compile(r"[A-Z]?[a-z]+|[A-Z]+(?![a-z])|\d+")

#: General synonym groups (nouns, adjectives and verbs of directive prose). Each word joins
#: the group's form ``=<first word>``. Verb groups come from the lexicon's verb table.
_NOUN_GROUPS: tuple[str, ...] = (
    "limit quota cap ceiling maximum max threshold bound",
    "minimum min floor",
    "approval approve sign-off signoff sign approver authorisation authorization authorise authorize consent "
    "okay greenlight",
    "review reviewer",
    "customer client user buyer requester",
    "email e-mail mail",
    "deadline due cutoff cut-off",
    "prod production live",
    "staging stage sandbox",
    "doc docs documentation document",
    "test tests testing",
    "error errors failure failures",
    "refund refunds reimbursement",
    "price cost fee fees charge",
    "image images picture figure photo",
    "paper papers article articles study studies publication",
    "old older previous prior earlier legacy",
    "new newer",
    "unchanged intact same as-is",
    "secret credential password token key",
    "name names",
    "hour hours h hr hrs",
    "minute minutes min mins",
    "second seconds sec secs s",
    "day days",
    "week weeks",
    "percent % pct",
)

_LIGHT = frozenset(["be", "have", "do", "make", "get", "go", "come", "take", "put", "set", "want", "need", "try", "keep", "let", "use", "give"])


@lru_cache(maxsize=65536)
def stem(word: str) -> str:
    return str(_STEMMER.stemWord(word.lower().strip("'")))


def _groups() -> dict[str, frozenset[str]]:
    table: dict[str, set[str]] = {}
    for line in _NOUN_GROUPS:
        words = line.split()
        for word in words:
            table.setdefault(stem(word), set()).add("=" + words[0])
    for positive, negative in VERB_GROUPS:
        for side in (positive, negative):
            if not side:
                continue
            head = "=" + min(side)
            for word in side:
                table.setdefault(stem(word), set()).add(head)
    return {k: frozenset(v) for k, v in table.items()}


_GROUP_OF = _groups()


@lru_cache(maxsize=65536)
def word_forms(word: str) -> frozenset[str]:
    s = stem(word)
    return frozenset({s}) | _GROUP_OF.get(s, frozenset())


def identifier_parts(text: str) -> list[str]:
    """The words of an identifier or path: ``internal_note`` -> internal, note; ``maxRetries`` -> max, retries."""
    return [p.lower() for p in _PARTS.findall(text) if not p.isdigit()]


@dataclass(frozen=True)
class Key:
    """One thing a constraint governs, with the forms that count as mentioning it."""

    kind: KeyKind
    text: str
    forms: frozenset[str]
    parts: tuple[frozenset[str], ...] = ()
    aside: bool = False
    """In brackets: a detail ("above the midpoint (£58k)") whose absence does not break alignment."""

    @property
    def weight(self) -> float:
        return _WEIGHT[self.kind]

    @property
    def strong(self) -> bool:
        return self.kind in ("number", "code", "name")


def word_key(kind: KeyKind, word: str) -> Key:
    return Key(kind, word, word_forms(word))


def number_key_of(text: str) -> Key:
    return Key("number", text, frozenset({number_form(text)}))


def code_key(text: str) -> Key:
    """An identifier, path or code span: matched verbatim (squashed), or, for a name joined by
    ``_``, ``-`` or camel case ("internal_note"), by all of its word parts. Paths and formats
    ("DD/MM/YYYY") match verbatim only: their parts' order matters."""
    bare = text.strip("`'\"")
    call = _CALL.match(bare)
    name = call.group(1) if call else bare
    forms = {"~" + " ".join(bare.lower().split()), "~" + name.lower()}
    parts: tuple[frozenset[str], ...] = ()
    if "/" not in name and " " not in name.strip():
        parts = tuple(word_forms(p) for p in identifier_parts(name) if len(p) > 1)
    return Key("code", text, frozenset(forms), parts if len(parts) > 1 else ())


def name_key(text: str) -> Key:
    parts = tuple(word_forms(p) for p in _WORD.findall(text) if len(p) > 1)
    return Key("name", text, frozenset(), parts)


def bounded_in(needle: str, text: str) -> bool:
    """``needle`` occurs in ``text`` as a whole identifier: ``idx_events_account`` is not in
    ``idx_events_account_created``."""
    at = text.find(needle)
    while at != -1:
        end = at + len(needle)
        before_ok = at == 0 or not _ident_char(text[at - 1]) or not _ident_char(needle[0])
        after_ok = end == len(text) or not _ident_char(text[end]) or not _ident_char(needle[-1])
        if before_ok and after_ok:
            return True
        at = text.find(needle, at + 1)
    return False


def _ident_char(ch: str) -> bool:
    return ch.isalnum() or ch == "_"


@dataclass(frozen=True)
class Forms:
    """A text prepared for key look-ups: the forms of its words and numbers, and its squashed text."""

    forms: frozenset[str]
    squashed: str

    def has(self, key: Key) -> bool:
        if key.kind == "code":
            names = [f[1:] for f in key.forms if len(f) > 3]
            if any(bounded_in(n, self.squashed) for n in names):
                return True
            if any(n in self.squashed for n in names):
                return False  # only inside a longer identifier ("idx_events_account_created"): another name
        if key.parts:
            return all(bool(p & self.forms) for p in key.parts)
        return bool(key.forms & self.forms)


@lru_cache(maxsize=16384)
def text_forms(text: str) -> Forms:
    forms: set[str] = set()
    for m in _WORD.finditer(text):
        word = m.group(0)
        forms |= word_forms(word)
        if any(c.isupper() for c in word[1:]):
            for part in identifier_parts(word):
                forms |= word_forms(part)
    for m in NUMBER.finditer(text):
        forms.add(number_form(m.group(0)))
    for m in _SPELLED.finditer(text):
        forms.add("#" + number_key(str(spelled_value(m))))
    return Forms(frozenset(forms), " ".join(text.lower().split()))


def key_positions(text: str, keys: Iterable[Key]) -> list[int]:
    """For each key found in ``text``, the offset of its first occurrence."""
    low = text.lower()
    words = [(m.start(), word_forms(m.group(0))) for m in _WORD.finditer(text)]
    numbers = [(m.start(), number_form(m.group(0))) for m in NUMBER.finditer(text)]
    found: list[int] = []
    for key in keys:
        at: int | None = None
        if key.kind == "number":
            at = next((i for i, f in numbers if f in key.forms), None)
        elif key.kind == "code":
            at = next((low.find(f[1:]) for f in key.forms if len(f) > 3 and f[1:] in low), None)
        if at is None:
            targets = key.parts or (key.forms,)
            hits = [i for i, f in words if any(f & t for t in targets)]
            at = min(hits) if hits else None
        if at is not None:
            found.append(at)
    return found


@lru_cache(maxsize=16384)
def content_forms(text: str) -> frozenset[str]:
    """The forms of a text's content words (stop words left out) and numbers: a cheap test of
    whether two texts can be about the same thing, before any parse."""
    forms: set[str] = set()
    for m in _WORD.finditer(text):
        if m.group(0).lower() not in STOP_WORDS:
            forms |= word_forms(m.group(0))
    forms.update(number_form(m.group(0)) for m in NUMBER.finditer(text))
    return frozenset(forms)


def coverage(keys: Iterable[Key], forms: Forms) -> tuple[float, tuple[Key, ...]]:
    """The weighted share of ``keys`` that ``forms`` mentions, and the keys it mentions."""
    keys = tuple(keys)
    total = sum(k.weight for k in keys)
    hit = tuple(k for k in keys if forms.has(k))
    return (sum(k.weight for k in hit) / total if total else 0.0), hit


def is_light(lemma: str) -> bool:
    return lemma in _LIGHT


_CLAUSE_BREAK = re.compile(r"\s*(?:;|:(?!\d)|\u2014|\u2013| - |\(|\)|,\s*(?:but|so|and|though|although|while|whereas|"
                           r"which|because|since)\b|\bbut\b|\bso\b)\s*")


def clauses(text: str) -> list[tuple[int, int]]:
    """Spans of the clauses of one sentence, split at semicolons, dashes, brackets and
    coordinating conjunctions after a comma."""
    spans: list[tuple[int, int]] = []
    start = 0
    for m in _CLAUSE_BREAK.finditer(text):
        if m.start() > start:
            spans.append((start, m.start()))
        start = m.end()
    if start < len(text):
        spans.append((start, len(text)))
    out: list[tuple[int, int]] = []
    for start, end in spans:
        cond = _CONDITION.match(text, start, end)
        if cond is not None:  # "If you tweak the headline, keep it ...": the condition is a clause of its own
            out.extend([(start, cond.end() - 1), (cond.end(), end)])
        else:
            out.append((start, end))
    return [s for s in out if any(c.isalnum() for c in text[s[0]:s[1]])] or [(0, len(text))]


_CONDITION = re.compile(r"\s*(?:if|when|once|unless|in case|whenever)\b[^,;]{1,80},")
