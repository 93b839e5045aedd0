"""The fuzz corpus in CI: a few hundred malformed and adversarial files (``tests/fuzz``), each
beside a good trace. No exception escapes; every error names the file and the place; the good
trace is still audited and every report format renders. ``benchmarks/fuzz.py`` runs 10,000."""

from __future__ import annotations

from collections import Counter
from pathlib import Path

import pytest
from fuzz.generator import KINDS, SEEDS, cases
from fuzz.harness import FAILING, run_batch

from auditor import EXIT_INPUT
from auditor._cli.main import main
from auditor.nlp import TextAnalyzer

CASES = 300
BATCH = 25


def test_every_kind_and_format_is_covered() -> None:
    made = list(cases(seed=1, count=CASES))
    assert {c.kind for c in made} == set(KINDS)
    assert {c.format for c in made} == set(SEEDS)


@pytest.mark.parametrize("start", range(0, CASES, BATCH))
def test_fuzz_batch(start: int, tmp_path: Path, analyzer: TextAnalyzer) -> None:
    outcomes = run_batch(list(cases(seed=1, count=BATCH, start=start)), tmp_path, analyzer)
    bad = [f"{o.case.name}: {o.outcome}: {o.detail}" for o in outcomes if o.outcome in FAILING]
    assert not bad, "\n".join(bad)
    counts = Counter(o.outcome for o in outcomes)
    assert sum(counts.values()) == BATCH


def test_cli_on_a_folder_of_fuzz_cases_writes_every_report(tmp_path: Path) -> None:
    folder = tmp_path / "in"
    folder.mkdir()
    for case in cases(seed=2, count=len(KINDS)):
        (folder / case.name).write_bytes(case.data)
    (folder / "good.json").write_bytes((Path(__file__).parents[1] / "examples/traces/incident-webhook.json")
                                       .read_bytes())
    out = tmp_path / "missing" / "folder"
    code = main(["run", str(folder), "--json", str(out / "r.json"), "--markdown", str(out / "r.md"),
                 "--junit", str(out / "r.xml")])
    assert code in (EXIT_INPUT, 4)
    assert all((out / name).stat().st_size > 0 for name in ("r.json", "r.md", "r.xml"))
