"""Checkable claims in handoffs and their grounding against the trace's evidence."""

from ..edges import EvidenceText
from ._claim import Claim, ClaimKind
from ._evidence import Evidence, Run, make_run
from ._extract import extract_claims
from ._ground import ground
from ._index import EvidenceIndex
from ._rows import Row, records, rows, tabular
from ._tools import DEFAULT_TOOLS_FILE, Category, Outcome, ToolSemantics, load_tool_semantics, outcome
from ._verdicts import SEVERITY, STATUS, VERDICTS, Grounding, Verdict

__all__ = [
    "DEFAULT_TOOLS_FILE", "SEVERITY", "STATUS", "VERDICTS", "Category", "Claim", "ClaimKind", "Evidence",
    "EvidenceIndex", "EvidenceText", "Grounding", "Outcome", "Row", "Run", "ToolSemantics", "Verdict", "extract_claims", "ground",
    "load_tool_semantics", "make_run", "outcome", "records", "rows", "tabular",
]
