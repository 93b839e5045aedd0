"""Testing helpers: ``assert_edges`` for any test runner, and the pytest plugin
(``auditor.testing.plugin``, also its ``pytest11`` entry point name) that adds the
``edge_audit`` fixture and ``--edge-audit PATH`` (one test per edge)."""

from ._assert import (
    EdgeAuditor,
    EdgeFailure,
    Target,
    assert_edges,
    audit_target,
    check_report,
    describe_failure,
    failing_edges,
    unaudited,
)

__all__ = ["EdgeAuditor", "EdgeFailure", "Target", "assert_edges", "audit_target", "check_report",
           "describe_failure", "failing_edges", "unaudited"]
