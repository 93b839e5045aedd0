"""Whether a name's place in the evidence says what the handoff's sentence says of it.

A ticket or version that appears in the evidence shows that the thing exists, not what the
sentence claims of it: "HS-05 is already fixed in production" is not grounded by a ticket list
that names HS-05, nor "installed 8.2.3, the latest" by a changelog line for 8.2.3. The
sentence's other content words must stand beside it in the evidence too: on its line, or on the
line before or after unless that line names another thing written like it (a list's next
record). At least two of them are needed, or all when the sentence has fewer ("Open: HS-05"
only names). Every place the name appears is tried. Which names are read so is
``_ground._SAID_OF``.
"""

from __future__ import annotations

import re

_WORD = re.compile(r"[a-z][a-z_]{2,}")
_STOP = frozenset(
    ["the", "and", "for", "with", "that", "this", "from", "are", "was", "were", "has", "have", "had", "not", "but", "all", "any", "its", "our", "their", "they", "them", "then", "than", "into", "onto", "over", "under", "per", "via", "just", "also", "only", "about", "after", "before", "when", "will", "would", "should", "could", "can", "may", "might", "must", "been", "being", "which", "what", "who", "whom", "whose", "where", "there", "here", "each", "both", "some", "more", "most", "less", "least", "very", "such", "same", "other", "out", "off", "upon", "you", "your", "yours", "does", "did", "done", "now", "still", "yet", "already"])
#: Shared words needed (fewer when the sentence has fewer of its own).
NEEDED = 2
_REACH = 300
_NAMED = re.compile(r"\S*\d\S*")
_BREAK = re.compile(r"[.!?](?=\s)|\n")


def _words(text: str) -> set[str]:
    """Content words, by their first five letters; a token with a digit is a name or a value, not a
    word ("INV-90418" gives no "inv")."""
    return {w[:5] for w in _WORD.findall(_NAMED.sub(" ", text.lower())) if w not in _STOP}


def _shape(value: str) -> re.Pattern[str]:
    """Any name written like ``value``: "HS-05" is like "HS-04", "2.31.0" like "2.30.1"."""
    return re.compile("".join("[A-Za-z]+" if run[0].isalpha() else r"\d+" if run[0].isdigit() else re.escape(run)
                              for run in re.findall(r"[A-Za-z]+|\d+|.", value)))


def _around(text: str, start: int, end: int, value: str) -> str:
    """The lines about a match: its own, and the one before and the one after unless they name
    another thing written like it (a list's next record: "HS-04 fixed" above "HS-05 open"), at most
    ``_REACH`` characters each way."""
    line_start = text.rfind("\n", 0, start) + 1
    line_end = text.find("\n", end)
    line_end = len(text) if line_end == -1 else line_end
    own = text[max(line_start, start - _REACH):start] + " " + text[end:min(line_end, end + _REACH)]
    like = _shape(value)
    before = text[text.rfind("\n", 0, max(0, line_start - 1)) + 1:max(0, line_start - 1)]
    after_end = text.find("\n", line_end + 1)
    after = text[line_end + 1:len(text) if after_end == -1 else after_end] if line_end < len(text) else ""
    near = [line[-_REACH:] if line is before else line[:_REACH] for line in (before, after) if not like.search(line)]
    return " ".join([own, *near])


def enclosing_sentence(text: str, start: int, end: int) -> str:
    """The sentence of ``text`` around ``start:end``: from the last break before it (a full stop,
    "!" or "?" before a space, or a new line) to the next one after it."""
    breaks = [m.end() for m in _BREAK.finditer(text, 0, start)]
    after = _BREAK.search(text, end)
    return text[breaks[-1] if breaks else 0:after.start() + 1 if after else len(text)]


def said_beside(sentence: str, value: str, text: str, start: int, end: int) -> bool:
    """Whether the evidence ``text`` about ``value`` (at ``start:end``) shares enough of the
    content words ``sentence`` says beside ``value`` to support more than the name."""
    own = _words(sentence.replace(value, " "))
    return len(own & _words(_around(text, start, end, value))) >= min(NEEDED, len(own))
