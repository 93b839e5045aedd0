"""Tool semantics: which recorded tool calls are test runs, lint, type checks, builds, CI or
code execution, and what their outcome was.

The categories are data (``default_tools.yaml``, overridable with a file in ``config/``);
the result parsers are code: pytest / unittest / jest / go / cargo summaries, ruff, mypy
and tsc messages, and the ``exitcode: N (execution ...)`` lines of AG2 / AutoGen.
"""

from __future__ import annotations

import json
import re
from dataclasses import dataclass
from functools import cached_property
from pathlib import Path
from typing import Literal

from pydantic import BaseModel, ConfigDict, Field, ValidationError, field_validator

from ..errors import ConfigError
from ..trace import ToolCall

Category = Literal["tests", "lint", "typecheck", "build", "ci", "execution"]
RESULT_CATEGORIES: tuple[Category, ...] = ("tests", "lint", "typecheck", "build", "ci")
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
    import yaml

    path = Path(path) if path is not None else DEFAULT_TOOLS_FILE
    try:
        raw = yaml.safe_load(path.read_text(encoding="utf-8"))
        return ToolSemantics.model_validate(raw or {})
    except OSError as err:
        raise ConfigError(f"{path}: cannot read tool semantics: {err.strerror or err}") from None
    except yaml.YAMLError as err:
        raise ConfigError(f"{path}: invalid YAML: {err}") from None
    except ValidationError as err:
        first = err.errors()[0]
        raise ConfigError(f"{path}: {'.'.join(str(p) for p in first['loc'])}: {first['msg']}") from None


@dataclass(frozen=True)
class Outcome:
    """What a run says about itself. ``passed`` is None when nothing in the record says.
    ``line`` is the span of the result text that decided it, when one did."""

    passed: bool | None
    counts: tuple[tuple[str, int], ...]
    line: tuple[int, int] | None

    def count(self, name: str) -> int | None:
        return dict(self.counts).get(name)


_COUNT = re.compile(r"(\d[\d,]*)\s+(passed|failed|errors?|error|skipped|xfailed|xpassed|deselected|total)\b",
                    re.IGNORECASE)
_UNITTEST_RAN = re.compile(r"^Ran (\d+) tests? in", re.MULTILINE)
_UNITTEST_END = re.compile(r"^(OK|FAILED)\b.*$", re.MULTILINE)
_EXITCODE = re.compile(r"exitcode:\s*(-?\d+)\s*\(execution (succeeded|failed)\)", re.IGNORECASE)
_FAIL_MARKERS = re.compile(
    r"^(?:FAIL\b.*|Found \d+ errors?.*|.*\berror TS\d+.*|Traceback \(most recent call last\).*|"
    r"test result: FAILED.*|BUILD FAILED.*|npm ERR!.*|.*##\[error\].*|.*Process completed with exit code [1-9].*)$",
    re.MULTILINE)
_PASS_MARKERS = re.compile(
    r"^(?:All checks passed!?|Success: no issues found.*|ok\s+\S+.*|test result: ok\..*|BUILD SUCCESSFUL.*)$",
    re.MULTILINE)
_SUMMARY_LINE = re.compile(r"^.*\b\d[\d,]*\s+(?:passed|failed)\b.*$", re.MULTILINE | re.IGNORECASE)


def outcome(call: ToolCall, log_viewer: bool = False) -> Outcome:
    """Counts from summary lines; pass/fail from the exit code or status when recorded,
    else from the output's own markers. Failure counts always win over an exit code of 0.
    For a ``log_viewer`` (``gh run view`` and other CI queries) the exit code is the viewer's,
    not the job's: only the log's own markers decide."""
    text = call.result or ""
    counts: dict[str, int] = {}
    line: tuple[int, int] | None = None
    summaries = list(_SUMMARY_LINE.finditer(text))
    summary = summaries[-1] if summaries else None
    if summary is not None:
        line = (summary.start(), summary.end())
        for m in _COUNT.finditer(summary.group(0)):
            key = m.group(2).lower().rstrip("s") if m.group(2).lower().startswith("error") else m.group(2).lower()
            counts[key] = int(m.group(1).replace(",", ""))
    ran = _UNITTEST_RAN.search(text)
    if ran is not None:
        counts.setdefault("total", int(ran.group(1)))
    end = _UNITTEST_END.search(text)
    if end is not None and line is None:
        line = (end.start(), end.end())
    exitcode = _EXITCODE.search(text)
    code = None if log_viewer else call.exit_code
    if code is None and exitcode is not None:
        code = int(exitcode.group(1))
    if exitcode is not None and line is None:
        line = (exitcode.start(), exitcode.end())
    failures = counts.get("failed", 0) + counts.get("error", 0)
    if failures or (end is not None and end.group(1) == "FAILED"):
        return Outcome(False, tuple(counts.items()), line)
    if code is not None:
        return Outcome(code == 0, tuple(counts.items()), line)
    fail = _FAIL_MARKERS.search(text) if log_viewer or call.status == "unknown" else None
    if fail is not None:
        return Outcome(False, tuple(counts.items()), line or (fail.start(), fail.end()))
    if call.status != "unknown":
        return Outcome(call.status == "ok", tuple(counts.items()), line)
    ok = _PASS_MARKERS.search(text)
    if ok is not None or counts.get("passed") or (end is not None and end.group(1) == "OK"):
        return Outcome(True, tuple(counts.items()), line or (ok.start(), ok.end()) if ok else line)
    return Outcome(None, tuple(counts.items()), line)
