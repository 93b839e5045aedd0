"""Deterministic checks, one module each, registered under versioned names."""

from ..edges import Quote
from . import claims as _claims  # noqa: F401  (registers edge-audit.claims.v1)
from . import constraints as _constraints  # noqa: F401  (registers edge-audit.constraints.v1)
from . import contracts as _contracts  # noqa: F401  (registers edge-audit.contracts.v1)
from ._finding import STATUSES, Finding, Status
from ._registry import (
    CheckContext,
    CheckFn,
    ChecksTraces,
    Prepares,
    Unit,
    make_check,
    register_check,
    registered_checks,
)

__all__ = [
    "STATUSES", "CheckContext", "CheckFn", "ChecksTraces", "Finding", "Prepares", "Quote", "Status", "Unit",
    "make_check", "register_check", "registered_checks",
]
