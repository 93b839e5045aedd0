"""Retry rules. An operation is the calls of one tool sharing a ``call_id`` (the id the source
gave the call), in event order: its first call is the first attempt, each later one a retry.
Attempts are never inferred from times. A tool called more than once with no call ids cannot be
split into operations, so the rules that need operations are unmeasured for it.
"""

from __future__ import annotations

from ._arguments import MISSING, resolve, structured
from ._facts import Facts, Step
from ._model import RetryRules
from ._outcome import Evidence, Outcome, outcome
from ._rule import Rule


def operations(facts: Facts, tools: list[str] | None = None) -> tuple[list[list[Step]], list[str]]:
    """(operations with their attempts, tools whose repeated calls carry no call ids)."""
    groups: dict[tuple[str, str], list[Step]] = {}
    unidentified: dict[str, int] = {}
    for step in facts.tools():
        if tools is not None and step.name not in tools:
            continue
        if step.call_id is None:
            unidentified[step.name] = unidentified.get(step.name, 0) + 1
            groups[(step.name, f"\0{step.id}")] = [step]
        else:
            groups.setdefault((step.name, step.call_id), []).append(step)
    return list(groups.values()), sorted(n for n, count in unidentified.items() if count > 1)


def _unidentified(tools: list[str], facts: Facts) -> Outcome:
    evidence = [s.evidence() for s in facts.tools() if s.name in tools and s.call_id is None]
    return outcome("unmeasured", "attempts_unidentified", f"{', '.join(tools)} called more than once without call "
                   "ids: retries cannot be told from separate calls", evidence)


def _max_attempts(limit: int) -> Rule:
    def evaluate(facts: Facts) -> Outcome:
        ops, unknown = operations(facts)
        over = [op for op in ops if len(op) > limit]
        if over:
            worst = max(over, key=len)
            return outcome("fail", "too_many_attempts", f"{worst[0].name} (call id {worst[0].call_id}) was attempted "
                           f"{len(worst)} times, at most {limit} allowed", [s.evidence() for op in over for s in op],
                           {"max_attempts": limit}, len(worst))
        if unknown:
            return _unidentified(unknown, facts)
        return outcome("pass", "within_attempts", f"no operation took more than {limit} attempt(s)",
                       [facts.run_evidence()], {"max_attempts": limit})

    return Rule("", f"each operation is attempted at most {limit} time(s)", evaluate)


def _idempotency(tools: list[str], pointer: str) -> Rule:
    def evaluate(facts: Facts) -> Outcome:
        ops, unknown = operations(facts, tools)
        retries = [s for op in ops for s in op[1:]]
        lacking = [s for s in retries if structured(s.arguments) is not MISSING
                   and resolve(structured(s.arguments), pointer) is MISSING]
        blind = [s for s in retries if structured(s.arguments) is MISSING]
        if lacking:
            return outcome("fail", "retry_without_idempotency", f"retried without an idempotency key at {pointer}: "
                           + ", ".join(s.id for s in lacking), [s.evidence() for s in lacking], {"key": pointer})
        if blind:
            return outcome("unmeasured", "argument_evidence_missing", "a retry has no structured arguments to find "
                           "an idempotency key in", [s.evidence() for s in blind], {"key": pointer})
        if unknown:
            return _unidentified(unknown, facts)
        return outcome("pass", "idempotent_retries", f"{len(retries)} retr{'y' if len(retries) == 1 else 'ies'} "
                       f"of {', '.join(tools)}, each with an idempotency key",
                       [s.evidence() for s in retries] or [facts.run_evidence()], {"key": pointer})

    return Rule("", f"a retry of {', '.join(tools)} carries an idempotency key at {pointer}", evaluate)


def _failure_visible() -> Rule:
    def evaluate(facts: Facts) -> Outcome:
        ops, unknown = operations(facts)
        retried = [op for op in ops if len(op) > 1]
        silent = [s for op in retried for s in op[:-1] if s.status == "ok"]
        unknown_status = [s for op in retried for s in op[:-1] if s.status == "unknown"]
        if silent:
            return outcome("fail", "retry_without_failure", "retried after an attempt that did not fail: "
                           + ", ".join(s.id for s in silent), [s.evidence() for s in silent])
        if unknown_status:
            return outcome("unmeasured", "attempt_status_unknown", "an attempt before a retry has no recorded status",
                           [s.evidence() for s in unknown_status])
        if unknown:
            return _unidentified(unknown, facts)
        evidence: list[Evidence] = [s.evidence() for op in retried for s in op]
        return outcome("pass", "failures_visible", f"{len(retried)} retried operation(s), each after a recorded "
                       "failure", evidence or [facts.run_evidence()])

    return Rule("", "every retry follows a failure the trace records", evaluate)


def retry_rules(prefix: str, spec: RetryRules) -> list[Rule]:
    out = []
    if spec.max_attempts is not None:
        rule = _max_attempts(spec.max_attempts)
        out.append(Rule(f"{prefix}.max_attempts", rule.intent, rule.evaluate))
    if spec.non_idempotent_tools:
        rule = _idempotency(spec.non_idempotent_tools, spec.idempotency_key)
        out.append(Rule(f"{prefix}.idempotency", rule.intent, rule.evaluate))
    if spec.require_recovered_failure_visible:
        rule = _failure_visible()
        out.append(Rule(f"{prefix}.recovered_failure_visible", rule.intent, rule.evaluate))
    return out
