"""The native trace format, version 1: the pydantic boundary model.

Every event in ``events`` is a ``message``, a ``tool_call`` or a ``handoff_stage``, in the
order they happened. Events get a stable id: the one in the file, or ``ev-<index>``.
"""

from __future__ import annotations

from datetime import datetime
from typing import Annotated, Any, Literal

from pydantic import BaseModel, ConfigDict, Field, model_validator

TRACE_SCHEMA_ID = "edge-audit.trace.v1"
BROADCAST = "*"


class _Frozen(BaseModel):
    model_config = ConfigDict(frozen=True, extra="forbid")


ObservationCapture = Literal["complete", "partial"]


class Agent(_Frozen):
    """A participant. ``kind`` says whether its messages are handoffs (``agent``),
    pipeline inputs (``human``) or tool output (``tool``). ``capture`` says whether the trace
    records everything the agent observed: ``partial`` for an agent that browses or retrieves
    through tools the trace does not log, whose unsupported claims are then ``unverifiable``."""

    name: str = Field(min_length=1)
    kind: Literal["agent", "human", "tool"] = "agent"
    model: str | None = None
    system_prompt: str | None = None
    invoked_by: list[str] = Field(
        default_factory=list,
        description="Agents that invoked this one (its parent agent spans), as the trace records them; "
                    "used by trace-contract scopes (subtree under an agent).")
    capture: ObservationCapture = Field(
        default="complete",
        description="complete: the trace logs every observation of this agent (its tool calls and results, or "
                    "observations transcribed into its messages); partial: it saw things the trace does not show.")


class Message(_Frozen):
    """One message from ``sender`` to ``recipients`` (a list of names, or ``"*"`` for everyone)."""

    type: Literal["message"] = "message"
    id: str = Field(min_length=1)
    sender: str = Field(min_length=1)
    recipients: list[str] | Literal["*"] = Field(
        description='Agent names, or "*" for a broadcast to every participant.'
    )
    content: str = ""
    structured: dict[str, Any] | None = Field(
        default=None,
        description="Structured output sent with the message, e.g. {'constraints': [...]}.",
    )
    handoff_id: str | None = None
    timestamp: datetime | None = None

    @model_validator(mode="after")
    def _recipients_not_empty(self) -> Message:
        if isinstance(self.recipients, list) and not self.recipients:
            raise ValueError('recipients is empty: name at least one agent, or use "*" for a broadcast')
        return self


class ToolCall(_Frozen):
    """A tool call by ``agent``. Its result is visible to the caller and to ``visible_to``."""

    type: Literal["tool_call"] = "tool_call"
    id: str = Field(min_length=1)
    agent: str = Field(min_length=1)
    tool: str = Field(min_length=1)
    call_id: str | None = None
    arguments: dict[str, Any] | str | None = None
    result: str | None = None
    exit_code: int | None = None
    status: Literal["ok", "error", "unknown"] = "unknown"
    visible_to: list[str] | Literal["*"] = Field(
        default_factory=list, description='Other agents that saw the result, or "*" for everyone.'
    )
    recorded_as: Literal["tool_call", "chat_message", "observation"] = Field(
        default="tool_call",
        description="chat_message when an importer turned a chat message (e.g. an exitcode line) into this call; "
                    "observation when it is what an agent transcribed of its own observation (a browser's page "
                    "text, a file viewer's content) inside its next message, which is still a message too.",
    )
    timestamp: datetime | None = Field(default=None, description="When the call started, if recorded")
    end_time: datetime | None = Field(default=None, description="When the call ended, if recorded")


Capture = Literal["complete", "redacted", "sampled_out", "truncated"]


class HandoffStage(_Frozen):
    """What an application observed at one stage of one handoff attempt: the **key names**
    present (never values), and whether that observation is complete. Stages of one attempt
    are joined by ``handoff_id`` and ``attempt_id``, never by time or position."""

    type: Literal["handoff_stage"] = "handoff_stage"
    id: str = Field(min_length=1)
    handoff_id: str = Field(min_length=1)
    attempt_id: str = Field(default="1", min_length=1)
    stage: Literal["source", "envelope", "destination"]
    route: str = Field(min_length=1)
    contract_version: str | None = Field(default=None, description="The contract version this stage worked to")
    from_agent: str = Field(min_length=1)
    to_agent: str = Field(min_length=1, description="For source/envelope: where it is sent. For destination: the "
                                                    "agent that actually received it (the observed destination).")
    keys: list[str] = Field(default_factory=list, description="Key names observed at this stage")
    capture: Capture = Field(default="complete", description="complete, or why the observation is partial")
    timestamp: datetime | None = None


Event = Annotated[Message | ToolCall | HandoffStage, Field(discriminator="type")]


class LlmCall(_Frozen):
    """One model call (an LLM or generation span), kept beside the events: it is not a message
    (its output texts are), and no edge is built from it. Read by trace contracts."""

    id: str = Field(min_length=1)
    agent: str = Field(min_length=1)
    name: str = Field(min_length=1, description="The span's name")
    model: str | None = None
    status: Literal["ok", "error", "unknown"] = "unknown"
    input_tokens: int | None = Field(default=None, ge=0)
    output_tokens: int | None = Field(default=None, ge=0)
    total_tokens: int | None = Field(default=None, ge=0)
    timestamp: datetime | None = Field(default=None, description="When the call started, if recorded")
    end_time: datetime | None = Field(default=None, description="When the call ended, if recorded")


RunStatus = Literal["ok", "error", "running"]


class TraceMetadata(_Frozen):
    source: str | None = None
    task: str | None = None
    score: float | None = Field(default=None, description="End-to-end score of the run, if one was recorded.")
    labels: dict[str, Any] = Field(default_factory=dict)
    status: RunStatus | None = Field(
        default=None, description="How the run ended, if the trace says: ok, error, or running (not finished).")
    started_at: datetime | None = Field(default=None, description="When the run started, if recorded")
    ended_at: datetime | None = Field(default=None, description="When the run ended, if recorded")


class Trace(_Frozen):
    """A whole multi-agent run."""

    schema_: Literal["edge-audit.trace.v1"] = Field(default="edge-audit.trace.v1", alias="schema")
    trace_id: str = Field(min_length=1)
    metadata: TraceMetadata = Field(default_factory=TraceMetadata)
    agents: list[Agent] = Field(default_factory=list)
    events: list[Event]
    llm_calls: list[LlmCall] = Field(default_factory=list, description="Model calls, where the trace records them")

    model_config = ConfigDict(frozen=True, extra="forbid", populate_by_name=True)

    @model_validator(mode="before")
    @classmethod
    def _assign_event_ids(cls, data: Any) -> Any:
        if isinstance(data, dict) and isinstance(data.get("events"), list):
            events = []
            for index, event in enumerate(data["events"]):
                if isinstance(event, dict) and not event.get("id"):
                    event = {**event, "id": f"ev-{index:04d}"}
                events.append(event)
            data = {**data, "events": events}
        return data

    @model_validator(mode="after")
    def _ids_unique_and_agents_known(self) -> Trace:
        seen: set[str] = set()
        for index, event in enumerate(self.events):
            if event.id in seen:
                raise ValueError(f"events[{index}].id {event.id!r} is used twice")
            seen.add(event.id)
        llm_ids = [call.id for call in self.llm_calls]
        if len(llm_ids) != len(set(llm_ids)):
            raise ValueError("llm_calls: an id is used twice")
        names = [agent.name for agent in self.agents]
        if len(names) != len(set(names)):
            raise ValueError("agents: an agent name is declared twice")
        return self

    def agents_by_name(self) -> dict[str, Agent]:
        """Declared agents by name. Undeclared senders are plain agents with no system prompt."""
        return {agent.name: agent for agent in self.agents}
