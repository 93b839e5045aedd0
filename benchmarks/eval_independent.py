"""Decided verdicts on the independently written handoff cases (``tests/labelled/independent``),
per file and overall: how many the deterministic passes decide, the share of those exactly
right, and the precision of lost-constraint and bad-claim findings.

    python benchmarks/eval_independent.py
"""

from __future__ import annotations

import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "tests"))

from independent_cases import CASES_DIR, score_files  # noqa: E402


def main() -> None:
    files = sorted(CASES_DIR.glob("*.json"))
    for name, paths in [*((p.stem, [p]) for p in files), ("all", files)]:
        scores = score_files(paths)
        line = "; ".join(f"{kind} decided {s.decided}, exact {s.decided_exact:.2f}, "
                         f"{'lost' if kind == 'constraints' else 'bad'} precision {s.precision:.2f}"
                         for kind, s in scores.items())
        print(f"{name:10} {line}")


if __name__ == "__main__":
    main()
