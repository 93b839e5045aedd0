"""The check ``edge-audit.trace_contracts.v1`` in a run: the shipped example contracts (one per
span format, and AG2) pass on their fixture and fail on a mutated copy; one report unit and one
JUnit testcase per rule; gating; silence without contracts; and the lint/explain/schema commands."""

from __future__ import annotations

import json
import shutil
import xml.etree.ElementTree as ET
from pathlib import Path

import pytest
from conftest import EXAMPLES, FIXTURES, ROOT

from auditor import AuditConfig, audit
from auditor._cli.main import main
from auditor.config import CheckConfig, GateConfig
from auditor.report import Report, to_json, to_junit
from auditor.trace import load_paths
from auditor.trace_contracts import lint_contract, lint_trace_contracts, load_trace_contract, parse_contract

SHIPPED = ROOT / "config" / "trace-contracts"
CHECK = "edge-audit.trace_contracts.v1"


def _config(folder: Path, fail_on: tuple[str, ...] = ("fail",)) -> AuditConfig:
    return AuditConfig(checks=[CheckConfig(name=CHECK, options={"contracts": str(folder)})],
                       gate=GateConfig(fail_on=list(fail_on)))


def _rules(report: Report) -> dict[str, tuple[str, str]]:
    return {f.edge_id.split("/", 1)[1]: (f.verdict, f.status) for f in report.deterministic.findings
            if f.check == CHECK}


SAMPLES = [
    ("otlp-incident", FIXTURES / "formats" / "otlp-genai-incident.jsonl", "pytest -q", "rm -rf build",
     "tools.arguments.0"),
    ("openai-agents-incident", FIXTURES / "formats" / "openai-agents-incident.jsonl", "pytest -q", "pytest -x",
     "tools.arguments.0"),
    ("langsmith-incident", FIXTURES / "formats" / "langsmith-incident.jsonl", '"run_tests"', '"deploy"',
     "tools.forbidden"),
    ("langfuse-incident", FIXTURES / "formats" / "langfuse-incident.json", "gpt-4o-mini", "gpt-4o",
     "llm.allowed_models"),
    ("ag2-terminal", FIXTURES / "whowhen" / "1.json", "Computer_terminal", "Observer", "tools.required"),
]


@pytest.mark.parametrize(("contract", "fixture", "old", "new", "broken"), SAMPLES, ids=[s[0] for s in SAMPLES])
def test_shipped_contract_passes_on_its_fixture_and_fails_on_a_mutated_copy(
        tmp_path: Path, contract: str, fixture: Path, old: str, new: str, broken: str) -> None:
    folder = tmp_path / "contracts"
    folder.mkdir()
    shutil.copy(SHIPPED / f"{contract}.yaml", folder)
    passing = audit([fixture], _config(folder))
    rules = _rules(passing)
    assert rules and all(status == "pass" for _, status in rules.values()), rules
    assert passing.summary.exit_code == 0
    mutated = tmp_path / fixture.name
    text = fixture.read_text(encoding="utf-8")
    assert old in text
    mutated.write_text(text.replace(old, new), encoding="utf-8")
    failing = audit([mutated], _config(folder))
    statuses = {rule: status for rule, (_, status) in _rules(failing).items()}
    assert statuses[f"trace-contract:{contract}/{broken}"] == "fail"
    assert failing.summary.exit_code == 1
    finding = next(f for f in failing.deterministic.findings if f.edge_id.endswith(broken))
    evidence = finding.details["evidence"]
    assert isinstance(evidence, list) and evidence and all("event_id" in e and "start" in e for e in evidence)


def test_shipped_contracts_apply_to_no_example_trace() -> None:
    report = audit([EXAMPLES], _config(SHIPPED))
    assert _rules(report) == {}


def test_no_contracts_no_units(tmp_path: Path) -> None:
    with_check = audit([FIXTURES / "formats"], _config(tmp_path / "missing"))
    assert [e for e in with_check.edges if e.kind == "trace_rule"] == []
    assert with_check.deterministic.findings == []


def _write(folder: Path, name: str, text: str) -> Path:
    folder.mkdir(exist_ok=True)
    path = folder / name
    path.write_text(text, encoding="utf-8")
    return path


MIXED = """
id: mixed
applies_to: {trace_ids: ["trace_4f1c*"]}
tools:
  required: [run_tests, deploy]
  required_order: [run_tests]
  required_order_mode: happens-before
steps:
  order:
    - {before: {kind: tool, name: run_tests}, after: {kind: llm, name: gpt-4o-mini}, mode: all-occurrences}
"""


def test_junit_has_one_testcase_per_rule_and_gating_follows_fail_on(tmp_path: Path) -> None:
    folder = tmp_path / "contracts"
    _write(folder, "mixed.yaml", MIXED)
    fixture = FIXTURES / "formats" / "openai-agents-incident.jsonl"
    report = audit([fixture], _config(folder))
    assert _rules(report) == {"trace-contract:mixed/tools.required": ("tool_missing", "fail"),
                              "trace-contract:mixed/steps.order.0": ("not_all_before", "fail")}
    cases = [c for c in ET.fromstring(to_junit(report)).iter("testcase") if "trace-contract:" in c.get("name", "")]
    assert sorted(c.get("name") for c in cases) == sorted(
        f"trace_4f1c2a9e0b7d4e6f8a1b2c3d4e5f6a7b/trace-contract:mixed/{rule} [{verdict}]"
        for rule, verdict in (("tools.required", "tool_missing"), ("steps.order.0", "not_all_before")))
    assert all(c.find("failure") is not None for c in cases)
    assert report.summary.exit_code == 1
    # gated on warnings only: the failures are still reported, and do not fail the run
    assert audit([fixture], _config(folder, ("warn",))).summary.exit_code == 0


def test_unmeasured_rule_is_a_skipped_testcase_and_gates_only_when_asked(tmp_path: Path) -> None:
    folder = tmp_path / "contracts"
    _write(folder, "ghost.yaml", "id: ghost\nscope: {agents: [Ghost]}\ntools: {max_calls: 9}\n")
    fixture = FIXTURES / "formats" / "openai-agents-incident.jsonl"
    report = audit([fixture], _config(folder))
    assert set(_rules(report).values()) == {("scope_empty", "unmeasured")}
    case = next(c for c in ET.fromstring(to_junit(report)).iter("testcase") if "ghost" in c.get("name", ""))
    skipped = case.find("skipped")
    assert skipped is not None and "scope_empty" in skipped.get("message", "")
    assert report.summary.exit_code == 0
    assert audit([fixture], _config(folder, ("fail", "unmeasured"))).summary.exit_code == 1


def test_reports_are_deterministic(tmp_path: Path) -> None:
    folder = tmp_path / "contracts"
    _write(folder, "mixed.yaml", MIXED)
    runs = [to_json(audit([FIXTURES / "formats"], _config(folder))) for _ in range(2)]
    assert runs[0] == runs[1]


def test_lint_and_explain_run_on_every_shipped_contract(capsys: pytest.CaptureFixture[str]) -> None:
    paths = sorted(SHIPPED.glob("*.yaml"))
    traces = load_paths([FIXTURES / "formats", FIXTURES / "whowhen" / "1.json"]).traces
    assert lint_trace_contracts(paths, [t.trace for t in traces]) == []
    assert main(["trace-contracts", "lint", str(SHIPPED), "--traces", str(FIXTURES / "formats"),
                 str(FIXTURES / "whowhen" / "1.json")]) == 0
    assert main(["trace-contracts", "explain", str(SHIPPED)]) == 0
    out = capsys.readouterr().out
    assert "5 trace contracts, 0 errors, 0 warnings" in out
    for path in paths:
        contract = load_trace_contract(path)
        assert f"{contract.id}: on traces" in out
    assert "  tools.arguments.0: bash (all calls): /command equals \"pytest -q\"" in out


@pytest.mark.parametrize(("raw", "expected"), [
    ({"tools": {"required": ["a"], "forbidden": ["a"]}}, "a is both required and forbidden"),
    ({"tools": {"required_order": ["a"], "allowed": ["b"]}}, "a is required but not in the allowed set"),
    ({"tools": {"required_order": ["a", "b"], "order_rules": [{"before": "b", "after": "a"}]}},
     "cycle: a before b before a"),
    ({"tools": {"required": ["a", "b"], "max_calls": 1}}, "2 tools are required but at most 1"),
    ({"tools": {"required": ["a"], "max_calls_per_tool": {"a": 0}}}, "may be called 0 times"),
    ({"tools": {"arguments": [{"tool": "t", "path": "/x", "op": "equals", "value": 1},
                              {"tool": "t", "path": "/x", "op": "equals", "value": 2}]}}, "different values"),
    ({"run": {"require_completed": True, "allowed_statuses": ["running"]}}, "may only be running"),
    ({"run": {"allowed_statuses": ["done"]}}, "unknown status"),
    ({"scope": {"metadata": {"format": "otlp"}}}, "can never match"),
    ({"tools": {"required": ["retrieve"]}, "alternatives": {"any_of": [
        {"id": "cache", "tools": {"forbidden": ["retrieve"]}}, {"id": "fresh", "tools": {"required": ["x"]}}]}},
     "branch can never be satisfied"),
    ({"tools": {"required": ["retrieve"]}, "alternatives": {"any_of": [
        {"id": "cache", "tools": {"required": ["cache_lookup"]}},
        {"id": "fresh", "tools": {"required": ["retrieve"]}}]}}, "required unconditionally"),
])
def test_lint_flags(raw: dict[str, object], expected: str) -> None:
    problems = lint_contract(parse_contract({"id": "c", **raw}))
    assert any(expected in str(p) for p in problems), problems


def test_lint_flags_a_scope_that_matches_nothing_in_a_given_trace(tmp_path: Path,
                                                                   capsys: pytest.CaptureFixture[str]) -> None:
    path = _write(tmp_path / "c", "ghost.yaml", "id: ghost\nscope: {under_agent: Ghost}\ntools: {max_calls: 1}\n")
    fixture = FIXTURES / "formats" / "otlp-genai-incident.jsonl"
    assert main(["trace-contracts", "lint", str(path), "--traces", str(fixture)]) == 1
    assert "scope selects nothing in trace 5b8aa5a2d2c872e8321cf37308d69df2" in capsys.readouterr().out
    assert main(["trace-contracts", "lint", str(path)]) == 0  # without traces, only static problems


def test_lint_reports_an_invalid_file_and_a_duplicate_id(tmp_path: Path) -> None:
    folder = tmp_path / "c"
    _write(folder, "a.yaml", "id: same\n")
    _write(folder, "b.yaml", "id: same\n")
    _write(folder, "c.yaml", "id: bad\ntools: {required_order_mode: sideways}\n")
    problems = [str(p) for p in lint_trace_contracts(sorted(folder.glob("*.yaml")))]
    assert any("b.yaml: error: id 'same' is also used by" in p for p in problems)
    assert any("c.yaml: error: tools.required_order_mode" in p for p in problems)


def test_schema_command_publishes_the_contract_schema(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["schema", "trace-contract"]) == 0
    schema = json.loads(capsys.readouterr().out)
    assert schema["properties"]["schema"]["const"] == "edge-audit.trace-contract.v1"
    assert "alternatives" in schema["properties"]


def test_the_readme_contract_is_valid_and_lint_clean() -> None:
    import yaml

    text = (ROOT / "README.md").read_text(encoding="utf-8")
    start = text.index("schema: edge-audit.trace-contract.v1\nid: refund-flow")
    block = text[start:text.index("```", start)]
    contract = parse_contract(yaml.safe_load(block))
    assert lint_contract(contract) == []
    assert len(contract.spec.alternatives.any_of if contract.spec.alternatives else []) == 2
