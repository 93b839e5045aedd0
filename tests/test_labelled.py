"""The labelled upstream/handoff pairs: each must get exactly its expected verdicts."""

from __future__ import annotations

from collections import Counter
from typing import Any

import pytest
from labelled_cases import VERDICTS, load_cases, run_case, scores

from auditor.checks import CheckFn

CASES = load_cases()


@pytest.mark.parametrize("case", CASES, ids=[c["id"] for c in CASES])
def test_labelled_pair(constraint_check: CheckFn, case: dict[str, Any]) -> None:
    got = run_case(constraint_check, case)
    assert got == case["expected"], f"{case['id']}: expected {case['expected']}, got {got}"


def test_labelled_set_is_broad() -> None:
    counts = Counter(v for c in CASES for v in c["expected"])
    domains = Counter(c["domain"] for c in CASES)
    assert len(CASES) >= 60
    assert all(counts[v] >= 5 for v in VERDICTS), counts
    assert set(domains) >= {"code", "support", "data", "travel", "ops"}


def test_scores_count_misses() -> None:
    table = scores([(["kept"], ["softened"]), (["dropped"], ["dropped"])])
    assert table["kept"] == (1.0, 0.0, 1)
    assert table["softened"] == (0.0, 1.0, 0)
    assert table["dropped"] == (1.0, 1.0, 1)
