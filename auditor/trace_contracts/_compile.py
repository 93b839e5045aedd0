"""From a contract to its rules, and the evaluation of a contract on one trace.

Rule ids are stable and follow the contract's layout: ``run.status``, ``tools.required``,
``tools.order.0`` (adjacent pairs of ``required_order``), ``tools.order_rules.0``,
``tools.arguments.0``, ``steps.order.0``, ``retry.max_attempts``, ``llm.max_calls``, and
``alternatives.any_of`` for the branches, whose own rules are named
``alternatives.<branch>.<rule>`` in the finding.
"""

from __future__ import annotations

from dataclasses import dataclass

from ..trace import Trace
from ._arguments import argument_rules
from ._facts import Facts, applies, select
from ._model import Branch, LlmRules, RetryRules, StepRules, ToolRules, TraceContract
from ._order import order_rules, required_order_rules, step_order_rules
from ._outcome import Outcome, outcome
from ._retry import retry_rules
from ._rule import Rule, RuleResult
from ._run_llm import llm_rules, run_rules
from ._tools import tool_rules


def _section_rules(prefix: str, tools: ToolRules | None, steps: StepRules | None, retry: RetryRules | None,
                   llm: LlmRules | None) -> list[Rule]:
    out: list[Rule] = []
    join = f"{prefix}." if prefix else ""
    if tools is not None:
        out += tool_rules(f"{join}tools", tools)
        out += required_order_rules(f"{join}tools", tools.required_order, tools.required_order_mode)
        out += order_rules(f"{join}tools", tools.order_rules)
        out += argument_rules(f"{join}tools", tools.arguments)
    if steps is not None:
        out += step_order_rules(f"{join}steps", steps.order)
    if retry is not None:
        out += retry_rules(f"{join}retry", retry)
    if llm is not None:
        out += llm_rules(f"{join}llm", llm)
    return out


def branch_rules(branch: Branch) -> list[Rule]:
    return _section_rules(f"alternatives.{branch.id}", branch.tools, branch.steps, branch.retry, branch.llm)


def _alternatives(branches: list[Branch]) -> Rule:
    compiled = [(b.id, branch_rules(b)) for b in branches]

    def evaluate(facts: Facts) -> Outcome:
        firsts: dict[str, str] = {}
        undecided = []
        for branch_id, rules in compiled:
            results = [(r, r.evaluate(facts)) for r in rules]
            bad = next(((r, o) for r, o in results if o.status in ("fail", "unmeasured")), None)
            if bad is None:
                evidence = [e for _, o in results for e in o.evidence]
                return outcome("pass", "branch_satisfied", f"branch {branch_id} is satisfied", evidence,
                               [b for b, _ in compiled], branch_id)
            failing = next(((r, o) for r, o in results if o.status == "fail"), None)
            if failing is None:
                undecided.append(branch_id)
            rule, found = failing or bad
            firsts[branch_id] = f"{rule.id}: {found.verdict} ({found.summary})"
        listed = "; ".join(f"{b} failed {why}" for b, why in firsts.items())
        evidence = [facts.run_evidence()]
        if undecided:
            return outcome("unmeasured", "branch_unmeasured", f"no branch is satisfied and {', '.join(undecided)} "
                           f"could not be measured: {listed}", evidence, [b for b, _ in compiled],
                           branch_failures=firsts)
        return outcome("fail", "none_satisfied", f"no branch is satisfied: {listed}", evidence,
                       [b for b, _ in compiled], branch_failures=firsts)

    names = ", ".join(b.id for b in branches)
    return Rule("alternatives.any_of", f"at least one of these paths is followed in full: {names}", evaluate)


def compile_contract(contract: TraceContract) -> list[Rule]:
    """The contract's rules, in a stable order."""
    spec = contract.spec
    out = run_rules(spec.run) if spec.run is not None else []
    out += _section_rules("", spec.tools, spec.steps, spec.retry, spec.llm)
    if spec.alternatives is not None:
        out.append(_alternatives(spec.alternatives.any_of))
    return out


@dataclass(frozen=True)
class Evaluation:
    contract: TraceContract
    trace_id: str
    scope: str
    results: tuple[RuleResult, ...]


def evaluate_contract(contract: TraceContract, trace: Trace) -> Evaluation | None:
    """Every rule of ``contract`` on ``trace``; None when the contract does not apply to it.
    A scope that selects nothing makes every rule ``scope_empty`` (unmeasured)."""
    if not applies(contract.spec.applies_to, trace):
        return None
    facts = select(trace, contract.spec.scope)
    rules = compile_contract(contract)
    if not facts.steps:
        empty = outcome("unmeasured", "scope_empty", f"the scope ({facts.scope}) selects no event of this trace",
                        [facts.run_evidence()])
        return Evaluation(contract, trace.trace_id, facts.scope, tuple(RuleResult(r, empty) for r in rules))
    return Evaluation(contract, trace.trace_id, facts.scope, tuple(RuleResult(r, r.evaluate(facts)) for r in rules))
