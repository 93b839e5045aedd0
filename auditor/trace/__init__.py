"""Traces: the native v1 model, the format importers and the file loader. (The OTLP exporter,
which needs the edges, is ``auditor.integrations.otlp_export``.)"""

from ._load import (
    TRACE_SUFFIXES,
    Limits,
    Loaded,
    LoadedTrace,
    LoadResult,
    find_trace_files,
    iter_file,
    iter_paths,
    load_file,
    load_paths,
)
from ._model import (
    BROADCAST,
    TRACE_SCHEMA_ID,
    Agent,
    Capture,
    Event,
    HandoffStage,
    LlmCall,
    Message,
    ObservationCapture,
    RunStatus,
    ToolCall,
    Trace,
    TraceMetadata,
)
from .formats import TraceFormat, all_formats, detect_format, get_format

__all__ = [
    "TRACE_SUFFIXES", "BROADCAST", "TRACE_SCHEMA_ID", "Agent", "Capture", "Event", "HandoffStage", "Limits", "LlmCall", "RunStatus", "LoadResult", "Loaded", "LoadedTrace", "Message",
    "ObservationCapture", "ToolCall", "Trace", "TraceFormat", "TraceMetadata", "all_formats", "detect_format", "find_trace_files",
    "get_format", "iter_file", "iter_paths", "load_file", "load_paths",
]
