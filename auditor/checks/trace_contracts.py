"""``edge-audit.trace_contracts.v1``: trace contracts (``auditor.trace_contracts``) evaluated on
every trace they apply to, with no model involved.

Each rule of each applying contract is a report unit of kind ``trace_rule``
(``<trace>/trace-contract:<contract>/<rule>``) with one finding, so JUnit shows one testcase
per rule. The finding's status is the rule's: pass, fail, warn (an overlap in first-occurrence
order) or unmeasured (what the trace does not record: a time in a causal mode, structured
arguments, a run status, an empty scope). Its details carry the evidence: event ids and times.
No contract files, or none applying to a trace, means no units: the check is then silent.
"""

from __future__ import annotations

from pathlib import Path

from pydantic import Field

from ..edges import Edge, Quote
from ..options import Options
from ..trace import Trace
from ..trace_contracts import (
    Evidence,
    RuleResult,
    TraceContract,
    evaluate_contract,
    load_trace_contracts,
    trace_contract_files,
)
from ._finding import Finding
from ._registry import CheckContext, CheckFn, Unit, register_check

NAME = "edge-audit.trace_contracts.v1"


def _quote(evidence: Evidence) -> Quote:
    field = {"tool": "tool", "message": "sender", "llm": "llm_call", "run": "trace"}.get(evidence.kind, evidence.kind)
    return Quote(evidence.event_id, field, 0, len(evidence.name), evidence.name)


def rule_finding(unit_id: str, contract: TraceContract, scope: str, result: RuleResult) -> Finding:
    o = result.outcome
    details: dict[str, object] = {
        "contract": contract.id, "rule": result.rule.id, "intent": result.rule.intent, "scope": scope,
        "evidence": [e.as_dict() for e in o.evidence],
    }
    if o.expected is not None:
        details["expected"] = o.expected
    if o.actual is not None:
        details["actual"] = o.actual
    details.update(o.details)
    return Finding(NAME, unit_id, o.verdict, o.status, o.summary, None, tuple(_quote(e) for e in o.evidence), (),
                   details)


class TraceContractCheck:
    def __init__(self, folder: Path) -> None:
        self.folder = folder
        self.contracts = load_trace_contracts(trace_contract_files(folder))

    def __call__(self, edge: Edge) -> list[Finding]:
        return []

    def check_trace(self, trace: Trace) -> list[tuple[Unit, list[Finding]]]:
        out = []
        for contract in self.contracts:
            evaluation = evaluate_contract(contract, trace)
            if evaluation is None:
                continue
            for result in evaluation.results:
                unit_id = f"{trace.trace_id}/trace-contract:{contract.id}/{result.rule.id}"
                first = result.outcome.evidence[0].event_id if result.outcome.evidence else trace.trace_id
                unit = Unit(unit_id, f"trace-contract:{contract.id}", result.rule.id, first, kind="trace_rule")
                out.append((unit, [rule_finding(unit_id, contract, evaluation.scope, result)]))
        return out


class TraceContractsOptions(Options):
    contracts: str | None = Field(default=None, description="The trace-contracts folder; null = "
                                                            "config/trace-contracts in the project root (none "
                                                            "without a project)")


@register_check(NAME, TraceContractsOptions)
def trace_contracts_v1(context: CheckContext, options: TraceContractsOptions) -> CheckFn:
    default = (context.project_dir / "config" / "trace-contracts" if context.project_dir is not None
               else Path("/nonexistent/edge-audit/trace-contracts"))
    return TraceContractCheck(context.resolve(options.contracts, default))
