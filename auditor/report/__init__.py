"""The report model and its writers: JSON, Markdown, JUnit XML and the terminal summary."""

from ._junit import to_junit
from ._markdown import to_markdown
from ._model import (
    REPORT_SCHEMA_VERSION,
    EdgeKind,
    EdgeModel,
    EdgeStatus,
    InputErrorModel,
    Report,
    RouteSufficiencyModel,
    Section,
    SemanticSection,
    SkippedModel,
    Summary,
    TraceModel,
    UsageModel,
)
from ._sufficiency import route_summary
from ._terminal import print_terminal
from ._text import finding_lines, plural, route_gated


def to_json(report: Report) -> str:
    return report.model_dump_json(indent=2) + "\n"


__all__ = [
    "REPORT_SCHEMA_VERSION", "EdgeKind", "EdgeModel", "EdgeStatus", "InputErrorModel", "Report", "RouteSufficiencyModel", "Section",
    "SemanticSection", "SkippedModel", "Summary", "TraceModel", "UsageModel", "finding_lines", "plural", "print_terminal", "route_gated",
    "route_summary", "to_json", "to_junit", "to_markdown",
]
