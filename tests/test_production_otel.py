"""OTel out (issue 16, item 4): findings as gen_ai.evaluation.result events, read back."""

from __future__ import annotations

import json
import subprocess
import sys
import threading
from collections.abc import Iterator
from http.server import BaseHTTPRequestHandler, HTTPServer
from pathlib import Path

import pytest
from conftest import EXAMPLES, FIXTURES, ROOT

from auditor import audit
from auditor.errors import ExportError
from auditor.production import post_otlp_logs, read_evaluation_results, to_otlp_logs

OTLP_INPUT = FIXTURES / "formats" / "otlp-genai-incident.jsonl"


def _input_ids(path: Path) -> tuple[set[str], set[str]]:
    traces, spans = set(), set()
    for line in path.read_text().splitlines():
        for resource in json.loads(line).get("resourceSpans", []):
            for scope in resource.get("scopeSpans", []):
                for span in scope.get("spans", []):
                    traces.add(span["traceId"])
                    spans.add(span["spanId"])
    return traces, spans


def test_round_trip_each_finding_is_an_event_on_the_audited_span(tmp_path: Path) -> None:
    out = tmp_path / "results" / "evals.jsonl"
    code = subprocess.run([sys.executable, "-m", "auditor", "run", str(OTLP_INPUT), "--quiet", "--otlp-out", str(out)],
                          cwd=ROOT, capture_output=True).returncode
    assert code == 1  # the incident fails, and the events are written all the same
    records = read_evaluation_results(out.read_text())
    report = audit([OTLP_INPUT])
    findings = report.deterministic.findings
    assert len(records) == len(findings) + len(report.semantic.findings)
    traces, spans = _input_ids(OTLP_INPUT)
    edges = {e.id: e for e in report.edges}
    for record, finding in zip(records, findings, strict=False):
        assert record["gen_ai.evaluation.name"] == finding.check
        assert record["gen_ai.evaluation.score.label"] == finding.status
        assert record["gen_ai.evaluation.explanation"] == finding.summary
        assert record["edge_audit.verdict"] == finding.verdict and record["edge_audit.finding.id"] == finding.id
        assert record["traceId"] in traces
        if edges[finding.edge_id].kind == "message":  # a handoff message: on the span it came from
            assert record["spanId"] in spans and edges[finding.edge_id].event_id.startswith(record["spanId"])
        else:  # a rule over the whole trace is on the trace; one about a span, on that span
            assert record["spanId"] is None or record["spanId"] in spans
    softened = next(r for r in records if r["edge_audit.verdict"] == "softened")
    assert (softened["gen_ai.evaluation.score.value"], softened["severityText"]) == (0.0, "ERROR")
    assert softened["edge_audit.route"] == "planner->coder"
    semantic = [r for r in records if r["edge_audit.layer"] == "semantic"]
    assert all(r["error.type"] == "llm_off" and "gen_ai.evaluation.score.value" not in r for r in semantic)


def test_a_trace_without_otel_ids_gets_no_invented_ones() -> None:
    report = audit([EXAMPLES / "claims-green-after-red.json"])
    records = read_evaluation_results(to_otlp_logs(report))
    assert records and all(r["traceId"] is None and r["spanId"] is None for r in records)
    assert {r["edge_audit.trace.id"] for r in records} == {"claims-green-after-red"}
    assert to_otlp_logs(report) == to_otlp_logs(audit([EXAMPLES / "claims-green-after-red.json"]))


class _Collector(BaseHTTPRequestHandler):
    bodies: list[bytes] = []
    status = 200

    def do_POST(self) -> None:  # noqa: N802 - the http.server hook's name
        length = int(self.headers["Content-Length"])
        type(self).bodies.append(self.rfile.read(length))
        self.send_response(type(self).status)
        self.end_headers()

    def log_message(self, *args: object) -> None:
        return None


@pytest.fixture
def collector() -> Iterator[tuple[str, type[_Collector]]]:
    handler = type("Collector", (_Collector,), {"bodies": [], "status": 200})
    server = HTTPServer(("127.0.0.1", 0), handler)
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    yield f"http://127.0.0.1:{server.server_port}/v1/logs", handler
    server.shutdown()
    server.server_close()


def test_a_url_gets_the_same_events_by_http_post_in_batches(collector: tuple[str, type[_Collector]],
                                                            monkeypatch: pytest.MonkeyPatch) -> None:
    import auditor.production._otel as otel

    url, handler = collector
    report = audit([OTLP_INPUT])
    monkeypatch.setattr(otel, "BATCH", 2)
    sent = post_otlp_logs(report, url)
    assert sent == len(read_evaluation_results(to_otlp_logs(report)))
    assert len(handler.bodies) == -(-sent // 2)
    received = [r for body in handler.bodies for r in read_evaluation_results(body.decode())]
    assert received == read_evaluation_results(to_otlp_logs(report))


def test_a_collector_that_refuses_is_an_export_error(collector: tuple[str, type[_Collector]]) -> None:
    url, handler = collector
    handler.status = 500
    with pytest.raises(ExportError, match="HTTP 500"):
        post_otlp_logs(audit([OTLP_INPUT]), url)
