"""The report: a pydantic model with a published JSON Schema (``edge-audit schema report``).

Deterministic and semantic findings are separate sections. A semantic finding points at the
deterministic finding it grades by id and never changes it.
"""

from __future__ import annotations

from typing import Any, Literal

from pydantic import BaseModel, ConfigDict, Field

REPORT_SCHEMA_VERSION = "edge-audit.report.v1"
StatusName = Literal["pass", "fail", "warn", "unmeasured"]


class _Model(BaseModel):
    model_config = ConfigDict(frozen=True, extra="forbid")


class QuoteModel(_Model):
    event_id: str
    field: str = Field(description="content, system_prompt, or a structured path")
    start: int = Field(description="Character offset of the quote in that field")
    end: int
    text: str


class FindingModel(_Model):
    id: str = Field(description="<edge id>#<n>: stable while the checks and the trace are unchanged")
    check: str = Field(description="Versioned registry name of the check")
    edge_id: str
    verdict: str
    status: StatusName
    summary: str
    upstream: QuoteModel | None
    handoff: list[QuoteModel] = Field(default_factory=list, description="Handoff sentences the verdict rests on")
    mentions: list[QuoteModel] = Field(default_factory=list, description="Other handoff sentences naming one of its keys")
    details: dict[str, Any] = Field(default_factory=dict)


class EdgeModel(_Model):
    id: str
    kind: Literal["message", "handoff"] = Field(
        default="message", description="message: one message to one agent; handoff: one attempt of an "
                                       "application-recorded handoff (handoff_stage events), graded by contracts")
    trace_id: str
    path: str
    source: str
    destination: str
    event_id: str
    status: StatusName | Literal["no_findings"]
    counts: dict[str, int] = Field(description="Findings per verdict")


class SkippedModel(_Model):
    event_id: str
    sender: str
    reason: str


class TraceModel(_Model):
    trace_id: str
    path: str
    line: int | None
    format: str
    score: float | None
    source_messages: int
    edges: int
    skipped: list[SkippedModel]


class InputErrorModel(_Model):
    path: str
    line: int | None
    where: str | None
    kind: str
    reason: str


class Section(_Model):
    ran: bool
    note: str = ""
    findings: list[FindingModel] = Field(default_factory=list)


class RubricRefModel(_Model):
    id: str
    version: int
    hash: str | None = Field(description="Content hash of the rubric, its prompt and the grader's output "
                                         "schema; None when the rubric was not loaded (--llm off)")


class SemanticFindingModel(_Model):
    grader: str = Field(description="Versioned grader registry name")
    edge_id: str
    finding_id: str = Field(description="The deterministic finding this grades (it is never changed)")
    verdict: str = Field(description="The grader's verdict; unverified when its quote failed verification; "
                                     "unmeasured when no model answer exists")
    status: StatusName
    reason: str
    rubric: RubricRefModel
    model: str
    source: Literal["live", "cache", "cassette", "none"] = Field(description="Where the answer came from")
    quote: QuoteModel | None = Field(description="The verified span of the evidence the grader quoted")
    quote_verified: bool | None = Field(description="None when the verdict needs no quote and none was given")
    grader_quote: str | None = Field(description="The grader's quote as it gave it, kept for review")
    unmeasured_reason: Literal["llm_off", "cassette_miss", "grader_error", "budget_exhausted", "unverified"] | None
    details: dict[str, Any] = Field(default_factory=dict)


class UsageModel(_Model):
    calls: int
    prompt_tokens: int
    completion_tokens: int
    cost_usd: float | None = Field(description="None when the model's price is unknown")


class LegModel(_Model):
    status: Literal["pass", "fail", "degraded"]
    score: float | None
    output_source: str = Field(description="Where the output came from: live, cache, cassette (a rerun) or trace")
    decision_source: str = Field(description="Where the decision came from: live, cache, cassette (the judge), "
                                             "callable, command, or none")
    evidence: str = Field(description="Why the check decided, or why the leg is degraded")
    degraded_reason: Literal["runtime_unavailable", "receiver_unknown", "insufficient_decision_evidence",
                             "grader_error", "cassette_miss"] | None = None
    output_event: str | None = Field(default=None, description="The trace event holding the output (context_on)")
    output_excerpt: str = ""
    tokens: int | None = None


class QuestionModel(_Model):
    question: str
    missing_field: str


class IgnoredContextModel(_Model):
    event_id: str = Field(description="What the receiver saw besides the handoff")
    term: str = Field(description="A number, identifier or path the pipeline output used and the handoff lacked")


class SufficiencyModel(_Model):
    edge_id: str
    route: str = Field(description="source->destination")
    verdict: Literal["stands_alone", "leaked_context", "broken", "inconclusive"]
    reason: str
    acceptance: str = Field(description="judge, callable or command")
    context_off: LegModel = Field(description="The receiver rerun with the handoff alone")
    context_on: LegModel = Field(description="What the receiver produced in the trace, with its real context")
    score_delta: float | None = Field(description="context_on score minus context_off score")
    token_delta: int | None = Field(description="Output tokens, context_off minus context_on")
    tool_delta: int = Field(description="Tool calls, context_off (none: the rerun has no tools) minus context_on")
    questions: list[QuestionModel] = Field(description="What the isolated receiver asked or had to guess")
    ignored_context: list[IgnoredContextModel]
    deterministic: list[str] = Field(description="Failing claim checks of the isolated output")
    rubric: RubricRefModel | None
    model: str = Field(description="The judge's model")
    receiver_model: str


class RouteSufficiencyModel(_Model):
    edges: int
    verdicts: dict[str, int]
    measured: int = Field(description="Edges with no degraded leg: the only ones in the rates")
    stands_alone_rate: float | None
    missing_fields: dict[str, int] = Field(description="Fields the isolated receivers asked for, by count")


class SemanticSection(_Model):
    ran: bool
    mode: Literal["off", "live", "record", "replay"]
    model: str | None = None
    note: str = ""
    findings: list[SemanticFindingModel] = Field(default_factory=list)
    usage: dict[str, UsageModel] = Field(default_factory=dict, description="Per source: live (spent by this "
                                         "run), cache and cassette (recorded usage, not spent again)")
    errors: dict[str, int] = Field(default_factory=dict, description="Failed calls per kind")
    sufficiency: list[SufficiencyModel] = Field(default_factory=list)
    sufficiency_routes: dict[str, RouteSufficiencyModel] = Field(default_factory=dict)
    sufficiency_estimate: dict[str, int] | None = Field(default=None, description="Upper estimate made before "
                                                        "running: calls and tokens")


class Summary(_Model):
    files: int
    traces: int
    edges: int
    source_messages: int
    skipped_messages: dict[str, int]
    input_errors: int
    deterministic_by_status: dict[str, int]
    deterministic_by_verdict: dict[str, int]
    deterministic_by_check: dict[str, dict[str, int]] = Field(
        default_factory=dict, description="Verdict counts per check (verdict names overlap across checks).")
    semantic_by_status: dict[str, int] = Field(default_factory=dict)
    semantic_by_verdict: dict[str, int] = Field(default_factory=dict)
    failed_edges: int
    exit_code: int


class Report(_Model):
    schema_version: Literal["edge-audit.report.v1"] = "edge-audit.report.v1"
    tool_version: str
    config: str | None = Field(default=None, description="The config file used (found from the working directory "
                                                         "upwards, or --config); null: the built-in defaults")
    checks: list[str]
    nlp_pipeline: str
    summary: Summary
    traces: list[TraceModel]
    edges: list[EdgeModel]
    input_errors: list[InputErrorModel]
    deterministic: Section
    semantic: SemanticSection
