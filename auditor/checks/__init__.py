"""Deterministic checks, one module each, registered under versioned names."""

from ..edges import Quote
from . import claims as _claims  # noqa: F401  (registers edge-audit.claims.v1)
from . import constraints as _constraints  # noqa: F401  (registers edge-audit.constraints.v1)
from ._finding import STATUSES, Finding, Status
from ._registry import CheckContext, CheckFn, Prepares, make_check, register_check, registered_checks

__all__ = [
    "STATUSES", "CheckContext", "CheckFn", "Finding", "Prepares", "Quote", "Status", "make_check", "register_check",
    "registered_checks",
]
