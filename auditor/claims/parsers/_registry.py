"""The parser registry and what a parser returns (the families register themselves here)."""

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
