"""The registry of trace formats: each one turns one parsed JSON document into a Trace."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from .._model import Trace


@dataclass(frozen=True)
class TraceFormat:
    """A foreign or native format. ``detect`` looks at one parsed JSON document;
    ``convert`` builds the Trace (``name_hint`` names the trace when the document does not)."""

    name: str
    registry_name: str
    detect: Callable[[Any], bool]
    convert: Callable[[Any, str], Trace]
    description: str


_FORMATS: dict[str, TraceFormat] = {}


def register_format(fmt: TraceFormat) -> TraceFormat:
    _FORMATS[fmt.name] = fmt
    return fmt


def get_format(name: str) -> TraceFormat:
    from ...errors import UsageError

    try:
        return _FORMATS[name]
    except KeyError:
        known = ", ".join(sorted(_FORMATS))
        raise UsageError(f"unknown trace format {name!r}; known formats: {known}") from None


def all_formats() -> list[TraceFormat]:
    return list(_FORMATS.values())


def detect_format(document: Any) -> TraceFormat | None:
    for fmt in _FORMATS.values():
        if fmt.detect(document):
            return fmt
    return None
