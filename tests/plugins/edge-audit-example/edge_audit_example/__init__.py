"""``example.shouting.v1``: warns on a handoff written mostly in capitals. A whole check in one
file: its options model, its factory, and the registration; the entry point in pyproject.toml
makes edge-audit import this module."""

from __future__ import annotations

from pydantic import Field

from auditor.checks import CheckContext, CheckFn, Finding, register_check
from auditor.edges import Edge, Quote
from auditor.options import Options

NAME = "example.shouting.v1"


class ShoutingOptions(Options):
    max_capitals: float = Field(default=0.6, gt=0.0, le=1.0, description="The share of capital letters allowed")


@register_check(NAME, ShoutingOptions)
def shouting_v1(context: CheckContext, options: ShoutingOptions) -> CheckFn:
    def check(edge: Edge) -> list[Finding]:
        text = edge.message.content
        letters = [c for c in text if c.isalpha()]
        if len(letters) < 8 or sum(c.isupper() for c in letters) / len(letters) <= options.max_capitals:
            return []
        quote = Quote(edge.message.id, "content", 0, len(text), text)
        return [Finding(NAME, edge.id, "shouting", "warn", "the handoff is written mostly in capitals", None,
                        (quote,))]

    return check
