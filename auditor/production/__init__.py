"""Production audits: the run history (SQLite), scale-out over processes or a Ray cluster, and
evaluation results out as OpenTelemetry events. Sampling and call budgets live with the run
itself (``auditor.sampling``, ``auditor.graders.CallBudget``)."""

from ._fidelity import LOSS, LOST_VERDICTS, edge_fidelity, report_fidelity
from ._history import DEFAULT_HISTORY, SCHEMA, record_run
from ._trend import RoutePoint, format_history, history_json, route_history, trend

__all__ = [
    "DEFAULT_HISTORY", "LOSS", "LOST_VERDICTS", "SCHEMA", "RoutePoint", "edge_fidelity", "format_history",
    "history_json", "record_run", "report_fidelity", "route_history", "trend",
]
