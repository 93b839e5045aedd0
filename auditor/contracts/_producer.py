"""The producer side: build a handoff envelope from a contract's allowlist, and record the
three stage events in the native trace format, so that the application and the auditor share
one definition of the contract.

    contract = load_contract(Path("config/contracts/triage_to_billing.yaml"))
    envelope = build_envelope(contract, state, handoff_id="h-17", attempt_id="1")  # raises before dispatch
    send(envelope.payload)
    events = [*envelope.events, received(envelope, billing_state.keys())]

Stage events carry key names only, never values.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from typing import Any

from ..errors import HandoffContractError
from ..trace import Capture, HandoffStage
from ._model import Contract


def stage_event(contract: Contract, stage: str, keys: Iterable[str], *, handoff_id: str, attempt_id: str,
                to_agent: str | None = None, capture: Capture = "complete") -> dict[str, Any]:
    """One ``handoff_stage`` event (validated), as a dict ready for a native trace's events."""
    event = HandoffStage.model_validate({
        "id": f"{handoff_id}.{attempt_id}.{stage}", "handoff_id": handoff_id, "attempt_id": attempt_id,
        "stage": stage, "route": contract.route, "contract_version": contract.version,
        "from_agent": contract.spec.source, "to_agent": to_agent or contract.spec.destination,
        "keys": sorted(set(keys)), "capture": capture,
    })
    return event.model_dump(mode="json", exclude_none=True)


@dataclass(frozen=True)
class Envelope:
    contract: Contract
    handoff_id: str
    attempt_id: str
    payload: dict[str, Any]
    events: tuple[dict[str, Any], ...]
    """The source and envelope stage events."""


def build_envelope(contract: Contract, source_state: Mapping[str, Any], *, handoff_id: str, attempt_id: str = "1",
                   source_capture: Capture = "complete") -> Envelope:
    """The payload is the permitted keys the source holds, nothing else. A required key the
    source does not hold raises ``HandoffContractError`` before anything is dispatched; the
    error carries the source stage event, so the failure can be recorded too."""
    source = stage_event(contract, "source", source_state, handoff_id=handoff_id, attempt_id=attempt_id,
                         capture=source_capture)
    missing = [k for k in contract.spec.required if k not in source_state]
    if missing:
        raise HandoffContractError(contract.route, contract.version, missing, (source,))
    payload = {k: source_state[k] for k in contract.spec.permitted if k in source_state}
    envelope = stage_event(contract, "envelope", payload, handoff_id=handoff_id, attempt_id=attempt_id)
    return Envelope(contract, handoff_id, attempt_id, payload, (source, envelope))


def received(envelope: Envelope, destination_keys: Iterable[str], *, agent: str | None = None,
             capture: Capture = "complete") -> dict[str, Any]:
    """The destination stage event: the keys the receiving agent actually loaded. ``agent`` is
    who received it, when that is not the contract's destination (a misroute)."""
    return stage_event(envelope.contract, "destination", destination_keys, handoff_id=envelope.handoff_id,
                       attempt_id=envelope.attempt_id, to_agent=agent, capture=capture)
