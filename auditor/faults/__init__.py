"""Fault injection with a live pipeline: corrupt one handoff message, let the user's pipeline
continue from it (``continue_from``), and grid who caught it: its agents, the audit, or nobody."""

from ._grid import Cell, CellStatus, FaultGrid, MutationRate, Row, print_grid
from ._inject import ContinueFrom, FlaggedBy, flagged_by_label, inject_faults
from ._mutations import INVENTED, MUTATIONS, Mutation, MutationInput, contradict, drop, invent, invert, soften

__all__ = [
    "INVENTED", "MUTATIONS", "Cell", "CellStatus", "ContinueFrom", "FaultGrid", "FlaggedBy", "Mutation",
    "MutationInput", "MutationRate", "Row", "contradict", "drop", "flagged_by_label", "inject_faults", "invent",
    "invert", "print_grid", "soften",
]
