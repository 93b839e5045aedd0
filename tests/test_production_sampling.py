"""Sampled audits, call budgets and the triage list (issue 16, item 1)."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest
from conftest import EXAMPLES, ROOT

from auditor import audit, load_config
from auditor.config import AuditConfig, with_overrides, with_sampling
from auditor.sampling import sample_point, sampled

LOCAL = ROOT / "examples" / "edge-audit.local.yaml"
IDS = [f"trace-{n}" for n in range(2000)]
_DECIDE = ("import sys, json; from auditor.sampling import sampled; "
           "print(json.dumps([t for t in json.load(sys.stdin) if sampled(t, 0.25, 7)]))")


def _decided_in_a_process(hash_seed: str) -> list[str]:
    env = {**os.environ, "PYTHONHASHSEED": hash_seed}
    out = subprocess.run([sys.executable, "-c", _DECIDE], input=json.dumps(IDS), capture_output=True, text=True,
                         env=env, cwd=ROOT, check=True)
    return list(json.loads(out.stdout))


def test_the_decision_is_the_same_in_two_processes_with_different_hash_seeds() -> None:
    first, second = _decided_in_a_process("1"), _decided_in_a_process("4242")
    assert first == second == [t for t in IDS if sampled(t, 0.25, 7)]
    assert 0.22 < len(first) / len(IDS) < 0.28  # the share tends to the rate
    assert first != [t for t in IDS if sampled(t, 0.25, 8)]  # another seed, other traces
    assert all(0.0 <= sample_point(7, t) < 1.0 for t in IDS[:50])


def _audited(rate: float, seed: int, **minimums: int) -> tuple[list[str], object]:
    config = with_sampling(AuditConfig(), rate, seed, {k.replace("__", "->"): v for k, v in minimums.items()})
    report = audit([EXAMPLES], config)
    return [t.trace_id for t in report.traces], report.sampling


def test_a_sampled_run_audits_the_traces_the_hash_keeps_and_says_what_it_left_out() -> None:
    every = [t.trace_id for t in audit([EXAMPLES]).traces]
    kept, sampling = _audited(0.5, 3)
    assert kept == [t for t in every if sampled(t, 0.5, 3)]
    assert 0 < len(kept) < len(every)
    assert sampling is not None and sampling.skipped == len(every) - len(kept)  # type: ignore[attr-defined]
    assert _audited(0.5, 3)[0] == kept


def test_a_route_minimum_audits_traces_the_hash_left_out_until_it_is_met() -> None:
    every = audit([EXAMPLES])
    with_route = [t for t in dict.fromkeys(e.trace_id for e in every.edges if (e.source, e.destination)
                                           == ("coder", "reviewer"))]
    assert len(with_route) >= 2
    kept, sampling = _audited(1e-9, 0, coder__reviewer=2)
    assert kept == with_route[:2]  # the first two in input order, and nothing else
    assert sampling.by_minimum == 2 and sampling.route_traces == {"coder->reviewer": 2}  # type: ignore[attr-defined]


def test_sampling_flags_reach_the_report(tmp_path: Path) -> None:
    out = tmp_path / "r.json"
    subprocess.run([sys.executable, "-m", "auditor", "run", str(EXAMPLES), "--quiet", "--sample", "0.5", "--seed",
                    "3", "--min-per-route", "coder->reviewer=1", "--json", str(out)], cwd=ROOT, capture_output=True)
    sampling = json.loads(out.read_text())["sampling"]
    assert sampling["rate"] == 0.5 and sampling["seed"] == 3 and sampling["min_per_route"] == {"coder->reviewer": 1}


def _replayed(**semantic: object) -> object:
    config = with_overrides(load_config(LOCAL), {}, {"mode": "replay", **semantic})
    return audit([EXAMPLES], config)


def test_max_calls_grades_the_first_jobs_and_leaves_the_rest_unmeasured() -> None:
    full = _replayed()
    jobs = {(f.grader, f.edge_id) for f in full.semantic.findings}  # type: ignore[attr-defined]
    assert len(jobs) > 3
    report = _replayed(max_calls=2)
    graded = [(f.grader, f.edge_id) for f in report.semantic.findings  # type: ignore[attr-defined]
              if f.unmeasured_reason != "budget_exhausted"]
    refused = [f for f in report.semantic.findings if f.unmeasured_reason == "budget_exhausted"]  # type: ignore[attr-defined]
    assert len(set(graded)) == 2 and refused and all(f.status == "unmeasured" for f in refused)
    assert "--max-calls 2" in refused[0].reason
    # in job order: the two graded jobs are the run's first two
    order = list(dict.fromkeys((f.grader, f.edge_id) for f in full.semantic.findings))  # type: ignore[attr-defined]
    assert list(dict.fromkeys(graded)) == order[:2]


def test_a_route_quota_refuses_that_route_only() -> None:
    full = _replayed()
    routes = {e.id: f"{e.source}->{e.destination}" for e in full.edges}  # type: ignore[attr-defined]
    route = routes[full.semantic.findings[0].edge_id]  # type: ignore[attr-defined]
    report = _replayed(route_quotas={route: 0})
    for f in report.semantic.findings:  # type: ignore[attr-defined]
        refused = f.unmeasured_reason == "budget_exhausted"
        assert refused == (routes[f.edge_id] == route), f
    assert any(routes[f.edge_id] != route for f in report.semantic.findings)  # type: ignore[attr-defined]


def test_budgets_are_validated() -> None:
    from auditor.errors import ConfigError

    with pytest.raises(ConfigError):
        with_overrides(AuditConfig(), {}, {"max_calls": -1})
    with pytest.raises(ConfigError):
        with_sampling(AuditConfig(), 0.0)


def test_triage_lists_the_worst_edges_first() -> None:
    report = audit([EXAMPLES])
    rank = {"fail": 0, "warn": 1, "unmeasured": 2}
    keys = [(rank[t.status], -t.fail, -t.warn) for t in report.triage]
    assert keys == sorted(keys) and report.triage[0].status == "fail"
    failing = {e.id for e in report.edges if e.status == "fail"}
    assert {t.edge_id for t in report.triage if t.status == "fail"} == failing
    assert all(t.edge_id not in {e.id for e in report.edges if e.status in ("pass", "no_findings")}
               for t in report.triage)
    from auditor.report import to_markdown

    markdown = to_markdown(report)
    assert "## Triage (worst edges first)" in markdown and f"| 1 | `{report.triage[0].edge_id}` |" in markdown
