"""The independently written handoff cases (``tests/labelled/independent``): floors on the
decided verdicts, so that a change that makes the passes guess is caught. The figures are
printed by ``benchmarks/eval_independent.py``."""

from __future__ import annotations

import pytest
from independent_cases import CASES_DIR, Score, score_files


@pytest.fixture(scope="module")
def scores() -> dict[str, Score]:
    return score_files(sorted(CASES_DIR.glob("*.json")))


def test_the_set_is_whole() -> None:
    files = sorted(p.name for p in CASES_DIR.glob("*.json"))
    assert files == sorted(f"holdout-{x}.json" for x in [*"abcdefghijklmnopqrstuvwxyz", "za", "zb", "zc", "zd", "ze",
                                                         "zf", "zg", "zh", "zi", "zj", "zk", "zl", "zm", "zn", "zo",
                                                         "zp", "zq", "zr", "zs", "zt", "zu", "zv", "zw", "zx", "zy",
                                                         "xa", "xb", "xc", "xd", "xe", "xf",
                                                         "wa", "wb", "wc", "wd", "we", "wf", "va", "vb", "vc",
                                                         "ua", "ub", "uc", "ta", "tb", "tc", "td", "te", "tf",
                                                         "sa", "sb", "sc", "ra", "rb", "rc", "rd", "re", "rf",
                                                         "qa", "qb", "qc", "qd", "qe", "qf"])


@pytest.mark.parametrize("kind", ["constraints", "claims"])
def test_decided_verdicts_are_mostly_right(scores: dict[str, Score], kind: str) -> None:
    s = scores[kind]
    assert s.decided >= {"constraints": 2200, "claims": 5200}[kind], s
    assert s.decided_exact >= {"constraints": 0.88, "claims": 0.81}[kind], s


def test_a_lost_constraint_or_a_bad_claim_the_passes_report_is_real(scores: dict[str, Score]) -> None:
    assert scores["constraints"].precision >= 0.90, scores["constraints"]
    assert scores["claims"].precision >= 0.82, scores["claims"]

