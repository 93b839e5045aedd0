"""One mutation is one or more splices into one field of one message, and nothing else: applied
to a trace, then verified by an independent comparison of the two traces as JSON.

The mutated message gets a new id (``<id>~<mutation>``) so that nothing cached under the old id
(a parse is cached per ``<trace>/<event>/<field>``) is reused for the new text; its edge id
changes accordingly. Every other event, and every other field of the message, is left as it was.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Any

from ..errors import MutationError
from ..trace import Message, Trace

_STRUCTURED = re.compile(r"structured\.constraints\[(\d+)\]")


@dataclass(frozen=True)
class Splice:
    """Replace ``[start, end)`` of ``field`` (``content`` or ``structured.constraints[i]``) with ``text``."""

    field: str
    start: int
    end: int
    text: str


def field_text(message: Message, field: str) -> str:
    if field == "content":
        return message.content
    match = _STRUCTURED.fullmatch(field)
    items = (message.structured or {}).get("constraints")
    if match is None or not isinstance(items, list) or int(match.group(1)) >= len(items):
        raise MutationError(f"{message.id}: no field {field!r}")
    item = items[int(match.group(1))]
    value = item.get("text") if isinstance(item, dict) else item
    if not isinstance(value, str):
        raise MutationError(f"{message.id}.{field} is not text")
    return value


def _spliced(text: str, splices: list[Splice]) -> str:
    out, at = [], 0
    for s in sorted(splices, key=lambda s: s.start):
        if s.start < at or s.end > len(text) or s.start > s.end:
            raise MutationError(f"splices overlap or fall outside the field: {s}")
        out += [text[at:s.start], s.text]
        at = s.end
    return "".join(out) + text[at:]


def mutated_id(message_id: str, mutation: str) -> str:
    return f"{message_id}~{mutation}"


def apply(trace: Trace, message_id: str, mutation: str, splices: tuple[Splice, ...]) -> Trace:
    """``trace`` with the splices made in message ``message_id``, which is renamed."""
    events: list[Any] = []
    for event in trace.events:
        if event.id != message_id:
            events.append(event)
            continue
        if not isinstance(event, Message):
            raise MutationError(f"{message_id} is not a message")
        update: dict[str, Any] = {"id": mutated_id(message_id, mutation)}
        structured = dict(event.structured) if event.structured else None
        for field in dict.fromkeys(s.field for s in splices):
            new = _spliced(field_text(event, field), [s for s in splices if s.field == field])
            if field == "content":
                update["content"] = new
                continue
            assert structured is not None  # field_text found the item
            items = list(structured["constraints"])
            index = int(_STRUCTURED.fullmatch(field).group(1))  # type: ignore[union-attr]
            items[index] = {**items[index], "text": new} if isinstance(items[index], dict) else new
            structured["constraints"] = items
            update["structured"] = structured
        events.append(event.model_copy(update=update))
    return trace.model_copy(update={"events": events})


def _differences(old: Any, new: Any, path: str = "") -> list[str]:
    """JSON paths where two JSON values differ (a list of another length differs as a whole)."""
    if isinstance(old, dict) and isinstance(new, dict):
        return [d for k in sorted(set(old) | set(new)) for d in _differences(old.get(k), new.get(k), f"{path}.{k}")]
    if isinstance(old, list) and isinstance(new, list) and len(old) == len(new):
        return [d for i, (a, b) in enumerate(zip(old, new, strict=True)) for d in _differences(a, b, f"{path}[{i}]")]
    return [] if old == new else [path]


def verify(original: Trace, mutant: Trace, message_id: str, mutation: str, splices: tuple[Splice, ...]) -> None:
    """Raise ``MutationError`` unless ``mutant`` differs from ``original`` only in the message's id
    and the spliced fields, and within each field only between the first splice's start and the
    last one's end (the text before and after is compared character for character)."""
    index = next(i for i, e in enumerate(original.events) if e.id == message_id)
    before = original.model_dump(mode="json", by_alias=True)
    after = mutant.model_dump(mode="json", by_alias=True)
    prefix = f".events[{index}]"
    fields = {s.field for s in splices}
    allowed = {f"{prefix}.id"} | {f"{prefix}.{f}" for f in fields}
    found = set(_differences(before, after))
    stray = {d for d in found if not any(d == a or d.startswith(a + ".") for a in allowed)}
    if stray or f"{prefix}.id" not in found or after["events"][index]["id"] != mutated_id(message_id, mutation):
        raise MutationError(f"{message_id} ({mutation}): the mutant differs at {sorted(stray) or 'no id'}")
    old_message, new_message = original.events[index], mutant.events[index]
    assert isinstance(old_message, Message) and isinstance(new_message, Message)
    for field in fields:
        old_text, new_text = field_text(old_message, field), field_text(new_message, field)
        mine = [s for s in splices if s.field == field]
        start, end = min(s.start for s in mine), max(s.end for s in mine)
        tail = len(old_text) - end
        if (old_text == new_text or new_text[:start] != old_text[:start]
                or new_text[len(new_text) - tail:] != old_text[end:] or len(new_text) < start + tail):
            raise MutationError(f"{message_id}.{field} ({mutation}): the text changed outside [{start}, {end}) "
                                "or not at all")
