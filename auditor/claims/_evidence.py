"""What one edge's source saw, as the grounding reads it: its tool calls as runs (with the
categories and outcome the tool semantics give them), its evidence index, and quotes into it."""

from __future__ import annotations

import json
from collections.abc import Mapping
from dataclasses import dataclass, field

from ..edges import EvidenceText, Quote
from ..trace import ObservationCapture, ToolCall
from ._claim import Claim
from ._index import EvidenceIndex
from ._tools import Category, Outcome, ToolSemantics, outcome, test_summary


@dataclass(frozen=True)
class Run:
    call: ToolCall
    categories: frozenset[Category]
    outcome: Outcome


@dataclass(frozen=True)
class Evidence:
    """What one edge's source saw. ``index`` holds its texts and rows (it may be the source's
    growing index, so an ``Evidence`` is read when made, for its own edge)."""

    source: str
    runs: tuple[Run, ...]
    index: EvidenceIndex
    relayed: tuple[tuple[EvidenceText, Claim], ...]
    capture: ObservationCapture = "complete"
    tables: tuple[tuple[frozenset[str], ...], ...] = ()
    sources: Mapping[int, EvidenceText] = field(default_factory=dict)
    #: The names of the conversation's participants, as spelled (the source knows whom it talks with).
    participants: frozenset[str] = frozenset()


def make_run(call: ToolCall, semantics: ToolSemantics) -> Run:
    categories = semantics.categories_of(call)
    if test_summary(call):
        categories |= {"tests"}
    return Run(call, categories, outcome(call, log_viewer="ci" in categories))


def quote_at(text: EvidenceText, start: int, end: int) -> Quote:
    line_start = text.text.rfind("\n", 0, start) + 1
    line_end = text.text.find("\n", end)
    line_end = len(text.text) if line_end == -1 else line_end
    if line_end - line_start > 240:
        line_start, line_end = max(line_start, start - 100), min(line_end, end + 100)
    return Quote(text.event_id, text.field, line_start, line_end, text.text[line_start:line_end].strip())


def run_ref(run: Run) -> Quote:
    result = run.call.result or ""
    if run.outcome.line is not None:
        return quote_at(EvidenceText(run.call.id, "result", result), *run.outcome.line)
    if run.call.exit_code is not None:
        return Quote(run.call.id, "exit_code", 0, 0, f"exit code {run.call.exit_code}")
    return quote_at(EvidenceText(run.call.id, "result", result), 0, min(len(result), 120))


def command_of(call: ToolCall) -> str:
    args = call.arguments
    return args if isinstance(args, str) else json.dumps(args or {}, default=str)
