"""Throughput of the deterministic audit for 1 and 2 worker processes (and, with ``--ray``, a
local Ray), in traces/s, edges/s and MB/s of trace files, for the README's sizing plan.

    python benchmarks/throughput.py [PATH...] [--workers 1,2] [--ray] [--repeat 1]

PATH defaults to the shared Who&When AG2 logs (``../shared/datasets/whowhen-algorithm-generated``).
Each figure is wall time (and, for processes, CPU time of this process and its workers: the
per-core figure the sizing plan uses, which a busy machine does not distort as much) of ``audit``/``audit_parallel`` in this process, after a warm-up that
loads the spaCy pipeline once (the workers load their own: that start-up is part of their time,
as it is of a real run). It also checks that every run's report equals the one-process report.
The machine's load is printed beside: the figures are only as quiet as the machine.
"""

from __future__ import annotations

import argparse
import os
import resource
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))  # this checkout's auditor, not whichever one is installed
WHOWHEN = ROOT.parent / "shared" / "datasets" / "whowhen-algorithm-generated"


def _cpu() -> float:
    """CPU seconds of this process and of its finished children (the worker processes)."""
    own, children = resource.getrusage(resource.RUSAGE_SELF), resource.getrusage(resource.RUSAGE_CHILDREN)
    return own.ru_utime + own.ru_stime + children.ru_utime + children.ru_stime


def main(argv: list[str] | None = None) -> int:
    from auditor import audit, load_config
    from auditor.nlp import TextAnalyzer
    from auditor.production import audit_parallel
    from auditor.report import to_json
    from auditor.trace import find_trace_files

    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("paths", nargs="*", default=[str(WHOWHEN)])
    parser.add_argument("--workers", default="1,2", help="comma-separated worker counts (1: one process)")
    parser.add_argument("--ray", action="store_true", help="also time --executor ray with the largest count")
    parser.add_argument("--repeat", type=int, default=1)
    args = parser.parse_args(argv)
    config = load_config(None, discover=False)
    files = find_trace_files(args.paths)
    megabytes = sum(f.stat().st_size for f in files) / 1e6
    analyzer = TextAnalyzer(config.nlp.pipeline, disable=config.nlp.disable)
    reference = audit(files[:1], config, analyzer=analyzer)  # warm-up: the pipeline is loaded
    counts = [int(n) for n in args.workers.split(",")]
    runs = [("process", n) for n in counts] + ([("ray", max(counts))] if args.ray else [])
    print(f"{len(files)} files, {megabytes:.1f} MB; {os.cpu_count()} CPUs; load average "
          f"{', '.join(f'{x:.1f}' for x in os.getloadavg())}")
    expected = None
    for executor, workers in runs:
        best, cpu = float("inf"), float("inf")
        for _ in range(args.repeat):
            start, cpu_start = time.perf_counter(), _cpu()
            if executor == "process" and workers == 1:
                reference = audit(files, config, analyzer=analyzer)
            else:
                reference = audit_parallel(files, config, workers=workers, executor=executor,  # type: ignore[arg-type]
                                           analyzer=analyzer)
            best, cpu = min(best, time.perf_counter() - start), min(cpu, _cpu() - cpu_start)
        text = to_json(reference)
        expected = expected or text
        s = reference.summary
        print(f"{executor:8} workers={workers}: {best:7.1f} s  {s.traces / best:6.2f} traces/s  "
              f"{s.edges / best:8.1f} edges/s  {megabytes / best:6.3f} MB/s  "
              + (f"CPU {cpu:6.1f} s: {megabytes / cpu:6.3f} MB per CPU-second  " if executor == "process" else "")
              + f"({s.traces} traces, {s.edges} edges; same report as one process: {text == expected})")
    return 0


if __name__ == "__main__":
    sys.exit(main())
