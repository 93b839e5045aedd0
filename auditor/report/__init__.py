"""The report model and its writers: JSON, Markdown, JUnit XML and the terminal summary."""

from ._junit import to_junit
from ._markdown import to_markdown
from ._model import (
    REPORT_SCHEMA_VERSION,
    EdgeModel,
    FindingModel,
    IgnoredContextModel,
    InputErrorModel,
    LegModel,
    QuestionModel,
    QuoteModel,
    Report,
    RouteSufficiencyModel,
    RubricRefModel,
    Section,
    SemanticFindingModel,
    SemanticSection,
    SkippedModel,
    SufficiencyModel,
    Summary,
    TraceModel,
    UsageModel,
)
from ._terminal import print_terminal
from ._text import route_gated


def to_json(report: Report) -> str:
    return report.model_dump_json(indent=2) + "\n"


__all__ = [
    "REPORT_SCHEMA_VERSION", "EdgeModel", "FindingModel", "IgnoredContextModel", "InputErrorModel", "LegModel", "QuestionModel",
    "RouteSufficiencyModel", "QuoteModel", "Report", "RubricRefModel",
    "Section", "SemanticFindingModel", "SemanticSection", "SkippedModel", "SufficiencyModel", "Summary", "TraceModel", "UsageModel", "print_terminal", "route_gated", "to_json", "to_junit", "to_markdown",
]
