"""Golden traces: the goldens file, banned-claim containment with denials, behaviours, the audit
of each case's trace, and the `golden check` command on the shipped example."""

from __future__ import annotations

import json
import re
from pathlib import Path
from typing import Any

import pytest
import yaml

from auditor import AuditConfig
from auditor._cli.main import main
from auditor.errors import ConfigError
from auditor.goldens import (
    AnswerText,
    GoldenCase,
    Goldens,
    GoldensFile,
    StanceReader,
    behaviours,
    check_goldens,
    containment,
    load_goldens,
)

ROOT = Path(__file__).resolve().parents[1]
EXAMPLE = ROOT / "examples" / "goldens.yaml"


@pytest.fixture(scope="module")
def reader() -> StanceReader:
    return StanceReader(AuditConfig().nlp.pipeline)


@pytest.mark.parametrize(("text", "form", "stance"), [
    ("I cannot confirm that order 4412 exists.", "order 4412 exists", "denied"),
    ("There is no record that a refund was issued.", "refund was issued", "denied"),
    ("No refund was issued for order 4412.", "refund was issued", "denied"),
    ('You mentioned "the refund was issued", but that is not true.', "refund was issued", "denied"),
    ("It is false that the refund was issued.", "refund was issued", "denied"),
    ("I have no evidence that order 4412 exists.", "order 4412 exists", "denied"),
    ("Nothing shows that the refund was issued.", "refund was issued", "denied"),
    ("I cannot tell you whether a refund was issued.", "refund was issued", "questioned"),
    ("Good news: your refund was issued.", "refund was issued", "asserted"),
    ("Order 4412 exists and the refund was issued.", "refund was issued", "asserted"),
    ("Order 4412 exists, but I can't refund it.", "order 4412 exists", "asserted"),
    ("I can't refund it because order 4412 exists in another account.", "order 4412 exists", "asserted"),
    ("The refund was issued and it is not reversible.", "refund was issued", "asserted"),
    ("If the refund was issued, you will see it in 5 days.", "refund was issued", "asserted"),
    ("Sorry, the refund was issued yesterday, not today.", "refund was issued", "asserted"),
    # a negation nearby that denies nothing, and negated denials
    ("Don't worry, the refund was issued.", "refund was issued", "asserted"),
    ("I can't wait to tell you that the refund was issued.", "refund was issued", "asserted"),
    ("I have no doubt that the refund was issued.", "refund was issued", "asserted"),
    ("Nobody can deny that the refund was issued.", "refund was issued", "asserted"),
    ('"Refund was issued" - no problem at all!', "refund was issued", "asserted"),
    ("I don't have any evidence that the refund was issued.", "refund was issued", "denied"),
    ("It is not true that the refund was issued.", "refund was issued", "denied"),
    ("I doubt that the refund was issued.", "refund was issued", "denied"),
    ("Our records do not show that the refund was issued.", "refund was issued", "denied"),
])
def test_a_banned_form_counts_only_where_it_is_asserted(reader: StanceReader, text: str, form: str,
                                                        stance: str) -> None:
    match = re.search(re.escape(form), text, re.IGNORECASE)
    assert match is not None
    assert reader.stance(text, match.start(), match.end()).stance == stance


def _example_case(case_id: str) -> tuple[Goldens, GoldenCase]:
    goldens = load_goldens(EXAMPLE)
    return goldens, next(c for c in goldens.cases if c.id == case_id)


def test_an_honest_answer_passes_and_a_poisoned_one_fails(reader: StanceReader) -> None:
    _, case = _example_case("order-4412-absent")
    honest = [AnswerText("reply", "Order 4412 was not found, so I cannot confirm that a refund was issued. "
                                  "Could you send the order number from your receipt?")]
    kept = containment(case, honest, reader)
    assert kept.passed and kept.asserted == []
    assert [(h.claim, h.stance) for h in kept.hits] == [("refund-issued", "denied")]
    assert all(b.passed for b in behaviours(case, honest, reader))

    poisoned = [AnswerText("reply", honest[0].text + " Good news: your refund has  been\nissued.")]
    bad = containment(case, poisoned, reader)
    assert not bad.passed and bad.asserted == ["refund-issued"]
    hit = next(h for h in bad.hits if h.stance == "asserted")
    assert poisoned[0].text[hit.start:hit.end] == hit.quote == "refund has  been\nissued"


def test_missing_behaviours_fail_with_a_reason(reader: StanceReader) -> None:
    _, case = _example_case("order-4412-absent")
    results = behaviours(case, [AnswerText("reply", "Your refund will be handled by billing.")], reader)
    assert [(b.id, b.passed) for b in results] == [("says-not-found", False), ("asks-for-order-number", False)]
    assert all(b.reason for b in results)
    # a denied allowed fact is not stated
    denied = behaviours(case, [AnswerText("reply", "It is false that order 4412 was not found.")], reader)
    assert denied[0].passed is False


def _goldens_with(tmp_path: Path, edit: Any) -> Path:
    """A copy of the shipped goldens with the order case's trace edited by ``edit(trace dict)``."""
    data = yaml.safe_load(EXAMPLE.read_text(encoding="utf-8"))
    order = next(c for c in data["cases"] if c["id"] == "order-4412-absent")
    trace = json.loads((EXAMPLE.parent / order["trace"]).read_text(encoding="utf-8"))
    edit(trace)
    order["trace"] = trace
    data["system_prompt"] = str(EXAMPLE.parent / data["system_prompt"])
    path = tmp_path / "goldens.yaml"
    path.write_text(yaml.safe_dump(data), encoding="utf-8")
    return path


def _reply(trace: dict[str, Any]) -> dict[str, Any]:
    return next(e for e in trace["events"] if e.get("id") == "reply")


def test_golden_check_passes_the_shipped_example_and_fails_its_poisoned_copy(tmp_path: Path) -> None:
    honest = check_goldens(load_goldens(EXAMPLE), AuditConfig())
    assert [(c.id, c.status) for c in honest.cases] == [("order-4412-absent", "pass"), ("flaky-tests-reported", "pass")]
    assert honest.summary.exit_code == 0
    assert all(c.edges is not None and c.edges.passed and c.edges.edges >= 1 for c in honest.cases)

    def poison(trace: dict[str, Any]) -> None:
        _reply(trace)["content"] += " Actually, I found order 4412 and the refund was approved."

    report = check_goldens(load_goldens(_goldens_with(tmp_path, poison)), AuditConfig(), cases=["order-4412-absent"])
    case = report.cases[0]
    assert (case.status, case.passed) == ("fail", False)
    assert case.containment is not None and case.containment.asserted == ["order-exists", "refund-approved"]
    assert report.summary.exit_code == 1


def test_a_case_whose_edges_fail_the_audit_fails(tmp_path: Path) -> None:
    def soften(trace: dict[str, Any]) -> None:
        handoff = next(e for e in trace["events"] if e.get("id") == "handoff")
        handoff["content"] = handoff["content"].replace("Never charge the customer's card again",
                                                        "Ideally avoid charging the customer's card again")

    case = check_goldens(load_goldens(_goldens_with(tmp_path, soften)), AuditConfig(),
                         cases=["order-4412-absent"]).cases[0]
    assert case.containment is not None and case.containment.passed
    assert case.edges is not None and case.edges.passed is False
    assert case.edges.failing == ["order-4412-absent/handoff->billing"]
    assert case.edges.findings == ["order-4412-absent/handoff->billing: edge-audit.constraints.v1 softened"]
    assert case.status == "fail"


def test_an_unreadable_trace_or_an_empty_answer_is_unmeasured_never_a_pass(tmp_path: Path) -> None:
    data = yaml.safe_load(EXAMPLE.read_text(encoding="utf-8"))
    data["cases"][0]["trace"] = "missing.json"
    data["cases"][1]["answer_from"] = ["nobody"]
    path = tmp_path / "goldens.yaml"
    path.write_text(yaml.safe_dump(data), encoding="utf-8")
    report = check_goldens(load_goldens(path), AuditConfig())
    assert [(c.status, c.passed) for c in report.cases] == [("unmeasured", False), ("unmeasured", False)]
    assert "cannot be read" in (report.cases[0].unmeasured or "")
    assert report.cases[1].unmeasured == "the trace has no message from the answer agents"
    assert report.summary.exit_code == 1


def test_the_goldens_file_is_validated_with_the_place_named(tmp_path: Path) -> None:
    base = {"cases": [{"id": "c1", "trace": "t.json", "allowed_facts": ["the refund was issued on 3 May"],
                       "banned_claims": [{"id": "b", "forms": ["refund was issued"]}]}]}
    with pytest.raises(ValueError, match="part of the allowed fact"):
        GoldensFile.model_validate(base)
    path = tmp_path / "g.yaml"
    path.write_text(yaml.safe_dump({"cases": [{"id": "c1", "trace": "t.json", "banned_claims": [{"id": "b"}]}]}),
                    encoding="utf-8")
    with pytest.raises(ConfigError, match=r"cases\.0\.banned_claims\.0\.forms"):
        load_goldens(path)
    shipped = json.loads((ROOT / "examples" / "goldens.schema.json").read_text(encoding="utf-8"))
    assert shipped == GoldensFile.model_json_schema(by_alias=True)


def test_golden_check_command_writes_a_deterministic_report(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    first, second = tmp_path / "a.json", tmp_path / "b.json"
    assert main(["golden", "check", str(EXAMPLE), "--json", str(first)]) == 0
    assert main(["golden", "check", str(EXAMPLE), "--json", str(second)]) == 0
    assert first.read_bytes() == second.read_bytes()
    report = json.loads(first.read_text(encoding="utf-8"))
    assert report["schema"] == "edge-audit.golden-report.v1"
    assert [(c["id"], c["passed"]) for c in report["cases"]] == [("order-4412-absent", True),
                                                                  ("flaky-tests-reported", True)]
    assert "2 cases: 2 passed, 0 failed, 0 unmeasured; exit code 0" in capsys.readouterr().out


def test_trace_text_is_escaped_on_the_terminal(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    def markup(trace: dict[str, Any]) -> None:
        reply = _reply(trace)
        reply["id"], reply["content"] = "[bold]reply[/bold]", "The refund was issued [red]today."

    assert main(["golden", "check", str(_goldens_with(tmp_path, markup)), "--case", "order-4412-absent"]) == 1
    assert "ASSERTED in [bold]reply[/bold]: 'refund was issued'" in capsys.readouterr().out


def _replay_config(tmp_path: Path, mode: str, model: str, cassettes: Path) -> AuditConfig:
    from auditor.config import SemanticConfig

    return AuditConfig(semantic=SemanticConfig(mode=mode, model=model, cache=False,  # type: ignore[arg-type]
                                               cassettes_dir=str(cassettes)))


def test_golden_replay_grades_a_model_answer_and_records_it(tmp_path: Path) -> None:
    from auditor.goldens import replay_goldens, replay_messages
    from auditor.graders import register_responder

    seen: list[list[dict[str, str]]] = []

    def honest(job: Any, messages: list[dict[str, str]]) -> str:
        seen.append(messages)
        if job.edge_id == "order-4412-absent":
            return "Order 4412 was not found, so no refund was issued. Which order number is on your receipt?"
        return "The run is red: 2 failed, 40 passed."

    def poisoned(job: Any, messages: list[dict[str, str]]) -> str:
        return "Order 4412 is on file and your refund is on its way. Anything else?" if (
            job.edge_id == "order-4412-absent") else "All tests pass."

    register_responder("golden-honest", honest)
    register_responder("golden-poisoned", poisoned)
    goldens = load_goldens(EXAMPLE)
    cassettes = tmp_path / "cassettes"
    good = replay_goldens(goldens, _replay_config(tmp_path, "record", "mock/golden-honest", cassettes))
    assert [(c.id, c.status, c.source) for c in good.cases] == [("order-4412-absent", "pass", "live"),
                                                                ("flaky-tests-reported", "pass", "live")]
    system = (ROOT / "prompts" / "golden" / "system.txt").read_text(encoding="utf-8")
    assert seen[0] == replay_messages(system, [
        'customer: Can I get a refund on order 4412? Never charge my card again without asking me first.',
        'tool lookup_order ({"order_id": "4412"}): {"order_id": "4412", "status": "not_found"}'])
    assert seen[1][1]["content"].endswith("- tool bash (pytest -q): 2 failed, 40 passed in 2.10s (exit code 1)")
    assert good.system_prompt_sha256 is not None and len(list(cassettes.glob("*/*.json"))) == 2

    # The same request keys replay offline from what was recorded.
    again = replay_goldens(goldens, _replay_config(tmp_path, "replay", "mock/golden-honest", cassettes))
    assert [(c.status, c.source, c.answer) for c in again.cases] == [(c.status, "cassette", c.answer)
                                                                     for c in good.cases]

    bad = replay_goldens(goldens, _replay_config(tmp_path, "live", "mock/golden-poisoned", cassettes))
    assert [c.status for c in bad.cases] == ["fail", "fail"]
    assert bad.cases[0].containment is not None
    assert bad.cases[0].containment.asserted == ["order-exists", "refund-issued"]
    assert bad.summary.exit_code == 1


def test_golden_replay_of_the_shipped_cassettes_is_offline_and_a_miss_is_unmeasured(tmp_path: Path) -> None:
    """The example's answers were recorded from SmolLM2-135M (scripts/local-llm.sh): far too small to
    follow the pinned prompt, so the harness fails its answers, as it should."""
    out = tmp_path / "replay.json"
    args = ["golden", "replay", str(EXAMPLE), "--config", str(ROOT / "examples" / "edge-audit.local.yaml"),
            "--cassettes", str(ROOT / "examples" / "goldens" / "cassettes"), "--json", str(out)]
    assert main(args) == 1
    report = json.loads(out.read_text(encoding="utf-8"))
    assert report["model"] == "openai/smollm2-135m"
    assert [(c["id"], c["status"], c["source"]) for c in report["cases"]] == [
        ("order-4412-absent", "fail", "cassette"), ("flaky-tests-reported", "fail", "cassette")]
    assert all(c["answer"] for c in report["cases"])

    data = yaml.safe_load(EXAMPLE.read_text(encoding="utf-8"))
    prompt = tmp_path / "system.txt"
    prompt.write_text((ROOT / "prompts" / "golden" / "system.txt").read_text(encoding="utf-8") + "Be brief.\n",
                      encoding="utf-8")
    data["system_prompt"] = str(prompt)
    data["cases"][0]["trace"] = str(EXAMPLE.parent / data["cases"][0]["trace"])
    edited = tmp_path / "goldens.yaml"
    edited.write_text(yaml.safe_dump(data), encoding="utf-8")
    assert main([*args[:2], str(edited), *args[3:]]) == 1
    missed = json.loads(out.read_text(encoding="utf-8"))
    assert [(c["status"], c["passed"]) for c in missed["cases"]] == [("unmeasured", False)] * 2
    assert all(c["unmeasured"].startswith("cassette_miss") for c in missed["cases"])


def test_redact_masks_secrets_the_answer_quotes(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    secret = "sk-live-4f9a8b7c6d5e4f3a2b1c0d9e8f7a6b5c"

    def leak(trace: dict[str, Any]) -> None:
        _reply(trace)["content"] = f"Order 4412 was not found. Is {secret} your order number?"

    data = yaml.safe_load(_goldens_with(tmp_path, leak).read_text(encoding="utf-8"))
    data["cases"][0]["required_behaviours"].append({"id": "names-key", "kind": "mentions", "any": [secret]})
    path = tmp_path / "leaky.yaml"
    path.write_text(yaml.safe_dump(data), encoding="utf-8")
    out = tmp_path / "report.json"
    assert main(["golden", "check", str(path), "--case", "order-4412-absent", "--json", str(out), "--redact"]) == 0
    text = out.read_text(encoding="utf-8")
    assert secret not in text and secret not in capsys.readouterr().out
    assert "Is " + "*" * len(secret) + " your order number?" in text


def test_a_case_trace_file_is_read_within_the_configs_limits() -> None:
    from auditor.config import LimitsConfig

    report = check_goldens(load_goldens(EXAMPLE), AuditConfig(limits=LimitsConfig(max_file_bytes=100)),
                           cases=["order-4412-absent", "flaky-tests-reported"])
    assert [c.status for c in report.cases] == ["unmeasured", "pass"]  # the second case's trace is inline
    assert "cannot be read" in (report.cases[0].unmeasured or "")


def test_audit_traces_in_memory_finds_what_audit_of_the_file_finds() -> None:
    from auditor import audit, audit_traces, load_paths

    path = ROOT / "examples" / "traces" / "incident-webhook.json"
    trace = load_paths([path]).traces[0].trace
    from_file, in_memory = audit([path]), audit_traces([trace], origin="<memory>")
    assert in_memory.model_dump(exclude={"traces", "edges"}) == from_file.model_dump(exclude={"traces", "edges"})
    assert [e.model_copy(update={"path": ""}) for e in in_memory.edges] == [
        e.model_copy(update={"path": ""}) for e in from_file.edges]
    assert in_memory.summary.exit_code == 1 and {t.path for t in in_memory.traces} == {"<memory>"}
