"""Run the fuzz corpus (``tests/fuzz``) at scale and print counts by outcome.

    python benchmarks/fuzz.py [--cases 10000] [--seed 0] [--batch 50]

Each batch of cases is audited in one folder beside a good trace, then every report format is
rendered; see ``tests/fuzz/harness.py`` for the outcomes. Exits 1 when any case is
``uncaught``, ``no_report`` or ``unplaced_error``.
"""

from __future__ import annotations

import argparse
import sys
import tempfile
import time
from collections import Counter
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path[:0] = [str(ROOT), str(ROOT / "tests")]  # this checkout's auditor, whatever is installed

from fuzz.generator import cases  # noqa: E402
from fuzz.harness import FAILING, Outcome, run_batch  # noqa: E402

from auditor.nlp import TextAnalyzer  # noqa: E402


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--cases", type=int, default=10_000)
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--batch", type=int, default=50)
    args = parser.parse_args()
    analyzer = TextAnalyzer()
    outcomes: list[Outcome] = []
    started = time.perf_counter()
    with tempfile.TemporaryDirectory() as tmp:
        for start in range(0, args.cases, args.batch):
            count = min(args.batch, args.cases - start)
            outcomes += run_batch(list(cases(args.seed, count, start)), Path(tmp), analyzer)
            if (start // args.batch) % 20 == 0:
                print(f"  {len(outcomes):,} cases, {time.perf_counter() - started:.0f} s", file=sys.stderr)
    elapsed = time.perf_counter() - started
    by_outcome = Counter(o.outcome for o in outcomes)
    print(f"{len(outcomes):,} fuzz cases (seed {args.seed}) in {elapsed:.0f} s")
    print("\noutcome               cases")
    for outcome in ("audited", "audited_with_errors", "error", "internal_error", *FAILING):
        print(f"{outcome:20} {by_outcome.get(outcome, 0):6,}")
    kinds = sorted({o.case.kind for o in outcomes})
    names = ["audited", "audited_with_errors", "error", "internal_error", *FAILING]
    print("\nkind                 " + " ".join(f"{n[:9]:>9}" for n in names))
    for kind in kinds:
        counts = Counter(o.outcome for o in outcomes if o.case.kind == kind)
        print(f"{kind:20} " + " ".join(f"{counts.get(n, 0):9,}" for n in names))
    shown = [o for o in outcomes if o.outcome in (*FAILING, "internal_error")]
    details = Counter(f"{o.outcome}: {o.detail.splitlines()[-1] if o.detail else ''}"[:200] for o in shown)
    if details:
        print("\nmost frequent problems:")
        for text, count in details.most_common(15):
            print(f"{count:6,}  {text}")
    return 1 if any(o.outcome in FAILING for o in outcomes) else 0


if __name__ == "__main__":
    sys.exit(main())
