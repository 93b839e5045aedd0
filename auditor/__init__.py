"""edge-audit: find where a multi-agent LLM pipeline went wrong, one handoff (edge) at a time.

The public API is re-exported here lazily, so that ``edge-audit --help`` stays fast::

    from auditor import audit, AuditConfig
    report = audit(["traces/"], AuditConfig())
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from ._version import __version__

_EXPORTS = {
    "audit": "._audit", "audit_traces": "._audit", "EXIT_OK": "._audit", "EXIT_FAILURES": "._audit", "EXIT_USAGE": "._audit",
    "EXIT_INPUT": "._audit", "EXIT_RUNTIME": "._audit",
    "AuditConfig": ".config", "load_config": ".config",
    "Report": ".report", "Trace": ".trace", "load_paths": ".trace", "build_edges": ".edges", "Edge": ".edges",
}

if TYPE_CHECKING:
    from ._audit import EXIT_FAILURES, EXIT_INPUT, EXIT_OK, EXIT_RUNTIME, EXIT_USAGE, audit, audit_traces
    from .config import AuditConfig, load_config
    from .edges import Edge, build_edges
    from .report import Report
    from .trace import Trace, load_paths


def __getattr__(name: str) -> Any:
    if name in _EXPORTS:
        import importlib

        return getattr(importlib.import_module(_EXPORTS[name], __name__), name)
    raise AttributeError(f"module 'auditor' has no attribute {name!r}")


__all__ = [
    "__version__", "EXIT_FAILURES", "EXIT_INPUT", "EXIT_OK", "EXIT_RUNTIME", "EXIT_USAGE", "AuditConfig", "Edge", "Report",
    "Trace", "audit", "audit_traces", "build_edges", "load_config", "load_paths",
]
