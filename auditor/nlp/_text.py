"""Cheap text work before any model runs: masking code, splitting sentences, verb forms.

Masking is length-preserving, so every span computed on the masked text is a span of
the original text too. Code blocks become blanks (code is not prose); inline code,
call expressions, identifiers, paths and URLs become one placeholder word each, and are
kept as keys.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from functools import lru_cache

_FENCE = re.compile(r"```.*?(?:```|\Z)", re.DOTALL)
_INLINE_CODE = re.compile(r"`[^`\n]{1,200}`")
_URL = re.compile(r"\bhttps?://[^\s<>()\"']+[^\s<>()\"'.,;:!?]")
_CALL = re.compile(r"\b[A-Za-z_][\w.]*\([^()\n]{0,80}\)")
_PATH = re.compile(r"(?<![\w/])(?![\d.]+/[\d.]+\b)(?:\.{0,2}/|~/)?(?:[\w.-]+/)+[\w.-]*[\w-]|\b[\w.-]+/(?=[\s.,;:)]|$)|\b[\w-]+\.(?:py|js|ts|tsx|jsx|json|ya?ml|toml|md|txt|csv|xlsx?|sql|sh|go|rs|java|rb|cfg|ini|html|css|lock|env|log)\b")
_IDENT = re.compile(
    r"\b(?:[a-z][a-z0-9]*_[a-z0-9_]+|[A-Z][A-Z0-9]*_[A-Z0-9_]+|[a-z]+[A-Z][A-Za-z0-9]*|[A-Za-z_]\w*(?:\.[A-Za-z_]\w*){2,})\b"
)
#: Sentence ends: punctuation before a capital, a blank line, a line that opens a list item, and
#: the comma between two quoted strings (the items of a JSON list or object, one rule each).
_SENTENCE_END = re.compile(r"(?<=[.!?])[\"')\]]*\s+(?=[\"'(\[]?[A-Z0-9*_`\-•])|\n\s*\n|\n(?=\s*(?:[-*•+]|\d+[.)]|#+)\s)"
                           r"|(?<=\")\s*,\s*(?=\")")
_LOWER_START = re.compile(r"(?<=[A-Za-z0-9%)][.!?])[\"')\]]*[ \t]+(?=[a-z])")
_WORD_BEFORE = re.compile(r"(?:^|[\s(])((?:[A-Za-z]\.)*[A-Za-z]+)[.!?][\"')\]]*[ \t]*$")
#: Words a full stop ends without ending the sentence.
ABBREVIATIONS = frozenset(re.findall(r"\S+", """e.g i.e etc vs approx cf incl esp viz al fig figs no nos min max avg est dept mr mrs ms dr
prof st jr sr inc ltd co corp resp ref refs sec secs hr hrs wk wks mo mos yr yrs jan feb mar apr jun jul aug sep sept
oct nov dec mon tue tues wed thu thur thurs fri sat sun a.m p.m u.s u.k ca"""))
_BULLET = re.compile(r"\s*(?:[-*•+]\s+|\d+[.)]\s+|#+\s+|>\s+)")
_LIST_NUMBER = re.compile(r"\d{1,3}[.)]?")
_CAPS_CUES = re.compile(
    r"\b(?:MUST|MUSTN'T|SHALL|SHAN'T|SHOULD|SHOULDN'T|NOT|NEVER|ALWAYS|ONLY|REQUIRED|MAY|DO|DON'T|CANNOT|CAN'T|"
    r"NO|RECOMMENDED|OPTIONAL|MANDATORY|PROHIBITED|FORBIDDEN|AVOID|ENSURE)\b"
)



@dataclass(frozen=True)
class Masked:
    """A text with code masked out, and the masked spans as (kind, start, end)."""

    original: str
    masked: str
    spans: tuple[tuple[str, int, int], ...]


#: How every masked span begins: a capital X, then lower-case x to its length ("Xxxxxx").
PLACEHOLDER_LEAD = "Xx"


#: The month May: next to a day or a year ("by 30 May", "May 2", "May 2024"), capitalised after a
#: lower-case word ("published in May", "need May GPU spend": the modal is written "may" there), or
#: before a capitalised word that is no pronoun ("May GPU spend", not "May I").
_MONTH_MAY = re.compile(r"(?<=[\s(]\d )May\b|(?<=[\s(]\d\d )May\b|(?<=\d(?:st|nd|rd|th) )May\b|\bMay(?= \d{1,2}\b)"
                        r"|\bMay(?= (?:19|20)\d\d\b)|(?<=[a-z,] )May\b"
                        r"|\bMay(?= (?!(?:I|We|You|They|He|She|It|Not|Be)\b)[A-Z])")


_JUN = re.compile(r"\bJun\b")


def months_apart(text: str) -> str:
    """``text`` with the month May (``_MONTH_MAY``) written as another month of the same length,
    so that no cue reader takes it for the modal."""
    return _MONTH_MAY.sub("Jun", text)


def may_restored(masked: str, original: str) -> str:
    """A masked text with "May" put back where ``months_apart`` wrote "Jun": what reads a date
    off the masked text must read the month it is."""
    if "Jun" not in masked:
        return masked
    return _JUN.sub(lambda m: original[m.start():m.end()] if original[m.start():m.end()] == "May" else "Jun", masked)


def _placeholder(length: int) -> str:
    return "X" + "x" * (length - 1)


@lru_cache(maxsize=4096)
def mask(text: str) -> Masked:
    """``text`` with code, URLs, paths, identifiers and fenced blocks masked (their spans kept).
    Cached: the constraint pass, claim extraction and the claim doubts all mask the same messages."""
    chars = list(text.replace("\u2019", "'").replace("\u2018", "'"))
    spans: list[tuple[str, int, int]] = []
    taken = [False] * len(chars)

    def claim(kind: str, start: int, end: int, blank: bool) -> None:
        if any(taken[start:end]):
            return
        for i in range(start, end):
            taken[i] = True
        if blank:
            for i in range(start, end):
                if chars[i] != "\n":
                    chars[i] = " "
        else:
            chars[start:end] = _placeholder(end - start)
            spans.append((kind, start, end))

    for m in _FENCE.finditer(text):
        claim("block", m.start(), m.end(), blank=True)
    for kind, pattern in (("code", _INLINE_CODE), ("url", _URL), ("call", _CALL), ("path", _PATH),
                          ("identifier", _IDENT)):
        for m in pattern.finditer(text):
            claim(kind, m.start(), m.end(), blank=False)
    masked = "".join(chars)
    masked = months_apart(masked)
    masked = _CAPS_CUES.sub(lambda m: m.group(0).lower(), masked)
    return Masked(original=text, masked=masked, spans=tuple(sorted(spans, key=lambda s: s[1])))


def lower_breaks(text: str, start: int = 0, end: int | None = None) -> list[tuple[int, int]]:
    """Sentence breaks before a lower-case word ("after 22:00 UTC. prod needs sign-off"), as
    (end of one sentence, start of the next): chat writing often starts sentences in lower case.
    Not after an abbreviation ("e.g. the", "approx. two"), an initial ("J. moss"), a dotted
    number or an ellipsis."""
    out = []
    for m in _LOWER_START.finditer(text, start, len(text) if end is None else end):
        word = _WORD_BEFORE.search(text, max(0, m.start() - 24), m.start())
        if word is None or word.group(1).lower() in ABBREVIATIONS or len(word.group(1)) == 1:
            continue
        out.append((m.start(), m.end()))
    return out


def split_sentences(masked: str) -> list[tuple[int, int]]:
    """Sentence spans over a masked text: punctuation, blank lines, bullets and headings split,
    and a full stop before a lower-case word (``lower_breaks``). Bullet markers are left out of
    the span."""
    spans: list[tuple[int, int]] = []
    start = 0
    breaks = sorted([(m.start(), m.end()) for m in _SENTENCE_END.finditer(masked)] + lower_breaks(masked))
    for at, after in breaks:
        if at < start:
            continue
        spans.append((start, at))
        start = after
    spans.append((start, len(masked)))
    out: list[tuple[int, int]] = []
    for s, e in spans:
        for line_start, line_end in _lines(masked, s, e):
            bullet = _BULLET.match(masked, line_start, line_end)
            if bullet:
                line_start = bullet.end()
            while line_start < line_end and masked[line_start].isspace():
                line_start += 1
            while line_end > line_start and masked[line_end - 1].isspace():
                line_end -= 1
            piece = masked[line_start:line_end]
            if any(c.isalnum() for c in piece) and not _LIST_NUMBER.fullmatch(piece):
                out.append((line_start, line_end))
    return out


def _lines(text: str, start: int, end: int) -> list[tuple[int, int]]:
    """Split a span at line breaks that start a heading-like or short standalone line."""
    pieces: list[tuple[int, int]] = []
    cursor = start
    for i in range(start, end):
        if text[i] == "\n" and (i == start or text[i - 1] in ".:!?" or _BULLET.match(text, i + 1, end)):
            pieces.append((cursor, i))
            cursor = i + 1
    pieces.append((cursor, end))
    return pieces


def verb_forms(word: str) -> tuple[str, ...]:
    """Candidate base forms of an inflected verb ("shipping" -> ship, "changed" -> change)."""
    w = word.lower()
    for suffix in ("ing", "ed"):
        if len(w) > len(suffix) + 2 and w.endswith(suffix):
            base = w[: -len(suffix)]
            doubled = base[:-1] if len(base) > 2 and base[-1] == base[-2] else base
            return (base, base + "e", doubled)
    if len(w) > 3 and w.endswith("s"):
        return (w[:-1], w[:-2] if w.endswith("es") else w[:-1])
    return (w,)


def squash(text: str) -> str:
    """Lower case with all whitespace collapsed: the form used for containment matches."""
    return " ".join(text.lower().split())
