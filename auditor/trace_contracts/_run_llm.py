"""Run rules (status, completion, duration: from the trace's metadata) and model-call rules
(call count, total tokens, allowed models: where the trace records model calls).

What the trace does not record is unmeasured: a run with no status, a run with no start or end
time, a trace with no model calls at all (its format may not record them), a call with no token
count or no model name.
"""

from __future__ import annotations

from ._facts import Facts, utc
from ._model import LlmRules, RunRules
from ._outcome import Outcome, RuleStatus, outcome
from ._rule import Rule

_ALIASES = {"success": "ok", "failed": "error"}


def _status(allowed: list[str] | None, completed: bool) -> Rule:
    wanted = sorted({_ALIASES.get(s, s) for s in allowed}) if allowed else None

    def evaluate(facts: Facts) -> Outcome:
        actual = facts.trace.metadata.status
        evidence = [facts.run_evidence()]
        if actual is None:
            return outcome("unmeasured", "status_unknown", "the trace records no run status", evidence, wanted)
        if wanted is not None and actual not in wanted:
            return outcome("fail", "status_not_allowed", f"run status {actual} is not one of {', '.join(wanted)}",
                           evidence, wanted, actual)
        if completed and actual == "running":
            return outcome("fail", "incomplete", "the run did not finish (some spans never ended)", evidence,
                           "completed", actual)
        return outcome("pass", "status_ok", f"run status {actual}", evidence, wanted, actual)

    parts = ([f"the run ends with status {' or '.join(wanted)}"] if wanted else []) + (
        ["the run finished"] if completed else [])
    return Rule("run.status", "; ".join(parts), evaluate)


def _duration(limit: int) -> Rule:
    def evaluate(facts: Facts) -> Outcome:
        meta = facts.trace.metadata
        evidence = [facts.run_evidence()]
        if meta.started_at is None or meta.ended_at is None:
            return outcome("unmeasured", "missing_time", "the trace records no run start or end time", evidence,
                           {"max_duration_ms": limit})
        millis = round((utc(meta.ended_at) - utc(meta.started_at)).total_seconds() * 1000)
        status: RuleStatus = "fail" if millis > limit else "pass"
        return outcome(status, "too_slow" if status == "fail" else "within_duration",
                       f"the run took {millis} ms (at most {limit} ms)", evidence, {"max_duration_ms": limit}, millis)

    return Rule("run.duration", f"the run takes at most {limit} ms", evaluate)


def run_rules(spec: RunRules) -> list[Rule]:
    out = []
    if spec.allowed_statuses or spec.require_completed:
        out.append(_status(spec.allowed_statuses, spec.require_completed))
    if spec.max_duration_ms is not None:
        out.append(_duration(spec.max_duration_ms))
    return out


def _no_calls(facts: Facts, expected: object) -> Outcome:
    return outcome("unmeasured", "no_model_calls", "the trace records no model calls here", [facts.run_evidence()],
                   expected)


def _llm_max_calls(limit: int) -> Rule:
    def evaluate(facts: Facts) -> Outcome:
        calls = facts.of_kind("llm")
        if not calls:
            return _no_calls(facts, {"max_calls": limit})
        status: RuleStatus = "fail" if len(calls) > limit else "pass"
        return outcome(status, "too_many_calls" if status == "fail" else "within_budget",
                       f"{len(calls)} model call(s) (at most {limit})", [s.evidence() for s in calls],
                       {"max_calls": limit}, len(calls))

    return Rule("", f"at most {limit} model call(s)", evaluate)


def _llm_tokens(limit: int) -> Rule:
    def evaluate(facts: Facts) -> Outcome:
        calls = facts.of_kind("llm")
        if not calls:
            return _no_calls(facts, {"max_total_tokens": limit})
        counted = sum(s.tokens or 0 for s in calls)
        if counted > limit:
            return outcome("fail", "too_many_tokens", f"model calls used at least {counted} tokens (at most {limit})",
                           [s.evidence() for s in calls if s.tokens], {"max_total_tokens": limit}, counted)
        uncounted = [s for s in calls if s.tokens is None]
        if uncounted:
            return outcome("unmeasured", "tokens_unknown", f"{len(uncounted)} model call(s) record no token count",
                           [s.evidence() for s in uncounted], {"max_total_tokens": limit})
        return outcome("pass", "within_budget", f"model calls used {counted} tokens (at most {limit})",
                       [s.evidence() for s in calls], {"max_total_tokens": limit}, counted)

    return Rule("", f"model calls use at most {limit} tokens in all", evaluate)


def _llm_models(models: list[str]) -> Rule:
    def evaluate(facts: Facts) -> Outcome:
        calls = facts.of_kind("llm")
        if not calls:
            return _no_calls(facts, sorted(models))
        other = [s for s in calls if s.model is not None and s.model not in models]
        if other:
            return outcome("fail", "model_not_allowed", "model(s) outside the allowed set: "
                           + ", ".join(sorted({str(s.model) for s in other})), [s.evidence() for s in other],
                           sorted(models), sorted({str(s.model) for s in other}))
        unnamed = [s for s in calls if s.model is None]
        if unnamed:
            return outcome("unmeasured", "model_unknown", f"{len(unnamed)} model call(s) record no model name",
                           [s.evidence() for s in unnamed], sorted(models))
        return outcome("pass", "models_allowed", "every model call used an allowed model",
                       [s.evidence() for s in calls], sorted(models))

    return Rule("", f"model calls use only {', '.join(models)}", evaluate)


def llm_rules(prefix: str, spec: LlmRules) -> list[Rule]:
    made = []
    if spec.max_calls is not None:
        made.append(("max_calls", _llm_max_calls(spec.max_calls)))
    if spec.max_total_tokens is not None:
        made.append(("max_total_tokens", _llm_tokens(spec.max_total_tokens)))
    if spec.allowed_models is not None:
        made.append(("allowed_models", _llm_models(spec.allowed_models)))
    return [Rule(f"{prefix}.{name}", rule.intent, rule.evaluate) for name, rule in made]
