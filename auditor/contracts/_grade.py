"""The boundary grader: which boundary of a handoff lost a required key.

Stage events are joined into **attempts** by ``(handoff_id, attempt_id)``, never by time or
position. Each attempt is graded in causal order, and the first failing step decides:

1. route, source agent or observed destination differ from the contract: ``routing_mismatch``
   (the keys are not graded against the wrong route's contract);
2. source capture missing or partial: ``insufficient_evidence``;
3. required keys missing at the source: ``upstream_context_missing``;
4. envelope capture missing or partial: ``insufficient_evidence``;
5. required keys missing from the envelope: ``packaging_loss``;
6. destination capture missing or partial: ``insufficient_evidence``;
7. required keys missing at the destination: ``ingestion_loss``;
8. otherwise ``passed``, or ``recovered`` when an earlier attempt of the same handoff failed.
   The failed attempt keeps its own verdict: the defect and the recovery are two facts.

Before that, the attempt's contract is found by route and version. Stages that recorded
different versions are compared only through a migration the newest version declares (its
renames map old key names to new); otherwise the verdict is ``version_mismatch``. No contract,
or no version at all: ``contract_unknown``. Both are unmeasured: never a pass, never a loss.

Separately, keys seen in the envelope or at the destination that the contract does not permit
are an ``unpermitted_key`` finding, whatever the boundary verdict.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Literal

from ..trace import HandoffStage, Trace
from ._model import Boundary, Contract, ContractBook

Stage = Literal["source", "envelope", "destination"]
STAGES: tuple[Stage, ...] = ("source", "envelope", "destination")
Verdict = Literal["routing_mismatch", "insufficient_evidence", "upstream_context_missing", "packaging_loss",
                  "ingestion_loss", "passed", "recovered", "version_mismatch", "contract_unknown", "unpermitted_key"]
LOSS: dict[Stage, Verdict] = {"source": "upstream_context_missing", "envelope": "packaging_loss",
                              "destination": "ingestion_loss"}
_RECEIVING: tuple[Stage, ...] = ("envelope", "destination")


@dataclass(frozen=True)
class Attempt:
    handoff_id: str
    attempt_id: str
    stages: Mapping[Stage, HandoffStage]
    duplicates: tuple[Stage, ...] = ()

    @property
    def first(self) -> HandoffStage:
        return next(self.stages[s] for s in STAGES if s in self.stages)

    @property
    def observed_destination(self) -> str:
        stage = self.stages.get("destination") or self.stages.get("envelope") or self.first
        return stage.to_agent


@dataclass(frozen=True)
class Graded:
    attempt: Attempt
    verdict: Verdict
    boundary: Boundary | None
    missing: tuple[str, ...] = ()
    contract: Contract | None = None
    reason: str = ""
    keys: Mapping[Stage, tuple[str, ...]] = field(default_factory=dict)
    recovered_from: tuple[str, ...] = ()


def attempts(trace: Trace) -> list[Attempt]:
    """Stage events joined by (handoff_id, attempt_id), in order of first appearance. A stage
    recorded twice in one attempt is ambiguous and kept as a duplicate, not merged."""
    grouped: dict[tuple[str, str], dict[Stage, HandoffStage]] = {}
    duplicates: dict[tuple[str, str], list[Stage]] = {}
    for event in trace.events:
        if isinstance(event, HandoffStage):
            key = (event.handoff_id, event.attempt_id)
            stages = grouped.setdefault(key, {})
            if event.stage in stages:
                duplicates.setdefault(key, []).append(event.stage)
            else:
                stages[event.stage] = event
    return [Attempt(h, a, stages, tuple(duplicates.get((h, a), ()))) for (h, a), stages in grouped.items()]


@dataclass(frozen=True)
class _Resolved:
    contract: Contract | None
    keys: dict[Stage, tuple[str, ...]]
    verdict: Verdict | None = None
    reason: str = ""


def _resolve(attempt: Attempt, book: ContractBook) -> _Resolved:
    """The contract to grade against and each stage's key names in its vocabulary, or why not."""
    route = attempt.first.route
    versions = {s: st.contract_version for s, st in attempt.stages.items()}
    if not any(versions.values()):
        return _Resolved(None, {}, "contract_unknown", "no stage recorded a contract_version")
    known = [v for v in dict.fromkeys(versions.values()) if v]
    candidates = [c for v in known if (c := book.get(route, v)) is not None]
    if not candidates:
        have = ", ".join(book.versions(route)) or "none"
        return _Resolved(None, {}, "contract_unknown",
                         f"no contract for route {route!r} version {'/'.join(known)} (contracts: {have})")
    for contract in sorted(candidates, key=_version_key, reverse=True):
        keys: dict[Stage, tuple[str, ...]] = {}
        for stage, event in attempt.stages.items():
            version = event.contract_version or contract.version
            if version == contract.version:
                keys[stage] = tuple(event.keys)
            elif (migration := contract.migration_from(version)) is not None:
                keys[stage] = tuple(migration.renames.get(k, k) for k in event.keys)
            else:
                break
        else:
            return _Resolved(contract, keys)
    recorded = ", ".join(f"{s} v{v}" for s, v in versions.items())
    return _Resolved(None, {}, "version_mismatch",
                     f"stages recorded {recorded}, and no contract declares a migration between them")


def _version_key(contract: Contract) -> tuple[int, str]:
    """Newest first: numeric versions by value ("10" after "9"), others by text."""
    v = contract.version.removeprefix("v")
    return (int(v), "") if v.isdigit() else (-1, v)


def grade(attempt: Attempt, book: ContractBook) -> Graded:
    resolved = _resolve(attempt, book)
    contract, keys = resolved.contract, resolved.keys
    if contract is None:
        return Graded(attempt, resolved.verdict or "contract_unknown", None, reason=resolved.reason)
    spec = contract.spec
    routes = {st.route for st in attempt.stages.values()}
    source = attempt.stages.get("source")
    problems = []
    if routes != {spec.route}:
        problems.append(f"stages name routes {sorted(routes)}")
    if source is not None and source.from_agent != spec.source:
        problems.append(f"source agent {source.from_agent!r} is not the contract's {spec.source!r}")
    if attempt.observed_destination != spec.destination:
        problems.append(f"delivered to {attempt.observed_destination!r}, not the contract's {spec.destination!r}")
    if problems:
        return Graded(attempt, "routing_mismatch", "routing", contract=contract, reason="; ".join(problems), keys=keys)
    required = spec.required
    for stage in STAGES:
        event = attempt.stages.get(stage)
        if event is None or event.capture != "complete" or stage in attempt.duplicates:
            how = ("not recorded" if event is None else "recorded twice" if stage in attempt.duplicates
                   else f"capture is {event.capture}")
            return Graded(attempt, "insufficient_evidence", stage, contract=contract, keys=keys,
                          reason=f"the {stage} stage is {how}: its keys cannot be compared")
        missing = tuple(k for k in required if k not in keys[stage])
        if missing:
            return Graded(attempt, LOSS[stage], stage, missing, contract, f"required keys missing at the {stage}",
                          keys)
    return Graded(attempt, "passed", None, contract=contract, reason="every required key reached the destination",
                  keys=keys)


def unpermitted(graded: Graded) -> dict[Stage, tuple[str, ...]]:
    """Keys the envelope or the destination held that the contract does not permit."""
    if graded.contract is None or graded.verdict == "routing_mismatch":
        return {}
    permitted = set(graded.contract.spec.permitted)
    out: dict[Stage, tuple[str, ...]] = {}
    for stage in _RECEIVING:
        extra = tuple(k for k in graded.keys.get(stage, ()) if k not in permitted)
        if extra:
            out[stage] = extra
    return out


def grade_trace(trace: Trace, book: ContractBook) -> list[Graded]:
    """Every attempt of every handoff, with retries kept as separate facts."""
    results: list[Graded] = []
    failed: dict[str, list[str]] = {}
    for attempt in attempts(trace):
        graded = grade(attempt, book)
        earlier = failed.get(attempt.handoff_id, [])
        if graded.verdict == "passed" and earlier:
            graded = Graded(attempt, "recovered", None, contract=graded.contract, keys=graded.keys,
                            reason=f"passed after failed attempts {', '.join(earlier)}", recovered_from=tuple(earlier))
        elif graded.verdict in LOSS.values() or graded.verdict == "routing_mismatch":
            failed.setdefault(attempt.handoff_id, []).append(attempt.attempt_id)
        results.append(graded)
    return results
