"""Scoring the independently written handoff cases (``tests/labelled/independent``) with the
public API: each case becomes one native trace, and each labelled constraint or claim is
matched to the finding that quotes it (the upstream sentence of a constraint finding, the
handoff span of a claim finding; either quote may contain the other)."""

from __future__ import annotations

import json
from collections.abc import Iterable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from auditor import AuditConfig, audit_traces
from auditor.checks import Finding
from auditor.trace import Trace

CASES_DIR = Path(__file__).parent / "labelled" / "independent"
HUMANS = frozenset({"user", "customer", "human"})
LOST = frozenset({"softened", "dropped", "inverted"})
BAD = frozenset({"invented", "contradicted"})


@dataclass(frozen=True)
class Score:
    decided: int
    decided_exact: float
    precision: float  # of lost constraints, or of bad claims


def case_trace(case: dict[str, Any]) -> Trace:
    source, handoff = case["handoff"]["from"], case["handoff"]
    names = {source, handoff["to"]} | {u["from"] for u in case["upstream"]} | {u["to"] for u in case["upstream"]}
    names |= {t["agent"] for t in case["tools"]}
    events: list[dict[str, Any]] = []
    for i, u in enumerate(case["upstream"]):
        recipients = [u["to"]] + ([source] if source != u["to"] else [])
        events.append({"type": "message", "id": f"u{i}", "sender": u["from"], "recipients": recipients,
                       "content": u["content"]})
    for i, t in enumerate(case["tools"]):
        events.append({"type": "tool_call", "id": f"t{i}", "agent": t["agent"], "tool": t["tool"],
                       "arguments": t["arguments"], "result": t["result"], "exit_code": t["exit_code"],
                       "status": "ok" if t["exit_code"] == 0 else "error"})
    events.append({"type": "message", "id": "handoff", "sender": source, "recipients": [handoff["to"]],
                   "content": handoff["content"]})
    return Trace.model_validate({
        "schema": "edge-audit.trace.v1", "trace_id": case["id"],
        "agents": [{"name": n, "kind": "human" if n in HUMANS else "agent"} for n in sorted(names)],
        "events": events})


def _norm(text: str) -> str:
    return " ".join(text.lower().replace("\u2019", "'").split()).strip(" .;,")


def _overlap(a: str, b: str) -> bool:
    a, b = _norm(a), _norm(b)
    return bool(a) and bool(b) and (a in b or b in a)


def score_files(paths: Iterable[Path]) -> dict[str, Score]:
    cases = [c for p in paths for c in json.loads(p.read_text(encoding="utf-8"))]
    report = audit_traces([case_trace(c) for c in cases], AuditConfig())
    by_edge: dict[str, list[Finding]] = {}
    for f in report.deterministic.findings:
        by_edge.setdefault(f.edge_id, []).append(f)
    tallies = {"constraints": [0, 0, 0, 0], "claims": [0, 0, 0, 0]}  # decided, right, reported lost/bad, real
    for case in cases:
        found = by_edge.get(f"{case['id']}/handoff->{case['handoff']['to']}", [])
        for kind, want_ns, flagged in (("constraints", "anchorless", LOST), ("claims", "fuzzy", BAD)):
            findings = [f for f in found if kind[:-1] in f.check]
            for item in case[kind]:
                matched = [f.verdict for f in findings if _quoted(f, item["text"], kind)]
                got = next((v for v in ("contradicted", "invented", "needs_semantic") if v in matched),
                           matched[0] if matched else None)
                if got is None or got == "needs_semantic":
                    continue
                want = "needs_semantic" if item["label"] == want_ns else item["label"]
                t = tallies[kind]
                t[0] += 1
                t[1] += got == want
                if got in flagged:
                    t[2] += 1
                    t[3] += item["label"] in flagged
            # a lost or bad finding that quotes no labelled item is a false report too
            tallies[kind][2] += sum(1 for f in findings if f.verdict in flagged
                                    and not any(_quoted(f, item["text"], kind) for item in case[kind]))
    return {kind: Score(t[0], t[1] / max(t[0], 1), t[3] / t[2] if t[2] else 1.0) for kind, t in tallies.items()}


def _quoted(finding: Finding, text: str, kind: str) -> bool:
    if kind == "constraints":
        return finding.upstream is not None and _overlap(text, finding.upstream.text)
    return any(_overlap(text, q.text) for q in finding.handoff)
