"""Flips: what changed between two reports (run reports or cases reports), by stable identity."""

from ._compare import FLIP_KINDS, Flip, FlipKind, FlipsResult, compare, flips_lines
from ._items import (
    CASES_SCHEMA,
    CaseOutcome,
    CasesReport,
    Item,
    ItemKind,
    case_items,
    finding_items,
    normalise,
    read_items,
    subject,
)

__all__ = [
    "CASES_SCHEMA", "FLIP_KINDS", "CaseOutcome", "CasesReport", "Flip", "FlipKind", "FlipsResult", "Item", "ItemKind",
    "case_items", "compare", "finding_items", "flips", "flips_lines", "normalise", "read_items", "subject",
]


def flips(old_path: str, new_path: str) -> FlipsResult:
    """The flips from the report at ``old_path`` to the one at ``new_path``."""
    return compare(read_items(old_path), read_items(new_path), old_name=old_path, new_name=new_path)
