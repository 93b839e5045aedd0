"""Tool usage rules: required (with the tools ``required_order`` lists), forbidden, a closed
allowed set, and call budgets in all and per tool. Each is its own rule (one JUnit testcase)."""

from __future__ import annotations

from ._facts import Facts
from ._model import ToolRules
from ._outcome import Outcome, outcome
from ._rule import Rule


def _required(names: list[str]) -> Rule:
    def evaluate(facts: Facts) -> Outcome:
        present = {s.name for s in facts.tools()}
        missing = [n for n in names if n not in present]
        if missing:
            return outcome("fail", "tool_missing", f"required tool(s) never called: {', '.join(missing)}",
                           [facts.run_evidence()], names, sorted(present), missing=missing)
        firsts = [next(s for s in facts.tools(n)).evidence() for n in names]
        return outcome("pass", "present", f"every required tool was called ({', '.join(names)})", firsts, names)

    return Rule("", f"every run calls {', '.join(names)}", evaluate)


def _forbidden(names: list[str]) -> Rule:
    def evaluate(facts: Facts) -> Outcome:
        hits = [s for s in facts.tools() if s.name in names]
        if hits:
            return outcome("fail", "forbidden_tool", f"forbidden tool(s) called: "
                           f"{', '.join(sorted({s.name for s in hits}))}", [s.evidence() for s in hits],
                           "absent", sorted({s.name for s in hits}))
        return outcome("pass", "absent", f"no forbidden tool was called ({', '.join(names)})",
                       [facts.run_evidence()], "absent")

    return Rule("", f"no run calls {', '.join(names)}", evaluate)


def _allowed(names: list[str]) -> Rule:
    def evaluate(facts: Facts) -> Outcome:
        others = [s for s in facts.tools() if s.name not in names]
        if others:
            return outcome("fail", "tool_not_allowed", f"tool(s) outside the allowed set: "
                           f"{', '.join(sorted({s.name for s in others}))}", [s.evidence() for s in others],
                           sorted(names), sorted({s.name for s in others}))
        return outcome("pass", "within_allowed", "every tool call is in the allowed set",
                       [s.evidence() for s in facts.tools()] or [facts.run_evidence()], sorted(names))

    return Rule("", f"only these tools may be called: {', '.join(names) or '(none)'}", evaluate)


def _budget(limit: int, name: str | None) -> Rule:
    what = f"calls of {name}" if name else "tool calls"

    def evaluate(facts: Facts) -> Outcome:
        calls = facts.tools(name)
        evidence = [s.evidence() for s in calls] or [facts.run_evidence()]
        if len(calls) > limit:
            return outcome("fail", "too_many_calls", f"{len(calls)} {what}, at most {limit} allowed", evidence,
                           {"max_calls": limit}, len(calls))
        return outcome("pass", "within_budget", f"{len(calls)} {what} (at most {limit})", evidence,
                       {"max_calls": limit}, len(calls))

    return Rule("", f"at most {limit} {what}", evaluate)


def _named(rule: Rule, rule_id: str) -> Rule:
    return Rule(rule_id, rule.intent, rule.evaluate)


def tool_rules(prefix: str, spec: ToolRules) -> list[Rule]:
    """The usage rules of ``spec``; ``required_order`` implies presence."""
    out = []
    required = list(dict.fromkeys([*spec.required, *spec.required_order]))
    if required:
        out.append(_named(_required(required), f"{prefix}.required"))
    if spec.forbidden:
        out.append(_named(_forbidden(spec.forbidden), f"{prefix}.forbidden"))
    if spec.allowed is not None:
        out.append(_named(_allowed(spec.allowed), f"{prefix}.allowed"))
    if spec.max_calls is not None:
        out.append(_named(_budget(spec.max_calls, None), f"{prefix}.max_calls"))
    for name, limit in sorted(spec.max_calls_per_tool.items()):
        out.append(_named(_budget(limit, name), f"{prefix}.max_calls.{name}"))
    return out
