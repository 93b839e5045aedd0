"""The labelled constraint pairs, and how to run one through the real edge builder and check."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import yaml

from auditor.checks import CheckFn
from auditor.edges import build_edges
from auditor.trace import Trace

LABELLED = Path(__file__).parent / "labelled"
VERDICTS = ("kept", "softened", "dropped", "inverted", "needs_semantic")


def load_cases(name: str = "constraints.yaml") -> list[dict[str, Any]]:
    cases: list[dict[str, Any]] = yaml.safe_load((LABELLED / name).read_text())
    for case in cases:
        if isinstance(case["expected"], str):
            case["expected"] = [case["expected"]]
    return cases


def case_trace(case: dict[str, Any]) -> Trace:
    handoff: dict[str, Any] = {"type": "message", "sender": "planner", "recipients": ["worker"],
                               "content": case["handoff"]}
    if "handoff_structured" in case:
        handoff["structured"] = case["handoff_structured"]
    return Trace.model_validate({
        "schema": "edge-audit.trace.v1", "trace_id": case["id"],
        "agents": [{"name": "user", "kind": "human"}],
        "events": [
            {"type": "message", "sender": "user", "recipients": ["planner"], "content": case["upstream"]},
            handoff,
        ],
    })


def run_case(check: CheckFn, case: dict[str, Any]) -> list[str]:
    (edge,) = build_edges(case_trace(case)).edges
    return [finding.verdict for finding in check(edge)]


def scores(results: list[tuple[list[str], list[str]]]) -> dict[str, tuple[float, float, int]]:
    """Precision, recall and support per verdict over (expected, got) lists aligned by position."""
    pairs = [(e, g) for expected, got in results
             for e, g in zip(expected + ["<none>"] * (len(got) - len(expected)),
                             got + ["<none>"] * (len(expected) - len(got)), strict=True)]
    out = {}
    for verdict in VERDICTS:
        tp = sum(1 for e, g in pairs if e == g == verdict)
        predicted = sum(1 for _, g in pairs if g == verdict)
        actual = sum(1 for e, _ in pairs if e == verdict)
        out[verdict] = (tp / predicted if predicted else 1.0, tp / actual if actual else 1.0, actual)
    return out
