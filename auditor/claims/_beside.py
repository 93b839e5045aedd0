"""Whether a name's place in the evidence says what the handoff's sentence says of it.

A ticket or version that appears in the evidence shows that the thing exists, not what the
sentence claims of it: "HS-05 is already fixed in production" is not grounded by a ticket list
that names HS-05, nor "installed 8.2.3, the latest" by a changelog line for 8.2.3. The
sentence's other content words must stand beside it in the evidence too: on its line, or on the
line before or after unless that line names another thing written like it (a list's next
record). At least two of them are needed, or all when the sentence has fewer ("Open: HS-05"
only names). The latest text naming it decides, and any place of it there may say it. Which names
are read so is ``_ground._SAID_OF``.
"""

from __future__ import annotations

import re

_WORD = re.compile(r"[a-z][a-z_]{2,}")
_STOP = frozenset({
    "the", "and", "for", "with", "that", "this", "from", "are", "was", "were", "has", "have", "had", "not",
    "but", "all", "any", "its", "our", "their", "they", "them", "then", "than", "into", "onto", "over",
    "under", "per", "via", "just", "also", "only", "about", "after", "before", "when", "will", "would",
    "should", "could", "can", "may", "might", "must", "been", "being", "which", "what", "who", "whom", "whose",
    "where", "there", "here", "each", "both", "some", "more", "most", "less", "least", "very", "such", "same",
    "other", "out", "off", "upon", "you", "your", "yours", "does", "did", "done", "now", "still", "yet",
    "already"
})
#: Shared words needed (fewer when the sentence has fewer of its own).
NEEDED = 2
_REACH = 300
_NAMED = re.compile(r"(?<!\S)\S*\d\S*")
#: Where a handoff sentence ends: a full stop, "!" or "?" before a space, a blank line, or a new
#: line that opens a list item (a hard-wrapped line goes on with the same sentence).
_BREAK = re.compile(r"[.!?](?=\s)|\n\s*\n|\n(?=\s*(?:[-*\u2022]|\d+[.)])\s)")


def _words(text: str) -> set[str]:
    """Content words, by their first five letters; a token with a digit is a name or a value, not a
    word ("INV-90418" gives no "inv")."""
    return {w[:5] for w in _WORD.findall(_NAMED.sub(" ", text.lower())) if w not in _STOP}


def _shape(value: str) -> re.Pattern[str]:
    """Any name written like ``value``: "HS-05" is like "HS-04", "2.31.0" like "2.30.1"."""
    return re.compile("".join("[A-Za-z]+" if run[0].isalpha() else r"\d+" if run[0].isdigit() else re.escape(run)
                              for run in re.findall(r"[A-Za-z]+|\d+|.", value)))


def _around(text: str, start: int, end: int) -> str:
    """The text about a match, at most ``_REACH`` characters each way: its own line, and the line
    before and the one after where they lie within reach and name no other thing written like it
    (a list's next record: "HS-04 fixed" above "HS-05 open")."""
    lo, hi = max(0, start - _REACH), min(len(text), end + _REACH)
    line_start = text.rfind("\n", lo, start) + 1 or lo
    line_end = text.find("\n", end, hi)
    line_end = hi if line_end == -1 else line_end
    own = text[line_start:start] + " " + text[end:line_end]
    like = _shape(text[start:end])
    before = text[lo:max(lo, line_start - 1)].rsplit("\n", 1)[-1] if line_start > lo else ""
    after = text[min(line_end + 1, hi):hi].split("\n", 1)[0] if line_end < hi else ""
    return " ".join([own, *(line for line in (before, after) if not like.search(line))])


def enclosing_sentence(text: str, start: int, end: int) -> str:
    """The sentence of ``text`` around ``start:end``: from the last break before it to the next
    one after it (``_BREAK``)."""
    breaks = [m.end() for m in _BREAK.finditer(text, 0, start)]
    after = _BREAK.search(text, end)
    return text[breaks[-1] if breaks else 0:after.start() + 1 if after else len(text)]


def own_words(sentence: str, value: str) -> set[str]:
    """What a handoff sentence says beside ``value``: its content words without the name."""
    return _words(sentence.replace(value, " "))


def said_beside(own: set[str], text: str, start: int, end: int) -> bool:
    """Whether the evidence ``text`` about a name (at ``start:end``) shares enough of ``own``,
    the content words its handoff sentence says beside it, to support more than the name."""
    return len(own & _words(_around(text, start, end))) >= min(NEEDED, len(own))
