"""Bounded JSON decoding for untrusted trace files.

``json.loads`` recurses once per nesting level (a deep enough document raises
``RecursionError``) and refuses integers over 4,300 digits with a bare ``ValueError``; a
``\\ud800`` escape decodes to a lone surrogate that no UTF-8 writer accepts. ``loads`` turns
the first two into ``JsonLimitError`` (a ``ValueError`` with a plain reason) before they happen,
and replaces lone surrogates with U+FFFD, so that every string of a trace can be written to a
report. The checks are linear and run in C (regular expressions), not per character in Python.
"""

from __future__ import annotations

import json
import re
from typing import Any

#: Deepest nesting of arrays and objects a trace may have. Real traces stay under 20; the
#: importers, pydantic and json.dumps all recurse, so the limit sits far below Python's.
MAX_DEPTH = 64
#: Longest integer literal, in digits (Python refuses over 4,300 when converting).
MAX_INT_DIGITS = 1_000

_STRING = re.compile(r'"[^"\\]*(?:\\.[^"\\]*)*"', re.DOTALL)
_NOT_BRACKET = re.compile(r"[^\[\]{}]+")
_INNERMOST = re.compile(r"\[\]|\{\}")
_SURROGATE_ESCAPE = re.compile(r"\\u[dD][89a-fA-F][0-9a-fA-F]{2}")
_LONE_SURROGATE = re.compile("[\ud800-\udfff]")


class JsonLimitError(ValueError):
    """The document is deeper, or holds a longer number, than the limits allow."""


def nesting_depth_exceeds(text: str, limit: int = MAX_DEPTH) -> bool:
    """Whether arrays/objects in ``text`` nest deeper than ``limit`` (strings are ignored).
    Each pass removes the innermost empty pairs; a document of depth d empties in d passes."""
    if text.count("[") + text.count("{") <= limit:
        return False
    brackets = _NOT_BRACKET.sub("", _STRING.sub("", text))
    for _ in range(limit):
        reduced = _INNERMOST.sub("", brackets)
        if not reduced or reduced == brackets:
            return False
        brackets = reduced
    return bool(brackets) and _INNERMOST.search(brackets) is not None


def _parse_int(literal: str) -> int:
    if len(literal.lstrip("-")) > MAX_INT_DIGITS:
        raise JsonLimitError(f"an integer of {len(literal):,} digits is over the limit of {MAX_INT_DIGITS:,}")
    return int(literal)


def clean_text(value: str) -> str:
    """``value`` with lone surrogates replaced by U+FFFD."""
    return _LONE_SURROGATE.sub("\ufffd", value)


def _clean(value: Any) -> Any:
    """Every string in a decoded document, keys included, without lone surrogates (iterative)."""
    root = [value]
    stack: list[list[Any] | dict[str, Any]] = [root]
    while stack:
        node = stack.pop()
        if isinstance(node, list):
            for i, item in enumerate(node):
                if isinstance(item, str):
                    node[i] = clean_text(item)
                elif isinstance(item, (list, dict)):
                    stack.append(item)
        else:
            for key in list(node):
                item = node[key]
                if isinstance(item, str):
                    item = clean_text(item)
                elif isinstance(item, (list, dict)):
                    stack.append(item)
                fixed = clean_text(key)
                if fixed != key:
                    del node[key]
                node[fixed] = item
    return root[0]


def loads(text: str, *, max_depth: int = MAX_DEPTH) -> Any:
    """``json.loads`` within the limits above. Raises ``json.JSONDecodeError`` for invalid JSON
    and ``JsonLimitError`` past a limit."""
    if nesting_depth_exceeds(text, max_depth):
        raise JsonLimitError(f"arrays and objects nest deeper than the limit of {max_depth}")
    try:
        document = json.loads(text, parse_int=_parse_int)
    except RecursionError:
        raise JsonLimitError(f"arrays and objects nest deeper than the limit of {max_depth}") from None
    if _SURROGATE_ESCAPE.search(text):
        document = _clean(document)
    return document

