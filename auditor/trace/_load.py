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
from ._json import JsonLimitError, loads
from ._model import Message, ToolCall, Trace
from .formats import Record, TraceFormat, all_formats, detect_format, get_format

TRACE_SUFFIXES = (".json", ".jsonl")


@dataclass(frozen=True)
class Limits:
    """Input guards. Exceeding one is a clear per-file error, never a crash."""

    max_file_bytes: int = 256 * 1024 * 1024
    max_text_chars: int = 2_000_000
    max_name_chars: int = 4_096


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
            try:
                found.extend(sorted(p for p in path.rglob("*") if p.is_file() and p.suffix in TRACE_SUFFIXES))
            except OSError as err:
                raise UsageError(f"{path}: cannot list the folder: {err.strerror or err}") from None
        elif path.is_file():
            found.append(path)
        elif path.exists():
            raise UsageError(f"{path}: not a regular file or folder (a FIFO, socket or device is never read)")
        else:
            raise UsageError(f"{path}: no such file or directory")
    return found


def _validation_message(err: ValidationError) -> tuple[str, str]:
    first = err.errors()[0]
    where = "".join(f"[{part}]" if isinstance(part, int) else f".{part}" for part in first["loc"]).lstrip(".")
    extra = f" (and {err.error_count() - 1} more)" if err.error_count() > 1 else ""
    return where, f"{first['msg']}{extra}"


def _check_text_sizes(trace: Trace, path: str, line: int | None, limits: Limits) -> None:
    """Every text within ``max_text_chars`` (structured parts and tool arguments as JSON), and
    every id and agent name within ``max_name_chars``."""
    def check(where: str, text: str | None, limit: int, what: str = "text") -> None:
        if text is not None and len(text) > limit:
            raise TraceValidationError(path, f"{what} of {len(text):,} characters exceeds the limit of {limit:,}",
                                       line=line, where=where)

    def as_text(value: object) -> str | None:
        return None if value is None else value if isinstance(value, str) else json.dumps(value, default=str)

    names = limits.max_name_chars
    check("trace_id", trace.trace_id, names, "id")
    for index, agent in enumerate(trace.agents):
        check(f"agents[{index}].name", agent.name, names, "name")
        check(f"agents[{index}].system_prompt", agent.system_prompt, limits.max_text_chars)
    for index, event in enumerate(trace.events):
        check(f"events[{index}].id", event.id, names, "id")
        if isinstance(event, Message):
            check(f"events[{index}].sender", event.sender, names, "name")
            for r, recipient in enumerate(event.recipients if isinstance(event.recipients, list) else ()):
                check(f"events[{index}].recipients[{r}]", recipient, names, "name")
            check(f"events[{index}].content", event.content, limits.max_text_chars)
            check(f"events[{index}].structured", as_text(event.structured), limits.max_text_chars)
        elif isinstance(event, ToolCall):
            check(f"events[{index}].agent", event.agent, names, "name")
            check(f"events[{index}].tool", event.tool, names, "name")
            check(f"events[{index}].result", event.result, limits.max_text_chars)
            check(f"events[{index}].arguments", as_text(event.arguments), limits.max_text_chars)
    for index, call in enumerate(trace.llm_calls):
        for key in ("id", "agent", "name", "model"):
            check(f"llm_calls[{index}].{key}", getattr(call, key), names, "id" if key == "id" else "name")


def _finish(trace: Trace, path: str, line: int | None, fmt: TraceFormat, limits: Limits) -> LoadedTrace:
    _check_text_sizes(trace, path, line, limits)
    return LoadedTrace(trace=trace, path=path, line=line, format=fmt.name)


def _choose_format(document: Any, path: str, line: int | None, forced: TraceFormat | None,
                   where: str | None = None) -> TraceFormat:
    where = where if line is None else None
    if not isinstance(document, dict):
        raise TraceFormatError(path, f"expected a JSON object, got {type(document).__name__}", line=line, where=where)
    fmt = forced or detect_format(document)
    if fmt is None:
        known = ", ".join(f.name for f in all_formats())
        raise TraceFormatError(path, f"unknown trace format (known: {known}); use --format to force one", line=line,
                               where=where)
    if forced is not None and not forced.detect(document):
        raise TraceFormatError(path, f"content does not look like the forced format {forced.name!r}", line=line,
                               where=where)
    return fmt


def _document_to_trace(document: Any, path: str, line: int | None, fmt: TraceFormat, limits: Limits,
                       name_hint: str) -> LoadedTrace:
    assert fmt.convert is not None
    try:
        trace = fmt.convert(document, name_hint)
    except ValidationError as err:
        where, reason = _validation_message(err)
        raise TraceValidationError(path, f"invalid {fmt.name} trace: {reason}", line=line,
                                   where=where or (None if line is not None else "document")) from None
    except (ValueError, TypeError, AttributeError, KeyError) as err:
        raise TraceValidationError(path, f"invalid {fmt.name} trace: {_short(str(err))}", line=line,
                                   where=None if line is not None else "document") from None
    return _finish(trace, path, line, fmt, limits)


def _check_size(path: Path, limits: Limits) -> None:
    try:
        size = path.stat().st_size
    except OSError as err:
        raise UnreadableTraceError(str(path), f"cannot read: {err.strerror or err}") from None
    if size > limits.max_file_bytes:
        raise UnreadableTraceError(str(path), f"file is {size:,} bytes, over the limit of {limits.max_file_bytes:,}")


def _read_text(path: Path, limits: Limits) -> str:
    name = str(path)
    _check_size(path, limits)
    try:
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


def _jsonl_records(path: Path, limits: Limits, errors: list[TraceError]) -> Iterator[Record]:
    """The records of a JSONL file, read one line at a time (never the whole file at once), so
    ``max_file_bytes`` bounds each line rather than the file. A bad line is an error in
    ``errors``; the lines after it are still read."""
    name = str(path)
    try:
        handle = path.open("rb")
    except OSError as err:
        raise UnreadableTraceError(name, f"cannot read: {err.strerror or err}") from None
    seen_any = False
    with handle:
        if b"\x00" in handle.peek(8192)[:8192]:
            raise UnreadableTraceError(name, "binary content (NUL bytes), not a JSON trace")
        for number, raw in enumerate(handle, start=1):
            if not raw.strip():
                continue
            seen_any = True
            if len(raw) > limits.max_file_bytes:
                errors.append(UnreadableTraceError(name, f"line of {len(raw):,} bytes is over the limit of "
                                                         f"{limits.max_file_bytes:,}", line=number))
                continue
            try:
                text = raw.decode("utf-8-sig" if number == 1 else "utf-8")
            except UnicodeDecodeError as err:
                errors.append(UnreadableTraceError(name, f"not UTF-8 text (byte {err.start})", line=number))
                continue
            try:
                yield number, loads(text)
            except json.JSONDecodeError as err:
                errors.append(TraceFormatError(name, f"invalid JSON: {err.msg} (column {err.colno})", line=number))
            except JsonLimitError as err:
                errors.append(TraceFormatError(name, f"refused: {err}", line=number))
    if not seen_any:
        raise UnreadableTraceError(name, "file is empty")


def _json_records(path: Path, limits: Limits) -> Iterator[Record]:
    """The records of a ``.json`` file: its items if it is an array, else the document. Each is
    handed over without a reference kept here, so a trace's raw JSON is freed once it is converted
    (it is several times the size of the trace)."""
    text = _read_text(path, limits)
    try:
        document = loads(text)
    except json.JSONDecodeError as err:
        raise TraceFormatError(str(path), f"invalid JSON: {err.msg}", line=err.lineno,
                               where=f"column {err.colno}") from None
    except JsonLimitError as err:
        raise TraceFormatError(str(path), f"refused: {err}", where="document") from None
    del text
    if isinstance(document, list):
        if not document:
            raise UnreadableTraceError(str(path), "file holds an empty JSON array")
        document.reverse()
        while document:
            yield None, document.pop()
        return
    cell = [document]
    del document
    yield None, cell.pop()


Loaded = LoadedTrace | TraceError


def iter_file(path: str | Path, *, format: str | None = None, limits: Limits | None = None) -> Iterator[Loaded]:
    """Every trace in one file, and every error, as they are read: a JSONL file is read one
    line at a time, and a record format hands over each trace once it is complete, so the
    whole file is never held at once. Errors are yielded, never raised: an importer that
    fails in a way it did not foresee becomes a ``TraceValidationError`` naming the file and
    the last record read, and the other files still load."""
    limits = limits or Limits()
    forced = get_format(format) if format else None
    path = Path(path)
    place = _Place()
    found = 0
    try:
        for item in _iter_file(path, forced, limits, place):
            found += 1
            yield item
        if not found:
            yield TraceValidationError(str(path), "the file holds no trace (no spans, runs, messages or events)",
                                       where="document")
    except Exception as err:  # noqa: BLE001 - the safety net: a bad file never stops the run
        reason = f"the importer failed on this input ({type(err).__name__}: {_short(str(err))})"
        yield TraceValidationError(str(path), reason, line=place.line, where=place.where())


@dataclass
class _Place:
    """The last record handed to an importer, for errors nothing else placed."""

    line: int | None = None
    index: int | None = None

    def where(self) -> str:
        if self.line is not None:
            return "record on this line"
        return "document" if self.index is None else f"record [{self.index}]"


def _short(text: str, limit: int = 200) -> str:
    return text if len(text) <= limit else text[: limit - 1] + "…"


def _tracked(records: Iterator[Record], place: _Place) -> Iterator[Record]:
    """``records``, noting in ``place`` where each comes from (and keeping none of them)."""
    index = 0
    while (record := next(records, None)) is not None:
        place.line, place.index = record[0], index
        index += 1
        cell = [record]
        del record
        yield cell.pop()


def _prepend(first: list[Record], rest: Iterator[Record]) -> Iterator[Record]:
    """The record in ``first`` (taken out of it), then ``rest``."""
    yield first.pop()
    yield from rest


def _iter_file(path: Path, forced: TraceFormat | None, limits: Limits, place: _Place) -> Iterator[Loaded]:
    name = str(path)
    pending: list[TraceError] = []
    try:
        records: Iterator[Record] = _tracked(_jsonl_records(path, limits, pending) if path.suffix == ".jsonl"
                                             else _json_records(path, limits), place)
        first = next(records, None)
    except TraceError as err:
        yield from pending
        yield err
        return
    if first is None:
        yield from pending
        return
    try:
        fmt: TraceFormat | None = _choose_format(first[1], name, first[0], forced, place.where())
    except TraceError as err:
        pending.append(err)
        fmt = None
        if path.suffix != ".jsonl":
            yield from pending
            return
    held, first = [first], None  # the first record is passed on, not kept here
    if fmt is not None and fmt.records is not None:
        try:
            for item in fmt.records(_prepend(held, records), name, path.stem):
                yield from _drain(pending)
                if isinstance(item, TraceError):
                    yield _placed(item, place)
                    continue
                try:
                    yield _finish(item, name, None, fmt, limits)
                except TraceError as err:
                    yield err
        except TraceError as err:
            pending.append(err)
        yield from _drain(pending)
        return
    remaining = records if fmt is None else _prepend(held, records)
    while (record := next(remaining, None)) is not None:
        line, document = record
        record = None
        yield from _drain(pending)
        hint = path.stem if line is None else f"{path.stem}:{line}"
        try:
            one = fmt if (fmt is not None and line is None) else _choose_format(document, name, line, forced,
                                                                                place.where())
            if one.convert is None:
                raise TraceFormatError(name, f"a {one.name} record among records of another format", line=line)
            loaded = _document_to_trace(document, name, line, one, limits, hint)
            document = None
            yield loaded
        except TraceError as err:
            yield err
        except Exception as err:  # noqa: BLE001 - one bad record never stops the others
            place.line = line
            yield TraceValidationError(name, f"the importer failed on this input ({type(err).__name__}: "
                                             f"{_short(str(err))})", line=line, where=place.where())
    yield from _drain(pending)


def _placed(error: TraceError, place: _Place) -> TraceError:
    """An importer's error that names no place gets the record being read when it was raised."""
    if error.line is None and not error.where:
        error.where = place.where()
        error.args = (error.describe(),)
    return error


def _drain(pending: list[TraceError]) -> Iterator[TraceError]:
    while pending:
        yield pending.pop(0)


def iter_paths(paths: Iterable[str | Path], *, format: str | None = None, limits: Limits | None = None,
               files: list[Path] | None = None) -> Iterator[Loaded]:
    """Every trace and error under ``paths``, lazily. ``files``, when given, receives the trace
    files found (before any is read)."""
    if format:
        get_format(format)
    found = find_trace_files(paths)
    if files is not None:
        files.extend(found)
    for path in found:
        yield from iter_file(path, format=format, limits=limits)


def _collect(items: Iterable[Loaded], files: int) -> LoadResult:
    result = LoadResult(files=files)
    for item in items:
        if isinstance(item, TraceError):
            result.errors.append(item)
        else:
            result.traces.append(item)
    return result


def load_file(path: str | Path, *, format: str | None = None, limits: Limits | None = None) -> LoadResult:
    """Load every trace in one file. Errors are collected, not raised."""
    return _collect(iter_file(path, format=format, limits=limits), 1)


def load_paths(paths: Iterable[str | Path], *, format: str | None = None,
               limits: Limits | None = None) -> LoadResult:
    """Load every trace file under ``paths``; bad files are reported in ``errors``."""
    files: list[Path] = []
    items = list(iter_paths(paths, format=format, limits=limits, files=files))
    return _collect(items, len(files))
