"""The claims pass: labelled cases, result parsing, tool semantics, examples and reports."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
import yaml
from conftest import EXAMPLES, ROOT
from labelled_claims import claim_check, claim_scores, load_claim_cases, run_claim_case

from auditor import audit
from auditor._cli.main import main
from auditor.checks import CheckContext, CheckFn, make_check
from auditor.claims import DEFAULT_TOOLS_FILE, extract_claims, load_tool_semantics, outcome
from auditor.errors import ConfigError
from auditor.nlp import TextAnalyzer
from auditor.report import to_junit, to_markdown
from auditor.trace import ToolCall

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
    assert contradicted == {("result", "pytest-1"), ("number", "bench-1")}
    assert all(f.details["severity"] == "critical" for f in claims if f.verdict == "contradicted")
    assert report.summary.exit_code == 1


def test_all_grounded_example_passes() -> None:
    report = audit([EXAMPLES / "claims-all-grounded.json"])
    verdicts = {f.verdict for f in report.deterministic.findings}
    assert verdicts == {"grounded"}
    assert report.summary.exit_code == 0


def test_claims_reach_junit_and_markdown() -> None:
    report = audit([EXAMPLES / "claims-green-after-red.json"])
    junit = to_junit(report, ("fail",))
    assert "edge-audit.claims.v1" in junit and "contradicted" in junit and "2 failed, 56 passed" in junit
    markdown = to_markdown(report)
    assert "contradicted" in markdown and "p95 latency: 180 ms" in markdown


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
