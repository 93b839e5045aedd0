"""The registry of trace formats.

A **document** format turns one parsed JSON document into one Trace (``convert``). A **record**
format reads a stream of records (the lines of a JSONL file, the items of a JSON array, or one
document) and groups them into traces itself (``records``): spans and runs of one trace may be
spread over many lines, and one line may hold several traces. A record format yields a
``TraceError`` for a bad record or trace and goes on with the rest.

Detection tries the formats in the order of their ``priority`` (lowest first; then by name),
never in the order they were imported: the native schema id first (``BY_SCHEMA``), then the
formats recognised by a key of their own (``BY_KEY``), then the formats recognised only by
their shape, such as a list of chat turns (``BY_SHAPE``, the default).
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Iterator
from dataclasses import dataclass
from typing import Any

from ...errors import TraceError
from ...plugins import load_plugins
from .._model import Trace

#: (line number in a JSONL file, or None; the parsed record)
Record = tuple[int | None, Any]
RecordsFn = Callable[[Iterable[Record], str, str], Iterator[Trace | TraceError]]


@dataclass(frozen=True)
class TraceFormat:
    """A foreign or native format. ``detect`` looks at one parsed JSON record. ``convert``
    builds one Trace from one document (``name_hint`` names it when the document does not);
    ``records`` (for record formats) gets every record of a file, the file's path and the hint."""

    name: str
    registry_name: str
    detect: Callable[[Any], bool]
    description: str
    convert: Callable[[Any, str], Trace] | None = None
    records: RecordsFn | None = None
    priority: int = 100
    """Detection order, lowest first: ``BY_SCHEMA``, ``BY_KEY`` or ``BY_SHAPE`` (the default)."""


#: Detection priorities: the native schema id; a key of the format's own; only a shape.
BY_SCHEMA, BY_KEY, BY_SHAPE = 0, 10, 100


_FORMATS: dict[str, TraceFormat] = {}


def register_format(fmt: TraceFormat) -> TraceFormat:
    _FORMATS[fmt.name] = fmt
    return fmt


def get_format(name: str) -> TraceFormat:
    from ...errors import UsageError

    load_plugins("edge_audit.formats")
    try:
        return _FORMATS[name]
    except KeyError:
        known = ", ".join(sorted(_FORMATS))
        raise UsageError(f"unknown trace format {name!r}; known formats: {known}") from None


def all_formats() -> list[TraceFormat]:
    """Every registered format, in detection order."""
    load_plugins("edge_audit.formats")
    return sorted(_FORMATS.values(), key=lambda f: (f.priority, f.name))


def detect_format(document: Any) -> TraceFormat | None:
    for fmt in all_formats():
        if fmt.detect(document):
            return fmt
    return None
