"""Checkable claims in handoffs and their grounding against the trace's evidence."""

from ._extract import Claim, ClaimKind, extract_claims
from ._ground import (
    Evidence,
    EvidenceText,
    Grounding,
    NumberMention,
    Run,
    Verdict,
    ground,
    make_run,
    number_mentions,
)
from ._tools import DEFAULT_TOOLS_FILE, Category, Outcome, ToolSemantics, load_tool_semantics, outcome

__all__ = [
    "DEFAULT_TOOLS_FILE", "Category", "Claim", "ClaimKind", "Evidence", "EvidenceText", "Grounding",
    "NumberMention", "Outcome", "Run", "ToolSemantics", "Verdict", "extract_claims", "ground",
    "load_tool_semantics", "make_run", "number_mentions", "outcome",
]
