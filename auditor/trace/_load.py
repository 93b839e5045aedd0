"""Reading trace files: find them, guard against bad bytes, parse, detect the format, validate.

A bad file (or a bad line of a JSONL file) becomes a ``TraceError`` in the result;
it never stops the other files from loading.
"""

from __future__ import annotations

import json
from collections.abc import Iterable, Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from pydantic import ValidationError

from ..errors import TraceError, TraceFormatError, TraceValidationError, UnreadableTraceError, UsageError
from ._model import Message, ToolCall, Trace
from .formats import TraceFormat, all_formats, detect_format, get_format

TRACE_SUFFIXES = (".json", ".jsonl")


@dataclass(frozen=True)
class Limits:
    """Input guards. Exceeding one is a clear per-file error, never a crash."""

    max_file_bytes: int = 256 * 1024 * 1024
    max_text_chars: int = 2_000_000


@dataclass(frozen=True)
class LoadedTrace:
    trace: Trace
    path: str
    line: int | None
    format: str


@dataclass
class LoadResult:
    traces: list[LoadedTrace] = field(default_factory=list)
    errors: list[TraceError] = field(default_factory=list)
    files: int = 0


def find_trace_files(paths: Iterable[str | Path]) -> list[Path]:
    """Files named directly, plus ``*.json``/``*.jsonl`` under directories, sorted for stable order."""
    found: list[Path] = []
    for raw in paths:
        path = Path(raw)
        if path.is_dir():
            found.extend(sorted(p for p in path.rglob("*") if p.is_file() and p.suffix in TRACE_SUFFIXES))
        elif path.exists():
            found.append(path)
        else:
            raise UsageError(f"{path}: no such file or directory")
    return found


def _validation_message(err: ValidationError) -> tuple[str, str]:
    first = err.errors()[0]
    where = "".join(f"[{part}]" if isinstance(part, int) else f".{part}" for part in first["loc"]).lstrip(".")
    extra = f" (and {err.error_count() - 1} more)" if err.error_count() > 1 else ""
    return where, f"{first['msg']}{extra}"


def _check_text_sizes(trace: Trace, path: str, line: int | None, limits: Limits) -> None:
    def too_big(where: str, size: int) -> TraceValidationError:
        return TraceValidationError(
            path, f"text of {size:,} characters exceeds the limit of {limits.max_text_chars:,}",
            line=line, where=where,
        )

    for agent in trace.agents:
        if agent.system_prompt and len(agent.system_prompt) > limits.max_text_chars:
            raise too_big(f"agents[{agent.name}].system_prompt", len(agent.system_prompt))
    for index, event in enumerate(trace.events):
        if isinstance(event, Message) and len(event.content) > limits.max_text_chars:
            raise too_big(f"events[{index}].content", len(event.content))
        if isinstance(event, ToolCall) and event.result and len(event.result) > limits.max_text_chars:
            raise too_big(f"events[{index}].result", len(event.result))


def _document_to_trace(
    document: Any, path: str, line: int | None, forced: TraceFormat | None, limits: Limits, name_hint: str
) -> LoadedTrace:
    if not isinstance(document, dict):
        raise TraceFormatError(path, f"expected a JSON object, got {type(document).__name__}", line=line)
    fmt = forced or detect_format(document)
    if fmt is None:
        known = ", ".join(f.name for f in all_formats())
        raise TraceFormatError(path, f"unknown trace format (known: {known}); use --format to force one", line=line)
    if forced is not None and not forced.detect(document):
        raise TraceFormatError(path, f"content does not look like the forced format {forced.name!r}", line=line)
    try:
        trace = fmt.convert(document, name_hint)
    except ValidationError as err:
        where, reason = _validation_message(err)
        raise TraceValidationError(path, f"invalid {fmt.name} trace: {reason}", line=line, where=where) from None
    except (ValueError, TypeError, AttributeError) as err:
        raise TraceValidationError(path, f"invalid {fmt.name} trace: {err}", line=line) from None
    _check_text_sizes(trace, path, line, limits)
    return LoadedTrace(trace=trace, path=path, line=line, format=fmt.name)


def _read_text(path: Path, limits: Limits) -> str:
    name = str(path)
    try:
        size = path.stat().st_size
        if size > limits.max_file_bytes:
            raise UnreadableTraceError(name, f"file is {size:,} bytes, over the limit of {limits.max_file_bytes:,}")
        data = path.read_bytes()
    except OSError as err:
        raise UnreadableTraceError(name, f"cannot read: {err.strerror or err}") from None
    if not data.strip():
        raise UnreadableTraceError(name, "file is empty")
    if b"\x00" in data[:8192]:
        raise UnreadableTraceError(name, "binary content (NUL bytes), not a JSON trace")
    try:
        return data.decode("utf-8-sig")
    except UnicodeDecodeError as err:
        raise UnreadableTraceError(name, f"not UTF-8 text (byte {err.start})") from None


def _iter_documents(path: Path, text: str) -> Iterator[tuple[int | None, Any, TraceError | None]]:
    name = str(path)
    if path.suffix == ".jsonl":
        for number, raw in enumerate(text.splitlines(), start=1):
            if not raw.strip():
                continue
            try:
                yield number, json.loads(raw), None
            except json.JSONDecodeError as err:
                yield number, None, TraceFormatError(name, f"invalid JSON: {err.msg} (column {err.colno})",
                                                     line=number)
        return
    try:
        yield None, json.loads(text), None
    except json.JSONDecodeError as err:
        yield None, None, TraceFormatError(name, f"invalid JSON: {err.msg}", line=err.lineno,
                                           where=f"column {err.colno}")


def load_file(path: str | Path, *, format: str | None = None, limits: Limits | None = None) -> LoadResult:
    """Load every trace in one file. Errors are collected, not raised."""
    limits = limits or Limits()
    forced = get_format(format) if format else None
    path = Path(path)
    result = LoadResult(files=1)
    try:
        text = _read_text(path, limits)
    except TraceError as err:
        result.errors.append(err)
        return result
    for line, document, error in _iter_documents(path, text):
        if error is not None:
            result.errors.append(error)
            continue
        hint = path.stem if line is None else f"{path.stem}:{line}"
        try:
            result.traces.append(_document_to_trace(document, str(path), line, forced, limits, hint))
        except TraceError as err:
            result.errors.append(err)
    return result


def load_paths(paths: Iterable[str | Path], *, format: str | None = None,
               limits: Limits | None = None) -> LoadResult:
    """Load every trace file under ``paths``; bad files are reported in ``errors``."""
    if format:
        get_format(format)
    total = LoadResult()
    for path in find_trace_files(paths):
        one = load_file(path, format=format, limits=limits)
        total.traces.extend(one.traces)
        total.errors.extend(one.errors)
        total.files += 1
    return total
