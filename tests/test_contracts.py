"""Handoff contracts. Mutation tests: each verdict comes from the passing control changed at
one boundary (one stage event), and the test checks mechanically that only that event changed.
Then retries joined by ids (not time), migrations, the linter, the producer helper, route
gating and JUnit."""

from __future__ import annotations

import copy
import json
import xml.etree.ElementTree as ET
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
from conftest import EXAMPLES, FIXTURES, ROOT

from auditor import AuditConfig, audit
from auditor._cli.main import main
from auditor.config import CheckConfig
from auditor.contracts import build_envelope, contract_files, lint, load_contract, load_contracts, received
from auditor.errors import HandoffContractError
from auditor.report import Report

HERE = FIXTURES / "contracts"
BOOK = HERE / "book"
CONTROL: dict[str, Any] = json.loads((HERE / "control.json").read_text())
SRC, ENV, DST = 0, 1, 2

Mutation = Callable[[list[dict[str, Any]]], None]


def _config(unpermitted: str = "fail") -> AuditConfig:
    return AuditConfig(checks=[CheckConfig(name="edge-audit.contracts.v1",
                                           options={"contracts": str(BOOK), "unpermitted": unpermitted})])


def _run(tmp_path: Path, trace: dict[str, Any], config: AuditConfig | None = None) -> Report:
    path = tmp_path / "trace.json"
    path.write_text(json.dumps(trace))
    return audit([path], config or _config())


def _verdicts(report: Report) -> list[tuple[str, str, str]]:
    return [(f.details["attempt_id"], f.verdict, f.status) for f in report.deterministic.findings]


def _drop(stage: int, key: str = "invoice_id") -> Mutation:
    def mutate(events: list[dict[str, Any]]) -> None:
        events[stage]["keys"] = [k for k in events[stage]["keys"] if k != key]
    return mutate


def _set(stage: int, **fields: Any) -> Mutation:
    def mutate(events: list[dict[str, Any]]) -> None:
        events[stage].update(fields)
    return mutate


def _remove(stage: int) -> Mutation:
    def mutate(events: list[dict[str, Any]]) -> None:
        del events[stage]
    return mutate


def _add_key(stage: int, key: str) -> Mutation:
    def mutate(events: list[dict[str, Any]]) -> None:
        events[stage]["keys"] = [*events[stage]["keys"], key]
    return mutate


# (mutation, expected boundary verdict, status, boundary, missing keys, owner)
MUTATIONS: dict[str, tuple[Mutation, str, str, str | None, list[str], str | None]] = {
    "routing_mismatch-near-miss-to-general-support": (
        _set(DST, to_agent="general_support"), "routing_mismatch", "fail", "routing", [], "orchestrator-team"),
    "routing_mismatch-wrong-source-agent": (
        _set(SRC, from_agent="intake"), "routing_mismatch", "fail", "routing", [], "orchestrator-team"),
    "insufficient_evidence-source-sampled-out": (
        _set(SRC, capture="sampled_out"), "insufficient_evidence", "unmeasured", "source", [], "triage-team"),
    "upstream_context_missing-source-never-stored-invoice": (
        _drop(SRC), "upstream_context_missing", "fail", "source", ["invoice_id"], "triage-team"),
    "insufficient_evidence-envelope-redacted": (
        _set(ENV, capture="redacted", keys=["customer_id"]), "insufficient_evidence", "unmeasured", "envelope", [],
        "platform-team"),
    "packaging_loss-allowlist-dropped-invoice": (
        _drop(ENV), "packaging_loss", "fail", "envelope", ["invoice_id"], "platform-team"),
    "insufficient_evidence-destination-not-recorded": (
        _remove(DST), "insufficient_evidence", "unmeasured", "destination", [], "billing-team"),
    "insufficient_evidence-destination-truncated": (
        _set(DST, capture="truncated"), "insufficient_evidence", "unmeasured", "destination", [], "billing-team"),
    "ingestion_loss-receiver-loaded-wrong-record": (
        _drop(DST), "ingestion_loss", "fail", "destination", ["invoice_id"], "billing-team"),
    "version_mismatch-envelope-v3-no-migration": (
        _set(ENV, contract_version="3"), "version_mismatch", "unmeasured", None, [], None),
    "passed-source-v1-renamed-by-declared-migration": (
        _set(SRC, contract_version="1", keys=["customer_id", "invoice_ref", "locale"]), "passed", "pass", None, [],
        None),
}


def _changed_events(mutated: list[dict[str, Any]]) -> int:
    before = {e["id"]: e for e in CONTROL["events"]}
    after = {e["id"]: e for e in mutated}
    return sum(1 for i in before.keys() | after.keys() if before.get(i) != after.get(i))


def test_the_control_passes(tmp_path: Path) -> None:
    report = _run(tmp_path, CONTROL)
    assert _verdicts(report) == [("1", "passed", "pass")]
    assert report.summary.exit_code == 0


@pytest.mark.parametrize("case", list(MUTATIONS))
def test_one_boundary_changed_gives_its_verdict(tmp_path: Path, case: str) -> None:
    mutate, verdict, status, boundary, missing, owner = MUTATIONS[case]
    trace = copy.deepcopy(CONTROL)
    mutate(trace["events"])
    assert _changed_events(trace["events"]) == 1, f"{case}: a mutation must change exactly one stage event"
    report = _run(tmp_path, trace)
    [finding] = report.deterministic.findings
    assert (finding.verdict, finding.status) == (verdict, status), case
    assert finding.details["boundary"] == boundary, case
    assert finding.details["missing_keys"] == missing, case
    assert finding.details["owner"] == owner, case
    if verdict not in ("version_mismatch",):
        assert finding.details["contract_version"] == "2", case
    assert report.summary.exit_code == (1 if status == "fail" else 0), case


def test_partial_capture_is_never_a_pass_and_never_a_loss(tmp_path: Path) -> None:
    for capture in ("redacted", "sampled_out", "truncated"):
        for stage in (SRC, ENV, DST):
            trace = copy.deepcopy(CONTROL)
            trace["events"][stage]["capture"] = capture
            _drop(stage)(trace["events"])  # the partial view also lacks a required key
            [finding] = _run(tmp_path, trace).deterministic.findings
            assert (finding.verdict, finding.status) == ("insufficient_evidence", "unmeasured"), (capture, stage)


def test_unknown_route_is_not_graded_against_another_contract(tmp_path: Path) -> None:
    trace = copy.deepcopy(CONTROL)
    for event in trace["events"]:
        event["route"] = "triage_to_legal"
    [finding] = _run(tmp_path, trace).deterministic.findings
    assert (finding.verdict, finding.status) == ("contract_unknown", "unmeasured")
    assert "no contract for route 'triage_to_legal'" in finding.summary


def test_copying_the_whole_state_shows_as_unpermitted_keys(tmp_path: Path) -> None:
    trace = copy.deepcopy(CONTROL)
    for stage in (SRC, ENV, DST):
        _add_key(stage, "internal_note")(trace["events"])
    findings = _run(tmp_path, trace).deterministic.findings
    assert [(f.verdict, f.status) for f in findings] == [("passed", "pass"), ("unpermitted_key", "fail")]
    assert findings[1].details["unpermitted_keys"] == {"envelope": ["internal_note"], "destination": ["internal_note"]}
    warned = _run(tmp_path, trace, _config(unpermitted="warn")).deterministic.findings
    assert warned[1].status == "warn"


def _attempt(attempt: str, envelope_keys: list[str], times: tuple[str, str, str]) -> list[dict[str, Any]]:
    events = copy.deepcopy(CONTROL["events"])
    for event, ts in zip(events, times, strict=True):
        event["attempt_id"] = attempt
        event["id"] = event["id"].replace("h1.1.", f"h1.{attempt}.")
        event["timestamp"] = ts
    events[ENV]["keys"] = envelope_keys
    return events


def test_a_failed_attempt_and_its_retry_are_two_facts_joined_by_ids_not_time(tmp_path: Path) -> None:
    """Attempt 2's envelope is logged before attempt 1's: joining by timestamp would splice
    attempt 1's source onto attempt 2's complete envelope and hide the packaging loss."""
    full = ["customer_id", "invoice_id", "locale"]
    a1 = _attempt("1", ["customer_id", "locale"], ("2026-01-01T10:00:00Z", "2026-01-01T10:00:04Z",
                                                   "2026-01-01T10:00:05Z"))
    a2 = _attempt("2", full, ("2026-01-01T10:00:01Z", "2026-01-01T10:00:02Z", "2026-01-01T10:00:06Z"))
    interleaved = [a1[SRC], a2[SRC], a2[ENV], a1[ENV], a1[DST], a2[DST]]
    trace = {**CONTROL, "events": interleaved}
    report = _run(tmp_path, trace)
    assert _verdicts(report) == [("1", "packaging_loss", "fail"), ("2", "recovered", "pass")]
    recovered = report.deterministic.findings[1]
    assert recovered.details["recovered_from"] == ["1"]
    assert report.summary.exit_code == 1, "a recovery does not erase the defect"
    assert {e.id for e in report.edges} == {"contract-control/handoff:h1@1", "contract-control/handoff:h1@2"}


def test_a_stage_recorded_twice_in_one_attempt_is_ambiguous(tmp_path: Path) -> None:
    trace = copy.deepcopy(CONTROL)
    duplicate = {**trace["events"][ENV], "id": "h1.1.envelope.again", "keys": ["customer_id"]}
    trace["events"].insert(ENV + 1, duplicate)
    [finding] = _run(tmp_path, trace).deterministic.findings
    assert (finding.verdict, finding.details["boundary"]) == ("insufficient_evidence", "envelope")


def _write(folder: Path, name: str, text: str) -> Path:
    path = folder / name
    path.write_text(text)
    return path


_CONTRACT = """schema: edge-audit.contract.v1
route: {route}
version: "{version}"
source: a
destination: b
required: [x, y]
permitted: {permitted}
owners: {{routing: o, source: o, envelope: o, destination: o}}
{extra}"""


@pytest.mark.parametrize(("case", "files", "fixtures", "expected"), [
    ("required-not-permitted", [("r", "1", "[x]", "")], [], "required keys not in permitted: y"),
    ("duplicate-route", [("r", "1", "[x, y]", ""), ("r", "1", "[x, y]", "")], [], "duplicate route 'r' version 1"),
    ("migration-without-fixture", [("r", "2", "[x, y]", "migrations:\n  - from: '1'\n    renames: {z: x}\n")], [],
     "migration from v1 has no test fixture"),
    ("migration-fixture-missing", [("r", "2", "[x, y]", "migrations:\n  - from: '1'\n    fixture: nope.json\n")],
     [], "fixture nope.json does not exist"),
    ("fixture-without-version", [("r", "1", "[x, y]", "")], ["unversioned"], "has no contract_version"),
    ("handoff-id-reused", [("r", "1", "[x, y]", "")], ["reuse-a", "reuse-b"], "is reused in unrelated cases"),
])
def test_lint_flags_each_problem(tmp_path: Path, case: str, files: list[tuple[str, str, str, str]],
                                 fixtures: list[str], expected: str) -> None:
    paths = [_write(tmp_path, f"c{i}.yaml", _CONTRACT.format(route=r, version=v, permitted=p, extra=e))
             for i, (r, v, p, e) in enumerate(files)]
    fixture_paths = []
    for name in fixtures:
        trace = copy.deepcopy(CONTROL)
        trace["trace_id"] = name
        if name == "unversioned":
            del trace["events"][0]["contract_version"]
        fixture_paths.append(_write(tmp_path, f"{name}.json", json.dumps(trace)))
    problems = [str(p) for p in lint(paths, fixture_paths)]
    assert any(expected in p for p in problems), (case, problems)


def test_shipped_and_test_contracts_lint_clean(capsys: pytest.CaptureFixture[str]) -> None:
    assert lint(contract_files(ROOT / "config" / "contracts")) == []
    assert lint(contract_files(BOOK), [HERE / "control.json"]) == []
    assert main(["contracts", "lint", str(ROOT / "config" / "contracts")]) == 0
    assert "0 problems" in capsys.readouterr().out


def test_producer_builds_from_the_allowlist_and_fails_before_dispatch(tmp_path: Path) -> None:
    contract = load_contract(BOOK / "triage_to_billing.yaml")
    state = {"customer_id": "C-1", "invoice_id": "INV-1", "locale": "en", "internal_note": "secret"}
    envelope = build_envelope(contract, state, handoff_id="p-1")
    assert envelope.payload == {"customer_id": "C-1", "invoice_id": "INV-1", "locale": "en"}
    events = [*envelope.events, received(envelope, envelope.payload)]
    assert all("C-1" not in json.dumps(e) for e in events), "stage events carry key names, never values"
    report = _run(tmp_path, {"schema": "edge-audit.trace.v1", "trace_id": "producer", "events": events})
    assert _verdicts(report) == [("1", "passed", "pass")]

    with pytest.raises(HandoffContractError, match="invoice_id") as err:
        build_envelope(contract, {"customer_id": "C-1"}, handoff_id="p-2")
    assert err.value.missing == ["invoice_id"] and err.value.events[0]["stage"] == "source"
    failed = _run(tmp_path, {"schema": "edge-audit.trace.v1", "trace_id": "producer-2", "events": list(err.value.events)})
    assert _verdicts(failed) == [("1", "upstream_context_missing", "fail")], "the recorded failure names the source"

    misrouted = received(envelope, ["customer_id"], agent="general_support")
    report = _run(tmp_path, {"schema": "edge-audit.trace.v1", "trace_id": "producer-3",
                             "events": [*envelope.events, misrouted]})
    assert _verdicts(report) == [("1", "routing_mismatch", "fail")]


def test_without_a_declared_migration_versions_are_not_compared(tmp_path: Path) -> None:
    book = tmp_path / "book"
    book.mkdir()
    for path in contract_files(BOOK):
        text = path.read_text()
        if "migrations:" in text:
            text = text[:text.index("migrations:")]
        (book / path.name).write_text(text)
    assert load_contracts(contract_files(book)).get("triage_to_billing", "2") is not None
    trace = copy.deepcopy(CONTROL)
    MUTATIONS["passed-source-v1-renamed-by-declared-migration"][0](trace["events"])
    config = AuditConfig(checks=[CheckConfig(name="edge-audit.contracts.v1", options={"contracts": str(book)})])
    [finding] = _run(tmp_path, trace, config).deterministic.findings
    assert (finding.verdict, finding.status) == ("version_mismatch", "unmeasured")
    assert "source v1" in finding.summary


def test_example_gating_is_per_route(tmp_path: Path) -> None:
    example = str(EXAMPLES / "billing-triage.json")
    junit = tmp_path / "j.xml"
    assert main(["run", example, "--quiet", "--junit", str(junit)]) == 1
    cases = {c.get("name"): c for c in ET.parse(junit).getroot().iter("testcase")}
    loss = cases["billing-triage/handoff:h-100@1 [packaging_loss: invoice_id]"]
    assert loss.find("failure") is not None
    assert cases["billing-triage/handoff:h-100@2 [recovered]"].find("failure") is None
    assert cases["billing-triage/handoff:h-104@1 [insufficient_evidence]"].find("skipped") is not None
    assert main(["run", example, "--quiet", "--gate-routes", "triage_to_support"]) == 0, \
        "billing failures do not gate when only the support route is gated"
    assert main(["run", example, "--quiet", "--gate-routes", "triage_to_billing,triage_to_support"]) == 1


def test_contract_schema_is_published(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["schema", "contract"]) == 0
    schema = json.loads(capsys.readouterr().out)
    assert {"route", "version", "required", "permitted", "owners"} <= set(schema["properties"])
