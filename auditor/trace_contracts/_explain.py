"""``edge-audit trace-contracts explain``: one human-readable line of intent per rule, in the
order the rules run, after a line saying where the contract applies."""

from __future__ import annotations

from ._compile import branch_rules, compile_contract
from ._model import TraceContract


def explain_contract(contract: TraceContract) -> list[str]:
    spec = contract.spec
    where = ", ".join(spec.applies_to.trace_ids)
    if spec.applies_to.sources is not None:
        where += f" from {', '.join(spec.applies_to.sources)}"
    scope = spec.scope
    parts = []
    if scope is not None:
        if scope.agents:
            parts.append(f"agents {', '.join(scope.agents)}")
        if scope.under_agent:
            parts.append(f"under agent {scope.under_agent}")
        if scope.under_handoff:
            parts.append(f"under handoff {scope.under_handoff}")
        if scope.metadata:
            parts.append("metadata " + ", ".join(f"{k}={v}" for k, v in sorted(scope.metadata.items())))
    lines = [f"{contract.id}: on traces {where}; events of {'; '.join(parts) or 'the whole trace'}"
             + (f" ({spec.description})" if spec.description else "")]
    for rule in compile_contract(contract):
        lines.append(f"  {rule.id}: {rule.intent}")
        if rule.id == "alternatives.any_of" and spec.alternatives is not None:
            for branch in spec.alternatives.any_of:
                lines += [f"    {r.id}: {r.intent}" for r in branch_rules(branch)]
    return lines
