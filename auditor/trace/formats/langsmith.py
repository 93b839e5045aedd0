"""LangSmith runs: a JSON array of run objects, or JSONL with one run per line (as
``client.list_runs`` returns them). Fields read: ``id``, ``trace_id``, ``parent_run_id``,
``dotted_order`` (execution order), ``name``, ``run_type``, ``inputs``, ``outputs``, ``error``,
``start_time`` and ``extra.metadata.langgraph_node``.

* A ``chain`` run whose name equals its ``langgraph_node`` is an agent span (a LangGraph node);
  the nodes ``__start__``, ``__end__``, ``tools``, and the inner ``agent``/``call_model`` node
  of a prebuilt ReAct agent subgraph, are structure, not agents.
* ``llm`` runs are LLM spans: ``inputs.messages`` (LangChain-serialised or ``{role, content}``)
  and ``outputs.generations[..].message`` (with ``tool_calls``) or ``.text``.
* ``tool`` runs are tool calls (``inputs`` as arguments, ``outputs.output`` as result, ``error``
  as failure). Tool runs named ``transfer_to_<agent>`` or ``transfer_back_to_<supervisor>``
  are handoffs.

Runs group into traces by ``trace_id`` and edges follow the rules in ``_spans``.
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator
from typing import Any

from ...errors import TraceError, TraceValidationError
from .._model import Trace
from ._registry import BY_KEY, Record, TraceFormat, register_format
from ._span_model import Msg, Span, ToolCallPart, iso_seconds, set_usage, text_of
from ._spans import trace_or_error

_STRUCTURE_NODES = frozenset({"__start__", "__end__", "tools", "agent", "call_model"})
_ROLES = {"HumanMessage": "user", "human": "user", "AIMessage": "assistant", "ai": "assistant",
          "SystemMessage": "system", "system": "system", "ToolMessage": "tool", "tool": "tool"}



def _message(raw: Any) -> Msg | None:
    if not isinstance(raw, dict):
        return None
    kwargs = raw.get("kwargs") if raw.get("lc") else raw
    if not isinstance(kwargs, dict):
        return None
    kind = raw["id"][-1] if raw.get("lc") and isinstance(raw.get("id"), list) else (raw.get("type") or raw.get("role"))
    role = _ROLES.get(str(kind), str(kind or ""))
    content = kwargs.get("content")
    text = content if isinstance(content, str) else "\n".join(
        str(p.get("text", "")) for p in content or [] if isinstance(p, dict) and p.get("text"))
    calls = tuple(ToolCallPart(c.get("id"), str(c.get("name", "")), c.get("args"))
                  for c in kwargs.get("tool_calls") or [] if isinstance(c, dict))
    return Msg(role, text, calls)


def _input_messages(inputs: Any) -> list[Msg]:
    raw = inputs.get("messages") if isinstance(inputs, dict) else None
    flat = [m for group in raw for m in (group if isinstance(group, list) else [group])] if isinstance(raw, list) else []
    return [m for m in (_message(x) for x in flat) if m is not None]


def _output_messages(outputs: Any) -> list[Msg]:
    out: list[Msg] = []
    for group in (outputs or {}).get("generations", []) if isinstance(outputs, dict) else []:
        for gen in group if isinstance(group, list) else [group]:
            if not isinstance(gen, dict):
                continue
            msg = _message(gen.get("message")) if gen.get("message") else None
            out.append(msg if msg is not None else Msg("assistant", str(gen.get("text", ""))))
    return out


def _span(run: dict[str, Any], seq: int) -> Span:
    run_id = run.get("id")
    if not isinstance(run_id, str) or not run_id:
        raise ValueError("run has no id")
    run_type = run.get("run_type")
    name = str(run.get("name", ""))
    node = ((run.get("extra") or {}).get("metadata") or {}).get("langgraph_node")
    span = Span(span_id=run_id, parent_id=run.get("parent_run_id") or None, name=name, kind="other",
                start=iso_seconds(run.get("start_time")), end=iso_seconds(run.get("end_time")) or None, seq=seq,
                error=bool(run.get("error")))
    if run_type == "chain" and node and node == name and node not in _STRUCTURE_NODES:
        span.kind, span.agent = "agent", node
        span.inputs = _input_messages(run.get("inputs"))
    elif run_type in ("llm", "chat_model"):
        span.kind = "llm"
        span.inputs, span.outputs = _input_messages(run.get("inputs")), _output_messages(run.get("outputs"))
        model = ((run.get("extra") or {}).get("metadata") or {}).get("ls_model_name")
        span.model = model if isinstance(model, str) else None
        set_usage(span, run.get("prompt_tokens"), run.get("completion_tokens"), run.get("total_tokens"))
    elif run_type == "tool":
        span.kind, span.tool_name = "tool", name
        inputs = run.get("inputs")
        span.arguments = inputs.get("input", inputs) if isinstance(inputs, dict) and len(inputs) == 1 else inputs
        outputs = run.get("outputs")
        result = outputs.get("output", outputs) if isinstance(outputs, dict) else outputs
        if isinstance(result, dict) and "content" in result:
            result = result["content"]
        span.result = text_of(result) if result is not None else None
        if run.get("error"):
            span.result = ((span.result + "\n") if span.result else "") + f"error: {run['error']}"
    return span


def _detect(document: Any) -> bool:
    return isinstance(document, dict) and "run_type" in document and "id" in document


def _records(records: Iterable[Record], path: str, name_hint: str) -> Iterator[Trace | TraceError]:
    runs: dict[str, list[tuple[str, Span]]] = {}
    for seq, (line, run) in enumerate(records):
        where = f"run {run.get('id', '?')}" if isinstance(run, dict) else None
        if not _detect(run):
            yield TraceValidationError(path, "not a LangSmith run (needs id and run_type)", line=line, where=where)
            continue
        trace_id = run.get("trace_id") or run.get("id")
        try:
            runs.setdefault(str(trace_id), []).append((str(run.get("dotted_order") or ""), _span(run, seq)))
        except (ValueError, TypeError, AttributeError) as err:
            yield TraceValidationError(path, f"malformed run: {err}", line=line, where=where)
    for trace_id, items in runs.items():
        ordered = sorted(items, key=lambda item: (item[0], item[1].seq))
        for position, (_, span) in enumerate(ordered):
            span.seq = position
            if ordered[0][0]:
                span.started_at, span.start = span.start, 0.0
        yield trace_or_error(path, trace_id, [span for _, span in ordered], {"source": "langsmith"})


LANGSMITH = register_format(TraceFormat(
    name="langsmith", registry_name="edge-audit.format.langsmith.v1", detect=_detect, records=_records,
    description="LangSmith runs (JSON array or JSONL): run_type, parent_run_id, dotted_order, LangGraph nodes",
    priority=BY_KEY,
))
