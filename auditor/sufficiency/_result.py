"""What the sufficiency check finds for one edge: its two legs and its verdict. The report reads
these types themselves."""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING, Annotated, Literal

from pydantic import BaseModel, ConfigDict, Field

from ..graders import RubricRef
from ._accept import DegradedReason

if TYPE_CHECKING:
    from ._case import Case

Verdict = Literal["stands_alone", "leaked_context", "broken", "inconclusive"]


class Question(BaseModel):
    question: str = Field(description="What the receiver asked, or had to guess, to do the task")
    missing_field: str = Field(description="The field the handoff should have carried, e.g. invoice_id")


@dataclass(frozen=True)
class IgnoredContext:
    event_id: Annotated[str, Field(description="What the receiver saw besides the handoff")]
    term: Annotated[str, Field(description="A number, identifier or path the pipeline output used and the handoff "
                                           "lacked")]


@dataclass(frozen=True)
class Leg:
    status: Literal["pass", "fail", "degraded"]
    score: float | None
    output_source: Annotated[str, Field(description="Where the output came from: live, cache, cassette (a rerun) "
                                                    "or trace")]
    decision_source: Annotated[str, Field(description="Where the decision came from: live, cache, cassette (the "
                                                      "judge), callable, command, or none")]
    evidence: Annotated[str, Field(description="Why the check decided, or why the leg is degraded")]
    degraded_reason: DegradedReason | None = None
    output_event: Annotated[str | None, Field(description="The trace event holding the output (context_on)")] = None
    output_excerpt: str = ""
    tokens: int | None = None


@dataclass(frozen=True)
class Result:
    """The sufficiency verdict of one edge (``SufficiencyResult`` in the report's schema)."""

    __pydantic_config__ = ConfigDict(title="SufficiencyResult")

    edge_id: str
    route: Annotated[str, Field(description="source->destination")]
    verdict: Verdict
    reason: str
    acceptance: Annotated[str, Field(description="judge, callable or command")]
    context_off: Annotated[Leg, Field(description="The receiver rerun with the handoff alone")]
    context_on: Annotated[Leg, Field(description="What the receiver produced in the trace, with its real context")]
    score_delta: Annotated[float | None, Field(description="context_on score minus context_off score")]
    token_delta: Annotated[int | None, Field(description="Output tokens, context_off minus context_on")]
    tool_delta: Annotated[int, Field(description="Tool calls, context_off (none: the rerun has no tools) minus "
                                                 "context_on")]
    questions: Annotated[tuple[Question, ...], Field(description="What the isolated receiver asked or had to "
                                                                 "guess")]
    ignored_context: tuple[IgnoredContext, ...]
    deterministic: Annotated[tuple[str, ...], Field(description="Failing claim checks of the isolated output")]
    rubric: RubricRef | None
    model: Annotated[str, Field(description="The judge's model")]
    receiver_model: str

    @classmethod
    def of(cls, case: Case, verdict: Verdict, reason: str, off: Leg, on: Leg, acceptance: str,
           questions: tuple[Question, ...] = (), ignored_context: tuple[IgnoredContext, ...] = (),
           rubric: RubricRef | None = None, model: str = "", receiver_model: str = "",
           deterministic: tuple[str, ...] = ()) -> Result:
        return cls(
            case.edge_id, case.route, verdict, reason, acceptance, off, on,
            None if off.score is None or on.score is None else on.score - off.score,
            None if off.tokens is None or on.tokens is None else off.tokens - on.tokens,
            -case.pipeline_tool_calls, questions, ignored_context, deterministic, rubric, model, receiver_model)
