"""``edge-audit.contracts.v1``: handoff contracts, graded from the stage events an application
records (``handoff_stage``), with no model involved. See ``auditor.contracts`` for the order of
the boundary checks.

Each handoff attempt is a report unit (``<trace>/handoff:<handoff_id>@<attempt_id>``) with one
boundary finding and, when the envelope or destination held keys the contract does not permit,
an ``unpermitted_key`` finding. Statuses: ``passed``/``recovered`` pass; the losses,
``routing_mismatch`` and ``unpermitted_key`` fail (``unpermitted: warn`` to soften the last);
``insufficient_evidence``, ``version_mismatch`` and ``contract_unknown`` are unmeasured.
"""

from __future__ import annotations

from pathlib import Path

from pydantic import Field

from ..contracts import STAGES, Graded, contract_files, grade_trace, load_contracts, unpermitted
from ..edges import Edge, Quote
from ..options import Options
from ..trace import Trace
from ._finding import FailOrWarn, Finding, Status
from ._registry import CheckContext, CheckFn, Unit, register_check

NAME = "edge-audit.contracts.v1"
_STATUS: dict[str, Status] = {
    "passed": "pass", "recovered": "pass", "routing_mismatch": "fail", "upstream_context_missing": "fail",
    "packaging_loss": "fail", "ingestion_loss": "fail", "insufficient_evidence": "unmeasured",
    "version_mismatch": "unmeasured", "contract_unknown": "unmeasured",
}


def _quotes(graded: Graded) -> tuple[Quote, ...]:
    out = []
    for stage in STAGES:
        event = graded.attempt.stages.get(stage)
        if event is not None:
            text = ", ".join(event.keys)
            field = "keys" if event.capture == "complete" else f"keys ({event.capture})"
            out.append(Quote(event.id, field, 0, len(text), text))
    return tuple(out)


class ContractCheck:
    def __init__(self, folder: Path, unpermitted_status: Status) -> None:
        self.folder = folder
        self.book = load_contracts(contract_files(folder))
        self.unpermitted_status = unpermitted_status

    def __call__(self, edge: Edge) -> list[Finding]:
        return []

    def check_trace(self, trace: Trace) -> list[tuple[Unit, list[Finding]]]:
        out = []
        for graded in grade_trace(trace, self.book):
            a = graded.attempt
            unit = Unit(f"{trace.trace_id}/handoff:{a.handoff_id}@{a.attempt_id}", a.first.from_agent,
                        a.observed_destination, a.first.id)
            contract = graded.contract
            details: dict[str, object] = {
                "route": a.first.route, "handoff_id": a.handoff_id, "attempt_id": a.attempt_id,
                "boundary": graded.boundary, "missing_keys": list(graded.missing),
                "contract_version": contract.version if contract else None,
                "owner": contract.owner(graded.boundary) if contract and graded.boundary else None,
                "expected_destination": contract.spec.destination if contract else None,
                "observed_destination": a.observed_destination,
            }
            if graded.recovered_from:
                details["recovered_from"] = list(graded.recovered_from)
            summary = graded.reason + (f": {', '.join(graded.missing)}" if graded.missing else "")
            if graded.boundary and contract:
                summary += f" (boundary {graded.boundary}, notify {contract.owner(graded.boundary)})"
            quotes = _quotes(graded)
            findings = [Finding(NAME, unit.id, graded.verdict, _STATUS[graded.verdict], summary, None, quotes, (),
                                details)]
            extra = unpermitted(graded)
            if extra and contract is not None:
                listed = "; ".join(f"{stage}: {', '.join(keys)}" for stage, keys in extra.items())
                owner = contract.owner("envelope")
                findings.append(Finding(NAME, unit.id, "unpermitted_key", self.unpermitted_status,
                                        f"keys the contract does not permit crossed the handoff ({listed}); "
                                        f"notify {owner}", None, quotes, (),
                                        {**details, "boundary": "envelope", "owner": owner,
                                         "unpermitted_keys": {s: list(k) for s, k in extra.items()}}))
            out.append((unit, findings))
        return out


class ContractsOptions(Options):
    contracts: str | None = Field(default=None, description="The contracts folder; null = config/contracts in "
                                                            "the project root (none without a project)")
    unpermitted: FailOrWarn = Field(default="fail", description="Status of a key the contract does not permit")


@register_check(NAME, ContractsOptions)
def contracts_v1(context: CheckContext, options: ContractsOptions) -> CheckFn:
    # the project's config/contracts, never the working directory's: no project, no contracts
    default = (context.project_dir / "config" / "contracts" if context.project_dir is not None
               else Path("/nonexistent/edge-audit/contracts"))
    return ContractCheck(context.resolve(options.contracts, default), options.unpermitted)
