"""Benchmark the deterministic passes: constraint-pass edges/s and words/s, its ratio against a
naive baseline, the claim pass's own throughput and how much slower it makes the deterministic
pass, peak RSS and the time of `edge-audit --help`. Prints its figures; asserts nothing.

    python benchmarks/bench_constraints.py [--whowhen PATH] [--synthetic-edges 10000] [--naive-traces 15]

The naive baseline runs the full spaCy pipeline (parser included) over every sentence of
every upstream message of every edge, with no shortcut and no cache.
"""

from __future__ import annotations

import argparse
import json
import random
import resource
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "tests"))

from labelled_cases import load_cases, run_case  # noqa: E402

from auditor import AuditConfig, audit  # noqa: E402
from auditor.checks import CheckContext, make_check  # noqa: E402
from auditor.config import CheckConfig  # noqa: E402
from auditor.nlp import TextAnalyzer  # noqa: E402
from auditor.trace import load_paths  # noqa: E402


def _words(paths: list[Path]) -> int:
    total = 0
    for loaded in load_paths(paths).traces:
        for event in loaded.trace.events:
            total += len(str(getattr(event, "content", "") or "").split())
    return total


CONSTRAINTS_ONLY = AuditConfig(checks=[c for c in AuditConfig().checks if c.name == "edge-audit.constraints.v1"])
CLAIMS_ONLY = AuditConfig(checks=[CheckConfig(name="edge-audit.claims.v1")])


def _timed(paths: list[Path], analyzer: TextAnalyzer | None,
           config: AuditConfig = CONSTRAINTS_ONLY) -> tuple[float, int, list[tuple[str, str]]]:
    start = time.perf_counter()
    report = audit(paths, config, analyzer=analyzer)
    elapsed = time.perf_counter() - start
    return elapsed, report.summary.edges, [(f.edge_id, f.verdict) for f in report.deterministic.findings]


def _synthetic(folder: Path, edges: int, seed: int = 7) -> Path:
    """Pipelines of 4 agents in a broadcast chat; messages mix labelled constraint text with filler."""
    rng = random.Random(seed)
    cases = load_cases()
    filler = ["We looked at the data and the numbers seem consistent with last week.",
              "The next step is to compare the results with the baseline run.",
              "I checked the logs and nothing unusual showed up in the last hour."]
    path = folder / "synthetic.jsonl"
    per_trace = 20
    with path.open("w") as out:
        for t in range(edges // per_trace + 1):
            agents = ["planner", "coder", "reviewer", "tester"]
            events = [{"type": "message", "sender": "user", "recipients": ["planner"],
                       "content": rng.choice(cases)["upstream"] + " " + rng.choice(filler)}]
            for i in range(per_trace):
                case = rng.choice(cases)
                text = " ".join([rng.choice(filler), case["handoff"], rng.choice(filler), case["upstream"]])
                events.append({"type": "message", "sender": agents[i % 4], "recipients": "*", "content": text})
            out.write(json.dumps({"schema": "edge-audit.trace.v1", "trace_id": f"syn-{t}",
                                  "agents": [{"name": "user", "kind": "human"}], "events": events}) + "\n")
    return path


def _claims(paths: list[Path], label: str) -> None:
    """Claim pass alone, and the slowdown it adds to the constraint pass (target: at most 1.5x)."""
    tc, edges, _ = _timed(paths, None, CLAIMS_ONLY)
    t1, _, _ = _timed(paths, TextAnalyzer(), CONSTRAINTS_ONLY)
    t2, _, _ = _timed(paths, TextAnalyzer(), AuditConfig())
    print(f"{label} claims pass: {edges / tc:.0f} edges/s alone; constraints {t1:.2f}s, constraints+claims "
          f"{t2:.2f}s: {t2 / t1:.2f}x")


def _help_time() -> float:
    best = float("inf")
    for _ in range(5):
        start = time.perf_counter()
        subprocess.run([sys.executable, "-m", "auditor", "--help"], capture_output=True, check=True)
        best = min(best, time.perf_counter() - start)
    return best


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--whowhen", type=Path, default=ROOT.parent / "shared/datasets/whowhen-algorithm-generated")
    parser.add_argument("--synthetic-edges", type=int, default=10_000)
    parser.add_argument("--naive-traces", type=int, default=15, help="Who&When traces timed in naive mode")
    args = parser.parse_args()

    fast_check = make_check("edge-audit.constraints.v1", CheckContext(TextAnalyzer()), {})
    naive_check = make_check("edge-audit.constraints.v1",
                             CheckContext(TextAnalyzer(disable=(), fast=False, cache=False)), {})
    cases = load_cases()
    same = sum(run_case(fast_check, c) == run_case(naive_check, c) for c in cases)
    print(f"labelled set: fast and naive verdicts agree on {same}/{len(cases)} pairs")

    TextAnalyzer().nlp  # noqa: B018  (load once so that model load time is not in the timings)
    if args.whowhen.is_dir():
        files = sorted(args.whowhen.glob("*.json"))
        t, edges, _ = _timed(files, TextAnalyzer())
        words = _words(files)
        print(f"who&when: {len(files)} traces, {edges} edges, {words} words in {t:.2f}s: "
              f"{edges / t:.0f} edges/s, {words / t:.0f} words/s")
        _claims(files, "who&when")
        sample = files[: args.naive_traces]
        tf, e1, v1 = _timed(sample, TextAnalyzer())
        tn, _, v2 = _timed(sample, TextAnalyzer(disable=(), fast=False, cache=False))
        print(f"who&when sample ({len(sample)} traces, {e1} edges): fast {tf:.2f}s, naive {tn:.2f}s, "
              f"ratio {tn / tf:.1f}x, same verdicts: {v1 == v2}")
    with tempfile.TemporaryDirectory() as tmp:
        path = _synthetic(Path(tmp), args.synthetic_edges)
        words = _words([path])
        t, edges, _ = _timed([path], TextAnalyzer())
        print(f"synthetic: {edges} edges, {words} words in {t:.2f}s: {edges / t:.0f} edges/s, {words / t:.0f} words/s")
        _claims([path], "synthetic")
    rss = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024
    print(f"peak RSS: {rss:.0f} MiB")
    print(f"`edge-audit --help`: {_help_time():.3f}s (best of 5)")


if __name__ == "__main__":
    main()
