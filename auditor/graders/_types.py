"""The values that flow through the semantic layer.

A **job** is one grader call: the items of one edge that one grader decides together. Its
``inputs`` are the canonical inputs of the request (what the prompt is rendered from); its
``evidence`` is the full texts the grader's quotes are verified against, each under the id
(``EventText.key``) the prompt shows it with.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Annotated, Literal

from pydantic import Field

from ..checks import Status
from ..edges import EventText, Quote

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
class Job:
    grader: str
    edge_id: str
    items: tuple[Item, ...]
    inputs: Mapping[str, object]
    evidence: tuple[EventText, ...]


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
    """The rubric a finding was graded with. ``file`` and ``prompt_file`` are the files used
    (None when no rubric was loaded: ``--llm off``); ``origin`` says whether they are the
    project's own or the packaged defaults."""

    id: str
    version: int
    hash: Annotated[str | None, Field(description="Content hash of the rubric, its prompt and the grader's "
                                                  "output schema; None when the rubric was not loaded (--llm off)")]
    file: Annotated[str | None, Field(description="The rubric file used; None when it was not loaded")] = None
    prompt_file: Annotated[str | None, Field(description="The prompt file used")] = None
    origin: Annotated[Literal["project", "packaged"] | None, Field(
        description="project: the project's own rubrics/ and prompts/ (or the config's folders); packaged: the "
                    "defaults shipped with edge-audit")] = None


@dataclass(frozen=True)
class SemanticFinding:
    """A grader's verdict on one deterministic finding. It sits beside that finding, never
    replaces it."""

    grader: Annotated[str, Field(description="Versioned grader registry name")]
    edge_id: str
    finding_id: Annotated[str, Field(description="The deterministic finding this grades (it is never changed)")]
    verdict: Annotated[str, Field(description="The grader's verdict; unverified when its quote failed "
                                              "verification; unmeasured when no model answer exists")]
    status: Status
    reason: str
    rubric: RubricRef
    model: str
    source: Annotated[Source, Field(description="Where the answer came from")]
    quote: Annotated[Quote | None, Field(description="The verified span of the evidence the grader quoted")] = None
    quote_verified: Annotated[bool | None, Field(
        description="None when the verdict needs no quote and none was given")] = None
    grader_quote: Annotated[str | None, Field(description="The grader's quote as it gave it, kept for review")] = None
    unmeasured_reason: UnmeasuredReason | None = None
    details: Mapping[str, object] = field(default_factory=dict)
