"""Evidence rows: the units of tool output (and received messages) that a number is read from.

A row is one line of text (a table row, a log line, ``m3v2: 8m35s``), one ``"key": value`` pair
of JSON, or one innermost JSON object (``{"id": "ch_3Mx1", "amount": 14.99, ...}``). Each row
keeps its span in the evidence text, its quantities and its key words, so that a claim's number
can be compared with the number the evidence gives *for the same subject* (same id, same key).
"""

from __future__ import annotations

import itertools
import re
from bisect import bisect_left
from dataclasses import dataclass
from functools import lru_cache

from ._quantity import Quantity, clocks, dates, named_unit, quantities, spelled, typed

_WORD = re.compile(r"[A-Za-z0-9][A-Za-z0-9_.@:/-]*[A-Za-z0-9]|[A-Za-z0-9]")
_JOINER = re.compile(r"[-_.:/@]")
_PAIR = re.compile(r'"(?P<key>[^"\n]{1,60})"\s*:\s*(?P<value>"[^"\n]*"|-?\d[\d.eE+-]*|true|false|null)')
_FILE_LINE = re.compile(r"\.[A-Za-z]{1,5}:(\d+)(?=:|\b)")
_RECORD = re.compile(r"^\s*[\w .-]{1,40}(?::|\||=|\t|\s{2,})")
_CLOCK_RANGE = re.compile(r"\b([0-2]?\d):([0-5]\d)\s*[–-]\s*([0-2]?\d):([0-5]\d)\b")
_RULE = re.compile(r"[\s\-+|=─┼┤├┬┴┌┐└┘│]+")
_ROW_COUNT = re.compile(r"\(\d+ rows?\)")
_CELLS = re.compile(r"\t|\s{2,}|\|")
_CELL = re.compile(r"[^\s|]+(?: [^\s|]+)*")
_NAME = re.compile(r"[A-Za-z][\w ()%/.-]*")
_OBJECT = re.compile(r"\{[^{}\[\]]*\}")
_SENTENCE_END = re.compile(r"(?<=[.!?;])\s+(?=[A-Z(\"'`])")


def vocabulary(words: str) -> frozenset[str]:
    """A word list written as text, one space or newline between words."""
    return frozenset(words.split())


KEY_STOP = vocabulary("""the a an and or of to in on at for with by from is are was were be been has have had it its this
that these those there their them they we our you your i my me he she his her per than then so as
all any each both only also just now still over under about around roughly approx not no yes
out up down into since after before while new old last first second next one two three four five six
seven eight nine ten via but if when what which who whom whose how why where because says say said
shows show shown""")

#: Short forms of tool output keys and the word a sentence uses ("avg_rating" is an average rating).
ABBREVIATIONS = {"avg": "average", "pct": "percent", "perc": "percent", "qty": "quantity", "num": "number",
                 "cnt": "count", "amt": "amount", "max": "maximum", "min": "minimum", "msg": "message",
                 "msgs": "messages", "req": "request", "reqs": "requests", "resp": "response", "err": "error",
                 "errs": "errors", "ack": "acknowledged", "acked": "acknowledged", "dur": "duration", "temp": "temperature", "cfg": "config", "env": "environment"}


@dataclass(frozen=True)
class Row:
    field_index: int
    start: int
    end: int
    text: str
    quantities: tuple[Quantity, ...]
    keys: frozenset[str]
    dates: frozenset[tuple[int, int, int | None]]
    clocks: frozenset[str]
    structured: bool = False
    output: bool = False
    #: A call's arguments: what the caller asked for ("head -n 8", "--bootstrap 1000"), which
    #: states a number but is no reading of a subject's value.
    request: bool = False


#: A number with a unit is no key: "10.8G" names nothing ("8g" would pair it with another row's 10.8G).
_NUMBER_WITH_UNIT = re.compile(r"[\d.,]*\d(?:[kmgtp]i?b?|[mµun]?s|min|[hdwx%]|px|pp)")


@lru_cache(maxsize=16384)
def key_words(text: str) -> frozenset[str]:
    """Lower-case words and identifiers of ``text`` (identifiers also split on ``-_.``, a short
    form also giving its word: ``avg`` -> ``average``), minus function words and bare numbers."""
    words = {w.strip(".:/") for w in _WORD.findall(text.lower())}
    for word in [w for w in words if _JOINER.search(w)]:
        words.update(_JOINER.split(word))
    words.update(ABBREVIATIONS[w] for w in words & ABBREVIATIONS.keys())
    return frozenset(w for w in words if len(w) >= 2 and w not in KEY_STOP and not w.replace(".", "").isdigit()
                     and not _NUMBER_WITH_UNIT.fullmatch(w))


def strong(word: str) -> bool:
    """An identifier rather than a word: it holds a digit or a joiner (``INV-90418``, ``m3v2``,
    ``total_eur``)."""
    return any(ch.isdigit() for ch in word) or any(ch in word for ch in "-_.@:/")


def rows(index: int, text: str, output: bool = True, request: bool = False) -> tuple[Row, ...]:
    """The rows of one evidence text (``index`` names the text: ``Evidence.sources[index]``).
    ``output`` says it is tool output, whose short lines are records (``key: value``, a table
    row), not prose; ``request`` that it is a call's arguments."""
    spans: list[tuple[int, int]] = []
    pos = 0
    for line in text.split("\n"):
        if line.strip():
            spans.append((pos, pos + len(line)))
            spans.extend(_sentences(line, pos))
        pos += len(line) + 1
    if '":' in text:
        spans.extend((m.start(), m.end()) for m in _PAIR.finditer(text))
        spans.extend((m.start(), m.end()) for m in _OBJECT.finditer(text))
    found = sorted([*quantities(_key_words_view(text)), *spelled(text), *(_span_length(m) for m in _CLOCK_RANGE.finditer(text)),
                    *(Quantity(float(m.group(1)), None, 1.0, False, m.start(1), m.end(1), m.group(1),
                               written=float(m.group(1)), locator=True) for m in _FILE_LINE.finditer(text))], key=lambda q: q.start)
    names = field_names(text)
    found = [typed(q, unit) if q.bare and (unit := named_unit(names.get(q.start, ""))) else q for q in found]
    starts = [q.start for q in found]
    all_dates, all_clocks = dates(text, ambiguous=True), clocks(text)
    out = []
    for start, end in dict.fromkeys(spans):
        piece = text[start:end]
        qs = tuple(q for q in found[bisect_left(starts, start):bisect_left(starts, end)] if q.end <= end)
        structured = output and (piece.startswith(('"', "{")) or (len(piece) <= 80 and _RECORD.search(piece) is not None))
        out.append(Row(index, start, end, piece, qs, key_words(_strip_numbers(piece)),
                       frozenset(d for a, b, d in all_dates if start <= a and b <= end),
                       frozenset(c for a, b, c in all_clocks if start <= a and b <= end), structured, output,
                       request))
    return tuple(out)


def tabular(text: str) -> str:
    """``text`` with the separators of its comma-separated tables turned to tabs, so that
    ``235.00,40,14`` reads as three cells. A table is a header line of two commas or more (outside
    double quotes) whose cells are names (none starts with a digit), and the lines after it with
    as many; ``"1,250.00"`` in a quoted cell keeps its comma, and log lines ("06:01:12,204 ...
    merged: 9,871") have no such header. The result has the same length, so every offset into
    it is one into ``text``."""
    if text.count(",") < 4:
        return text
    lines = text.split("\n")
    out = list(lines)
    i = 0
    while i < len(lines):
        commas = _separators(lines[i])
        j = i + 1
        if len(commas) >= 2 and _is_header(lines[i], commas):
            while j < len(lines) and len(_separators(lines[j])) == len(commas):
                j += 1
        if j - i >= 2:
            for k in range(i, j):
                chars = list(lines[k])
                for at in _separators(lines[k]):
                    chars[at] = "\t"
                out[k] = "".join(chars)
        i = j
    return "\n".join(out)


def _separators(line: str) -> list[int]:
    """Offsets of the commas of ``line`` outside double quotes."""
    quoted, out = False, []
    for at, ch in enumerate(line):
        if ch == '"':
            quoted = not quoted
        elif ch == "," and not quoted:
            out.append(at)
    return out


def _is_header(line: str, commas: list[int]) -> bool:
    cuts = [-1, *commas, len(line)]
    names = [line[a + 1:b].strip().strip('"') for a, b in itertools.pairwise(cuts)]
    return all(0 < len(n) <= 60 and not n[0].isdigit() and n[0] not in "-+.$€£" for n in names)


def _key_words_view(text: str) -> str:
    """``text`` with the joiners of its JSON keys that hold a number read as spaces, so that
    ``"hours_last_12_months"`` states "12 months" (same length: offsets hold)."""
    if '":' not in text:
        return text
    out = text
    for m in _PAIR.finditer(text):
        key = m.group("key")
        if any(ch.isdigit() for ch in key):
            out = out[:m.start("key")] + re.sub(r"[_-]", " ", key) + out[m.end("key"):]
    return out


def field_names(text: str) -> dict[int, str]:
    """The field each value of ``text`` stands in, by the value's start: the key of a ``"key":
    value`` pair, or the header cell above a table cell (a header line of word cells, then the
    lines with as many cells; rule lines skipped)."""
    names = {m.start("value"): m.group("key") for m in _PAIR.finditer(text)} if '":' in text else {}
    header: list[str] = []
    pos = 0
    for line in text.split("\n"):
        spans = [(pos + m.start(), m.group(0)) for m in _CELL.finditer(line)]
        pos += len(line) + 1
        if not spans or _RULE.fullmatch(line):
            continue
        if len(spans) >= 2 and all(_NAME.fullmatch(c) for _, c in spans):
            header = [c for _, c in spans]
        elif len(spans) == len(header):
            names.update((start, name) for (start, _), name in zip(spans, header, strict=True))
        else:
            header = []
    return names


def _sentences(line: str, pos: int) -> list[tuple[int, int]]:
    """The sentences of a prose line, when it has more than one: "orders-db is at 92% disk. ... If
    disk passes 95%, page me" gives one number per subject."""
    cuts = [0, *(m.end() for m in _SENTENCE_END.finditer(line)), len(line)]
    if len(cuts) <= 2:
        return []
    return [(pos + a, pos + b) for a, b in itertools.pairwise(cuts) if line[a:b].strip()]


def cells(line: str) -> list[str]:
    """The non-empty cells of a table line (split at tabs, ``|`` and runs of two spaces)."""
    return [c for c in (c.strip() for c in _CELLS.split(line.strip().strip("|"))) if c]


def _span_length(m: re.Match[str]) -> Quantity:
    """The length of a clock range ("02:10–02:55" is 45 minutes), as a duration the row states."""
    h1, m1, h2, m2 = (int(g) for g in m.groups())
    minutes = (h2 * 60 + m2 - h1 * 60 - m1) % (24 * 60)
    return Quantity(minutes * 60.0, "duration", 60.0, False, m.start(), m.end(), m.group(0), written=float(minutes))


def _strip_numbers(text: str) -> str:
    return re.sub(r"(?<![\w-])\d[\d,.]*(?![A-Za-z_-])", " ", text)


def records(text: str) -> tuple[frozenset[str], ...]:
    """The records of one tool output, each as its key words: the objects of a JSON list, or the
    data lines of a table (``kubectl get``, ``psql``; header, rules and ``(N rows)`` left out).
    Empty when the output is not a table of two records or more."""
    objects = _OBJECT.findall(text)
    if len(objects) >= 2:
        return tuple(key_words(o) for o in objects)
    lines = [line for line in text.split("\n") if line.strip()]
    body = [line for line in lines if not _RULE.fullmatch(line) and not _ROW_COUNT.fullmatch(line.strip())]
    if len(body) >= 2 and (body[0].upper() == body[0] or len(body) < len(lines)):
        body = body[1:]
    if len(body) < 2 or not all(_CELLS.search(line) for line in body):
        return ()
    return tuple(key_words(line) for line in body)
