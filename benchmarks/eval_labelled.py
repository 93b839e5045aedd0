"""Precision and recall per verdict of edge-audit.constraints.v1 on the labelled set and on the
held-out set (never tuned against), and of edge-audit.claims.v1 on the labelled claims.
Prints the tables and every miss.

    python benchmarks/eval_labelled.py
"""

from __future__ import annotations

import sys
from pathlib import Path

import yaml

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "tests"))

import labelled_cases  # noqa: E402
import labelled_claims  # noqa: E402

from auditor.checks import CheckContext, make_check  # noqa: E402
from auditor.nlp import TextAnalyzer  # noqa: E402


def main() -> None:
    check = make_check("edge-audit.constraints.v1", CheckContext(TextAnalyzer()), {})
    for name in ("constraints.yaml", "holdout.yaml"):
        cases = yaml.safe_load((ROOT / "tests" / "labelled" / name).read_text())
        results = []
        for case in cases:
            expected = [case["expected"]] if isinstance(case["expected"], str) else case["expected"]
            got = labelled_cases.run_case(check, case)
            results.append((expected, got))
            if got != expected:
                print(f"  miss {case['id']}: expected {expected}, got {got}")
        exact = sum(e == g for e, g in results)
        print(f"{name}: {exact}/{len(cases)} pairs exactly right")
        for verdict, (precision, recall, support) in labelled_cases.scores(results).items():
            print(f"  {verdict:15} precision {precision:.2f}  recall {recall:.2f}  n={support}")

    claims = labelled_claims.claim_check()
    for name in ("claims.yaml", "claims_holdout.yaml"):
        claim_results = []
        for case in yaml.safe_load((ROOT / "tests" / "labelled" / name).read_text()):
            got = labelled_claims.run_claim_case(claims, case)
            claim_results.append((case["expected"], got))
            if got != case["expected"]:
                print(f"  miss {case['id']}: expected {case['expected']}, got {got}")
        exact = sum(e == g for e, g in claim_results)
        print(f"{name}: {exact}/{len(claim_results)} cases exactly right, "
              f"{sum(len(e) for e, _ in claim_results)} labelled claims")
        for verdict, (precision, recall, support) in labelled_claims.claim_scores(claim_results).items():
            print(f"  {verdict:15} precision {precision:.2f}  recall {recall:.2f}  n={support}")

if __name__ == "__main__":
    main()
