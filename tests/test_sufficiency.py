"""Sufficiency through mock and replay models: every verdict, every degraded reason, the
deterministic check of the isolated output, the acceptance kinds, selection and the estimate,
and the committed example cassettes reproducing both example verdicts offline."""

from __future__ import annotations

import json
import sys
from pathlib import Path
from typing import Any

import pytest
from conftest import EXAMPLES, ROOT

from auditor import AuditConfig, audit
from auditor.config import AcceptanceConfig, SemanticConfig, SufficiencyConfig, load_config, with_overrides
from auditor.errors import UsageError
from auditor.graders import Job, register_responder
from auditor.report import Report
from auditor.sufficiency import RERUN
from auditor.sufficiency import Result as SufficiencyResult

STANDS = EXAMPLES / "sufficiency-stands-alone.json"
LEAKED = EXAMPLES / "sufficiency-leaked-context.json"


def _review(isolated: bool, pipeline: bool, iso_quote: str = "Refunded", pipe_quote: str = "Refunded the duplicate") -> dict[str, Any]:
    return {"questions": [{"question": "Which order?", "missing_field": "order_id"}] if not isolated else [],
            "isolated": {"reason": "r", "quote": iso_quote if isolated else "NONE", "accepted": isolated},
            "pipeline": {"reason": "r", "quote": pipe_quote if pipeline else "NONE", "accepted": pipeline}}


def _responder(rerun: Any, review: Any) -> Any:
    def respond(job: Job, messages: Any) -> Any:
        return rerun(job) if job.grader == RERUN else review(job)
    return respond


register_responder("suff-good", _responder(lambda j: "Refunded $59.00 on A-1043.", lambda j: _review(True, True)))
register_responder("suff-vague", _responder(lambda j: "Which order should I refund?", lambda j: _review(False, True)))
register_responder("suff-both-bad", _responder(lambda j: "Which order?", lambda j: _review(False, False)))
register_responder("suff-alone-only", _responder(lambda j: "Refunded $59.00 on A-1043.", lambda j: _review(True, False)))
register_responder("suff-brag", _responder(lambda j: "Refunded A-1043. I ran the tests and all tests pass.",
                                           lambda j: _review(True, True)))
register_responder("suff-no-quote", _responder(lambda j: "Refunded $59.00 on A-1043.",
                                               lambda j: _review(True, True, iso_quote="made-up words here")))
register_responder("suff-timeout", _responder(lambda j: "timeout", lambda j: _review(True, True)))
register_responder("suff-bad-review", _responder(lambda j: "Refunded A-1043.", lambda j: "not json"))


def _config(tmp_path: Path, model: str, mode: str = "live", select: list[str] | None = None,
            acceptance: list[AcceptanceConfig] | None = None, **semantic: Any) -> AuditConfig:
    return AuditConfig(
        semantic=SemanticConfig(mode=mode, model=f"mock/{model}", cache_dir=str(tmp_path / "cache"),  # type: ignore[arg-type]
                                cassettes_dir=str(tmp_path / "cassettes"), backoff_seconds=0.0, max_retries=0,
                                rate_limit_retries=0, **semantic),
        sufficiency=SufficiencyConfig(select=select or ["all"], acceptance=acceptance or [AcceptanceConfig()]))


def _results(report: Report) -> dict[str, SufficiencyResult]:
    return {r.edge_id.split("/")[0]: r for r in report.semantic.sufficiency}


def _one(tmp_path: Path, model: str, trace: Path = STANDS, **kw: Any) -> SufficiencyResult:
    [result] = audit([trace], _config(tmp_path, model, **kw)).semantic.sufficiency
    return result


@pytest.mark.parametrize(("model", "verdict"), [
    ("suff-good", "stands_alone"),
    ("suff-vague", "leaked_context"),
    ("suff-both-bad", "broken"),
    ("suff-alone-only", "inconclusive"),
])
def test_each_verdict_from_the_judge(tmp_path: Path, model: str, verdict: str) -> None:
    result = _one(tmp_path, model)
    assert result.verdict == verdict, (model, result.reason)
    assert result.context_off.output_source == "live" and result.context_on.output_source == "trace"
    assert result.context_on.output_event == "b1"
    if verdict == "leaked_context":
        assert [q.missing_field for q in result.questions] == ["order_id"]
        assert result.score_delta == 1.0


def test_an_isolated_output_that_invents_a_test_result_is_not_a_pass(tmp_path: Path) -> None:
    result = _one(tmp_path, "suff-brag")
    assert result.context_off.status == "fail", "the judge accepted it, the deterministic check did not"
    assert result.deterministic and "tests" in result.deterministic[0]
    assert result.verdict == "leaked_context"


@pytest.mark.parametrize(("case", "expected"), [
    ("llm-off", "runtime_unavailable"),
    ("replay-miss", "cassette_miss"),
    ("rerun-timeout", "grader_error"),
    ("review-malformed", "grader_error"),
    ("judge-quote-not-in-output", "insufficient_decision_evidence"),
])
def test_each_degraded_reason_makes_the_edge_inconclusive(tmp_path: Path, case: str, expected: str) -> None:
    model, mode = {"llm-off": ("suff-good", "off"), "replay-miss": ("suff-good", "replay"),
                   "rerun-timeout": ("suff-timeout", "live"), "review-malformed": ("suff-bad-review", "live"),
                   "judge-quote-not-in-output": ("suff-no-quote", "live")}[case]
    result = _one(tmp_path, model, mode=mode)
    assert result.verdict == "inconclusive", case
    assert result.context_off.degraded_reason == expected, (case, result.context_off.evidence)
    assert result.context_off.status == "degraded" and result.context_off.score is None, case


def test_receiver_unknown_and_missing_pipeline_output(tmp_path: Path) -> None:
    trace = json.loads(STANDS.read_text())
    trace["trace_id"] = "broadcast"
    trace["events"][1]["recipients"] = "*"
    trace["events"] = trace["events"][:2]
    path = tmp_path / "broadcast.json"
    path.write_text(json.dumps(trace))
    result = _one(tmp_path, "suff-good", trace=path)
    assert (result.verdict, result.context_off.degraded_reason) == ("inconclusive", "receiver_unknown")

    trace = json.loads(STANDS.read_text())
    trace["trace_id"] = "silent"
    trace["events"] = trace["events"][:2]
    path.write_text(json.dumps(trace))
    result = _one(tmp_path, "suff-good", trace=path)
    assert result.context_off.status == "pass"
    assert result.context_on.degraded_reason == "insufficient_decision_evidence"
    assert result.verdict == "inconclusive"


def test_degraded_edges_are_left_out_of_route_aggregates(tmp_path: Path) -> None:
    report = audit([STANDS, LEAKED], _config(tmp_path, "suff-good"))
    route = report.semantic.sufficiency_routes["triage->billing"]
    assert (route.edges, route.measured, route.stands_alone_rate) == (2, 2, 1.0)
    off = audit([STANDS, LEAKED], _config(tmp_path, "suff-good", mode="off"))
    route = off.semantic.sufficiency_routes["triage->billing"]
    assert (route.edges, route.measured, route.stands_alone_rate) == (2, 0, None)


def test_callable_and_command_acceptance(tmp_path: Path) -> None:
    callable_check = [AcceptanceConfig(route="triage->*", kind="callable",
                                       target=f"{EXAMPLES.parent / 'acceptance.py'}:names_the_case_id")]
    report = audit([STANDS, LEAKED], _config(tmp_path, "suff-vague", acceptance=callable_check))
    results = _results(report)
    assert results["sufficiency-stands-alone"].verdict == "leaked_context", "the rerun asked instead of refunding"
    assert results["sufficiency-leaked-context"].context_on.evidence == "names INV-2207"
    assert results["sufficiency-leaked-context"].context_off.decision_source == "callable"
    assert [(c.event_id, c.term) for c in results["sufficiency-leaked-context"].ignored_context] == [
        ("t1", "$120.00"), ("t1", "INV-2207")]

    command = f"{sys.executable} -c \"import json,sys; sys.exit(0 if 'A-1043' in json.load(sys.stdin)['output'] else 3)\""
    report = audit([STANDS], _config(tmp_path, "suff-good", acceptance=[AcceptanceConfig(kind="command", target=command)]))
    [result] = report.semantic.sufficiency
    assert result.verdict == "stands_alone" and result.context_off.decision_source == "command"
    on = result.context_on
    assert on.status == "pass" and on.evidence.startswith("exit code 0")

    broken = [AcceptanceConfig(kind="callable", target="no_such_module_here:check")]
    [result] = audit([STANDS], _config(tmp_path, "suff-good", acceptance=broken)).semantic.sufficiency
    assert result.context_off.degraded_reason == "grader_error" and "ModuleNotFoundError" in result.context_off.evidence


def test_sampling_is_deterministic_by_seed_and_edges_can_be_named(tmp_path: Path) -> None:
    def chosen(select: list[str], seed: int = 0) -> list[str]:
        config = _config(tmp_path, "suff-good", mode="off", select=select)
        config = config.model_copy(update={"sufficiency": config.sufficiency.model_copy(update={"seed": seed})})
        return [r.edge_id for r in audit([EXAMPLES], config).semantic.sufficiency]

    first, again = chosen(["sample:3"]), chosen(["sample:3"])
    assert len(first) == 3 and first == again
    assert any(chosen(["sample:3"], seed) != first for seed in range(1, 6)), "another seed picks other edges"
    named = "sufficiency-leaked-context/h1->billing"
    assert chosen([f"edge:{named}"]) == [named]
    with pytest.raises(UsageError, match="no such edge"):
        chosen(["edge:nope/x->y"])
    with pytest.raises(UsageError, match="positive whole number"):
        chosen(["sample:zero"])


def test_the_estimate_is_heard_before_any_call(tmp_path: Path) -> None:
    made: list[str] = []

    def counting(job: Job, messages: Any) -> Any:
        made.append(job.grader)
        return "Refunded $59.00 on A-1043." if job.grader == RERUN else _review(True, True)

    register_responder("suff-counting", counting)
    heard: list[tuple[int, int, int]] = []
    audit([STANDS, LEAKED], _config(tmp_path, "suff-counting"),
          sufficiency_estimate=lambda calls, tokens: heard.append((calls, tokens, len(made))))
    [(calls, tokens, made_before)] = heard
    assert (calls, made_before) == (4, 0), "four calls announced, none made yet"
    assert tokens > 0 and len(made) == calls


def test_committed_example_cassettes_reproduce_both_verdicts_offline() -> None:
    config = with_overrides(load_config(ROOT / "examples" / "edge-audit.local.yaml"), {}, {"mode": "replay"},
                            sufficiency=["all"])
    report = audit([STANDS, LEAKED], config)
    results = _results(report)
    assert results["sufficiency-stands-alone"].verdict == "stands_alone"
    assert results["sufficiency-leaked-context"].verdict == "leaked_context"
    for result in results.values():
        assert (result.context_off.output_source, result.context_on.output_source) == ("cassette", "trace")
