"""Test runners and linters.

Test-runner summaries: pytest (``3 failed, 41 passed in 2.1s``), jest/vitest (``Tests: 1 failed,
41 passed, 42 total``), unittest (``Ran 7 tests`` ... ``OK`` / ``FAILED (failures=1)``), go test
(``ok  pkg 0.4s`` / ``--- FAIL`` / ``FAIL pkg``), cargo test (``test result: ok. 42 passed``) and
gradle (``142 tests completed, 2 failed, 3 skipped``: the rest passed).
The last summary line of the output decides: a rerun printed later wins. Except for cargo, which
prints one ``test result:`` line per test binary (unit tests, each integration test file, doc
tests): its run is the sum of them, and failed if any of them failed.

Linters and type checkers: ruff (``All checks passed!`` means 0 errors, ``Found N errors.``),
mypy (``Success: no issues found``, ``Found N errors in M files``), eslint (``✖ N problems``) and
tsc (``error TS2322``).
"""

from __future__ import annotations

import re

from ._registry import Reading, register

_NUMBER = r"\d(?:[\d,]*\d)?"  # "1,204", never the comma after it ("14, failed" counts nothing failed)
_WORDS = r"passed|failed|errors?|skipped|xfailed|xpassed|deselected|total"
#: "3 failed" or, as dotnet test and checkov print them, "Failed: 3" and "Failed checks: 3".
_LABELLED = rf"\b({_WORDS})(?:\s+(?:tests?|checks?))?:\s*({_NUMBER})\b"
_COUNT = re.compile(rf"({_NUMBER})\s+({_WORDS})\b|{_LABELLED}", re.IGNORECASE)
#: A summary line of counts; jest's and vitest's lines for suites, files and snapshots count no tests.
#: Counts written "Label: N" make a summary only two or more to a line ("Passed: 14, Failed: 2").
_SUMMARY_LINE = re.compile(r"^(?!.*\b(?:Test Suites|Snapshots|Test Files)\b)"
                           rf"(?:.*\b{_NUMBER}\s+(?:passed|failed)\b|(?=.*(?:passed|failed)(?:\s+\w+)?:)"
                           rf"(?:.*?{_LABELLED}){{2}}).*$", re.MULTILINE | re.IGNORECASE)
_UNITTEST_RAN = re.compile(r"^Ran (\d+) tests? in", re.MULTILINE)
_COMPLETED = re.compile(rf"({_NUMBER}) tests? completed\b")
_UNITTEST_END = re.compile(r"^(OK|FAILED)\b.*$", re.MULTILINE)
_GO_FAIL = re.compile(r"^(?:--- FAIL:.*|FAIL\t.*)$", re.MULTILINE)
_GO_OK = re.compile(r"^ok\s+\S+.*$", re.MULTILINE)
_CARGO = re.compile(r"^test result: (ok|FAILED)\..*$", re.MULTILINE)


@register("tests")
def parse_tests(text: str) -> Reading | None:
    counts: dict[str, int] = {}
    line: tuple[int, int] | None = None
    summaries = list(_SUMMARY_LINE.finditer(text))
    binaries = list(_CARGO.finditer(text))
    for summary in binaries if len(binaries) > 1 else summaries[-1:]:
        line = (summary.start(), summary.end())
        for m in _COUNT.finditer(summary.group(0)):
            word = (m.group(2) or m.group(3)).lower()
            word = "error" if word.startswith("error") else word
            counts[word] = counts.get(word, 0) + int((m.group(1) or m.group(4)).replace(",", ""))
    ran = _UNITTEST_RAN.search(text)
    if ran is not None:
        counts.setdefault("total", int(ran.group(1)))
    completed = _COMPLETED.search(summaries[-1].group(0)) if summaries else None
    if completed is not None and "passed" not in counts:  # gradle: "142 tests completed, 2 failed, 3 skipped"
        counts.setdefault("total", int(completed.group(1).replace(",", "")))
        rest = counts["total"] - sum(counts.get(k, 0) for k in ("failed", "error", "skipped"))
        if rest >= 0:
            counts["passed"] = rest
    end = _UNITTEST_END.search(text) if ran is not None or summaries else None
    if end is not None and line is None:
        line = (end.start(), end.end())
    failures = counts.get("failed", 0) + counts.get("error", 0)
    if failures or (end is not None and end.group(1) == "FAILED"):
        return Reading("tests", False, True, tuple(counts.items()), line)
    for pattern, passed in ((_CARGO, None), (_GO_FAIL, False), (_GO_OK, True)):
        hit = pattern.search(text)
        if hit is not None:
            state = passed if passed is not None else all(b.group(1) == "ok" for b in binaries)
            return Reading("tests", state, False, tuple(counts.items()), line or (hit.start(), hit.end()))
    if counts or end is not None:
        passed = bool(counts.get("passed")) or (end is not None and end.group(1) == "OK")
        return Reading("tests", True if passed else None, False, tuple(counts.items()), line)
    return None


_LINT_CLEAN = re.compile(r"^(?:All checks passed!?|Success: no issues found.*)$", re.MULTILINE)
_LINT_ERRORS = re.compile(r"^(?:Found (\d+) errors?.*|✖ (\d+) problems? \((\d+) errors?.*|.*\berror TS\d+.*)$",
                    re.MULTILINE)


@register("lint")
def parse_lint(text: str) -> Reading | None:
    bad = _LINT_ERRORS.search(text)
    if bad is not None:
        found = bad.group(1) or bad.group(3)
        counts = (("error", int(found)),) if found is not None else ()
        return Reading("lint", found == "0", False, counts, (bad.start(), bad.end()))
    clean = _LINT_CLEAN.search(text)
    if clean is not None:
        return Reading("lint", True, False, (("error", 0),), (clean.start(), clean.end()))
    return None
