"""The claims pass: labelled cases, result parsing, tool semantics, examples and reports."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
import yaml
from conftest import EXAMPLES, ROOT
from labelled_claims import (
    case_trace,
    claim_check,
    claim_scores,
    handoff_verdicts,
    load_claim_cases,
    run_claim_case,
)

from auditor import audit
from auditor._cli.main import main
from auditor.checks import CheckContext, CheckFn, make_check
from auditor.claims import DEFAULT_TOOLS_FILE, extract_claims, load_tool_semantics, outcome
from auditor.edges import build_edges
from auditor.errors import ConfigError
from auditor.nlp import TextAnalyzer
from auditor.report import to_junit, to_markdown
from auditor.trace import ToolCall, Trace

CASES = load_claim_cases()


@pytest.fixture(scope="module")
def check() -> CheckFn:
    return claim_check()


def test_labelled_set_is_big_and_covers_every_kind_and_verdict() -> None:
    pairs = [tuple(p) for c in CASES for p in c["expected"]]
    assert len(pairs) >= 50
    assert {k for k, _ in pairs} == {"result", "execution", "action", "path", "identifier", "number", "fuzzy"}
    assert {v for _, v in pairs} == {"grounded", "contradicted", "invented", "needs_semantic"}


@pytest.mark.parametrize("case", CASES, ids=[c["id"] for c in CASES])
def test_labelled_claim(check: CheckFn, case: dict[str, Any]) -> None:
    assert run_claim_case(check, case) == case["expected"], case["id"]


def test_scores_count_mismatches() -> None:
    scores = claim_scores([([["result", "grounded"]], [["result", "contradicted"]])])
    assert scores["grounded"] == (1.0, 0.0, 1)
    assert scores["contradicted"] == (0.0, 1.0, 0)


def _call(result: str, **kw: Any) -> ToolCall:
    return ToolCall.model_validate({"id": "t", "agent": "a", "tool": kw.pop("tool", "bash"), "result": result, **kw})


@pytest.mark.parametrize(("result", "extra", "passed", "counts"), [
    ("===== 3 failed, 41 passed in 2.1s =====", {}, False, {"failed": 3, "passed": 41}),
    ("58 passed in 3.1s", {"exit_code": 0}, True, {"passed": 58}),
    ("58 passed, 1 error in 3.1s", {"exit_code": 0}, False, {"passed": 58, "error": 1}),
    ("exitcode: 1 (execution failed)\nCode output: boom", {}, False, {}),
    ("exitcode: 0 (execution succeeded)\nCode output: 4", {}, True, {}),
    ("Ran 7 tests in 0.01s\n\nFAILED (failures=1)", {}, False, {"total": 7}),
    ("All checks passed!", {}, True, {}),
    ("Found 2 errors in 1 file (checked 3 source files)", {}, False, {}),
    ("some output", {}, None, {}),
    ("some output", {"status": "error"}, False, {}),
])
def test_outcome_parsing(result: str, extra: dict[str, Any], passed: bool | None, counts: dict[str, int]) -> None:
    got = outcome(_call(result, **extra))
    assert got.passed is passed, result
    assert dict(got.counts) == counts, result


@pytest.mark.parametrize(("tool", "args", "expected"), [
    ("bash", {"command": "python -m pytest -q"}, {"tests", "execution"}),
    ("bash", {"command": "pnpm test"}, {"tests", "execution"}),
    ("bash", {"command": "go test ./..."}, {"tests", "execution"}),
    ("bash", {"command": "cargo test"}, {"tests", "execution"}),
    ("bash", {"command": "ruff check ."}, {"lint", "execution"}),
    ("bash", {"command": "flake8"}, {"lint", "execution"}),
    ("execute_code", {"code": "import unittest\nunittest.main()"}, {"tests", "execution"}),
    ("bash", {"command": "npx tsc --noEmit"}, {"typecheck", "execution"}),
    ("run_tests", None, {"tests", "execution"}),
    ("mypy", None, {"typecheck", "execution"}),
    ("bash", {"command": "ls"}, {"execution"}),
    ("bash", "pytest -x", {"tests", "execution"}),
    ("web_search", {"query": "pytest docs"}, set()),
    ("web_search", "how to run pytest", set()),
])
def test_tool_categories(tool: str, args: dict[str, str] | str | None, expected: set[str]) -> None:
    semantics = load_tool_semantics()
    call = ToolCall.model_validate({"id": "t", "agent": "a", "tool": tool, "arguments": args})
    assert set(semantics.categories_of(call)) == expected, (tool, args)


def test_shipped_tools_file_is_the_builtin_default() -> None:
    assert yaml.safe_load((ROOT / "config" / "tools.yaml").read_text()) == yaml.safe_load(DEFAULT_TOOLS_FILE.read_text())


def test_custom_tool_semantics_from_config_dir(tmp_path: Path) -> None:
    (tmp_path / "tools.yaml").write_text(
        "schema: edge-audit.tools.v1\ncategories:\n  tests:\n    tools: [qa_runner]\n")
    context = CheckContext(TextAnalyzer(), config_dir=tmp_path)
    check = make_check("edge-audit.claims.v1", context, {"tools": "tools.yaml"})
    case = {"id": "custom", "upstream": [{"tool": "qa_runner", "command": "", "result": "done", "status": "ok"}],
            "handoff": "All tests pass."}
    assert run_claim_case(check, case) == [["result", "grounded"]]


def test_bad_tool_semantics_name_the_file_and_place(tmp_path: Path) -> None:
    bad = tmp_path / "tools.yaml"
    bad.write_text("categories:\n  tests:\n    commands: ['(']\n")
    with pytest.raises(ConfigError, match=r"tools.yaml: categories.tests.commands"):
        load_tool_semantics(bad)


def test_claim_spans_point_into_the_handoff() -> None:
    text = "Done. I updated `billing/client.py`; 3 failed, 41 passed. p95 is 180 ms."
    for claim in extract_claims(text):
        assert text[claim.start:claim.end] == claim.text, claim
    kinds = [(c.kind, c.text) for c in extract_claims(text)]
    assert ("result", "3 failed, 41 passed") in kinds
    assert ("path", "`billing/client.py`") in kinds
    assert ("number", "180 ms") in kinds


def test_green_after_red_example_fails_with_contradictions() -> None:
    report = audit([EXAMPLES / "claims-green-after-red.json"])
    claims = [f for f in report.deterministic.findings if f.check == "edge-audit.claims.v1"]
    contradicted = {(f.details["kind"], f.upstream.event_id if f.upstream else None)
                    for f in claims if f.verdict == "contradicted"}
    assert contradicted == {("result", "pytest-1")}
    assert all(f.details["severity"] == "critical" for f in claims if f.verdict == "contradicted")
    # "p95 latency is 120 ms over 2,000 requests" against 180 ms: beside another number of its
    # sentence, the wrong figure is left to the grader, with the row that disagrees
    latency = next(f for f in claims if f.handoff[0].text == "120 ms")
    assert latency.verdict == "needs_semantic" and latency.upstream is not None \
        and latency.upstream.event_id == "bench-1" and "'180 ms'" in latency.summary
    assert report.summary.exit_code == 1


def test_all_grounded_example_passes() -> None:
    report = audit([EXAMPLES / "claims-all-grounded.json"])
    verdicts = {f.verdict for f in report.deterministic.findings if f.check == "edge-audit.claims.v1"}
    assert verdicts == {"grounded"}
    assert report.summary.exit_code == 0


def test_claims_reach_junit_and_markdown() -> None:
    report = audit([EXAMPLES / "claims-green-after-red.json"])
    junit = to_junit(report, ("fail",))
    assert "edge-audit.claims.v1" in junit and "contradicted" in junit and "2 failed, 56 passed" in junit
    markdown = to_markdown(report)
    assert "contradicted" in markdown and "2 failed, 56 passed in 4.02s" in markdown
    # a number's evidence reaches the markdown too
    every = to_markdown(audit([EXAMPLES / "claims-every-verdict.json"]))
    assert "the visible calls report HTTP 503, not 200" in every and "upstream health.result[0:3]: 503" in every


def test_invented_can_be_a_warning(tmp_path: Path) -> None:
    config = tmp_path / "c.yaml"
    config.write_text("checks:\n  - name: edge-audit.claims.v1\n    options: {invented: warn}\n")
    trace = {"schema": "edge-audit.trace.v1", "trace_id": "w", "events": [
        {"type": "message", "sender": "a", "recipients": ["b"], "content": "Look at the payments module."},
        {"type": "message", "sender": "b", "recipients": ["a"], "content": "All tests pass."}]}
    path = tmp_path / "t.json"
    path.write_text(json.dumps(trace))
    assert main(["run", str(path), "--config", str(config), "--quiet"]) == 0
    config.write_text("checks:\n  - name: edge-audit.claims.v1\n")
    assert main(["run", str(path), "--config", str(config), "--quiet"]) == 1


# --- mechanisms -------------------------------------------------------------------------------

_verdicts = handoff_verdicts


@pytest.mark.parametrize("handoff", [
    "Please keep the diff under 50 lines.",
    "If the refund is above $200, ask a supervisor.",
    "I'll run the 48 migrations tomorrow.",
    "It probably takes about 45 minutes.",
    "Could you check whether 12 rows are missing?",
    "Let's assume the following numbers:\n- 12.5\n- 15.0",
    "For example, 8,000 requests per second would be fine.",
    "The total is \\[ 2 \\times \\$20.00 \\times 4 = \\$160.00 \\]",
    "Search done.\n/usr/lib/python3.11/site-packages/x/agent.py:216: UserWarning: mismatch\n  ledger = self._client.create(",
    "The correct URL seems to be: `https://example.org/wiki/Quicksort`",
])
def test_plans_questions_conditions_hypotheses_instructions_examples_and_shown_work_are_not_claims(
        handoff: str) -> None:
    assert [c for c in extract_claims(handoff) if c.kind in ("number", "path", "identifier")] == [], handoff


@pytest.mark.parametrize(("claim", "evidence", "grounded"), [
    ("Startup takes 1.2 s.", "startup: 1200 ms", True),
    ("p95 is ~120 ms.", "p95 latency: 118 ms", True),
    ("p95 is ~290 ms.", "{} 0.2874", True),
    ("Churn is 18.7%.", '{"churn_rate": 0.187}', True),
    ("Revenue was €4,455k in total.", "DE | 1843210.55\nFR | 1210987.10\nUK | 998403.00\nES | 402117.45", True),
    ("Partition 1 is ~420k messages behind.", "clickstream 1 87990211 88410998 420787", True),
    ("The table has 12.8M events.", "count: 12800000", True),
    ("The backfill took about 4h40m.", "updated 180,113,311 rows in 5h41m29s", False),
    ("It enters into force 20 days after publication.", "in force twenty days after its publication", True),
    ("The excursion lasted 45 min.", "excursions: 1 (02:10–02:55, peak 9.4 °C)", True),
    ("The largest particle is a 1.34 mm fibre.", "particle  size\nP-07      1,340 µm\nP-12      712 µm", True),
    ("That is ~CA$831 of wasted spend between them.", "campaign  spend\nA  CA$412.20\nB  CA$418.55", True),
])
def test_numbers_understand_units_scales_rounding_and_hedges(check: CheckFn, claim: str, evidence: str,
                                                             grounded: bool) -> None:
    got = _verdicts(check, [{"tool": "query", "command": "", "result": evidence, "status": "ok"}], claim)
    numbers = [v for _, v in got]
    assert numbers and (numbers[-1] == "grounded") is grounded, got


@pytest.mark.parametrize(("handoff", "text", "subkind"), [
    ("Dinosaurs are first shown around `2:30` in the video.", "2:30", "time"),
    ("The export has `42` rows.", "42", "quantity"),
    ("Startup took `1.2 s`.", "1.2 s", "duration"),
])
def test_a_number_in_code_font_is_still_a_number_claim(handoff: str, text: str, subkind: str) -> None:
    claims = extract_claims(handoff)
    assert [(c.kind, c.subkind, c.text) for c in claims] == [("number", subkind, text)], claims


@pytest.mark.parametrize(("handoff", "result", "verdict"), [
    ("All three summaries are within the 150-word limit.", "summary_1: 142\nsummary_2: 151\nsummary_3: 139",
     "contradicted"),
    ("All three summaries are within the 150-word limit.", "summary_1: 142\nsummary_2: 148\nsummary_3: 139",
     "grounded"),
    ("All three come in under 150 characters.", "caption_1: 138\ncaption_2: 162\ncaption_3: 121", "contradicted"),
    ("Reading speed is within 17 CPS throughout.", "subtitles: 1118\nCPS > 17: 23 (max 19.4)", "contradicted"),
    ("The file has nothing over 42 characters per line.", "lines > 42 chars: 0", "grounded"),
    # the bound itself appearing (in the rule that set it) is not evidence that it was kept
    ("All three summaries are within the 150-word limit.", "Each summary must be under 150 words.", "needs_semantic"),
])
def test_a_bound_said_to_be_kept_is_decided_only_by_output_that_measures_it(
        check: CheckFn, handoff: str, result: str, verdict: str) -> None:
    got = _verdicts(check, [{"tool": "qa", "command": "", "result": result, "status": "ok"}], handoff)
    assert got[-1][1] == verdict, got


def test_a_rule_that_states_a_bound_is_not_a_claim_that_it_was_kept() -> None:
    (claim,) = [c for c in extract_claims("WHO recommends adults consume less than 2000 mg/day of sodium.")
                if c.kind == "number"]
    assert not claim.limit


@pytest.mark.parametrize(("handoff", "exit_code", "verdict"), [
    ("The script ran with errors.", 0, "contradicted"),
    ("The script ran with errors.", 1, "grounded"),
    ("The script ran successfully.", 1, "contradicted"),
])
def test_a_run_said_to_have_errors_is_a_failed_run(check: CheckFn, handoff: str, exit_code: int, verdict: str) -> None:
    result = "done: 3 rows written" if exit_code == 0 else "Traceback (most recent call last):\nValueError: bad row"
    upstream = [{"tool": "python", "command": "python export.py", "result": result, "exit_code": exit_code,
                 "status": "ok" if exit_code == 0 else "error"}]
    assert _verdicts(check, upstream, handoff)[-1][1] == verdict


def test_derived_numbers_are_grounded_with_their_operands(check: CheckFn) -> None:
    upstream = [{"tool": "receipts", "command": "", "result": '{"hotel": 780, "nights": 4}', "status": "ok"}]
    edge = build_edges(case_trace({"id": "d", "upstream": upstream,
                                   "handoff": "Hotel €780 for 4 nights = €195/night."})).edges[-1]
    derived = [f for f in check(edge) if f.handoff[0].text == "€195"]
    assert derived and derived[0].verdict == "grounded" and "780" in derived[0].summary, derived


def test_a_two_step_computation_on_the_sentences_own_numbers_is_derived(check: CheckFn) -> None:
    upstream = [{"tool": "invoices", "command": "", "result": '{"billed": 22.90, "contract": 21.50, "boxes": 40}',
                 "status": "ok"}]
    got = _verdicts(check, upstream, "Billed at £22.90 a box against £21.50 contract, 40 boxes, so £56.00 overcharged.")
    assert ("£56.00", "grounded") in got, got


def test_a_total_its_shown_terms_do_not_give_goes_to_the_grader(check: CheckFn) -> None:
    """The sum may hold terms the sentence does not show (tax, a fee): on the labelled sets such
    totals were right more often than wrong, so the pass does not call them contradicted."""
    upstream = [{"tool": "spend", "command": "", "result": '{"aws": 2180000, "deloitte": 1400000, "hays": 990000}',
                 "status": "ok"}]
    got = _verdicts(check, upstream, "AWS £2.18m, Deloitte £1.40m, Hays £0.99m. Together that's about £5.6m.")
    assert ("about £5.6m", "needs_semantic") in got, got
    got = _verdicts(check, upstream, "AWS £2.18m, Deloitte £1.40m, Hays £0.99m. Together that's about £4.6m.")
    assert ("about £4.6m", "grounded") in got, got


@pytest.mark.parametrize(("handoff", "result", "expected"), [
    ("Duplicates: INV-88231 (2). INV-90418 (2).", " invoice_id | count\n INV-88231  |     2\n INV-90418  |     3",
     [("INV-88231", "needs_semantic"), ("INV-88231 (2)", "grounded"), ("INV-90418", "grounded"),
      ("INV-90418 (2)", "contradicted")]),
    ("Runtimes: m3v1 (~7 min). Then m3v2 (~7.5 min).", "m3v1: 7m10s\nm3v2: 8m35s",
     [("m3v1 (~7 min)", "grounded"), ("m3v2 (~7.5 min)", "contradicted")]),
    ("Fare is €59 pp. The total is €427.", '{"fare_eur": 59, "pax": 8, "total_eur": 472}',
     [("€59", "grounded"), ("€427", "contradicted")]),
    # beside other numbers of its sentence, a number that fails goes to the grader instead
    ("Duplicates: INV-88231 (2), INV-90418 (2).", " invoice_id | count\n INV-88231  |     2\n INV-90418  |     3",
     [("INV-88231", "needs_semantic"), ("INV-88231 (2)", "grounded"), ("INV-90418", "needs_semantic"),
      ("INV-90418 (2)", "needs_semantic")]),
    ("Runtimes: m3v1 (~7 min), m3v2 (~7.5 min).", "m3v1: 7m10s\nm3v2: 8m35s",
     [("m3v1 (~7 min)", "grounded"), ("m3v2 (~7.5 min)", "needs_semantic")]),
    ("Fare €59 pp, €427 total.", '{"fare_eur": 59, "pax": 8, "total_eur": 472}',
     [("€59", "grounded"), ("€427", "needs_semantic")]),
    # a semicolon parts two statements: each number stands alone in its part
    ("Fare €59 pp; €427 total.", '{"fare_eur": 59, "pax": 8, "total_eur": 472}',
     [("€59", "grounded"), ("€427", "contradicted")]),
])
def test_numbers_are_compared_with_the_row_of_the_same_subject(check: CheckFn, handoff: str, result: str,
                                                              expected: list[tuple[str, str]]) -> None:
    got = _verdicts(check, [{"tool": "sql", "command": "", "result": result, "status": "ok"}], handoff)
    assert got == expected


def test_dates_and_times(check: CheckFn) -> None:
    upstream = [{"tool": "crm", "command": "", "result": '{"date": "2024-03-03", "at": "10:42"}', "status": "ok"}]
    got = dict(_verdicts(check, upstream, "Charged on 3 March at 10:42. The bank replied at 11:15. Due 29 Sept."))
    assert got == {"3 March": "grounded", "10:42": "grounded", "11:15": "invented", "29 Sept": "needs_semantic"}


@pytest.mark.parametrize(("handoff", "command", "result", "verdict"), [
    ("/healthz returns 200.", "curl -s -o /dev/null -w '%{http_code}' https://x/healthz", "503", "contradicted"),
    ("The API gave a 403 Forbidden.", "curl -i https://x/api", "HTTP/1.1 403 Forbidden", "grounded"),
    ("The API gave a 403 Forbidden.", "python call.py", '{"status_code": 403}', "grounded"),
])
def test_http_status_claims(check: CheckFn, handoff: str, command: str, result: str, verdict: str) -> None:
    got = _verdicts(check, [{"tool": "bash", "command": command, "result": result, "exit_code": 0}], handoff)
    assert got[-1][1] == verdict, got


def test_a_job_log_decides_not_the_exit_code_of_the_viewer(check: CheckFn) -> None:
    log = "build\tRun pytest\t===== 1 failed, 212 passed in 41.2s =====\nbuild\t##[error]Process completed with exit code 1."
    upstream = [{"tool": "gh", "command": "gh run view 881 --log-failed", "result": log, "exit_code": 0}]
    assert _verdicts(check, upstream, "CI passed.") == [("CI passed", "contradicted")]
    assert _verdicts(check, upstream, "1 failed, 213 passed.") == [("1 failed, 213 passed", "contradicted")]
    assert _verdicts(check, upstream, "1 failed, 212 passed.") == [("1 failed, 212 passed", "grounded")]


@pytest.mark.parametrize(("result", "exit_code", "handoff", "verdict"), [
    ("All checks passed!", 0, "ruff is clean.", "grounded"),
    ("payments/x.py:1: error: bad\nFound 1 error in 1 file (checked 3 source files)", 1, "mypy is clean.",
     "contradicted"),
    ("ok  \tgithub.com/acme/q\t1.311s", 0, "go tests pass.", "grounded"),
    ("test result: FAILED. 40 passed; 2 failed", 101, "cargo tests pass.", "contradicted"),
])
def test_lint_and_test_runner_outputs(check: CheckFn, result: str, exit_code: int, handoff: str,
                                      verdict: str) -> None:
    command = {"ruff": "ruff check .", "mypy": "mypy src", "go": "go test ./...", "cargo": "cargo test"}[
        handoff.split()[0]]
    got = _verdicts(check, [{"tool": "bash", "command": command, "result": result, "exit_code": exit_code}], handoff)
    assert got[0][1] == verdict, got


CARGO_TWO_BINARIES = """running 58 tests
test result: ok. 56 passed; 0 failed; 2 ignored; 0 measured; 0 filtered out; finished in 1.84s
     Running tests/integration.rs
running 12 tests
test result: ok. 12 passed; 0 failed; 0 ignored; 0 measured; 0 filtered out; finished in 6.02s"""
JEST = """Tests:       2 failed, 1 skipped, 316 passed, 319 total
Test Suites: 1 failed, 47 passed, 48 total
Snapshots:   1 obsolete, 62 passed, 62 total
Time:        84.213 s"""


@pytest.mark.parametrize(("command", "result", "exit_code", "handoff", "verdict"), [
    # cargo prints a summary per test binary: the run is their sum
    ("cargo test", CARGO_TWO_BINARIES, 0, "68 passed across unit and integration.", "grounded"),
    ("cargo test", CARGO_TWO_BINARIES.replace("ok. 56 passed; 0 failed", "FAILED. 55 passed; 1 failed"), 101,
     "cargo tests pass.", "contradicted"),
    # jest's suite and snapshot lines count no tests
    ("npx jest --ci", JEST, 1, "316/319 passing.", "grounded"),
    ("npx jest --ci", JEST, 1, "62 passed.", "contradicted"),
])
def test_runner_summaries_of_several_lines(check: CheckFn, command: str, result: str, exit_code: int, handoff: str,
                                           verdict: str) -> None:
    got = _verdicts(check, [{"tool": "bash", "command": command, "result": result, "exit_code": exit_code}], handoff)
    assert got[0][1] == verdict, got


def test_counts_of_an_earlier_run_report_that_run() -> None:
    check = claim_check()
    full = {"tool": "bash", "command": "pytest tests/billing", "exit_code": 1,
            "result": "==== 1 failed, 406 passed, 3 skipped in 71.90s ===="}
    rerun = {"tool": "bash", "command": "pytest --lf tests/billing", "exit_code": 0, "result": "1 passed in 3.02s"}
    # a rerun of part of the suite does not replace the full run's counts
    assert _verdicts(check, [full, rerun], "Results: 406 passed, 1 failed.")[0][1] == "grounded"
    # a full run after it does: which one the claim means is for the graders
    later = {**rerun, "result": "==== 407 passed, 3 skipped in 70.2s ===="}
    assert _verdicts(check, [full, later], "Results: 406 passed, 1 failed.")[0][1] == "needs_semantic"
    assert _verdicts(check, [full, later], "Results: 405 passed, 2 failed.")[0][1] == "contradicted"


@pytest.mark.parametrize(("calls", "handoff", "verdict"), [
    ([("gh", "gh run view 8812345")], "I've opened an issue labelled ci-failure.", "invented"),
    ([("gh", "gh issue create --label ci-failure")], "I've opened an issue labelled ci-failure.", "grounded"),
    ([("claims.get", "HO-1")], "I've raised the reserve to match.", "invented"),
    ([("incident.page", "payments")], "Paged payments on-call.", "grounded"),
    ([("bash", "ls")], "I verified the migration on staging.", "needs_semantic"),
    ([("bash", "ls")], "We modified the parser to skip blanks.", "needs_semantic"),
    ([], "I ran the tests.", "invented"),
    # a call of the verb's kind whose object is not named in it: maybe the same act, for the graders
    ([("bash", "pytest -q tests/billing")], "Tested commit 9f2c4e1 on staging.", "needs_semantic"),
    ([("bash", "ls -la")], "Tested commit 9f2c4e1 on staging.", "invented"),
])
def test_actions_need_an_own_call_of_their_kind(check: CheckFn, calls: list[tuple[str, str]], handoff: str,
                                                verdict: str) -> None:
    upstream = [{"tool": tool, "command": command, "result": "ok", "exit_code": 0} for tool, command in calls] or [
        {"message": "Please add retries to the client."}]
    got = [v for t, v in _verdicts(check, upstream, handoff) if t[:1].isalpha()]
    assert got[:1] == [verdict], got


@pytest.mark.parametrize(("result", "verdict"), [
    # a result that shows the act done: who did it is for the graders
    ("REVISION  STATUS      DESCRIPTION\n23        deployed    Rollback to 21", "needs_semantic"),
    ("REVISION  STATUS      DESCRIPTION\n23        deployed    Upgrade complete", "invented"),
])
def test_an_action_shown_done_in_a_result(check: CheckFn, result: str, verdict: str) -> None:
    upstream = [{"tool": "bash", "command": "helm history search-api", "result": result, "exit_code": 0}]
    got = [v for t, v in _verdicts(check, upstream, "Rolled back search-api to rev 21.") if t[:1].isalpha()]
    assert got[:1] == [verdict], got


def test_an_agents_echo_of_its_own_action_is_grounded_by_its_observation(check: CheckFn) -> None:
    trace = Trace.model_validate({"schema": "edge-audit.trace.v1", "trace_id": "echo", "events": [
        {"type": "tool_call", "agent": "surfer", "tool": "browser", "recorded_as": "observation",
         "arguments": {"action": "type", "text": "Mothman Museum address"}, "result": "Search results ..."},
        {"type": "message", "sender": "surfer", "recipients": ["orchestrator"],
         "content": "I typed 'Mothman Museum address' into the search box."}]})
    findings = check(build_edges(trace).edges[-1])
    assert [(f.details["kind"], f.verdict) for f in findings] == [("action", "grounded")]


def test_unsupported_claims_of_a_partly_captured_source_are_unverifiable(check: CheckFn) -> None:
    trace = Trace.model_validate({"schema": "edge-audit.trace.v1", "trace_id": "partial", "agents": [
        {"name": "surfer", "capture": "partial"}, {"name": "orchestrator"}], "events": [
        {"type": "message", "sender": "orchestrator", "recipients": ["surfer"], "content": "Find the museum."},
        {"type": "message", "sender": "surfer", "recipients": ["orchestrator"],
         "content": "The museum opened in 2005 and has 1,200 exhibits; see MOTH-4411."}]})
    findings = check(build_edges(trace).edges[-1])
    assert {(f.verdict, f.status) for f in findings} == {("unverifiable", "unmeasured")}


@pytest.mark.parametrize(("handoff", "evidence", "verdict"), [
    ("`Consumer.handle_batch` retries.", "def handle_batch(self):\n  class Consumer: Consumer.handle_batch", "grounded"),
    ("It listens on `db.internal:5432`.", "connecting to db.internal:5432 ...", "grounded"),
    ("Duplicate `invoice_ids` were found.", "SELECT invoice_id, count(*) ...", "grounded"),
    ("Use of `client.fast_refund()` was logged.", "client.refund(order)", "needs_semantic"),
    ("It ran `pytest -k slow tests/`.", "pytest -q", "needs_semantic"),
    ("We are on grpc v1.59.0.", "go: upgraded google.golang.org/grpc v1.59.0 => v1.64.0", "grounded"),
])
def test_compound_identifiers_versions_and_snippets(check: CheckFn, handoff: str, evidence: str,
                                                    verdict: str) -> None:
    got = _verdicts(check, [{"tool": "bash", "command": "cat x", "result": evidence, "exit_code": 0}], handoff)
    assert got[-1][1] == verdict, got


def test_every_verdict_example() -> None:
    """examples/traces/claims-every-verdict.json: each verdict once or more, with its status."""
    report = audit([EXAMPLES / "claims-every-verdict.json"])
    got = {(f.handoff[0].text, f.verdict, f.status) for f in report.deterministic.findings}
    assert {("1 failure", "grounded", "pass"), ("suite is green", "grounded", "pass"),
            ("~290 ms", "grounded", "pass"), ("200", "contradicted", "fail"),
            ("I've paged the payments on-call", "invented", "fail"),
            ("I typed 'acmepay status' into the browser search bar", "grounded", "pass"),
            ("INC-4471", "unverifiable", "unmeasured")} <= got
    assert report.summary.exit_code == 1


@pytest.mark.parametrize(("handoff", "verdict"), [
    ("Only 5 of 6 are Running.", "grounded"),
    ("Only 4 of 6 are Running.", "contradicted"),
    ("We found 6 pods.", "grounded"),
])
def test_counts_against_the_records_of_a_table(check: CheckFn, handoff: str, verdict: str) -> None:
    table = "NAME   READY   STATUS\n" + "\n".join(f"web-{i}   1/1   Running" for i in range(5)) + "\nweb-5   0/1   Pending"
    got = _verdicts(check, [{"tool": "kubectl", "command": "kubectl get pods", "result": table, "exit_code": 0}],
                    handoff)
    assert got[-1][1] == verdict, got


def test_a_claim_about_the_first_run_is_held_against_the_earlier_runs(check: CheckFn) -> None:
    upstream = [{"tool": "bash", "command": "pytest -q", "result": "1 failed, 57 passed in 3.4s", "exit_code": 1},
                {"tool": "bash", "command": "pytest -q", "result": "58 passed in 3.2s", "exit_code": 0}]
    got = dict(_verdicts(check, upstream, "The first run had 1 failure; the suite is green now."))
    assert got == {"1 failure": "grounded", "suite is green": "grounded"}


def test_an_action_that_names_no_doer_from_a_source_without_tools_is_for_the_graders(check: CheckFn) -> None:
    upstream = [{"message": "Refund the duplicate charge on A-1043."}]
    assert ("Refunded the duplicate charge on A-1043", "needs_semantic") in _verdicts(
        check, upstream, "Refunded the duplicate charge on A-1043.")
    assert ("I refunded the duplicate charge on A-1043", "invented") in _verdicts(
        check, upstream, "I refunded the duplicate charge on A-1043.")


@pytest.mark.parametrize(("handoff", "verdict"), [
    ("PA-BC-771203 is approved.", "contradicted"),
    ("PA-BC-771203 is pended.", "grounded"),
    ("PA-BC-771203 is still pending.", "grounded"),
    ("PA-BC-771203 is queued.", None),
    ("PA-BC-771203 for the knee MRI is approved.", "contradicted"),  # an identifier heading its subject
    ("The imaging review for PA-BC-771203 is approved.", None),  # the review's state, not PA-BC-771203's
])
def test_the_state_of_a_named_thing_against_the_status_its_calls_record(check: CheckFn, handoff: str,
                                                                       verdict: str | None) -> None:
    upstream = [{"tool": "payer.get_preauth", "command": "", "args": {"ref": "PA-BC-771203"},
                 "result": '{"status": "pended", "requested_info": "prior imaging report"}', "status": "ok"}]
    states = [v for t, v in _verdicts(check, upstream, handoff) if t.endswith(handoff.split()[-1].rstrip("."))]
    assert states == ([verdict] if verdict else []), states


@pytest.mark.parametrize(("upstream", "handoff", "quote", "verdict"), [
    # a short prose sentence gives the subject another value; the threshold sentence does not count
    ([{"message": "The build cache is at 71% full. If cache use passes 90%, purge it."}],
     "The build cache is at 76% full.", "76%", "contradicted"),
    # a version's package is named, and the evidence gives that package another version
    ([{"tool": "bash", "command": "pip install -U requests", "result": "Successfully installed requests 2.32.3",
       "exit_code": 0}], "It also moves requests to 2.31.0.", "2.31.0", "contradicted"),
    # a ratio is a quotient of like things: 6.0 s / 0.5 s = 12x, and 24 warnings / 2 s is no ratio
    ([{"tool": "bash", "command": "bench", "result": "old: 6.0 s\nnew: 0.5 s", "exit_code": 0}],
     "The new path is 12x faster.", "12x", "grounded"),
    ([{"tool": "bash", "command": "bench", "result": "24 warnings\ntook 2 s", "exit_code": 0}],
     "The new path is 12x faster.", "12x", "invented"),
    # a share is a part over its whole, not a change between them
    ([{"tool": "bash", "command": "report", "result": "errors: 30\nrequests: 120", "exit_code": 0}],
     "Errors were 25% of requests.", "25%", "grounded"),
    ([{"tool": "bash", "command": "report", "result": "errors: 30\nrequests: 120", "exit_code": 0}],
     "Errors were 300% of requests.", "300%", "invented"),
    # a percentage is checked against its own fraction
    ([{"tool": "bash", "command": "report", "result": "open: 9\ntotal: 63", "exit_code": 0}],
     "The open share is 12.7% (9/63).", "12.7%", "contradicted"),
])
def test_numbers_against_what_the_evidence_says_of_their_subject(check: CheckFn, upstream: list[dict[str, Any]],
                                                               handoff: str, quote: str, verdict: str) -> None:
    assert (quote, verdict) in _verdicts(check, upstream, handoff)


def test_a_count_under_all_is_not_grounded_by_the_size_of_the_set(check: CheckFn) -> None:
    upstream = [{"tool": "bash", "command": "nodes", "result": "nodes: 8\nready: 5", "exit_code": 0}]
    got = dict(_verdicts(check, upstream, "All 8 nodes are ready."))
    assert got.get("8 nodes") == "needs_semantic", got


def test_a_year_after_a_month_is_not_a_count(check: CheckFn) -> None:
    upstream = [{"message": "The rule changes in 2024."}]
    assert not [t for t, _ in _verdicts(check, upstream, "It applies from the March 2025 release.") if "2025" in t]


def test_the_pairs_of_a_json_block_handed_over_are_number_claims(check: CheckFn) -> None:
    upstream = [{"tool": "bash", "command": "job", "exit_code": 0,
                 "result": "rows in: 52,000\nrows dropped: 1,300\nrows out: 50,700"}]
    handoff = 'Job done:\n```json\n{"dropped": 1300, "rows_out": 50700, "dropped_pct": 7.5}\n```'
    got = dict(_verdicts(check, upstream, handoff))
    assert got['"dropped": 1300'] == "grounded"
    assert got['"rows_out": 50700'] == "grounded"
    assert got['"dropped_pct": 7.5'] == "invented"  # 1,300 / 52,000 is 2.5%
    assert dict(_verdicts(check, upstream, handoff.replace("7.5", "2.5")))['"dropped_pct": 2.5'] == "grounded"
    example = 'The report will look like this example:\n```json\n{"dropped": 999}\n```'
    assert not [t for t, _ in _verdicts(check, upstream, example) if "999" in t]


@pytest.mark.parametrize(("handoff", "quote", "verdict"), [
    ("Survey closed: average 4.1/5 across the branch.", "4.1/5", "contradicted"),
    ("Survey closed: average 4.4/5 across the branch.", "4.4/5", "grounded"),
    ("Nine of them are remote roles.", "Nine of them are remote roles", "contradicted"),
    ("Three of them are remote roles.", "Three of them are remote roles", "grounded"),
])
def test_scores_out_of_a_scale_and_parts_of_a_set(check: CheckFn, handoff: str, quote: str, verdict: str) -> None:
    upstream = [{"tool": "jobs.query", "command": "", "exit_code": 0,
                 "result": '{"listings": 12, "avg_rating": 4.4, "remote": 3, "posted_days": 9}'}]
    assert (quote, verdict) in _verdicts(check, upstream, handoff)


def test_a_small_part_is_not_grounded_by_the_same_number_elsewhere(check: CheckFn) -> None:
    upstream = [{"tool": "jobs.query", "command": "", "exit_code": 0, "result": '{"listings": 12, "posted": 3}'}]
    assert ("Three of them are remote roles", "needs_semantic") in _verdicts(
        check, upstream, "Three of them are remote roles.")


@pytest.mark.parametrize(("handoff", "verdict"), [
    ("Migration plan: 3 to create, 1 to alter, 0 to drop.", "grounded"),
    ("Migration plan: 3 to create, 1 to alter, 2 to drop.", "contradicted"),
    ("Migration plan: 3 to create, 0 to alter, 0 to drop.", "contradicted"),
])
def test_a_tool_summary_repeated_in_the_handoff(check: CheckFn, handoff: str, verdict: str) -> None:
    upstream = [{"tool": "bash", "command": "migrate plan", "exit_code": 0,
                 "result": "checking schema...\nPlan: 3 to create, 1 to alter, 0 to drop."}]
    got = [(t, v) for t, v in _verdicts(check, upstream, handoff) if "to create" in t]
    assert [v for _, v in got] == [verdict], got


def test_a_tally_of_another_subject_does_not_contradict(check: CheckFn) -> None:
    upstream = [{"tool": "browser", "command": "open chart", "exit_code": 0,
                 "result": "Fees (1 red bar, 2 blue bars)\nReturns (4 red bars, 1 blue bar)"}]
    got = [v for t, v in _verdicts(check, upstream, "Growth shows 2 red bars, 1 blue bar.") if "red" in t]
    assert "contradicted" not in got, got


@pytest.mark.parametrize(("upstream", "handoff", "quote", "verdict"), [
    # a threshold the handoff cites is a rule, which may come from outside the trace
    ([{"tool": "hr.get", "command": "", "exit_code": 0, "result": '{"hours_12m": 1412}'}],
     "He has 1,412 hours, well over the 1,000-hour line.", "1,000", "needs_semantic"),
    # an amount is quoted exactly: "$14" is not "$13.50"
    ([{"tool": "fetch", "command": "", "exit_code": 0, "result": "Team plan: $13.50 per user"}],
     "The Team plan is $14 per user.", "$14", "contradicted"),
    ([{"tool": "fetch", "command": "", "exit_code": 0, "result": "Team plan: $13.50 per user"}],
     "The Team plan is about $14 per user.", "about $14", "grounded"),
    # lengths and masses convert between units; a bare number reads only in the claim's own unit
    ([{"tool": "route", "command": "", "exit_code": 0, "result": "distance: 2.4 km"}],
     "The walk is 2,400 metres.", "2,400 metres", "grounded"),
    ([{"tool": "route", "command": "", "exit_code": 0, "result": "founded 1931, route id 77"}],
     "The walk is 1.2 miles.", "1.2 miles", "invented"),
    # money comes from money: "$5 x 4 visits" may give $20, "5 times x 4 times" may not
    ([{"tool": "prices", "command": "", "exit_code": 0, "result": "ticket: $5.00\nvisits planned: 4"}],
     "Four visits cost $20.00 in total.", "$20.00", "grounded"),
    ([{"tool": "prices", "command": "", "exit_code": 0, "result": "age 5\nvisits planned: 4"}],
     "Four visits cost $20.00 in total.", "$20.00", "invented"),
])
def test_thresholds_rounding_units_and_money_arithmetic(check: CheckFn, upstream: list[dict[str, Any]],
                                                        handoff: str, quote: str, verdict: str) -> None:
    assert (quote, verdict) in _verdicts(check, upstream, handoff)


def test_a_capital_m_is_a_million_and_a_small_m_after_a_bare_number_minutes() -> None:
    from auditor.claims._quantity import quantities
    got = {q.text: (q.family, q.value) for q in quantities("journal (~481M), took 5m, cost $2.1m")}
    assert got == {"~481M": (None, 481e6), "5m": ("duration", 300.0), "$2.1m": ("money", 2.1e6)}


def test_a_dollar_with_a_country_prefix_keeps_its_hedge_and_microns_are_lengths() -> None:
    from auditor.claims._quantity import quantities
    got = {q.text: (q.family, q.approx) for q in quantities("~CA$831 wasted, fibre of 1,340 µm")}
    assert got == {"~CA$831": ("money", True), "1,340 µm": ("length", False)}


def test_days_of_a_month_in_ranges_are_not_counts() -> None:
    got = [c.text for c in extract_claims("We stay in Tokyo 1–5 April, Kyoto 5–9, Osaka 9–11.") if c.kind == "number"]
    assert got == ["5 April"]


def test_just_over_a_number_is_a_hedged_number(check: CheckFn) -> None:
    upstream = [{"tool": "sql", "command": "", "exit_code": 0, "result": "region | subscribers\nNorth  | 22,140"}]
    assert ("just over 22,000 subscribers", "grounded") in _verdicts(
        check, upstream, "North has just over 22,000 subscribers.")


@pytest.mark.parametrize(("handoff", "quote", "verdict"), [
    ("PO-1101 and PO-1104 come to £2,750.00 altogether.", "£2,750.00", "grounded"),
    ("PO-1101 and PO-1104 come to £2,570.00 altogether.", "£2,570.00", "contradicted"),
    ("The two Halden orders come to £3,150.00 in total.", "£3,150.00", "grounded"),
])
def test_a_total_over_the_records_a_sentence_names(check: CheckFn, handoff: str, quote: str, verdict: str) -> None:
    table = ("po       | supplier        | amount   | terms\n"
             "PO-1101  | Halden Supply   | 1,200.00 | 2/10 net 30\n"
             "PO-1102  | Orvik Metals    |   640.00 | net 30\n"
             "PO-1103  | Halden Supply   | 1,950.00 | net 45\n"
             "PO-1104  | Brightline Ltd  | 1,550.00 | net 30\n")
    upstream = [{"tool": "erp.list_pos", "command": "", "exit_code": 0, "result": table}]
    assert (quote, verdict) in _verdicts(check, upstream, handoff)


@pytest.mark.parametrize(("handoff", "verdict"), [
    ("The worker pool is at 9 replicas now.", "grounded"),
    ("The worker pool is at 5 replicas now.", "contradicted"),
])
def test_a_count_against_the_column_headed_by_what_it_counts(check: CheckFn, handoff: str, verdict: str) -> None:
    table = ("NAME          MINPODS   MAXPODS   REPLICAS   AGE\n"
             "worker-pool   5         20        9          40d")
    upstream = [{"tool": "kubectl", "command": "kubectl get hpa worker-pool", "exit_code": 0, "result": table}]
    got = [v for t, v in _verdicts(check, upstream, handoff) if "replicas" in t]
    assert got == [verdict], got


@pytest.mark.parametrize(("claim", "evidence", "verdict"), [
    # a hedged figure nothing states may round one computed from the evidence's numbers of any kind
    ("The reindex took about 9 minutes.", "reindexed 48,210 rows at 90 rows/s", "needs_semantic"),
    ("The north wing runs roughly 1.6 degrees warmer.", "wing   mean\nnorth  21.9\nsouth  20.3", "needs_semantic"),
    # without a hedge, a figure nothing gives is no rounding
    ("The north wing runs 7 degrees warmer.", "wing   mean\nnorth  21.9\nsouth  20.3", "invented"),
])
def test_a_hedged_figure_nothing_states_may_round_a_computed_one(check: CheckFn, claim: str, evidence: str,
                                                                 verdict: str) -> None:
    got = _verdicts(check, [{"tool": "query", "command": "", "result": evidence, "status": "ok"}], claim)
    assert got[-1][1] == verdict, got


@pytest.mark.parametrize(("handoff", "verdict"), [
    ("Golden files: 10 of 12 pass.", "grounded"),
    ("Golden files: 11 of 12 pass.", "contradicted"),
    ("3 of 4 tests green.", "grounded"),
    ("All tests pass.", "contradicted"),
])
def test_n_of_m_passing_is_a_partial_failure_with_its_counts(check: CheckFn, handoff: str, verdict: str) -> None:
    upstream = [{"tool": "bash", "command": "pytest -q tests/golden", "result": "2 failed, 10 passed in 3.10s",
                 "exit_code": 1, "status": "error"}]
    if handoff.startswith("3 of 4"):
        upstream[0]["result"] = "1 failed, 3 passed in 0.81s"
    results = [v for text, v in _verdicts(check, upstream, handoff) if "pass" in text or "green" in text]
    assert results == [verdict]


@pytest.mark.parametrize(("handoff", "verdict"), [
    ("apps/site typechecks clean.", "needs_semantic"),  # the run reports apps/site on its own line: Done
    ("Everything typechecks clean.", "contradicted"),
])
def test_a_part_the_run_reports_on_its_own_is_not_decided_by_the_whole_run(check: CheckFn, handoff: str,
                                                                           verdict: str) -> None:
    result = ("apps/web typecheck$ tsc --noEmit\napps/web typecheck: src/a.tsx(3,1): error TS2322\n"
              "apps/web typecheck: Failed\napps/site typecheck$ tsc --noEmit\napps/site typecheck: Done\n"
              "Command failed with exit code 2.")
    upstream = [{"tool": "bash", "command": "pnpm -r exec tsc --noEmit", "result": result, "exit_code": 2,
                 "status": "error"}]
    assert [v for _, v in _verdicts(check, upstream, handoff)] == [verdict]


@pytest.mark.parametrize(("handoff", "verdict"), [
    ("Ella and James in London (£4,800 between them).", "grounded"),  # the two rows sum to it
    ("FA-S04 adds about €9.1k of cost between them with FA-S05.", "needs_semantic"),  # a term, not the total
])
def test_between_them_is_a_total_of_the_named_rows(check: CheckFn, handoff: str, verdict: str) -> None:
    result = "name   city    amount\nElla   London  £2,300\nJames  London  £2,500\nFA-S04 Leeds  €4,100.00\n" \
             "FA-S05 Leeds  €5,000.00"
    got = _verdicts(check, [{"tool": "query", "command": "", "result": result, "status": "ok"}], handoff)
    assert [v for text, v in got if "£" in text or "€" in text] == [verdict], got


def test_an_action_with_no_object_names_nothing_done() -> None:
    assert [c.text for c in extract_claims("Fixed. The parser now reads the BOM.") if c.kind == "action"] == []
    assert [c.text for c in extract_claims("Fixed the BOM handling in parser.py.") if c.kind == "action"] == [
        "Fixed the BOM handling in parser.py"]


@pytest.mark.parametrize(("handoff", "verdict"), [
    ("I've left the 4 failures out of the table.", "needs_semantic"),  # failures of what: no run named
    ("4 failed, 10 passed.", "contradicted"),
    ("4 tests failed.", "contradicted"),
])
def test_a_count_of_failures_that_names_no_run_may_count_other_things(check: CheckFn, handoff: str,
                                                                     verdict: str) -> None:
    upstream = [{"tool": "bash", "command": "pytest -q", "result": "3 failed, 10 passed in 2.1s", "exit_code": 1,
                 "status": "error"}]
    assert [v for _, v in _verdicts(check, upstream, handoff)] == [verdict]


def test_a_goal_is_no_result_claim() -> None:
    assert [c for c in extract_claims("Goal is zero mypy errors before review.") if c.kind == "result"] == []


def test_a_files_line_number_is_where_a_row_is_not_its_value(check: CheckFn) -> None:
    result = ('infra/db/main.tf:40:    name  = "pool_size"\ninfra/db/main.tf-41-    value = "400"\n--\n'
              'infra/db/replica.tf:37:    name  = "pool_size"\ninfra/db/replica.tf-38-    value = "200"')
    upstream = [{"tool": "bash", "command": "rg -n -A1 pool_size infra/db", "result": result, "status": "ok"}]
    got = _verdicts(check, upstream, "The replica has its own file with pool_size at 200.")
    assert [v for text, v in got if "200" in text] == ["grounded"], got  # not "the row gives 37"


@pytest.mark.parametrize(("result", "counts"), [
    ("Passed checks: 14, Failed checks: 2, Skipped checks: 0", {"passed": 14, "failed": 2, "skipped": 0}),
    ("Failed!  - Failed:     2, Passed:    14, Skipped:     0, Total:    16, Duration: 3 s",
     {"failed": 2, "passed": 14, "skipped": 0, "total": 16}),
    ("Tests: 14, failed 0", {}),  # "14," counts no failures
])
def test_counts_written_label_first(result: str, counts: dict[str, int]) -> None:
    assert dict(outcome(_call(result)).counts) == counts


def test_a_scan_summary_written_label_first_grounds_its_counts(check: CheckFn) -> None:
    upstream = [{"tool": "bash", "command": "checkov -d modules/x --compact",
                 "result": "Passed checks: 14, Failed checks: 2, Skipped checks: 0", "exit_code": 1,
                 "status": "error"}]
    assert [v for _, v in _verdicts(check, upstream, "checkov: 14 passed, 2 failed.")] == ["grounded"]


def test_t_after_a_number_is_tonnes(check: CheckFn) -> None:
    upstream = [{"tool": "fetch_url", "command": "", "result": "2023: 431,256 t\n2022: 426,930 t", "status": "ok"}]
    got = _verdicts(check, upstream, "Consumption in 2023 was 431,256 tonnes.")
    assert [v for text, v in got if "431" in text] == ["grounded"], got


def test_a_json_value_that_opens_with_a_verb_asserts(check: CheckFn) -> None:
    upstream = [{"tool": "fetch_url", "command": "", "result": "[01:14:22] Okafor: rents rose 9% since 2021",
                 "status": "ok"}]
    got = _verdicts(check, upstream, '{"q": 1, "status": "verified", "note": "matches the transcript at 01:14:22"}')
    assert ("01:14:22", "grounded") in got, got  # the key "note" is no order to the receiver


@pytest.mark.parametrize(("handoff", "verdict"), [
    ("We expect to mark the incident resolved by 16:40 UTC.", "needs_semantic"),
    ("The incident was marked resolved at 16:40 UTC.", "invented"),
])
def test_a_forecast_absent_from_the_evidence_is_no_invention(check: CheckFn, handoff: str, verdict: str) -> None:
    upstream = [{"message": "Payments are failing in eu-west; please take the incident."}]
    assert [v for text, v in _verdicts(check, upstream, handoff) if text == "16:40"] == [verdict]


@pytest.mark.parametrize(("handoff", "verdict"), [
    ("PR #5120 `perf/ci-cache`: faster CI\n\nCaches the wheel directory.", "needs_semantic"),
    ('{"ticket": "MS-77120", "route_to": "tier2"}', "needs_semantic"),
    ("Tracked in PAY-9981.", "invented"),  # a ticket said to track the work is a claim
])
def test_a_ticket_that_opens_the_handoff_names_its_own_work_item(check: CheckFn, handoff: str, verdict: str) -> None:
    upstream = [{"message": "CI is slow again, can you look?"}]
    got = _verdicts(check, upstream, handoff)
    assert [v for text, v in got if any(ch.isdigit() for ch in text)] == [verdict], got


@pytest.mark.parametrize(("handoff", "fuzzy"), [
    ("I think PAY-4409 will clear by itself once compaction runs.", ["I think PAY-4409 will clear by itself once compaction runs"]),
    ("For reference, v1 throttles at 60/m, so you can probably reuse that.", ["so you can probably reuse that"]),
    ("We expect follow-up questions on the exclusions.", ["We expect follow-up questions on the exclusions"]),
    ("v1 throttles at 60/m.", []),
])
def test_a_belief_or_forecast_is_a_fuzzy_claim(handoff: str, fuzzy: list[str]) -> None:
    assert [c.text for c in extract_claims(handoff) if c.kind == "fuzzy"] == fuzzy



def test_numbers_written_the_continental_way(check: CheckFn) -> None:
    from auditor.claims._quantity import quantities
    result = "Presupuesto total consolidado: 48.260.000 €\nGasto social: 14.100.000 € (29,2 %)"
    upstream = [{"tool": "doc_info", "command": "", "result": result, "status": "ok"}]
    got = _verdicts(check, upstream, "Total budget €48.26m; social spending €14.1m, i.e. 29.2% of the total.")
    assert [v for _, v in got] == ["grounded", "grounded", "grounded"], got
    assert [q.text for q in quantities("requests 2.31.0 on 10.4.3.17")] == []  # a version, an address


@pytest.mark.parametrize(("handoff", "kinds"), [
    ("Step 1. Before removing her bindings, transfer ownership of the service account to Ravi, otherwise the "
     "nightly pipeline breaks.", []),  # the consequence of an order not followed
    ("Lint passed, otherwise clean.", ["result"]),  # "apart from that": still a claim
])
def test_what_happens_otherwise_asserts_nothing(handoff: str, kinds: list[str]) -> None:
    assert [c.kind for c in extract_claims(handoff) if c.kind == "result"] == kinds
