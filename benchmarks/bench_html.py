"""Benchmark the HTML report: the time to write it (reading the quoted messages again, then
rendering), with and without --redact, and the page's size, over one folder of traces (default:
the shared Who&When logs). Prints its figures; asserts nothing.

    python benchmarks/bench_html.py [PATH]
"""

from __future__ import annotations

import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from auditor import audit, load_config  # noqa: E402
from auditor.report import html_report  # noqa: E402


def main() -> None:
    path = Path(sys.argv[1]) if len(sys.argv) > 1 else ROOT.parent / "shared" / "datasets" / "whowhen-algorithm-generated"
    config = load_config(None)
    report = audit([path], config)
    print(f"{path}: {len(report.traces)} traces, {len(report.edges)} edges, "
          f"{len(report.deterministic.findings)} findings")
    for redact in (False, True):
        start = time.perf_counter()
        page = html_report(report, config, redact=redact)
        took = time.perf_counter() - start
        print(f"html{' --redact' if redact else ''}: {took:.2f} s, {len(page.encode('utf-8')) / 1e6:.2f} MB")


if __name__ == "__main__":
    main()
