"""Bounded JSON decoding for untrusted trace files.

``json.loads`` recurses once per nesting level (a deep enough document raises
``RecursionError``) and refuses integers over 4,300 digits with a bare ``ValueError``; a
``\\ud800`` escape decodes to a lone surrogate that no UTF-8 writer accepts. ``loads`` turns
the first two into ``JsonLimitError`` (a ``ValueError`` with a plain reason), refuses documents
nested deeper than ``MAX_DEPTH`` (the importers, pydantic and ``json.dumps`` recurse too), and
replaces lone surrogates with U+FFFD, so that every string of a trace can be written to a report.
"""

from __future__ import annotations

import json
import re
from typing import Any

#: Deepest nesting of arrays and objects a trace may have. Real traces stay under 20; the
#: importers, pydantic and json.dumps all recurse, so the limit sits far below Python's.
MAX_DEPTH = 64

_SURROGATE_ESCAPE = re.compile(r"\\u[dD][89a-fA-F][0-9a-fA-F]{2}")
_LONE_SURROGATE = re.compile("[\ud800-\udfff]")


class JsonLimitError(ValueError):
    """The document is deeper, or holds a longer number, than the limits allow."""


def depth_exceeds(value: Any, limit: int = MAX_DEPTH) -> bool:
    """Whether the arrays/objects of a decoded document nest deeper than ``limit`` (iterative)."""
    stack: list[tuple[Any, int]] = [(value, 1)]
    while stack:
        node, depth = stack.pop()
        if depth > limit:
            return True
        for item in node.values() if isinstance(node, dict) else node:
            if isinstance(item, (dict, list)):
                stack.append((item, depth + 1))
    return False


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
    and ``JsonLimitError`` past a limit. The depth is measured on the decoded document, and only
    when the text has more brackets than the limit; past Python's own recursion limit the
    decoder stops first, and that is reported the same way."""
    try:
        document = json.loads(text)
    except RecursionError:
        raise JsonLimitError(f"arrays and objects nest deeper than the limit of {max_depth}") from None
    except json.JSONDecodeError:
        raise
    except ValueError as err:  # Python refuses integers over 4,300 digits
        raise JsonLimitError(f"a number is too large to read ({err})") from None
    if (text.count("[") + text.count("{") > max_depth and isinstance(document, (dict, list))
            and depth_exceeds(document, max_depth)):
        raise JsonLimitError(f"arrays and objects nest deeper than the limit of {max_depth}")
    if _SURROGATE_ESCAPE.search(text):
        document = _clean(document)
    return document
