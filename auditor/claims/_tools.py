"""Tool semantics: which recorded tool calls are test runs, lint, type checks, builds, CI or
code execution, and what their outcome was.

The categories are data (``default_tools.yaml``, overridable with a file in ``config/``);
the result parsers are code, one module per tool family in ``parsers``.
"""

from __future__ import annotations

import json
import re
from dataclasses import dataclass
from functools import cached_property
from pathlib import Path
from typing import Literal

from pydantic import BaseModel, ConfigDict, Field, ValidationError, field_validator

from .._files import invalid, read_yaml
from ..trace import ToolCall
from .parsers import read

Category = Literal["tests", "lint", "typecheck", "build", "ci", "execution"]
DEFAULT_TOOLS_FILE = Path(__file__).with_name("default_tools.yaml")


class CategoryRule(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True)
    tools: list[str] = Field(default_factory=list, description="Tool names (case-insensitive).")
    commands: list[str] = Field(default_factory=list, description="Regexes over the command text.")

    @field_validator("commands")
    @classmethod
    def _compiles(cls, patterns: list[str]) -> list[str]:
        for pattern in patterns:
            try:
                re.compile(pattern)
            except re.error as err:
                raise ValueError(f"bad regex {pattern!r}: {err}") from None
        return patterns


class ToolSemantics(BaseModel):
    """The ``edge-audit.tools.v1`` file."""

    model_config = ConfigDict(extra="forbid", frozen=True)
    schema_: Literal["edge-audit.tools.v1"] = Field(default="edge-audit.tools.v1", alias="schema")
    command_fields: list[str] = Field(default_factory=list)
    generic_tools: list[str] = Field(default_factory=list)
    categories: dict[Literal["tests", "lint", "typecheck", "build", "ci"], CategoryRule] = Field(
        default_factory=dict)

    @cached_property
    def _compiled(self) -> list[tuple[Category, frozenset[str], re.Pattern[str] | None]]:
        out: list[tuple[Category, frozenset[str], re.Pattern[str] | None]] = []
        for name, rule in self.categories.items():
            pattern = re.compile("|".join(f"(?:{p})" for p in rule.commands), re.IGNORECASE) if rule.commands else None
            out.append((name, frozenset(t.lower() for t in rule.tools), pattern))
        return out

    def command_text(self, call: ToolCall) -> str:
        """The command a call ran: its ``command_fields``, or a generic tool's plain-string
        arguments. Other arguments (a search query that mentions "pytest") are not commands."""
        args = call.arguments
        if isinstance(args, str):
            return args if call.tool.lower() in {t.lower() for t in self.generic_tools} else ""
        if not args:
            return ""
        return " ".join(v if isinstance(v, str) else json.dumps(v, default=str)
                        for v in (args[f] for f in self.command_fields if f in args))

    def categories_of(self, call: ToolCall) -> frozenset[Category]:
        tool = call.tool.lower()
        command = self.command_text(call)
        found: set[Category] = {name for name, tools, pattern in self._compiled
                                if tool in tools or (pattern is not None and pattern.search(command))}
        if found or tool in {t.lower() for t in self.generic_tools}:
            found.add("execution")
        return frozenset(found)


def load_tool_semantics(path: str | Path | None = None) -> ToolSemantics:
    path = Path(path) if path is not None else DEFAULT_TOOLS_FILE
    raw = read_yaml(path, "tool semantics")
    try:
        return ToolSemantics.model_validate(raw or {})
    except ValidationError as err:
        raise invalid(path, err) from None


@dataclass(frozen=True)
class Outcome:
    """What a run says about itself. ``passed`` is None when nothing in the record says.
    ``line`` is the span of the result text that decided it, when one did."""

    passed: bool | None
    counts: tuple[tuple[str, int], ...]
    line: tuple[int, int] | None

    def count(self, name: str) -> int | None:
        return dict(self.counts).get(name)


def outcome(call: ToolCall, log_viewer: bool = False) -> Outcome:
    """What a call's output says about the run, by the tool-family parsers (``parsers``).
    A decisive reading (a failure count) wins; then the exit code or status when recorded
    (AG2's ``exitcode: N`` line is the code's own exit code); then the parsers' markers.
    For a ``log_viewer`` (``gh run view`` and other CI queries) the exit code is the viewer's,
    not the job's: the log's own markers decide before the recorded status."""
    readings = read(call.result or "")
    tests = readings.get("tests")
    counts = tests.counts if tests is not None else ()
    lines = [r.line for r in readings.values() if r.line is not None]
    line = tests.line if tests is not None and tests.line is not None else (lines[0] if lines else None)
    decisive = next((r for r in readings.values() if r.decisive), None)
    if decisive is not None:
        return Outcome(decisive.passed, counts, decisive.line or line)
    ag2 = readings.get("execution")
    code = None if log_viewer else call.exit_code
    if code is None and ag2 is not None and ag2.code is not None:
        code = ag2.code
    if code is not None:
        return Outcome(code == 0, counts, line)
    markers = [r for r in readings.values() if r.passed is not None]
    failed = next((r for r in markers if r.passed is False), None)
    if failed is not None and (log_viewer or call.status == "unknown"):
        return Outcome(False, counts, failed.line)
    if call.status != "unknown":
        return Outcome(call.status == "ok", counts, line)
    if markers:
        return Outcome(True, counts, markers[0].line)
    return Outcome(None, counts, line)


def test_summary(call: ToolCall) -> bool:
    """The output holds a test runner's summary, whatever the tool was (``gh run view`` of a
    job that ran pytest): the call is then evidence about the tests too."""
    tests = read(call.result or "").get("tests")
    return tests is not None and bool(tests.counts)
