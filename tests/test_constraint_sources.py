"""Where constraints come from, and when an edge owes nothing: delegation, replies, what the
receiver saw, and an agent's own observation transcript."""

from __future__ import annotations

from typing import Any

from auditor.checks import CheckFn, Finding
from auditor.edges import build_edges
from auditor.trace import Trace

RULE = "You must not change the public API of payments.charge()."


def _trace(events: list[dict[str, Any]], agents: list[dict[str, Any]] | None = None, trace_id: str = "t") -> Trace:
    return Trace.model_validate({"schema": "edge-audit.trace.v1", "trace_id": trace_id,
                                 "agents": agents or [{"name": "user", "kind": "human"}], "events": events})


def _findings(check: CheckFn, trace: Trace, edge_id: str) -> list[Finding]:
    (edge,) = [e for e in build_edges(trace).edges if e.id == edge_id]
    return check(edge)


def test_a_delegators_rule_is_judged_but_a_reply_carries_no_rule(constraint_check: CheckFn) -> None:
    trace = _trace(trace_id="reply", events=[
        {"type": "message", "id": "m1", "sender": "planner", "recipients": ["coder"], "content": "Fix the retry bug."},
        {"type": "message", "id": "m2", "sender": "coder", "recipients": ["planner"], "content": RULE},
        {"type": "message", "id": "m3", "sender": "planner", "recipients": ["reviewer"],
         "content": "Review the retry fix in payments."},
    ])
    # The coder's message is a reply to the planner who delegated to it: not a source of rules.
    assert _findings(constraint_check, trace, "reply/m3->reviewer") == []
    delegated = _trace(trace_id="delegated", events=[
        {"type": "message", "id": "m1", "sender": "planner", "recipients": ["coder"], "content": RULE},
        {"type": "message", "id": "m2", "sender": "coder", "recipients": ["reviewer"],
         "content": "I changed the public API of payments.charge() to take a retry policy."},
    ])
    (finding,) = _findings(constraint_check, delegated, "delegated/m2->reviewer")
    assert finding.upstream is not None and finding.upstream.event_id == "m1"


def test_an_edge_back_to_the_rules_issuer_need_not_restate_it(constraint_check: CheckFn) -> None:
    trace = _trace(trace_id="issuer", events=[
        {"type": "message", "id": "m1", "sender": "planner", "recipients": ["coder"], "content": RULE},
        {"type": "message", "id": "m2", "sender": "coder", "recipients": ["planner"], "content": "Done: retries added."},
    ])
    assert _findings(constraint_check, trace, "issuer/m2->planner") == []


def test_a_rule_the_receiver_saw_and_the_handoff_leaves_alone_gives_no_finding(constraint_check: CheckFn) -> None:
    trace = _trace(trace_id="saw", events=[
        {"type": "message", "id": "m1", "sender": "user", "recipients": "*", "content": RULE},
        {"type": "message", "id": "m2", "sender": "coder", "recipients": "*", "content": "Retries are in; tests pass."},
        {"type": "message", "id": "m3", "sender": "reviewer", "recipients": "*", "content": "Looks good."},
    ])
    assert _findings(constraint_check, trace, "saw/m2->reviewer") == []
    weakened = _trace(trace_id="weakened", events=[
        {"type": "message", "id": "m1", "sender": "user", "recipients": "*", "content": RULE},
        {"type": "message", "id": "m2", "sender": "coder", "recipients": "*",
         "content": "Ideally we should not change the public API of payments.charge()."},
        {"type": "message", "id": "m3", "sender": "reviewer", "recipients": "*", "content": "Looks good."},
    ])
    (finding,) = _findings(constraint_check, weakened, "weakened/m2->reviewer")
    assert (finding.verdict, finding.status) == ("softened", "warn")  # weakened, though the receiver has the original


def test_the_sources_own_observation_transcript_is_not_a_restatement(constraint_check: CheckFn) -> None:
    page = ("Here is a screenshot of the docs page. The following text is visible: You may change the public API "
            "of payments.charge() in a major release.")
    trace = _trace(trace_id="observed", events=[
        {"type": "message", "id": "m1", "sender": "user", "recipients": ["surfer"], "content": RULE},
        {"type": "tool_call", "id": "m2.observation", "agent": "surfer", "tool": "web_browser",
         "result": page, "recorded_as": "observation"},
        {"type": "message", "id": "m2", "sender": "surfer", "recipients": ["coder"], "content": page},
    ], agents=[{"name": "user", "kind": "human"}, {"name": "surfer", "capture": "partial"}])
    findings = _findings(constraint_check, trace, "observed/m2->coder")
    assert [f.verdict for f in findings] != ["inverted"]
    assert all(not f.handoff for f in findings)


def test_a_rule_is_judged_once_per_route_at_the_first_edge_after_it_arrived(constraint_check: CheckFn) -> None:
    trace = _trace(trace_id="route", events=[
        {"type": "message", "id": "m1", "sender": "user", "recipients": ["planner"], "content": RULE},
        {"type": "message", "id": "m2", "sender": "planner", "recipients": ["coder"], "content": "Fix the retry bug."},
        {"type": "message", "id": "m3", "sender": "planner", "recipients": ["coder"], "content": "Also tidy the logs."},
        {"type": "message", "id": "m4", "sender": "planner", "recipients": ["reviewer"], "content": "Review it."},
        {"type": "message", "id": "m5", "sender": "user", "recipients": ["planner"],
         "content": "You must not delete the audit_log table."},
        {"type": "message", "id": "m6", "sender": "planner", "recipients": ["coder"], "content": "Ship it."},
    ])
    edges = build_edges(trace).edges
    found = {e.id: [f.upstream.event_id if f.upstream else None for f in constraint_check(e)] for e in edges}
    assert found["route/m2->coder"] == ["m1"]
    assert found["route/m3->coder"] == []  # the route already had its finding for m1
    assert found["route/m4->reviewer"] == ["m1"]  # another route is judged on its own
    assert found["route/m6->coder"] == ["m5"]  # only what arrived since m3


def _rules(sentence: str) -> list[str]:
    from auditor.checks._constraint_sources import is_constraint, looks_imperative
    from auditor.nlp import Strength, TextAnalyzer
    analyzer = TextAnalyzer()
    (s,) = analyzer.sentences(sentence, sentence)
    if s.cue_strength < Strength.ABSOLUTE and not looks_imperative(s.masked):
        return []
    return [d.action for d in analyzer.directives([s])[0] if is_constraint(d, Strength.ABSOLUTE, sentence)]


def test_must_have_is_a_rule_unless_it_infers_a_past_event() -> None:
    assert _rules("Every invoice MUST have a signed delivery note.")
    assert not _rules("The cache must have been cleared by the deploy.")


def test_an_imperative_whose_verb_restricts_is_a_rule_without_any_other_restriction() -> None:
    assert _rules("Exclude archived accounts from the export.")
    assert _rules("Keep customer emails out of the summary.")
    assert not _rules("Summarise the archived accounts for the board.")


def test_a_constraint_is_quoted_up_to_the_semicolon_after_its_cue(constraint_check: CheckFn) -> None:
    trace = _trace(trace_id="semicolon", events=[
        {"type": "message", "id": "m1", "sender": "user", "recipients": ["writer"],
         "content": "The editor must check every table reference against the PDF; final copy comes back "
                    "to me by Wednesday 12:00."},
        {"type": "message", "id": "m2", "sender": "writer", "recipients": ["editor"],
         "content": "Please check every table reference against the PDF."},
    ])
    quotes = [f.upstream.text for f in _findings(constraint_check, trace, "semicolon/m2->editor") if f.upstream]
    assert quotes == ["The editor must check every table reference against the PDF"], quotes


def test_a_constraint_is_quoted_up_to_a_dash_after_its_cue(constraint_check: CheckFn) -> None:
    trace = _trace(trace_id="dash", events=[
        {"type": "message", "id": "m1", "sender": "user", "recipients": ["loader"],
         "content": "Never run the backfill on the bi-prod warehouse — analysts' dashboards run there."},
        {"type": "message", "id": "m2", "sender": "loader", "recipients": ["runner"],
         "content": "Run the backfill on the bi-prod warehouse if etl-backfill is busy, that's fine."},
    ])
    quotes = [f.upstream.text for f in _findings(constraint_check, trace, "dash/m2->runner") if f.upstream]
    assert quotes == ["Never run the backfill on the bi-prod warehouse"], quotes
