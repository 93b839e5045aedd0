"""Trace contracts: reviewed files under ``config/trace-contracts/*.yaml`` (schema
``edge-audit.trace-contract.v1``, ``edge-audit schema trace-contract``) stating what a run must
have done: which tools, in which order, with which arguments, within which budget.

A contract applies to the traces its ``applies_to`` selects (other traces are skipped, not
failed). Within such a trace, ``scope`` selects the events the rules read; a scope that selects
nothing is reported, never passed.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Literal

from pydantic import BaseModel, ConfigDict, Field, ValidationError, model_validator

from .._files import invalid, read_yaml
from ..errors import ConfigError

TRACE_CONTRACT_SCHEMA_ID = "edge-audit.trace-contract.v1"
OrderMode = Literal["first-occurrence", "happens-before", "all-occurrences"]
StepKind = Literal["tool", "llm", "message"]
JsonType = Literal["string", "number", "integer", "boolean", "object", "array", "null"]


class _Strict(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True)


class AppliesTo(_Strict):
    """Which traces the contract is evaluated on. A trace it does not select is skipped."""

    trace_ids: list[str] = Field(default_factory=lambda: ["*"], min_length=1,
                                 description="Trace ids, with * and ? wildcards")
    sources: list[str] | None = Field(default=None, description="Trace formats (metadata.source), e.g. otlp; "
                                                                "null = any")


class Scope(_Strict):
    """The events the rules read, selected by explicit trace data only (never by prose or time).
    Every selector given must hold; zero selected events is reported as ``scope_empty``."""

    agents: list[str] | None = Field(default=None, min_length=1, description="Events of these agents")
    under_agent: str | None = Field(default=None, min_length=1,
                                    description="Events of this agent and of every agent it invoked, transitively "
                                                "(the agents' invoked_by)")
    under_handoff: str | None = Field(default=None, min_length=1,
                                      description="A handoff message's id or handoff_id: from it on, events of its "
                                                  "recipients "
                                                  "and the agents they invoked, until a recipient messages the sender "
                                                  "back (event order only: model calls, which have no place in it, "
                                                  "are not selected)")
    metadata: dict[str, Any] | None = Field(default=None, description="Trace metadata that must match: source, "
                                                                      "task, status, or labels.<key>")


class RunRules(_Strict):
    require_completed: bool = Field(default=False, description="The run finished (status ok or error)")
    allowed_statuses: list[str] | None = Field(default=None, min_length=1,
                                               description="ok, error, running (aliases: success, failed)")
    max_duration_ms: int | None = Field(default=None, ge=0)


class OrderRule(_Strict):
    before: str = Field(min_length=1)
    after: str = Field(min_length=1)
    mode: OrderMode = "first-occurrence"
    require_endpoints: bool = Field(default=True, description="A missing endpoint fails (else the rule is "
                                                              "unmeasured)")


class ArgumentCheck(_Strict):
    """A JSON Pointer check on a tool's structured arguments. Findings name the pointer and the
    JSON type found, never the arguments' values."""

    tool: str = Field(min_length=1)
    occurrence: Literal["first", "all", "any"] = "all"
    path: str = Field(description='A JSON Pointer (RFC 6901), e.g. "/dryRun"; "" is the whole arguments')
    op: Literal["exists", "type", "equals", "one_of"]
    type: JsonType | None = Field(default=None, description="For op: type")
    value: Any = Field(default=None, description="For op: equals")
    values: list[Any] | None = Field(default=None, description="For op: one_of")

    @model_validator(mode="after")
    def _operands(self) -> ArgumentCheck:
        if self.path and not self.path.startswith("/"):
            raise ValueError('path must be a JSON Pointer: "" or starting with "/"')
        if self.op == "type" and self.type is None:
            raise ValueError("op type needs type")
        if self.op == "one_of" and not self.values:
            raise ValueError("op one_of needs values")
        if self.op == "equals" and "value" not in self.model_fields_set:
            raise ValueError("op equals needs value")
        return self


class ToolRules(_Strict):
    required: list[str] = Field(default_factory=list, description="Tools that must be called at least once")
    forbidden: list[str] = Field(default_factory=list)
    allowed: list[str] | None = Field(default=None, description="A closed set: any other tool fails")
    max_calls: int | None = Field(default=None, ge=0, description="Most tool calls in all")
    max_calls_per_tool: dict[str, int] = Field(default_factory=dict, description="Most calls of each named tool")
    required_order: list[str] = Field(default_factory=list,
                                      description="Adjacent pairs must be ordered; every listed tool is required")
    required_order_mode: OrderMode = "first-occurrence"
    order_rules: list[OrderRule] = Field(default_factory=list, description="Additive pairs, each with its mode")
    arguments: list[ArgumentCheck] = Field(default_factory=list)


class Endpoint(_Strict):
    kind: StepKind
    name: str = Field(min_length=1, description="tool: the tool; llm: the model or the call's name; message: the "
                                                "sender")
    to: str | None = Field(default=None, description="message: the recipient")


class StepOrder(_Strict):
    """An order relation across kinds (tool, model call, message)."""

    before: Endpoint
    after: Endpoint
    mode: OrderMode = "first-occurrence"
    require_endpoints: bool = True


class StepRules(_Strict):
    order: list[StepOrder] = Field(default_factory=list)


class RetryRules(_Strict):
    """Attempts of one operation are the calls of one tool sharing a ``call_id`` (never guessed
    from times); a tool called twice with no call ids cannot be told apart and is unmeasured."""

    max_attempts: int | None = Field(default=None, ge=1)
    non_idempotent_tools: list[str] = Field(default_factory=list)
    idempotency_key: str = Field(default="/idempotency_key",
                                 description="JSON Pointer into a retry's arguments where its idempotency key is")
    require_recovered_failure_visible: bool = False


class LlmRules(_Strict):
    max_calls: int | None = Field(default=None, ge=0)
    max_total_tokens: int | None = Field(default=None, ge=0)
    allowed_models: list[str] | None = Field(default=None, min_length=1)


class Branch(_Strict):
    id: str = Field(min_length=1)
    tools: ToolRules | None = None
    steps: StepRules | None = None
    retry: RetryRules | None = None
    llm: LlmRules | None = None


class Alternatives(_Strict):
    any_of: list[Branch] = Field(min_length=1, description="At least one branch must pass in full")

    @model_validator(mode="after")
    def _unique_ids(self) -> Alternatives:
        ids = [b.id for b in self.any_of]
        if len(ids) != len(set(ids)):
            raise ValueError("branch ids must be unique")
        return self


class TraceContractFile(_Strict):
    """The schema of one trace-contract file."""

    model_config = ConfigDict(extra="forbid", frozen=True, populate_by_name=True)

    schema_: Literal["edge-audit.trace-contract.v1"] = Field(default="edge-audit.trace-contract.v1", alias="schema")
    id: str = Field(min_length=1, pattern=r"^[A-Za-z0-9_.-]+$")
    description: str | None = None
    applies_to: AppliesTo = Field(default_factory=AppliesTo)
    scope: Scope | None = None
    run: RunRules | None = None
    tools: ToolRules | None = None
    steps: StepRules | None = None
    retry: RetryRules | None = None
    llm: LlmRules | None = None
    alternatives: Alternatives | None = None


@dataclass(frozen=True)
class TraceContract:
    spec: TraceContractFile
    path: Path | None = None

    @property
    def id(self) -> str:
        return self.spec.id


def parse_contract(raw: Any, where: str = "<contract>") -> TraceContract:
    """A contract from parsed YAML/JSON; ``ConfigError`` naming the field when it is invalid."""
    try:
        return TraceContract(TraceContractFile.model_validate(raw))
    except ValidationError as err:
        raise invalid(where, err) from None


def load_trace_contract(path: Path) -> TraceContract:
    return TraceContract(parse_contract(read_yaml(path, "trace contract"), str(path)).spec, path)


def trace_contract_files(folder: Path) -> list[Path]:
    return sorted(p for p in folder.glob("*.yaml") if p.is_file()) if folder.is_dir() else []


def load_trace_contracts(paths: Iterable[Path]) -> list[TraceContract]:
    """The contracts of the given files; two with one id are a ``ConfigError``."""
    contracts = [load_trace_contract(p) for p in paths]
    seen: dict[str, Path | None] = {}
    for c in contracts:
        if c.id in seen:
            raise ConfigError(f"{c.path}: trace contract id {c.id!r} is also used by {seen[c.id]}")
        seen[c.id] = c.path
    return contracts
