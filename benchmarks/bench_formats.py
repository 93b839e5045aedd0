"""Import throughput and memory for the OTLP format on a large synthetic file. Prints its figures;
asserts nothing.

    python benchmarks/bench_formats.py [--megabytes 200] [--keep PATH]

The file is OTLP JSONL as the collector's file exporter writes it: one TracesData per line,
each line a batch of spans from several traces, so a trace's spans are spread over lines. Each
trace is a planner that hands off to a coder (``transfer_to_coder``), which runs tests and
reports back. The import runs in a fresh process, so its peak RSS is its own; it reads the file
with ``iter_paths`` (as ``audit`` does), building each trace's edges and letting it go.
"""

from __future__ import annotations

import argparse
import json
import random
import subprocess
import sys
import tempfile
import time
from pathlib import Path

FILLER = ("The delivery worker retries failed webhooks with exponential backoff; partners call "
          "handle_webhook(event, ctx) directly, so its signature stays fixed. ")


def _attrs(items: dict[str, object]) -> list[dict[str, object]]:
    return [{"key": k, "value": {"stringValue": v} if isinstance(v, str) else {"intValue": str(v)}}
            for k, v in items.items()]


def _trace_spans(n: int, rng: random.Random) -> list[dict[str, object]]:
    tid = f"{n:032x}"
    t0 = 1_700_000_000_000_000_000 + n * 10_000_000_000
    text = FILLER * rng.randint(2, 8)

    def span(k: int, name: str, parent: int | None, attrs: dict[str, object]) -> dict[str, object]:
        d: dict[str, object] = {"traceId": tid, "spanId": f"{n:08x}{k:08x}", "name": name, "kind": 1,
                                "startTimeUnixNano": str(t0 + k * 1000), "endTimeUnixNano": str(t0 + k * 1000 + 500),
                                "attributes": _attrs(attrs), "status": {"code": 0}}
        if parent is not None:
            d["parentSpanId"] = f"{n:08x}{parent:08x}"
        return d

    msgs = lambda role, content: json.dumps([{"role": role, "parts": [{"type": "text", "content": content}]}])  # noqa: E731
    return [
        span(1, "invoke_agent planner", None, {"gen_ai.operation.name": "invoke_agent", "gen_ai.agent.name": "planner",
                                               "gen_ai.input.messages": msgs("user", f"Ticket {n}: {text} You MUST NOT "
                                                                                     "change handle_webhook.")}),
        span(2, "chat", 1, {"gen_ai.operation.name": "chat",
                            "gen_ai.output.messages": msgs("assistant", f"Plan {n}: {text}")}),
        span(3, "execute_tool transfer_to_coder", 1, {"gen_ai.operation.name": "execute_tool",
                                                       "gen_ai.tool.name": "transfer_to_coder"}),
        span(4, "invoke_agent coder", 1, {"gen_ai.operation.name": "invoke_agent", "gen_ai.agent.name": "coder"}),
        span(5, "execute_tool bash", 4, {"gen_ai.operation.name": "execute_tool", "gen_ai.tool.name": "bash",
                                         "gen_ai.tool.call.arguments": "{\"command\": \"pytest -q\"}",
                                         "gen_ai.tool.call.result": f"{rng.randint(1, 99)} passed in 1.2s"}),
        span(6, "chat", 4, {"gen_ai.operation.name": "chat",
                            "gen_ai.output.messages": msgs("assistant", f"Done {n}: all tests pass. {text}")}),
    ]


def write_file(path: Path, megabytes: int, seed: int = 3) -> tuple[int, int]:
    rng = random.Random(seed)
    target = megabytes * 1024 * 1024
    written = spans = n = 0
    pending: list[dict[str, object]] = []
    with path.open("w", encoding="utf-8") as out:
        while written < target:
            pending.extend(_trace_spans(n, rng))
            n += 1
            if len(pending) >= 60:
                rng.shuffle(pending)  # a batch mixes spans of several traces, as a batch exporter does
                batch, pending = pending[:40], pending[40:]
                line = json.dumps({"resourceSpans": [{"resource": {"attributes": _attrs({"service.name": "bench"})},
                                                      "scopeSpans": [{"scope": {"name": "bench"}, "spans": batch}]}]})
                out.write(line + "\n")
                written += len(line) + 1
                spans += len(batch)
        if pending:
            line = json.dumps({"resourceSpans": [{"scopeSpans": [{"spans": pending}]}]})
            out.write(line + "\n")
            spans += len(pending)
    return spans, n


_CHILD = """
import resource, sys, time
from auditor.edges import build_edges
from auditor.trace import Limits, LoadedTrace, iter_paths
start = time.perf_counter()
traces = errors = edges = 0
for item in iter_paths([sys.argv[1]], limits=Limits(max_file_bytes=2**40)):
    if isinstance(item, LoadedTrace):
        traces += 1
        edges += len(build_edges(item.trace).edges)
    else:
        errors += 1
elapsed = time.perf_counter() - start
print(elapsed, traces, errors, edges, resource.getrusage(resource.RUSAGE_SELF).ru_maxrss)
"""


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--megabytes", type=int, default=200)
    parser.add_argument("--keep", type=Path, help="write the synthetic file here and keep it")
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as tmp:
        path = args.keep or Path(tmp) / "otlp.jsonl"
        start = time.perf_counter()
        spans, traces = write_file(path, args.megabytes)
        size = path.stat().st_size
        print(f"synthetic OTLP JSONL: {size / 2**20:.0f} MiB, {spans:,} spans, {traces:,} traces "
              f"(written in {time.perf_counter() - start:.1f} s)")
        out = subprocess.run([sys.executable, "-c", _CHILD, str(path)], capture_output=True, text=True, check=True)
        elapsed, loaded, errors, edges, rss_kib = out.stdout.split()
        seconds = float(elapsed)
        print(f"import: {seconds:.1f} s, {spans / seconds:,.0f} spans/s, {size / 2**20 / seconds:.1f} MiB/s; "
              f"{int(loaded):,} traces, {int(errors)} errors, {int(edges):,} edges")
        print(f"peak RSS of the importing process: {int(rss_kib) / 1024:.0f} MiB "
              f"({int(rss_kib) * 1024 / size:.2f}x the file size)")


if __name__ == "__main__":
    main()
