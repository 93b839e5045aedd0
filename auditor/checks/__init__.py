"""Deterministic checks, one module each, registered under versioned names and named after them
(``edge-audit.claims.v1``: ``claims.py``; the claims domain itself is the package ``auditor.claims``)."""

from ..edges import Quote
from . import claims, constraints, contracts, trace_contracts  # registers edge-audit.<module>.v1
from ._finding import STATUSES, FailOrWarn, Finding, Status
from ._registry import (
    CheckContext,
    CheckFn,
    ChecksTraces,
    Prepares,
    Unit,
    check_options,
    make_check,
    register_check,
    registered_checks,
)

__all__ = [
    "claims", "constraints", "contracts", "trace_contracts",
    "STATUSES", "CheckContext", "CheckFn", "ChecksTraces", "FailOrWarn", "Finding", "check_options", "Prepares", "Quote", "Status", "Unit",
    "make_check", "register_check", "registered_checks",
]
