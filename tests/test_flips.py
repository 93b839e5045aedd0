"""``edge-audit flips``: only the deltas between two reports, by an identity that survives
reordering and line shifts; exit 1 on a regression."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from auditor import audit
from auditor._cli.main import main
from auditor.flips import compare, finding_items, flips, read_items
from auditor.report import to_json

TICKET = ("Add retries to the webhook handler. You must not change the signature of handle_webhook(event, ctx). "
          "Never log the customer's card number.")


def _trace(plan: str, trace_id: str = "flip-demo", lead: list[dict[str, Any]] | None = None) -> dict[str, Any]:
    return {"schema": "edge-audit.trace.v1", "trace_id": trace_id, "metadata": {"score": 1.0},
            "agents": [{"name": "user", "kind": "human"}, {"name": "planner"}, {"name": "coder"}],
            "events": [*(lead or []),
                       {"type": "message", "id": "ticket", "sender": "user", "recipients": ["planner"],
                        "content": TICKET},
                       {"type": "tool_call", "id": "t1", "agent": "planner", "tool": "bash",
                        "arguments": {"command": "pytest"}, "result": "58 passed in 3.1s", "exit_code": 0,
                        "status": "ok"},
                       {"type": "message", "id": "plan", "sender": "planner", "recipients": ["coder"],
                        "content": plan}]}


def _report(tmp_path: Path, name: str, traces: list[dict[str, Any]]) -> Path:
    folder = tmp_path / name
    folder.mkdir()
    for n, doc in enumerate(traces):
        (folder / f"{n}.json").write_text(json.dumps(doc), encoding="utf-8")
    out = tmp_path / f"{name}.json"
    out.write_text(to_json(audit([folder])), encoding="utf-8")
    return out


OLD_PLAN = ("Add retries to handle_webhook. You must not change the signature of handle_webhook(event, ctx). "
            "Try not to log the customer's card number if possible. 58 tests passed.")
#: Lines shifted (a new first line), the first rule softened, the second restored, the test
#: count gone and a timing claim added.
NEW_PLAN = ("Context first.\nAdd retries to handle_webhook. You should try not to change the signature of "
            "handle_webhook(event, ctx). Never log the customer's card number. The test run finished in 3.1s.")


def test_run_reports_one_of_each_flip(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    old = _report(tmp_path, "old", [_trace(OLD_PLAN)])
    new = _report(tmp_path, "new", [_trace(NEW_PLAN)])
    result = flips(str(old), str(new))
    assert result.counts == {"regressed": 1, "unexpected_pass": 1, "new": 1, "removed": 1}
    by_kind = {f.flip: f for f in result.flips}
    assert "must not change the signature" in by_kind["regressed"].label
    assert (by_kind["regressed"].old, by_kind["regressed"].new) == ("pass (kept)", "fail (softened)")
    assert "card number" in by_kind["unexpected_pass"].label
    assert "3.1s" in by_kind["new"].label and "58 tests passed" in by_kind["removed"].label
    assert main(["flips", str(old), str(new), "--json", str(tmp_path / "flips.json")]) == 1
    out = capsys.readouterr().out
    assert out.splitlines()[0].endswith("1 regressed, 1 unexpected pass, 1 new, 1 removed (0 unchanged, not listed)")
    assert json.loads((tmp_path / "flips.json").read_text())["counts"]["regressed"] == 1


def test_identity_survives_reordering_and_line_shifts(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    other = _trace(OLD_PLAN.replace("card number", "email address"), trace_id="second")
    old = _report(tmp_path, "old", [_trace(OLD_PLAN), other])
    lead = [{"type": "message", "id": "hello", "sender": "user", "recipients": ["planner"], "content": "Hi."}]
    shifted = _trace("Note.\n\n" + OLD_PLAN.replace(". ", ".\n"), lead=lead)
    new = _report(tmp_path, "new", [other, shifted])  # the traces' order swapped too
    old_items, new_items = read_items(old), read_items(new)
    assert len(old_items) == len(new_items) > 2
    assert compare(old_items, new_items).flips == []
    assert main(["flips", str(old), str(new)]) == 0
    assert "0 regressed" in capsys.readouterr().out


def test_the_same_claim_twice_pairs_by_pass_bit_not_position(tmp_path: Path) -> None:
    report = _report(tmp_path, "r", [_trace("58 tests passed. Then 58 tests passed.")])
    from auditor.report import Report

    parsed = Report.model_validate_json(report.read_text())
    items = finding_items(parsed)
    reversed_report = parsed.model_copy(update={"deterministic": parsed.deterministic.model_copy(
        update={"findings": list(reversed(parsed.deterministic.findings))})})
    assert {i.key for i in items} == {i.key for i in finding_items(reversed_report)}
    claims = [i.label for i in items if "claims" in i.label]
    assert len(claims) == 2 and claims[0] == claims[1]  # one identity twice, two keys
    assert len({i.key for i in items}) == len(items)


def test_cases_reports(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    old = tmp_path / "old.json"
    new = tmp_path / "new.json"
    old.write_text(json.dumps({"schema": "edge-audit.cases.v1", "cases": [
        {"id": "order-4412-absent", "passed": True}, {"id": "refund-denied", "passed": False},
        {"id": "steady", "passed": True}, {"id": "retired", "passed": True}]}))
    new.write_text(json.dumps({"suite": "goldens", "cases": [
        {"id": "steady", "passed": True, "extra": 1}, {"id": "refund-denied", "passed": True},
        {"id": "order-4412-absent", "passed": False, "summary": "banned claim: refund was issued"},
        {"id": "added", "passed": False}]}))
    assert main(["flips", str(old), str(new)]) == 1
    lines = capsys.readouterr().out.splitlines()
    assert lines[0].endswith("1 regressed, 1 unexpected pass, 1 new, 1 removed (1 unchanged, not listed)")
    assert [line.split()[0] for line in lines[1:]] == ["regressed", "unexpected_pass", "new", "removed"]
    assert "order-4412-absent: banned claim: refund was issued" in lines[1]
    same = compare(read_items(old), read_items(old))
    assert same.flips == [] and not same.regressed


@pytest.mark.parametrize("doc", [[1, 2], {"cases": [{"id": "a"}]}, {"cases": [{"id": "a", "passed": True}] * 2},
                                 {"neither": True}])
def test_bad_reports_are_usage_errors(tmp_path: Path, doc: Any, capsys: pytest.CaptureFixture[str]) -> None:
    bad = tmp_path / "bad.json"
    bad.write_text(json.dumps(doc))
    assert main(["flips", str(bad), str(bad)]) == 2
    assert "edge-audit: error:" in capsys.readouterr().err


@pytest.mark.parametrize("what", ["cases", "flips", "selftest", "trend"])
def test_between_runs_outputs_have_a_schema(what: str, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["schema", what]) == 0
    schema = json.loads(capsys.readouterr().out)
    assert schema["type"] == "object" and schema["properties"]


def test_flips_redacts_quoted_secrets(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    secret = "sk-live-0123456789abcdefghijklmnop"
    old, new = tmp_path / "old.json", tmp_path / "new.json"
    old.write_text(json.dumps({"cases": [{"id": "a", "passed": True, "summary": f"key {secret}"}]}))
    new.write_text(json.dumps({"cases": [{"id": "a", "passed": False, "summary": f"key {secret}"}]}))
    assert main(["flips", str(old), str(new), "--redact", "--json", str(tmp_path / "f.json")]) == 1
    assert secret not in capsys.readouterr().out and secret not in (tmp_path / "f.json").read_text()


def test_golden_reports_plug_in(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    root = Path(__file__).resolve().parents[1]
    old, new = tmp_path / "old.json", tmp_path / "new.json"
    assert main(["golden", "check", str(root / "examples" / "goldens.yaml"), "--json", str(old)]) == 0
    report = json.loads(old.read_text())
    first = report["cases"][0]
    first.update(passed=False, status="fail")
    new.write_text(json.dumps(report))
    capsys.readouterr()
    assert main(["flips", str(old), str(new)]) == 1
    lines = capsys.readouterr().out.splitlines()
    assert lines[0].endswith(f"1 regressed, 0 unexpected pass, 0 new, 0 removed ({len(report['cases']) - 1} unchanged, "
                             "not listed)")
    assert lines[1].split()[:2] == ["regressed", "case"] and first["id"] in lines[1]
