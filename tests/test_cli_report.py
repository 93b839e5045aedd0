"""End to end through the CLI: the incident, the report formats, schemas, and the exit codes."""

from __future__ import annotations

import json
import subprocess
import sys
import xml.etree.ElementTree as ET
from pathlib import Path

import pytest
import yaml
from conftest import EXAMPLES, ROOT

from auditor import AuditConfig, audit
from auditor._cli.main import main
from auditor.report import Report


def test_incident_is_softened_end_to_end_with_both_quotes(tmp_path: Path) -> None:
    out = tmp_path / "report.json"
    code = main(["run", str(EXAMPLES / "incident-webhook.json"), "--json", str(out), "--quiet"])
    assert code == 1
    report = Report.model_validate_json(out.read_text())
    (finding,) = [f for f in report.deterministic.findings
                  if f.edge_id == "incident-webhook/plan->coder" and f.check == "edge-audit.constraints.v1"]
    assert finding.verdict == "softened" and finding.status == "fail"
    assert finding.upstream is not None
    assert finding.upstream.text == "You MUST NOT change the signature of handle_webhook(event, ctx)."
    assert finding.upstream.event_id == "ticket"
    source = json.loads((EXAMPLES / "incident-webhook.json").read_text())["events"][0]["content"]
    assert source[finding.upstream.start:finding.upstream.end] == finding.upstream.text
    assert [q.text for q in finding.handoff] == ["Prefer keeping the handle_webhook signature stable where possible."]
    assert report.semantic.ran is False and report.semantic.findings == []


def test_all_kept_example_passes() -> None:
    report = audit([EXAMPLES / "all-kept-refunds.json"])
    assert report.summary.exit_code == 0
    assert {f.verdict for f in report.deterministic.findings} == {"kept", "grounded"}
    assert any(f.details["compared_with"] == "structured" for f in report.deterministic.findings)


def test_markdown_and_junit_carry_verdicts_and_quotes(tmp_path: Path) -> None:
    md, junit = tmp_path / "r.md", tmp_path / "r.xml"
    main(["run", str(EXAMPLES), "--markdown", str(md), "--junit", str(junit), "--quiet"])
    text = md.read_text()
    assert "## Deterministic findings" in text and "## Semantic findings" in text
    assert "Prefer keeping the handle_webhook signature stable where possible." in text
    root = ET.parse(junit).getroot()
    failures = root.findall(".//failure")
    assert int(root.get("failures", "0")) == len(failures) >= 3
    assert any("softened" in (f.get("message") or "") and "MUST NOT" in (f.text or "") for f in failures)
    names = [c.get("name") for c in root.iter("testcase")]
    assert "incident-webhook/plan->coder [edge-audit.constraints.v1]" in names


@pytest.mark.parametrize("what", ["trace", "report", "config"])
def test_schema_command_prints_json_schema(what: str, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["schema", what]) == 0
    schema = json.loads(capsys.readouterr().out)
    assert schema["type"] == "object" and schema["properties"]


def test_report_json_matches_its_schema_version() -> None:
    report = audit([EXAMPLES])
    data = json.loads(report.model_dump_json())
    assert data["schema_version"] == "edge-audit.report.v1"
    assert set(data) >= {"deterministic", "semantic", "edges", "traces", "input_errors", "summary"}


def test_shipped_config_is_the_builtin_default() -> None:
    """config/edge-audit.yaml writes out every default: each check's and grader's options are its
    options model's defaults, and the rest is AuditConfig()."""
    from auditor.checks import check_options
    from auditor.graders import grader_options

    shipped = AuditConfig.model_validate(yaml.safe_load((ROOT / "config" / "edge-audit.yaml").read_text()))
    for check in shipped.checks:
        assert check.options == check_options(check.name)().model_dump(mode="json"), check.name
    for grader in shipped.semantic.graders:
        assert grader.options == grader_options(grader.name)().model_dump(mode="json"), grader.name
    bare = shipped.model_copy(update={
        "checks": [c.model_copy(update={"options": {}}) for c in shipped.checks],
        "semantic": shipped.semantic.model_copy(update={
            "graders": [g.model_copy(update={"options": {}}) for g in shipped.semantic.graders]})})
    assert bare == AuditConfig()


def test_bad_config_is_a_usage_error(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    bad = tmp_path / "c.yaml"
    bad.write_text("checks:\n  - name: edge-audit.nope.v1\n")
    assert main(["run", str(EXAMPLES), "--config", str(bad)]) == 2
    assert "unknown check 'edge-audit.nope.v1'" in capsys.readouterr().err


def test_gate_fail_on_warn_changes_the_exit_code(tmp_path: Path) -> None:
    config = tmp_path / "c.yaml"
    config.write_text("gate:\n  fail_on: [fail, warn, unmeasured]\n")
    assert main(["run", str(EXAMPLES / "all-kept-refunds.json"), "--config", str(config), "--quiet"]) == 0
    assert main(["run", str(EXAMPLES / "travel-and-ops.jsonl"), "--config", str(config), "--quiet"]) == 1


def test_deterministic_path_never_imports_litellm() -> None:
    code = ("import sys; from auditor import audit; audit(['examples/traces']); "
            "print('litellm' in sys.modules, 'instructor' in sys.modules)")
    out = subprocess.run([sys.executable, "-c", code], cwd=ROOT, capture_output=True, text=True, check=True)
    assert out.stdout.strip() == "False False"


def test_help_lists_exit_codes(capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit) as exc:
        main(["run", "--help"])
    assert exc.value.code == 0
    assert "3  some inputs were unreadable" in capsys.readouterr().out


@pytest.mark.parametrize(("options", "message"), [
    ({"invented": "maybe"}, "check 'edge-audit.claims.v1': invented: Input should be 'fail' or 'warn'"),
    ({"kinds": ["rumour"]}, "check 'edge-audit.claims.v1': kinds.0: Input should be"),
    ({"typo": 1}, "check 'edge-audit.claims.v1': typo: Extra inputs are not permitted"),
])
def test_check_options_are_validated_by_the_checks_options_model(tmp_path: Path, options: dict[str, object],
                                                                 message: str,
                                                                 capsys: pytest.CaptureFixture[str]) -> None:
    config = tmp_path / "c.yaml"
    config.write_text(yaml.safe_dump({"checks": [{"name": "edge-audit.claims.v1", "options": options}]}))
    assert main(["run", str(EXAMPLES), "--config", str(config)]) == 2
    assert message in capsys.readouterr().err


def test_schema_options_publishes_every_check_and_grader_option(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["schema", "options"]) == 0
    schemas = json.loads(capsys.readouterr().out)
    claims = schemas["checks"]["edge-audit.claims.v1"]["properties"]
    assert claims["invented"]["enum"] == ["fail", "warn"] and claims["invented"]["default"] == "fail"
    assert schemas["graders"]["edge-audit.claim-grader.v1"]["properties"]["max_block_chars"]["default"] == 2000
