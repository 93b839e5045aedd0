"""The values that flow through the semantic layer.

A **job** is one grader call: the items of one edge that one grader decides together. Its
``inputs`` are the canonical inputs of the request (what the prompt is rendered from); its
``evidence`` is the full text the grader's quotes are verified against.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Literal

from ..checks import Status
from ..edges import Quote

#: Where a semantic result came from. ``none``: no model answer exists (off, miss, error, budget).
Source = Literal["live", "cache", "cassette", "none"]
#: Why a semantic item has no verdict.
UnmeasuredReason = Literal["llm_off", "cassette_miss", "grader_error", "budget_exhausted", "unverified"]


@dataclass(frozen=True)
class Item:
    """One deterministic finding handed to a grader."""

    item_id: str
    finding_id: str
    text: str
    """The constraint sentence or the claim: what the grader must judge."""


@dataclass(frozen=True)
class EvidenceBlock:
    """A text a grader may quote from, under the id the prompt shows it with."""

    block_id: str
    event_id: str
    field: str
    text: str


@dataclass(frozen=True)
class Job:
    grader: str
    edge_id: str
    items: tuple[Item, ...]
    inputs: Mapping[str, object]
    evidence: tuple[EvidenceBlock, ...]


@dataclass(frozen=True)
class Usage:
    prompt_tokens: int = 0
    completion_tokens: int = 0
    cost_usd: float | None = None

    def __add__(self, other: Usage) -> Usage:
        cost = None if self.cost_usd is None and other.cost_usd is None else (
            (self.cost_usd or 0.0) + (other.cost_usd or 0.0))
        return Usage(self.prompt_tokens + other.prompt_tokens, self.completion_tokens + other.completion_tokens, cost)


@dataclass(frozen=True)
class RubricRef:
    id: str
    version: int
    hash: str | None


@dataclass(frozen=True)
class SemanticFinding:
    """A grader's verdict on one deterministic finding. It sits beside that finding, never
    replaces it."""

    grader: str
    edge_id: str
    finding_id: str
    verdict: str
    status: Status
    reason: str
    rubric: RubricRef
    model: str
    source: Source
    quote: Quote | None = None
    quote_verified: bool | None = None
    grader_quote: str | None = None
    unmeasured_reason: UnmeasuredReason | None = None
    details: Mapping[str, object] = field(default_factory=dict)
