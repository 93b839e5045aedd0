"""The real-trace label set (tests/real_labelled) stays valid against the Who&When logs: every
labelled step exists and is an agent's handoff, and every quote is an exact substring of the
message it names. Skipped when ../shared/datasets is not beside this checkout."""

from __future__ import annotations

import importlib.util
import json
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
LABELS = ROOT / "tests" / "real_labelled"
DATASETS = ROOT.parent / "shared" / "datasets"

_spec = importlib.util.spec_from_file_location("real_labelled_validate", LABELS / "validate.py")
assert _spec is not None and _spec.loader is not None
_validate = importlib.util.module_from_spec(_spec)
_spec.loader.exec_module(_validate)
SUBSETS: dict[str, str] = _validate.SUBSETS
validate_file = _validate.validate_file

pytestmark = pytest.mark.skipif(not DATASETS.is_dir(), reason="shared/datasets is not beside this checkout")


@pytest.mark.parametrize("name", sorted(SUBSETS))
def test_label_file_is_valid(name: str) -> None:
    path = LABELS / name
    assert path.is_file(), f"missing {path}"
    assert validate_file(path, DATASETS) == []


@pytest.mark.parametrize("name", sorted(SUBSETS))
def test_label_file_is_not_trivial(name: str) -> None:
    records = json.loads((LABELS / name).read_text(encoding="utf-8"))
    assert len(records) >= 50
    assert len({r["file"] for r in records}) >= 15
    assert any(r["defects"] for r in records) and any(not r["defects"] for r in records)
