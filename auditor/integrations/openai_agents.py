"""A tracing processor for the OpenAI Agents SDK that writes audit-ready JSONL::

    from agents import add_trace_processor
    from auditor.integrations.openai_agents import JsonlTraceProcessor

    add_trace_processor(JsonlTraceProcessor("traces/run.jsonl"))

Each trace is written when it starts and each span when it ends, one ``export()`` object per
line, which is the ``openai-agents`` format ``edge-audit run`` reads. The SDK is not imported
here: the processor has the SDK's ``TracingProcessor`` methods, and subclasses that class when
the SDK is installed.
"""

from __future__ import annotations

import json
import threading
from pathlib import Path
from typing import IO, Any

try:  # pragma: no cover - depends on whether the SDK is installed
    from agents.tracing import TracingProcessor as _Base  # type: ignore[import-not-found]
except ImportError:  # pragma: no cover
    _Base = object


class JsonlTraceProcessor(_Base):  # type: ignore[misc]
    """Appends every trace and finished span to ``path`` as one JSON object per line."""

    def __init__(self, path: str | Path) -> None:
        self.path = Path(path)
        self.path.parent.mkdir(parents=True, exist_ok=True)
        self._file: IO[str] | None = self.path.open("a", encoding="utf-8")
        self._lock = threading.Lock()

    def _write(self, item: Any) -> None:
        exported = item.export() if hasattr(item, "export") else None
        if not exported:
            return
        line = json.dumps(exported, ensure_ascii=False, default=str)
        with self._lock:
            if self._file is not None:
                self._file.write(line + "\n")

    def on_trace_start(self, trace: Any) -> None:
        self._write(trace)

    def on_trace_end(self, trace: Any) -> None:
        self.force_flush()

    def on_span_start(self, span: Any) -> None:
        return None

    def on_span_end(self, span: Any) -> None:
        self._write(span)

    def force_flush(self) -> None:
        with self._lock:
            if self._file is not None:
                self._file.flush()

    def shutdown(self) -> None:
        with self._lock:
            if self._file is not None:
                self._file.close()
                self._file = None
