"""The mutations, one module each, in the order of the grid's columns. Each has ``NAME`` and
``plan(target) -> Plan | str`` (a reason when it does not apply to the edge)."""

from collections.abc import Callable

from . import contradict, drop, invent, invert, soften
from ._target import CLAIMS, CONSTRAINTS, Edit, Plan, Target, disjoint

MUTATIONS: dict[str, Callable[[Target], Plan | str]] = {
    m.NAME: m.plan for m in (soften, drop, invert, invent, contradict)
}

__all__ = ["CLAIMS", "CONSTRAINTS", "MUTATIONS", "Edit", "Plan", "Target", "disjoint"]
