"""Result claims ("tests pass", "3 failed", "lint is clean") against the runs the source saw:
the latest run of the claim's kind decides; a claim about an earlier run is held against the
earlier ones; with no run, a received message may relay one, an output this pass does not
recognise may report one, and a claim that names no run at all is for the grader."""

from __future__ import annotations

import re

from ..edges import EvidenceText
from ._claim import Claim
from ._evidence import Evidence, Run, command_of, quote_at, run_ref
from ._tools import Category
from ._verdicts import Grounding


def agrees(claim: Claim, passed: bool) -> bool:
    return passed == (claim.polarity == "positive")


def ground_result(claim: Claim, evidence: Evidence) -> Grounding:
    category = claim.category or "tests"
    runs = [r for r in evidence.runs if category in r.categories]
    if runs and claim.subkind == "earlier":
        return _ground_earlier(claim, runs, category)
    if runs:
        latest = runs[-1]
        ref = run_ref(latest)
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
                return Grounding("grounded", f"{whose}, a rerun of part of it", run_ref(reported))
            return Grounding("needs_semantic", whose, run_ref(reported))
        if not agrees(claim, latest.outcome.passed):
            part = _part_reported(claim, latest)
            if part is not None:
                return Grounding("needs_semantic", f"{what}, but the claim is about {part!r}, which the run reports "
                                                   f"on its own line", ref)
            return Grounding("contradicted", what, ref)
        if counted:
            name, n = counted[0]
            named = _NAMES_RUN.get(category)
            if named is not None and not named.search(claim.text) and {k for k, _ in claim.counts} <= {"failed", "total"}:
                # "left the 4 failures out": of tasks, perhaps (a count of passes is a test run's)
                return Grounding("needs_semantic", f"claims {n} {name} but names no run; {what}", ref)
            return Grounding("contradicted", f"claims {n} {name}; {what}", ref)
        return Grounding("grounded", what, ref)
    relayed = [(t, c) for t, c in evidence.relayed if c.kind == "result" and c.category == category]
    if relayed:
        text, said = relayed[-1]
        ref = quote_at(text, said.start, said.end)
        if said.polarity == claim.polarity:
            return Grounding("grounded", f"relayed from {text.event_id}; no {category} run was visible", ref)
        return Grounding("contradicted", f"{text.event_id} reported the opposite; no {category} run was visible",
                         ref)
    outcome_said = _outcome_said(evidence, category)
    if outcome_said is not None:  # a runner this pass does not know (Playwright, xcodebuild, a CI page)
        where, word = outcome_said
        return Grounding("needs_semantic", f"no {category} run this pass recognises is visible to {evidence.source}, "
                                          f"but {where.event_id} reports an outcome ({word.group(0)!r}); it may be "
                                          f"the run", quote_at(where, word.start(), word.end()))
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
    commanded = {r.call.id for r in evidence.runs if ran.search(command_of(r.call))}
    for text in reversed(evidence.index.texts):
        if text.event_id in known:
            continue
        printed_by_a_run = text.event_id in commanded and text.field != "arguments"
        for said in _OUTCOME_WORD.finditer(text.text):
            start, end = text.text.rfind("\n", 0, said.start()) + 1, text.text.find("\n", said.end())
            if printed_by_a_run or ran.search(text.text, start, len(text.text) if end < 0 else end):
                return text, said
    return None


def _part_reported(claim: Claim, run: Run) -> str | None:
    """The part of a run the claim names ("apps/docs" of "apps/docs typechecks clean") when the run's
    output gives that part an outcome of its own ("apps/docs typecheck: Done", "py311: FAIL"):
    the run's overall outcome need not be the part's."""
    result = (run.call.result or "").lower()
    for part in sorted(claim.keys):
        for line in result.splitlines():
            if part in line and _PART_OUTCOME.search(line):
                return part
    return None


#: An outcome on a part's own line: the outcome words, and the short ones a per-part summary uses.
_PART_OUTCOME = re.compile(rf"{_OUTCOME_WORD.pattern}|\b(?:ok|done|success|clean)\b", re.IGNORECASE)


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
        if agrees(claim, bool(run.outcome.passed)) and all(
                run.outcome.count(name) in (None, n) for name, n in claim.counts):
            return Grounding("grounded", f"the earlier {category} run {run.call.id} says so", run_ref(run))
    if decided:
        return Grounding("contradicted", f"no earlier {category} run ({', '.join(r.call.id for r in decided)}) "
                                         f"went that way", run_ref(decided[0]))
    return Grounding("needs_semantic", f"the earlier {category} runs record no outcome")
