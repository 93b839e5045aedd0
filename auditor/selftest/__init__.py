"""The mutation self-test: corrupt one message at a time (soften, drop or invert a constraint,
invent or contradict a claim), re-audit, and show which check caught each corruption."""

from ._result import Cell, CellState, Rate, SelftestResult, cell_text, grid_lines, percent, rate_text
from ._run import selftest
from ._splice import Splice, apply, mutated_id, verify
from .mutations import MUTATIONS, Plan, Target

__all__ = [
    "MUTATIONS", "Cell", "CellState", "Plan", "Rate", "SelftestResult", "Splice", "Target", "apply",
    "cell_text", "grid_lines", "mutated_id", "percent", "rate_text", "selftest", "verify",
]
