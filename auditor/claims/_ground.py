"""Grounding: each claim against what its source could see.

The evidence of an edge is its upstream (see ``auditor.edges``): the tool calls visible to
the source, in trace order, and the texts of its system prompt, the messages it received and
those tool calls' arguments and results. Verdicts:

* ``grounded``: the evidence supports it (the reference names the event);
* ``contradicted``: the evidence says otherwise. For a result claim the *latest* relevant
  run decides, so a failure that a later run fixed does not contradict "tests pass";
* ``invented``: checkable, but nothing in the evidence bears on it;
* ``needs_semantic``: no code can decide it (a wish, a judgement, a run whose output says
  nothing about its outcome). Left for an LLM grader; unmeasured until then;
* ``unverifiable``: what would be ``invented``, when the source's observations are only partly
  captured (``Evidence.capture == "partial"``).

Numbers, dates and times are grounded by ``_numbers``; see ``_verdicts`` for the vocabulary.
"""

from __future__ import annotations

import json
import re
from collections.abc import Mapping
from dataclasses import dataclass, field

from ..edges import EvidenceText, Quote
from ..trace import ObservationCapture, ToolCall
from ._actions import ground_action
from ._claim import Claim
from ._headers import header_value
from ._index import EvidenceIndex
from ._numbers import ground_number
from ._rows import strong
from ._states import ground_state
from ._tally import ground_tally
from ._tools import Category, Outcome, ToolSemantics, outcome, test_summary
from ._verdicts import Grounding, Located, Verdict, under_capture
from .parsers import http_statuses


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


def make_run(call: ToolCall, semantics: ToolSemantics) -> Run:
    categories = semantics.categories_of(call)
    if test_summary(call):
        categories |= {"tests"}
    return Run(call, categories, outcome(call, log_viewer="ci" in categories))


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
    return under_capture(_ground(claim, evidence), evidence.source, evidence.capture)


def _ground(claim: Claim, evidence: Evidence) -> Grounding:
    if claim.kind == "fuzzy":
        return Grounding("needs_semantic", "a statement about what someone wants or said: no code can check it")
    if claim.kind == "result":
        return _ground_result(claim, evidence)
    if claim.kind == "execution":
        return _ground_execution(claim, evidence)
    if claim.kind == "action":
        return _ground_action(claim, evidence)
    if claim.subkind == "state":
        return _ground_state(claim, evidence)
    if claim.subkind == "tally":
        tally = ground_tally(claim.value or claim.text, claim.keys, evidence.index)
        if tally is None:
            return Grounding("needs_semantic", "no evidence line carries the same labels")
        return _quoted(tally)
    if claim.subkind == "http":
        found_status = _ground_http(claim, evidence)
        if found_status is not None:
            return found_status
    if claim.kind == "number" and claim.quantity is not None and claim.quantity.family == "count" \
            and claim.quantity.noun and claim.total is None and not claim.limit:
        headed = header_value(claim.quantity, frozenset(k for k in claim.keys if strong(k)),
                              evidence.index.texts_with(claim.quantity.noun))
        if headed is not None:
            return _quoted(headed)
    if claim.kind == "number" and claim.subkind not in ("url", "version", "hash", "ticket"):
        found = ground_number(claim, evidence.index, evidence.tables)
        if found.row is None:
            return Grounding(found.verdict, found.reason)
        text = evidence.sources[found.row.field_index]
        start, end = found.span or (found.row.start, found.row.end)
        return Grounding(found.verdict, f"{found.reason} in {text.event_id} ({text.field})", _ref(text, start, end))
    return _ground_literal(claim, evidence)


def _quoted(found: Located) -> Grounding:
    return Grounding(found.verdict, f"{found.reason} in {found.text.event_id} ({found.text.field})",
                     _ref(found.text, *found.span))


def _agrees(claim: Claim, passed: bool) -> bool:
    return passed == (claim.polarity == "positive")


def _ground_result(claim: Claim, evidence: Evidence) -> Grounding:
    category = claim.category or "tests"
    runs = [r for r in evidence.runs if category in r.categories]
    if runs and claim.subkind == "earlier":
        return _ground_earlier(claim, runs, category)
    if runs:
        latest = runs[-1]
        ref = _run_ref(latest)
        what = f"the latest {category} run ({latest.call.id}, {latest.call.tool})"
        if latest.outcome.passed is None:
            return Grounding("needs_semantic", f"{what} records no outcome", ref)
        state = "passed" if latest.outcome.passed else "failed"
        summary = ", ".join(f"{n} {name}" for name, n in latest.outcome.counts)
        what += f" {state}" + (f" ({summary})" if summary else "")
        counted = [(name, n) for name, n in claim.counts if latest.outcome.count(name) not in (None, n)]
        passes_only = bool(claim.counts) and {name for name, _ in claim.counts} == {"passed"} \
            and all(latest.outcome.count(name) == n for name, n in claim.counts)
        if passes_only:  # "57 pass" says how many passed, not that nothing failed
            return Grounding("grounded", what, ref)
        reported = _reported_run(claim, runs)
        if reported is not None and reported is not latest:
            whose = f"its counts are those of {reported.call.id}; {what}"
            if _size(latest) < _size(reported):  # "--lf", one file: a partial rerun does not replace the counts
                return Grounding("grounded", f"{whose}, a rerun of part of it", _run_ref(reported))
            return Grounding("needs_semantic", whose, _run_ref(reported))
        if not _agrees(claim, latest.outcome.passed):
            return Grounding("contradicted", what, ref)
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
    outcome_said = _outcome_said(evidence, category)
    if outcome_said is not None:  # a runner this pass does not know (Playwright, xcodebuild, a CI page)
        where, word = outcome_said
        return Grounding("needs_semantic", f"no {category} run this pass recognises is visible to {evidence.source}, "
                                          f"but {where.event_id} reports an outcome ({word.group(0)!r}); it may be "
                                          f"the run", _ref(where, word.start(), word.end()))
    named = _NAMES_RUN.get(category)
    if named is not None and not named.search(claim.text):  # "1,500 passed", "checks pass": parts, pre-checks, a lot
        return Grounding("needs_semantic", f"no {category} run is visible to {evidence.source}, but the claim names "
                                          f"no run either ({claim.text!r}): what passed or failed needs the grader")
    return Grounding("invented", f"no {category} run is visible to {evidence.source}, and no upstream message "
                                 f"reports one")


#: The words that name a run of each kind unambiguously: a claim of an outcome with none of them
#: ("10 failed", "checks pass") may be about anything that passes or fails.
_NAMES_RUN: dict[Category, re.Pattern[str]] = {
    "tests": re.compile(r"\b(?:tests?|testing|\w+_tests?|test_\w+|specs?|suites?|pytest|jest|vitest|mocha|junit)\b",
                        re.IGNORECASE),
    "lint": re.compile(r"\b(?:lint\w*|ruff|eslint|flake8|pylint|clippy)\b", re.IGNORECASE),
    "typecheck": re.compile(r"\b(?:type\s?check\w*|typing|tsc|mypy|pyright)\b", re.IGNORECASE),
    "build": re.compile(r"\b(?:build\w*|compil\w*)\b", re.IGNORECASE),
    "ci": re.compile(r"\b(?:ci|pipelines?|workflows?|github actions|gitlab)\b", re.IGNORECASE),
}


#: Words by which a tool or a message reports how a run went, and the words that say what ran:
#: a line with both may report a run this pass does not recognise.
_OUTCOME_WORD = re.compile(r"\b(?:pass(?:ed|es|ing)?|fail(?:ed|s|ing|ures?)?|succeeded|successful(?:ly)?|"
                           r"green|red|errors?)\b|[✓✔✗✘]", re.IGNORECASE)
_RAN: dict[Category, re.Pattern[str]] = {
    "tests": re.compile(r"\b(?:test(?:s|ing)?|specs?|suites?)\b", re.IGNORECASE),
    "lint": re.compile(r"\b(?:lint\w*|warnings?|problems?)\b", re.IGNORECASE),
    "typecheck": re.compile(r"\b(?:type\s?checks?|typing|tsc|mypy|pyright)\b", re.IGNORECASE),
    "build": re.compile(r"\b(?:build\w*|compil\w*)\b", re.IGNORECASE),
    "ci": re.compile(r"\b(?:ci|checks?|workflows?|pipelines?|jobs?)\b", re.IGNORECASE),
}
_SINGLE_PURPOSE = frozenset({"tests", "lint", "typecheck"})


def _outcome_said(evidence: Evidence, category: Category) -> tuple[EvidenceText, re.Match[str]] | None:
    """The latest line that reports how a run of ``category`` went: an outcome word, and a word
    for what ran on the same line ("Test Suite 'All tests' passed") or in the command of the call
    that printed it (`npx cypress run --spec ...`, `gcloud firebase test android run`). Not in the
    output of a run this pass read as a test, lint or type-check run only: its outcome words are
    that run's (a CI or build log may report any)."""
    ran = _RAN.get(category)
    if ran is None:
        return None
    known = {r.call.id for r in evidence.runs if r.categories & _SINGLE_PURPOSE
             and r.categories <= _SINGLE_PURPOSE | {"execution"}}
    commanded = {r.call.id for r in evidence.runs if ran.search(_command(r.call))}
    for text in reversed(evidence.index.texts):
        if text.event_id in known:
            continue
        printed_by_a_run = text.event_id in commanded and text.field != "arguments"
        for said in _OUTCOME_WORD.finditer(text.text):
            start, end = text.text.rfind("\n", 0, said.start()) + 1, text.text.find("\n", said.end())
            if printed_by_a_run or ran.search(text.text, start, len(text.text) if end < 0 else end):
                return text, said
    return None


def _reported_run(claim: Claim, runs: list[Run]) -> Run | None:
    """The latest run whose counts are every count the claim gives (two or more of them: "406
    passed, 1 failed"), if any: the run the claim reports."""
    if len(claim.counts) < 2:
        return None
    return next((r for r in reversed(runs) if all(r.outcome.count(name) == n for name, n in claim.counts)), None)


def _size(run: Run) -> int:
    """How many tests a run counted: its total, else the sum of its counts."""
    total = run.outcome.count("total")
    return total if total is not None else sum(n for _, n in run.outcome.counts)


def _ground_earlier(claim: Claim, runs: list[Run], category: str) -> Grounding:
    """"The first run had 1 failure": a claim about an earlier run is held against the earlier
    runs, not the latest one; any of them that agrees (outcome and counts) grounds it."""
    decided = [r for r in runs[:-1] or runs if r.outcome.passed is not None]
    for run in decided:
        if _agrees(claim, bool(run.outcome.passed)) and all(
                run.outcome.count(name) in (None, n) for name, n in claim.counts):
            return Grounding("grounded", f"the earlier {category} run {run.call.id} says so", _run_ref(run))
    if decided:
        return Grounding("contradicted", f"no earlier {category} run ({', '.join(r.call.id for r in decided)}) "
                                         f"went that way", _run_ref(decided[0]))
    return Grounding("needs_semantic", f"the earlier {category} runs record no outcome")


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


def _ground_http(claim: Claim, evidence: Evidence) -> Grounding | None:
    """An HTTP status ("returns 200", "403 Forbidden") against the statuses the visible calls
    report (``parsers.http``): one of them -> grounded; others only -> contradicted; none -> the
    number is grounded as any other."""
    code = int(claim.quantity.value) if claim.quantity is not None else -1
    seen: list[tuple[EvidenceText, int, int, int]] = []
    for run in evidence.runs:
        result = run.call.result or ""
        text = EvidenceText(run.call.id, "result", result)
        seen.extend((text, c, a, b) for c, a, b in http_statuses(result, _command(run.call)))
    for text, c, a, b in reversed(seen):
        if c == code:
            return Grounding("grounded", f"{text.event_id} reports HTTP {c}", _ref(text, a, b))
    if seen:
        text, c, a, b = seen[-1]
        codes = sorted({s[1] for s in seen})
        return Grounding("contradicted", f"the visible calls report HTTP {', '.join(map(str, codes))}, "
                                         f"not {code}", _ref(text, a, b))
    return None


def _command(call: ToolCall) -> str:
    args = call.arguments
    return args if isinstance(args, str) else json.dumps(args or {}, default=str)


def _ground_state(claim: Claim, evidence: Evidence) -> Grounding:
    found = ground_state(claim.value or "", sorted(claim.keys), [r.call for r in evidence.runs])
    if found is None:
        return Grounding("needs_semantic", f"no visible call about {', '.join(sorted(claim.keys))} records a status")
    if found.call is None or found.span is None:
        return Grounding(found.verdict, found.reason)
    text = EvidenceText(found.call.id, "result", found.call.result or "")
    return Grounding(found.verdict, found.reason, _ref(text, *found.span))


def _ground_action(claim: Claim, evidence: Evidence) -> Grounding:
    own = [r.call for r in evidence.runs if claim.collective or r.call.agent == evidence.source]
    found = ground_action(claim.subkind or "", claim.value or "", evidence.source, own, claim.shown_code)
    if claim.implicit and not own and found.verdict == "invented":
        return Grounding("needs_semantic", f"'{claim.text}' names no doer, and {evidence.source} has no tool calls: "
                                           f"it may report someone else's work")
    if claim.collective and found.verdict == "invented":
        return Grounding("needs_semantic", f"{found.reason}; 'we' may be another agent whose work "
                                           f"{evidence.source} saw in a message")
    if found.call is None:
        return Grounding(found.verdict, found.reason)
    run = next(r for r in evidence.runs if r.call is found.call)
    return Grounding(found.verdict, found.reason, _run_ref(run))


def _ground_literal(claim: Claim, evidence: Evidence) -> Grounding:
    """Paths, identifiers, URLs, versions, hashes and ticket ids: the same string in the evidence."""
    value = (claim.value or claim.text).strip("`")
    if claim.kind == "path":
        value = value.removeprefix("./")
    if not value:
        return Grounding("needs_semantic", "nothing to match")
    needle = value[:7] if claim.subkind == "hash" else value.lstrip("vV") if claim.subkind == "version" else value
    if claim.subkind == "hash":
        pattern = re.compile(rf"\b{re.escape(needle)}[0-9a-f]*\b", re.IGNORECASE)
    elif claim.subkind == "version":
        pattern = re.compile(rf"(?<![\d.])v?{re.escape(needle)}(?!\d|\.\d)", re.IGNORECASE)
    elif claim.kind in ("identifier", "path"):
        pattern = re.compile(rf"(?<![\w]){re.escape(value)}(?![\w])")
    else:
        pattern = re.compile(rf"(?<![\w.]){re.escape(value)}(?![\w])", re.IGNORECASE)
    found = _search(pattern, evidence, needle)
    if found is None and claim.kind == "identifier" and value.endswith("s") and len(value) > 3:
        found = _search(re.compile(rf"(?<![\w]){re.escape(value[:-1])}(?![\w])"), evidence, value[:-1])
    if found is not None:
        text, m = found
        return Grounding("grounded", f"appears in {text.event_id} ({text.field})", _ref(text, m.start(), m.end()))
    if claim.subkind == "snippet":
        return _ground_snippet(claim, value, evidence)
    if claim.subkind == "version":
        for name in sorted(claim.keys):
            other = _search(re.compile(rf"(?<![\w-]){re.escape(name)}(?![\w-])\S*?[\s=@:]+v?(\d+(?:\.\d+)+)",
                                       re.IGNORECASE), evidence, name)
            if other is not None:
                text, m = other
                return Grounding("contradicted", f"{value!r} appears nowhere; {text.event_id} ({text.field}) gives "
                                                 f"{name} {m.group(1)}", _ref(text, m.start(1), m.end(1)))
    alike = _written_alike(claim, value, evidence)
    if alike is not None:
        text, m = alike
        return Grounding("needs_semantic", f"{value!r} appears nowhere as written, but {m.group(0)!r} in "
                                           f"{text.event_id} may be it", _ref(text, m.start(), m.end()))
    return Grounding("invented", f"{value!r} appears in no tool call and no upstream message")


def _written_alike(claim: Claim, value: str, evidence: Evidence) -> tuple[EvidenceText, re.Match[str]] | None:
    """Absence is looked for loosely, since ``invented`` rests on it: a ticket's number alone
    ("9921" in a ``gh pr list`` row for "#9921"), a name in any case and with or without
    separators, or inside a longer name ("access_key_1" in "access_key_1_active",
    "minAvailable" as "min_available"), a path's file name in another directory."""
    if claim.subkind == "ticket":
        digits = re.search(r"\d{2,}", value)
        return None if digits is None else _search(re.compile(rf"(?<![\w.]){digits.group(0)}(?![\w.])"), evidence,
                                                  digits.group(0))
    if claim.kind == "identifier":
        chars = [c for c in value if c.isalnum()]
        if len(chars) < 4:
            return None
        return _search(re.compile("[-_ .]?".join(re.escape(c) for c in chars), re.IGNORECASE), evidence, "")
    if claim.kind == "path":
        name = value.rstrip("/").rsplit("/", 1)[-1]
        if len(name) < 5 or name == value:
            return None
        return _search(re.compile(rf"(?<![\w.-]){re.escape(name)}(?![\w-])"), evidence, name)
    return None


def _search(pattern: re.Pattern[str], evidence: Evidence, needle: str) -> tuple[EvidenceText, re.Match[str]] | None:
    return evidence.index.search(pattern, needle)


def _ground_snippet(claim: Claim, value: str, evidence: Evidence) -> Grounding:
    """A code snippet of several words ("`import os`", a command line) is a paraphrase or a
    suggestion more often than a quote: grounded when every one of its names is visible,
    otherwise for the graders."""
    names = [w for w in re.findall(r"[A-Za-z_][\w.-]*", value) if len(w) > 1]
    missing = [w for w in names if _search(re.compile(rf"(?<![\w]){re.escape(w)}(?![\w])"), evidence, w) is None]
    if names and not missing:
        return Grounding("grounded", f"every name of {value!r} is visible")
    return Grounding("needs_semantic", f"a code snippet whose names {', '.join(missing) or value!r} are not all "
                                       f"visible: it may be a paraphrase or a suggestion")
