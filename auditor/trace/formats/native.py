"""The native format: a JSON object with ``"schema": "edge-audit.trace.v1"``."""

from __future__ import annotations

from typing import Any

from .._model import TRACE_SCHEMA_ID, Trace
from ._registry import BY_SCHEMA, TraceFormat, register_format


def _detect(document: Any) -> bool:
    return isinstance(document, dict) and document.get("schema") == TRACE_SCHEMA_ID


def _convert(document: Any, name_hint: str) -> Trace:
    return Trace.model_validate(document)


NATIVE = register_format(
    TraceFormat(
        name="native",
        registry_name="edge-audit.format.native.v1",
        detect=_detect,
        convert=_convert,
        description='edge-audit native trace v1 (a JSON object with "schema": "edge-audit.trace.v1")',
        priority=BY_SCHEMA,
    )
)
