"""Findings out as OpenTelemetry ``gen_ai.evaluation.result`` events (GenAI semantic
conventions), written as OTLP/JSON logs to a file or POSTed to an OTLP/HTTP collector.

Each finding, deterministic or semantic, is one log record with ``eventName``
``gen_ai.evaluation.result`` and these attributes:

* ``gen_ai.evaluation.name``: the check or grader (``edge-audit.constraints.v1``);
* ``gen_ai.evaluation.score.label``: the status (``pass``, ``warn``, ``fail``, ``unmeasured``);
* ``gen_ai.evaluation.score.value``: 1.0 pass, 0.5 warn, 0.0 fail; none when unmeasured;
* ``gen_ai.evaluation.explanation``: the finding's summary, or the grader's reason;
* ``error.type``: why a semantic item has no verdict (``cassette_miss``, ``budget_exhausted`` …);
* ``edge_audit.*``: trace, edge, route, event, finding id, verdict and layer
  (``deterministic`` or ``semantic``), so that a result can be found in the report.

The record is attached to the audited span where the input had one: its ``traceId`` is the
trace's when that is an OTel trace id (32 hex digits, as the OTLP importer keeps it), and its
``spanId`` the span the handoff message came from (the OTLP importer names events
``<spanId>:in``, ``<spanId>:handoff``, ``<spanId>:outN``). No time is set: the records are the
same on every run (a collector stamps ``observedTimeUnixNano`` on receipt).
"""

from __future__ import annotations

import json
import re
import urllib.error
import urllib.request
from collections.abc import Iterator, Mapping
from pathlib import Path
from typing import Any

from .._version import __version__
from ..errors import ExportError
from ..report import EdgeModel, Report

EVENT_NAME = "gen_ai.evaluation.result"
SCORES = {"pass": 1.0, "warn": 0.5, "fail": 0.0}
_SEVERITY = {"pass": (9, "INFO"), "unmeasured": (9, "INFO"), "warn": (13, "WARN"), "fail": (17, "ERROR")}
_TRACE_ID = re.compile(r"^[0-9a-f]{32}$")
_SPAN_ID = re.compile(r"^([0-9a-f]{16})(?::|$)")
#: Records per HTTP request.
BATCH = 1000


def _value(value: str | float | int) -> dict[str, Any]:
    if isinstance(value, float):
        return {"doubleValue": value}
    if isinstance(value, int):
        return {"intValue": str(value)}
    return {"stringValue": value}


def _attributes(values: Mapping[str, str | float | int | None]) -> list[dict[str, Any]]:
    return [{"key": k, "value": _value(v)} for k, v in values.items() if v is not None]


def _record(edge: EdgeModel | None, *, name: str, status: str, verdict: str, explanation: str, finding_id: str,
            edge_id: str, layer: str, error: str | None = None) -> dict[str, Any]:
    severity, text = _SEVERITY.get(status, (9, "INFO"))
    record: dict[str, Any] = {"severityNumber": severity, "severityText": text, "eventName": EVENT_NAME}
    if edge is not None and _TRACE_ID.match(edge.trace_id):
        record["traceId"] = edge.trace_id
        span = _SPAN_ID.match(edge.event_id)
        if span:
            record["spanId"] = span.group(1)
    record["attributes"] = _attributes({
        "gen_ai.evaluation.name": name,
        "gen_ai.evaluation.score.label": status,
        "gen_ai.evaluation.score.value": SCORES.get(status),
        "gen_ai.evaluation.explanation": explanation,
        "error.type": error,
        "edge_audit.trace.id": edge.trace_id if edge else None,
        "edge_audit.edge.id": edge_id,
        "edge_audit.route": f"{edge.source}->{edge.destination}" if edge else None,
        "edge_audit.event.id": edge.event_id if edge else None,
        "edge_audit.finding.id": finding_id,
        "edge_audit.verdict": verdict,
        "edge_audit.layer": layer,
    })
    return record


def evaluation_records(report: Report) -> Iterator[dict[str, Any]]:
    """One OTLP log record per finding: the deterministic ones, then the semantic ones."""
    edges = {e.id: e for e in report.edges}
    for f in report.deterministic.findings:
        yield _record(edges.get(f.edge_id), name=f.check, status=f.status, verdict=f.verdict, explanation=f.summary,
                      finding_id=f.id, edge_id=f.edge_id, layer="deterministic")
    for g in report.semantic.findings:
        yield _record(edges.get(g.edge_id), name=g.grader, status=g.status, verdict=g.verdict, explanation=g.reason,
                      finding_id=g.finding_id, edge_id=g.edge_id, layer="semantic",
                      error=g.unmeasured_reason if g.status == "unmeasured" else None)


def logs_document(records: list[dict[str, Any]]) -> dict[str, Any]:
    """An OTLP ``ExportLogsServiceRequest`` (JSON encoding) holding ``records``."""
    return {"resourceLogs": [{
        "resource": {"attributes": _attributes({"service.name": "edge-audit"})},
        "scopeLogs": [{"scope": {"name": "edge-audit", "version": __version__}, "logRecords": records}],
    }]}


def to_otlp_logs(report: Report) -> str:
    """The report's findings as one OTLP/JSON logs document on one line (a JSONL file of one
    request, as the collector's file exporter writes)."""
    return json.dumps(logs_document(list(evaluation_records(report))), ensure_ascii=False,
                      separators=(",", ":")) + "\n"


def post_otlp_logs(report: Report, url: str, *, timeout: float = 30.0, headers: Mapping[str, str] | None = None) -> int:
    """POST the findings to an OTLP/HTTP logs endpoint (``http://collector:4318/v1/logs``) as
    JSON, in batches; return how many records were sent. A refused or failed request is an
    ``ExportError``."""
    records = list(evaluation_records(report))
    for start in range(0, len(records), BATCH):
        body = json.dumps(logs_document(records[start:start + BATCH]), ensure_ascii=False).encode("utf-8")
        request = urllib.request.Request(url, data=body, method="POST",
                                         headers={"Content-Type": "application/json", **(headers or {})})
        try:
            with urllib.request.urlopen(request, timeout=timeout) as response:  # noqa: S310 - the user's URL
                if response.status // 100 != 2:
                    raise ExportError(f"{url}: the collector answered HTTP {response.status}")
        except urllib.error.HTTPError as err:
            raise ExportError(f"{url}: the collector answered HTTP {err.code}") from None
        except (urllib.error.URLError, OSError) as err:
            raise ExportError(f"{url}: cannot send the results: {getattr(err, 'reason', err)}") from None
    return len(records)


def write_otlp(report: Report, target: str) -> int:
    """``--otlp-out``: POST to an ``http(s)://`` URL, else write the file; return the records."""
    if target.startswith(("http://", "https://")):
        return post_otlp_logs(report, target)
    text = to_otlp_logs(report)
    path = Path(target)
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(text, encoding="utf-8")
    except OSError as err:
        raise ExportError(f"{path}: cannot write the results: {err.strerror or err}") from None
    return len(report.deterministic.findings) + len(report.semantic.findings)


def read_evaluation_results(text: str) -> list[dict[str, Any]]:
    """Parse OTLP/JSON logs (one document, or JSONL of them) back into flat records: the
    ``gen_ai.evaluation.result`` events with their trace and span ids and attributes."""
    try:
        documents = [json.loads(text)]
    except json.JSONDecodeError:
        documents = [json.loads(line) for line in text.splitlines() if line.strip()]
    out = []
    for document in documents:
        for resource in document.get("resourceLogs", []):
            for scope in resource.get("scopeLogs", []):
                for record in scope.get("logRecords", []):
                    if record.get("eventName") != EVENT_NAME:
                        continue
                    attributes = {a["key"]: _decode(a["value"]) for a in record.get("attributes", [])}
                    out.append({"traceId": record.get("traceId"), "spanId": record.get("spanId"),
                                "severityText": record.get("severityText"), **attributes})
    return out


def _decode(value: Mapping[str, Any]) -> Any:
    if "doubleValue" in value:
        return float(value["doubleValue"])
    if "intValue" in value:
        return int(value["intValue"])
    return value.get("stringValue")
