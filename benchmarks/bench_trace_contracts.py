"""Benchmark trace contracts: rules evaluated per second on a synthetic trace with many tool and
model calls (every rule kind, the order modes included), and the time the check adds to a run
of the shipped fixtures. Prints its figures; asserts nothing.

    python benchmarks/bench_trace_contracts.py [--calls 5000] [--repeat 5]
"""

from __future__ import annotations

import argparse
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))  # this checkout's auditor, not whichever one is installed

from auditor import AuditConfig, audit  # noqa: E402
from auditor.config import CheckConfig  # noqa: E402
from auditor.trace import Trace  # noqa: E402
from auditor.trace_contracts import compile_contract, evaluate_contract, parse_contract  # noqa: E402

CONTRACT = {
    "id": "bench",
    "run": {"allowed_statuses": ["ok"], "max_duration_ms": 10_000_000},
    "tools": {"required": ["search", "answer"], "forbidden": ["delete"], "allowed": ["search", "fetch", "answer"],
              "max_calls": 1_000_000, "max_calls_per_tool": {"answer": 1_000_000},
              "required_order": ["search", "fetch", "answer"], "required_order_mode": "happens-before",
              "order_rules": [{"before": "search", "after": "answer", "mode": "all-occurrences"}],
              "arguments": [{"tool": "fetch", "path": "/url", "op": "type", "type": "string"},
                            {"tool": "search", "occurrence": "any", "path": "/q", "op": "exists"}]},
    "steps": {"order": [{"before": {"kind": "tool", "name": "search"}, "after": {"kind": "llm", "name": "m"}}]},
    "retry": {"max_attempts": 3, "non_idempotent_tools": ["fetch"], "require_recovered_failure_visible": True},
    "llm": {"max_calls": 1_000_000, "max_total_tokens": 10**12, "allowed_models": ["m"]},
    "alternatives": {"any_of": [{"id": "a", "tools": {"required": ["search"]}},
                                {"id": "b", "tools": {"required": ["fetch"]}}]},
}


def _trace(calls: int) -> Trace:
    names = ["search", "fetch", "answer"]

    def at(s: int) -> str:
        return f"2026-01-01T{s // 3600:02d}:{s // 60 % 60:02d}:{s % 60:02d}Z"

    events = [{"type": "tool_call", "id": f"t{i}", "agent": "a", "tool": names[i * 3 // calls],
               "call_id": f"op{i}", "status": "ok", "timestamp": at(2 * i), "end_time": at(2 * i + 1),
               "arguments": {"q": "x", "url": "u"}} for i in range(calls)]
    llm = [{"id": f"g{i}", "agent": "a", "name": "chat", "model": "m", "total_tokens": 10,
            "timestamp": at(2 * i + 1), "end_time": at(2 * i + 2)} for i in range(calls // 5)]
    return Trace.model_validate({"trace_id": "bench", "metadata": {"status": "ok", "started_at": at(0),
                                                                    "ended_at": at(2 * calls)},
                                 "events": events, "llm_calls": llm})


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--calls", type=int, default=5000)
    parser.add_argument("--repeat", type=int, default=5)
    args = parser.parse_args()
    contract = parse_contract(CONTRACT)
    rules = len(compile_contract(contract))
    trace = _trace(args.calls)
    best = float("inf")
    for _ in range(args.repeat):
        started = time.perf_counter()
        evaluation = evaluate_contract(contract, trace)
        best = min(best, time.perf_counter() - started)
    assert evaluation is not None
    statuses = sorted({r.outcome.status for r in evaluation.results})
    print(f"synthetic trace: {args.calls} tool calls, {args.calls // 5} model calls, {rules} rules: "
          f"{best * 1000:.1f} ms per contract ({rules / best:,.0f} rules/s; statuses {', '.join(statuses)})")
    fixtures = [ROOT / "tests" / "fixtures" / "formats", ROOT / "tests" / "fixtures" / "whowhen" / "1.json"]
    on = AuditConfig(checks=[CheckConfig(name="edge-audit.trace_contracts.v1",
                                         options={"contracts": str(ROOT / "config" / "trace-contracts")})])
    off = AuditConfig(checks=[])
    times = {}
    for label, config in (("without", off), ("with", on)):
        best = float("inf")
        for _ in range(args.repeat):
            started = time.perf_counter()
            audit(fixtures, config)
            best = min(best, time.perf_counter() - started)
        times[label] = best
    print(f"shipped fixtures (13 traces, 5 contracts): run {times['without'] * 1000:.0f} ms without the check, "
          f"{times['with'] * 1000:.0f} ms with it")


if __name__ == "__main__":
    main()
