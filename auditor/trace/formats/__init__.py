"""Trace formats: the native one and importers for foreign logs, auto-detected by priority
(``TraceFormat.priority``; see ``_registry``)."""

from . import ag2 as _ag2  # noqa: F401
from . import agentchat as _agentchat  # noqa: F401
from . import langfuse as _langfuse  # noqa: F401
from . import langsmith as _langsmith  # noqa: F401
from . import magentic_one as _magentic_one  # noqa: F401
from . import native as _native  # noqa: F401
from . import openai_agents as _openai_agents  # noqa: F401
from . import otlp as _otlp  # noqa: F401
from ._registry import (
    BY_KEY,
    BY_SCHEMA,
    BY_SHAPE,
    Record,
    RecordsFn,
    TraceFormat,
    all_formats,
    detect_format,
    get_format,
    register_format,
)

__all__ = ["BY_KEY", "BY_SCHEMA", "BY_SHAPE", "Record", "RecordsFn", "TraceFormat", "all_formats", "detect_format", "get_format", "register_format"]
