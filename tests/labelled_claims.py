"""Run labelled claim cases (tests/labelled/claims.yaml) through edge-audit.claims.v1."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import yaml

from auditor.checks import CheckContext, CheckFn, make_check
from auditor.edges import build_edges
from auditor.nlp import TextAnalyzer
from auditor.trace import Trace

CASES = Path(__file__).parent / "labelled" / "claims.yaml"


def load_claim_cases() -> list[dict[str, Any]]:
    return list(yaml.safe_load(CASES.read_text()))


def claim_check() -> CheckFn:
    return make_check("edge-audit.claims.v1", CheckContext(TextAnalyzer()), {})


def case_trace(case: dict[str, Any]) -> Trace:
    """src receives the upstream (messages from `peer`, tool calls by src or, with own: false, by peer)
    and hands off to dst."""
    events: list[dict[str, Any]] = []
    for item in case["upstream"]:
        if "message" in item:
            events.append({"type": "message", "sender": "peer", "recipients": ["src"], "content": item["message"]})
            continue
        arguments = item.get("args") or ({"command": item["command"]} if item.get("command") else None)
        events.append({
            "type": "tool_call", "agent": "src" if item.get("own", True) else "peer", "tool": item["tool"],
            "arguments": arguments, "result": item.get("result"), "exit_code": item.get("exit_code"),
            "status": item.get("status", "unknown"), "visible_to": "*",
        })
    events.append({"type": "message", "sender": "src", "recipients": ["dst"], "content": case["handoff"]})
    return Trace.model_validate({"schema": "edge-audit.trace.v1", "trace_id": case["id"], "events": events})


_SEEN: list[str] = []


def handoff_verdicts(check: CheckFn, upstream: list[dict[str, Any]], handoff: str) -> list[tuple[str, str]]:
    """(quoted claim, verdict) of one handoff; each call is its own trace (the check caches per event)."""
    trace_id = f"m{len(_SEEN)}"
    _SEEN.append(trace_id)
    edge = build_edges(case_trace({"id": trace_id, "upstream": upstream, "handoff": handoff})).edges[-1]
    return [(f.handoff[0].text, f.verdict) for f in check(edge)]


def run_claim_case(check: CheckFn, case: dict[str, Any]) -> list[list[str]]:
    edge = build_edges(case_trace(case)).edges[-1]
    return [[str(f.details["kind"]), f.verdict] for f in check(edge)]


VERDICTS = ("grounded", "contradicted", "invented", "needs_semantic")


def claim_scores(results: list[tuple[list[list[str]], list[list[str]]]]) -> dict[str, tuple[float, float, int]]:
    """Precision and recall per verdict, pairing expected and found claims by (case, kind, position)."""
    tp = {v: 0 for v in VERDICTS}
    fp = {v: 0 for v in VERDICTS}
    fn = {v: 0 for v in VERDICTS}
    for expected, got in results:
        exp = {(k, i): v for i, (k, v) in enumerate(expected)}
        found = {(k, i): v for i, (k, v) in enumerate(got)}
        for key in exp.keys() | found.keys():
            e, g = exp.get(key), found.get(key)
            if e is not None and e == g:
                tp[e] += 1
                continue
            if g is not None:
                fp[g] += 1
            if e is not None:
                fn[e] += 1
    return {v: (tp[v] / (tp[v] + fp[v]) if tp[v] + fp[v] else 1.0, tp[v] / (tp[v] + fn[v]) if tp[v] + fn[v] else 1.0,
                tp[v] + fn[v]) for v in VERDICTS}
