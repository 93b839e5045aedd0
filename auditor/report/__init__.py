"""The report model and its writers: JSON, Markdown, JUnit XML, HTML and the terminal summary."""

from ._fidelity import (
    EdgeFidelity,
    FidelitySection,
    RouteFidelity,
    fidelity_section,
    route_fidelity_rows,
    route_key,
    weights_text,
)
from ._html import html_report, to_html
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
    SamplingModel,
    Section,
    SemanticSection,
    SkippedModel,
    Summary,
    TraceModel,
    TriageModel,
    UsageModel,
)
from ._sources import TextKey, quoted_texts
from ._sufficiency import route_summary
from ._terminal import print_terminal
from ._text import finding_lines, plural, route_gated
from ._triage import TRIAGE_SIZE, triage


def to_json(report: Report) -> str:
    return report.model_dump_json(indent=2) + "\n"


__all__ = [
    "EdgeFidelity", "FidelitySection", "RouteFidelity", "fidelity_section", "route_fidelity_rows", "route_key",
    "weights_text",
    "REPORT_SCHEMA_VERSION", "TRIAGE_SIZE", "EdgeKind", "EdgeModel", "EdgeStatus", "InputErrorModel", "Report", "RouteSufficiencyModel", "SamplingModel", "Section",
    "SemanticSection", "SkippedModel", "Summary", "TextKey", "TraceModel", "TriageModel", "UsageModel", "finding_lines", "html_report", "plural",
    "print_terminal", "quoted_texts", "route_gated", "route_summary", "to_html", "to_json", "to_junit", "to_markdown", "triage",
]
