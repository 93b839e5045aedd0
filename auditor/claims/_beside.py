"""Whether a name's line in the evidence says what the handoff's sentence says of it.

A path, identifier, version, ticket or hash that appears in the evidence shows that the thing
exists, not what the sentence claims of it: "HS-05 is already fixed in production" is not
grounded by a ticket list that names HS-05, nor "installed 8.2.3, the latest" by a changelog
line for 8.2.3. The sentence's other content words must stand beside it in the evidence too,
on its line or the lines on either side (at least two of them, or all when it has fewer:
"Files: src/app.py" only names). On the
independent labelled sets, an identifier whose line shared fewer than two of the claim's words
was grounded right 0.71 of the time, against 0.88 with two or more.
"""

from __future__ import annotations

import re

_WORD = re.compile(r"[a-z][a-z_]{2,}")
_STOP = frozenset(
    ["the", "and", "for", "with", "that", "this", "from", "are", "was", "were", "has", "have", "had", "not", "but", "all", "any", "its", "our", "their", "they", "them", "then", "than", "into", "onto", "over", "under", "per", "via", "just", "also", "only", "about", "after", "before", "when", "will", "would", "should", "could", "can", "may", "might", "must", "been", "being", "which", "what", "who", "whom", "whose", "where", "there", "here", "each", "both", "some", "more", "most", "less", "least", "very", "such", "same", "other", "out", "off", "upon", "you", "your", "yours", "we", "us", "it", "is", "be", "as", "at", "by", "on", "of", "in", "to", "or", "an", "so", "if", "do", "does", "did", "done", "now", "still", "yet", "already"])
#: Shared words needed (fewer when the sentence has fewer of its own).
NEEDED = 2
_REACH = 300


def _words(text: str) -> set[str]:
    return {w[:5] for w in _WORD.findall(text.lower()) if w not in _STOP}


def _around(text: str, start: int, end: int) -> str:
    """The lines about a match: its own, the one before and the one after (a record written over
    lines: "Name: requests" above "Version: 2.31.0"), at most ``_REACH`` characters each way."""
    before = text.rfind("\n", 0, max(0, text.rfind("\n", 0, start)))
    after = text.find("\n", text.find("\n", end) + 1) if text.find("\n", end) != -1 else -1
    lo = max(before + 1, start - _REACH)
    hi = min(len(text) if after == -1 else after, end + _REACH)
    return text[lo:start] + " " + text[end:hi]


def said_beside(sentence: str, value: str, text: str, start: int, end: int) -> bool:
    """Whether the evidence ``text`` about ``value`` (at ``start:end``) shares enough of the
    content words ``sentence`` says beside ``value`` to support more than the name."""
    own = _words(sentence.replace(value, " "))
    return len(own & _words(_around(text, start, end))) >= min(NEEDED, len(own))
