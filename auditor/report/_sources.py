"""The whole texts the findings quote, for the HTML report's side-by-side view.

The report holds quotes (a span and its text), not the traces. To show a quote in its message,
the report's trace files are read again and, for every field a finding quotes, its whole text is
kept, but only when every quote of that field still matches it (``text[start:end]``, but for
whitespace at its ends): a file that changed since the audit shows its quotes alone, never
misplaced. With ``redact``, the texts
are masked like the report (every secret found in the report or the texts is masked in all of
them, character for character, so the spans hold).
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator

from .._upstream import UpstreamItem
from ..edges import Quote, event_texts
from ..redact import redact_together, strings_in
from ..trace import Limits, Message, ToolCall, Trace, iter_paths
from ._model import Report

#: (trace file, trace id, event id, field) of one text field.
TextKey = tuple[str, str, str, str]


def _fields(trace: Trace) -> Iterator[tuple[str, str, str]]:
    """(event id, field, text) of every text of ``trace`` a quote can point at, with the names
    the checks give them: contents and structured constraints, system prompts, tool calls."""
    for agent in trace.agents:
        if agent.system_prompt:
            yield f"system:{agent.name}", "system_prompt", agent.system_prompt
    for event in trace.events:
        if isinstance(event, Message):
            for item in event_texts(trace.trace_id, event.id, "content", event.content, event.structured):
                yield item.event_id, item.field, item.text
        elif isinstance(event, ToolCall):
            yield from UpstreamItem("tool_call", event.id, event.agent, "", tool_call=event).fields()


def _quotes(report: Report) -> dict[TextKey, list[Quote]]:
    edges = {e.id: (e.path, e.trace_id) for e in report.edges}
    wanted: dict[TextKey, list[Quote]] = {}
    for finding in report.deterministic.findings:
        if finding.edge_id not in edges:
            continue
        path, trace_id = edges[finding.edge_id]
        quotes = [*([finding.upstream] if finding.upstream else []), *finding.handoff, *finding.mentions]
        for q in quotes:
            wanted.setdefault((path, trace_id, q.event_id, q.field), []).append(q)
    return wanted


def _matches(text: str, quote: Quote) -> bool:
    """Whether ``quote`` is still ``text[start:end]`` (but for whitespace at its ends, which
    some spans include and their text does not)."""
    return text[quote.start:quote.end].strip() == quote.text.strip()


def quoted_texts(report: Report, *, format: str | None = None, limits: Limits | None = None,
                 redact: bool = False) -> dict[TextKey, str]:
    """The whole text of every field the deterministic findings of ``report`` (not redacted)
    quote, read again from its trace files; fields whose quotes no longer match are left out."""
    wanted = _quotes(report)
    paths = sorted({key[0] for key in wanted})
    texts: dict[TextKey, str] = {}
    for item in iter_paths(paths, format=format, limits=limits):
        if isinstance(item, Exception):
            continue
        for event_id, field, text in _fields(item.trace):
            key = (item.path, item.trace.trace_id, event_id, field)
            if key in wanted and all(_matches(text, q) for q in wanted[key]):
                texts[key] = text
    if redact:
        texts = redact_texts(texts, strings_in(report.model_dump(mode="json")))
    return texts


def redact_texts(texts: dict[TextKey, str], report_strings: Iterable[str]) -> dict[TextKey, str]:
    """``texts`` with every secret masked that is found in them or in ``report_strings`` (the
    report's strings before redaction): a secret recognised anywhere is masked everywhere."""
    keys = list(texts)
    return dict(zip(keys, redact_together([texts[k] for k in keys], report_strings), strict=True))
