"""Production audits: the run history (SQLite), scale-out over processes or a Ray cluster, and
evaluation results out as OpenTelemetry events. Sampling and call budgets live with the run
itself (``auditor.sampling``, ``auditor.graders.CallBudget``)."""

from ._history import DEFAULT_HISTORY, SCHEMA, record_run
from ._otel import (
    EVENT_NAME,
    evaluation_records,
    logs_document,
    post_otlp_logs,
    read_evaluation_results,
    to_otlp_logs,
    write_otlp,
)
from ._parallel import Executor, Shard, audit_parallel, audit_shard, expand_globs, shard_files
from ._trend import RouteAlert, RoutePoint, alerts, format_history, history_json, route_history, trend

__all__ = [
    "EVENT_NAME", "evaluation_records", "logs_document", "post_otlp_logs", "read_evaluation_results", "to_otlp_logs",
    "write_otlp", "DEFAULT_HISTORY", "SCHEMA", "Executor", "RouteAlert", "RoutePoint", "alerts", "Shard", "audit_parallel",
    "audit_shard", "expand_globs", "format_history", "shard_files",
    "history_json", "record_run", "route_history", "trend",
]
