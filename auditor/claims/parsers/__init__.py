"""Tool-output parsers, one module per tool family, registered by family name.

Each parser reads a tool's output text and, when it recognises its family's output, returns a
``Reading``: the outcome it states (``passed``), whether that outcome is *decisive* (a failure
count beats an exit code of 0; a bare marker only speaks when no exit code or status was
recorded), counts, and the span of the line that said so.

Families: ``tests`` (pytest, jest/vitest, unittest, go test, cargo test summaries), ``lint``
(ruff, mypy, eslint, tsc messages), ``execution`` (AG2/AutoGen ``exitcode: N`` lines, tracebacks,
build tool banners), ``ci`` (job logs: ``##[error]``, ``Process completed with exit code N``).
``http`` (status codes) is read separately by ``http_statuses``, since a status is a value a
claim can name, not a pass or a fail.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass


@dataclass(frozen=True)
class Reading:
    family: str
    passed: bool | None
    decisive: bool = False
    counts: tuple[tuple[str, int], ...] = ()
    line: tuple[int, int] | None = None
    code: int | None = None


Parser = Callable[[str], "Reading | None"]
PARSERS: dict[str, Parser] = {}


def register(family: str) -> Callable[[Parser], Parser]:
    def add(parser: Parser) -> Parser:
        PARSERS[family] = parser
        return parser
    return add


def read(text: str) -> dict[str, Reading]:
    """Every family whose output ``text`` is, with what it says."""
    found = {family: parser(text) for family, parser in PARSERS.items()}
    return {family: reading for family, reading in found.items() if reading is not None}


from . import runners  # noqa: E402  (registers the tests and lint parsers)
from .logs import http_statuses  # noqa: E402  (and the execution and ci parsers)

__all__ = ["PARSERS", "Reading", "http_statuses", "read", "register", "runners"]
