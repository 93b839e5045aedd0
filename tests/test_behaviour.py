"""Behaviour is held by a digest of the examples' reports (benchmarks/behaviour.py): a change to
the structure must leave every finding as it was. After a deliberate change of verdicts, run
``python3 benchmarks/behaviour.py --write`` and say so in the commit."""

from __future__ import annotations

import importlib.util
import json
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]


def test_examples_report_the_same_findings_as_the_committed_digest() -> None:
    spec = importlib.util.spec_from_file_location("behaviour", ROOT / "benchmarks" / "behaviour.py")
    assert spec is not None and spec.loader is not None
    behaviour = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(behaviour)
    expected = json.loads((ROOT / "benchmarks" / "behaviour.json").read_text(encoding="utf-8"))
    assert behaviour.digests() == expected
