"""The span records every span-based format maps its records to (``Span``, with its input and
output messages and tool-call parts), and the small readers those formats share: times, token
counts and readable text of argument values."""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from datetime import UTC, datetime
from typing import Any, Literal

SpanKind = Literal["agent", "tool", "llm", "handoff", "other"]


@dataclass(frozen=True)
class ToolCallPart:
    call_id: str | None
    name: str
    arguments: Any


@dataclass(frozen=True)
class Msg:
    role: str
    text: str
    tool_calls: tuple[ToolCallPart, ...] = ()


@dataclass
class Span:
    span_id: str
    parent_id: str | None
    name: str
    kind: SpanKind
    start: float = 0.0
    seq: int = 0
    agent: str | None = None
    error: bool = False
    tool_name: str | None = None
    call_id: str | None = None
    arguments: Any = None
    result: str | None = None
    inputs: list[Msg] = field(default_factory=list)
    outputs: list[Msg] = field(default_factory=list)
    handoff_from: str | None = None
    handoff_to: str | None = None
    event_id: str | None = None
    model: str | None = None
    end: float | None = None
    stage_event: dict[str, Any] | None = None
    #: The recorded start time, when a format replaced ``start`` by an ordering key (LangSmith).
    started_at: float | None = None
    input_tokens: int | None = None
    output_tokens: int | None = None
    total_tokens: int | None = None

    def clock(self) -> tuple[float | None, float | None]:
        """The recorded (start, end) in epoch seconds; None for a time the source did not record
        (a start of 0.0 is a missing one)."""
        start = self.started_at if self.started_at is not None else self.start
        return (start if start and start > 0 else None), (self.end if self.end and self.end > 0 else None)

    def check_types(self) -> None:
        """Raise ``ValueError`` naming the span and the field when an importer handed over a
        value of the wrong type (trace files are untrusted: a number where a name belongs)."""
        for name in ("span_id", "name"):
            if not isinstance(getattr(self, name), str):
                raise ValueError(f"span {self.span_id!r}: {name} must be a string, "
                                 f"got {type(getattr(self, name)).__name__}")
        for name in ("parent_id", "agent", "tool_name", "call_id", "result", "handoff_from", "handoff_to",
                     "event_id", "model"):
            value = getattr(self, name)
            if value is not None and not isinstance(value, str):
                raise ValueError(f"span {self.span_id}: {name} must be a string, got {type(value).__name__}")
        for direction in ("inputs", "outputs"):
            for n, msg in enumerate(getattr(self, direction)):
                if not isinstance(msg.role, str) or not isinstance(msg.text, str):
                    raise ValueError(f"span {self.span_id}: {direction}[{n}] role and text must be strings")
                for call in msg.tool_calls:
                    if not isinstance(call.name, str) or not (call.call_id is None or isinstance(call.call_id, str)):
                        raise ValueError(f"span {self.span_id}: {direction}[{n}] tool call name and id must be "
                                         "strings")
        for name in ("input_tokens", "output_tokens", "total_tokens"):
            value = getattr(self, name)
            if value is not None and (not isinstance(value, int) or isinstance(value, bool) or value < 0):
                raise ValueError(f"span {self.span_id}: {name} must be a non-negative integer")
        if self.stage_event is not None and not isinstance(self.stage_event, dict):
            raise ValueError(f"span {self.span_id}: handoff stage must be an object")


def iso_seconds(value: Any) -> float:
    """An ISO-8601 timestamp as seconds since the epoch (0.0 when it is missing or unreadable:
    start times only order spans, and file order breaks ties)."""
    if isinstance(value, str):
        try:
            return datetime.fromisoformat(value.replace("Z", "+00:00")).timestamp()
        except ValueError:
            return 0.0
    return 0.0


def token_count(value: Any) -> int | None:
    """A token count as the source wrote it (an integer, or digits in a string), else None."""
    if isinstance(value, bool):
        return None
    if isinstance(value, int) and value >= 0:
        return value
    if isinstance(value, str) and value.isdigit() and len(value) < 20:
        return int(value)
    return None


def set_usage(span: Span, input_tokens: Any, output_tokens: Any, total_tokens: Any = None) -> None:
    """Record a model call's token usage on its span (values that are not counts are dropped)."""
    span.input_tokens, span.output_tokens = token_count(input_tokens), token_count(output_tokens)
    span.total_tokens = token_count(total_tokens)


def iso_time(seconds: float | None) -> str | None:
    return None if seconds is None else datetime.fromtimestamp(seconds, tz=UTC).isoformat()


def text_of(value: Any) -> str:
    """Readable text of an argument or result value (strings as they are, the rest as JSON)."""
    if value is None:
        return ""
    if isinstance(value, str):
        return value
    return json.dumps(value, ensure_ascii=False, default=str)
