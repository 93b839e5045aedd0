"""Grounding: each claim against what its source could see.

The evidence of an edge is its upstream (see ``auditor.edges``): the tool calls visible to
the source, in trace order, and the texts of its system prompt, the messages it received and
those tool calls' arguments and results. Verdicts:

* ``grounded``: the evidence supports it (the reference names the event);
* ``contradicted``: the evidence says otherwise. For a result claim the *latest* relevant
  run decides, so a failure that a later run fixed does not contradict "tests pass";
* ``invented``: checkable, but nothing in the evidence bears on it;
* ``needs_semantic``: no code can decide it (a wish, a judgement, a run whose output says
  nothing about its outcome). Left for an LLM grader; unmeasured until then.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Literal

from ..edges import Quote
from ..nlp._anchors import number_key
from ..trace import ToolCall
from ._extract import _NUMBER, Claim
from ._tools import Category, Outcome, ToolSemantics, outcome

Verdict = Literal["grounded", "contradicted", "invented", "needs_semantic"]


@dataclass(frozen=True)
class EvidenceText:
    event_id: str
    field: str
    text: str


@dataclass(frozen=True)
class Run:
    call: ToolCall
    categories: frozenset[Category]
    outcome: Outcome


@dataclass(frozen=True)
class Grounding:
    verdict: Verdict
    reason: str
    ref: Quote | None = None


@dataclass(frozen=True)
class NumberMention:
    key: str
    unit: str | None
    context: frozenset[str]
    start: int
    end: int


@dataclass(frozen=True)
class Evidence:
    source: str
    runs: tuple[Run, ...]
    texts: tuple[EvidenceText, ...]
    numbers: tuple[tuple[EvidenceText, tuple[NumberMention, ...]], ...]
    relayed: tuple[tuple[EvidenceText, Claim], ...]


def make_run(call: ToolCall, semantics: ToolSemantics) -> Run:
    return Run(call, semantics.categories_of(call), outcome(call))


def number_mentions(text: str) -> tuple[NumberMention, ...]:
    low = text.lower()
    out = []
    for m in _NUMBER.finditer(text):
        before = re.findall(r"[a-z][a-z0-9_]*", low[max(0, m.start() - 40):m.start()])[-4:]
        out.append(NumberMention(number_key(m.group("num")), _unit_family(m.group("unit")), frozenset(before),
                                 m.start(), m.end()))
    return tuple(out)


_DURATION_MS = {"ms": 1.0, "µs": 0.001, "us": 0.001, "s": 1000.0, "sec": 1000.0, "secs": 1000.0, "second": 1000.0,
                "seconds": 1000.0, "minute": 60000.0, "minutes": 60000.0, "min": 60000.0, "mins": 60000.0}


def _unit_family(unit: str | None) -> str | None:
    if unit is None:
        return None
    unit = unit.lower()
    if unit in _DURATION_MS:
        return "duration"
    if unit in ("%", "percent"):
        return "percent"
    return unit.rstrip("s") or unit


def _ref(text: EvidenceText, start: int, end: int) -> Quote:
    line_start = text.text.rfind("\n", 0, start) + 1
    line_end = text.text.find("\n", end)
    line_end = len(text.text) if line_end == -1 else line_end
    if line_end - line_start > 240:
        line_start, line_end = max(line_start, start - 100), min(line_end, end + 100)
    return Quote(text.event_id, text.field, line_start, line_end, text.text[line_start:line_end].strip())


def _run_ref(run: Run) -> Quote:
    result = run.call.result or ""
    if run.outcome.line is not None:
        return _ref(EvidenceText(run.call.id, "result", result), *run.outcome.line)
    if run.call.exit_code is not None:
        return Quote(run.call.id, "exit_code", 0, 0, f"exit code {run.call.exit_code}")
    return _ref(EvidenceText(run.call.id, "result", result), 0, min(len(result), 120))


def ground(claim: Claim, evidence: Evidence) -> Grounding:
    if claim.kind == "fuzzy":
        return Grounding("needs_semantic", "a statement about what someone wants or said: no code can check it")
    if claim.kind == "result":
        return _ground_result(claim, evidence)
    if claim.kind == "execution":
        return _ground_execution(claim, evidence)
    if claim.kind == "action":
        return _ground_action(claim, evidence)
    if claim.kind == "number" and claim.subkind not in ("url", "version", "hash", "ticket"):
        return _ground_number(claim, evidence)
    return _ground_literal(claim, evidence)


def _agrees(claim: Claim, passed: bool) -> bool:
    return passed == (claim.polarity == "positive")


def _ground_result(claim: Claim, evidence: Evidence) -> Grounding:
    category = claim.category or "tests"
    runs = [r for r in evidence.runs if category in r.categories]
    if runs:
        latest = runs[-1]
        ref = _run_ref(latest)
        what = f"the latest {category} run ({latest.call.id}, {latest.call.tool})"
        if latest.outcome.passed is None:
            return Grounding("needs_semantic", f"{what} records no outcome", ref)
        state = "passed" if latest.outcome.passed else "failed"
        summary = ", ".join(f"{n} {name}" for name, n in latest.outcome.counts)
        what += f" {state}" + (f" ({summary})" if summary else "")
        if not _agrees(claim, latest.outcome.passed):
            return Grounding("contradicted", what, ref)
        counted = [(name, n) for name, n in claim.counts if latest.outcome.count(name) not in (None, n)]
        if counted:
            name, n = counted[0]
            return Grounding("contradicted", f"claims {n} {name}; {what}", ref)
        return Grounding("grounded", what, ref)
    relayed = [(t, c) for t, c in evidence.relayed if c.kind == "result" and c.category == category]
    if relayed:
        text, said = relayed[-1]
        ref = _ref(text, said.start, said.end)
        if said.polarity == claim.polarity:
            return Grounding("grounded", f"relayed from {text.event_id}; no {category} run was visible", ref)
        return Grounding("contradicted", f"{text.event_id} reported the opposite; no {category} run was visible",
                         ref)
    return Grounding("invented", f"no {category} run is visible to {evidence.source}, and no upstream message "
                                 f"reports one")


def _ground_execution(claim: Claim, evidence: Evidence) -> Grounding:
    if claim.subkind == "ran" and evidence.runs:
        latest_run = evidence.runs[-1]
        return Grounding("grounded", f"a run is visible ({latest_run.call.id}, {latest_run.call.tool})",
                         _run_ref(latest_run))
    runs = [r for r in evidence.runs if r.outcome.passed is not None]
    if runs:
        latest = runs[-1]
        state = "succeeded" if latest.outcome.passed else "failed"
        verdict: Verdict = "grounded" if _agrees(claim, bool(latest.outcome.passed)) else "contradicted"
        return Grounding(verdict, f"the latest run ({latest.call.id}, {latest.call.tool}) {state}",
                         _run_ref(latest))
    if evidence.runs:
        return Grounding("needs_semantic", "the visible runs record no outcome", _run_ref(evidence.runs[-1]))
    return Grounding("invented", f"no run is visible to {evidence.source}")


_RUN_VERBS = frozenset(["ran", "run", "executed", "re-ran", "reran", "tested", "queried", "benchmarked", "profiled", "deployed", "installed", "migrated"])
_GENERIC_OBJECTS = frozenset(["it", "this", "that", "code", "script", "program", "snippet", "command", "them", "everything"])
_STOP = frozenset(["the", "a", "an", "and", "or", "of", "to", "in", "on", "for", "with", "it", "this", "that", "all", "my", "our", "its", "their", "then", "also", "again", "now", "some", "any"])


def _ground_action(claim: Claim, evidence: Evidence) -> Grounding:
    own = [r for r in evidence.runs if r.call.agent == evidence.source]
    verb = claim.subkind or ""
    if not own:
        return Grounding("invented", f"'{verb}' is a claim about {evidence.source}'s own action, and "
                                     f"{evidence.source} made no tool call before this message")
    obj = (claim.value or "").lower()
    words = [w for w in re.findall(r"[a-z0-9_./-]+", obj) if w not in _STOP]
    concrete = [w for w in words if any(ch in w for ch in "./_") or w in _TOOL_WORDS]
    for run in reversed(own):
        haystack = " ".join([run.call.tool, _command(run.call)]).lower()
        if any(w in haystack for w in concrete) or any(_TOOL_WORDS.get(w) in run.categories for w in words):
            return Grounding("grounded", f"{evidence.source}'s own call {run.call.id} ({run.call.tool}) matches",
                             _run_ref(run))
        if verb in _RUN_VERBS and not concrete and (not words or set(words) & _GENERIC_OBJECTS):
            return Grounding("grounded", f"{evidence.source} ran {run.call.tool} ({run.call.id})", _run_ref(run))
    if concrete:
        return Grounding("invented", f"no tool call of {evidence.source} mentions {', '.join(concrete)}")
    return Grounding("needs_semantic", f"{evidence.source} made tool calls, but none can be matched to '{obj}'")


_TOOL_WORDS: dict[str, Category] = {
    "tests": "tests", "test": "tests", "pytest": "tests", "suite": "tests", "unittest": "tests",
    "mypy": "typecheck", "tsc": "typecheck", "pyright": "typecheck", "ruff": "lint", "flake8": "lint",
    "eslint": "lint", "linter": "lint", "lint": "lint", "build": "build",
}


def _command(call: ToolCall) -> str:
    args = call.arguments
    return args if isinstance(args, str) else str(args or "")


def _ground_literal(claim: Claim, evidence: Evidence) -> Grounding:
    """Paths, identifiers, URLs, versions, hashes and ticket ids: the same string in the evidence."""
    value = (claim.value or claim.text).strip("`")
    if claim.kind == "path":
        value = value.removeprefix("./")
    if not value:
        return Grounding("needs_semantic", "nothing to match")
    if claim.subkind == "hash":
        pattern = re.compile(rf"\b{re.escape(value[:7])}[0-9a-f]*\b", re.IGNORECASE)
    elif claim.kind in ("identifier", "path"):
        pattern = re.compile(rf"(?<![\w]){re.escape(value)}(?![\w])")
    else:
        pattern = re.compile(rf"(?<![\w.]){re.escape(value)}(?![\w])", re.IGNORECASE)
    for text in reversed(evidence.texts):
        m = pattern.search(text.text)
        if m is not None:
            return Grounding("grounded", f"appears in {text.event_id} ({text.field})", _ref(text, m.start(), m.end()))
    return Grounding("invented", f"{value!r} appears in no tool call and no upstream message")


def _equal(claim_key: str, claim_unit: str | None, mention: NumberMention, raw_unit: str | None) -> bool:
    try:
        a, b = float(claim_key), float(mention.key)
    except ValueError:
        return claim_key == mention.key
    if claim_unit in _DURATION_MS and raw_unit in _DURATION_MS:
        a, b = a * _DURATION_MS[claim_unit], b * _DURATION_MS[raw_unit]
    decimals = len(claim_key.split(".")[1]) if "." in claim_key else 0
    return abs(a - b) < 1e-9 or (decimals < 3 and round(b, decimals) == a and a != 0)


def _ground_number(claim: Claim, evidence: Evidence) -> Grounding:
    key, unit = claim.value or "", (claim.unit or "").lower() or None
    family = _unit_family(unit)
    context = set(claim.context)
    conflict: tuple[int, EvidenceText, NumberMention] | None = None
    for text, mentions in reversed(evidence.numbers):
        for mention in mentions:
            raw_unit = _NUMBER.match(text.text, mention.start)
            raw = raw_unit.group("unit").lower() if raw_unit and raw_unit.group("unit") else None
            if _equal(key, unit, mention, raw):
                return Grounding("grounded", f"the same number appears in {text.event_id} ({text.field})",
                                 _ref(text, mention.start, mention.end))
            overlap = len(context & mention.context)
            if text.field == "result" and family is not None and mention.unit == family and overlap \
                    and (conflict is None or overlap > conflict[0]):
                conflict = (overlap, text, mention)
    if conflict is not None:
        _, text, mention = conflict
        return Grounding("contradicted", f"{text.event_id} reports {text.text[mention.start:mention.end]!r} "
                                         f"for the same quantity", _ref(text, mention.start, mention.end))
    return Grounding("invented", f"{claim.text!r} appears in no tool call and no upstream message")
