"""The report: a pydantic model with a published JSON Schema (``edge-audit schema report``).

The findings, semantic findings and sufficiency results are the domain's own types (frozen
dataclasses, read by pydantic); this module only adds the report's frame around them.
Deterministic and semantic findings are separate sections. A semantic finding points at the
deterministic finding it grades by id and never changes it.
"""

from __future__ import annotations

from typing import Literal

from pydantic import BaseModel, ConfigDict, Field

from ..checks import Finding, Status
from ..config import LlmMode
from ..edges import SkipReason
from ..graders import SemanticFinding
from ..sufficiency import Result as SufficiencyResult
from ._fidelity import FidelitySection

REPORT_SCHEMA_VERSION = "edge-audit.report.v1"
#: message: one message to one agent; handoff: one attempt of an application-recorded handoff;
#: trace_rule: one rule of a trace contract on one trace.
EdgeKind = Literal["message", "handoff", "trace_rule"]
#: An edge's worst finding status after the gate, or no findings at all.
EdgeStatus = Status | Literal["no_findings"]


class _Model(BaseModel):
    model_config = ConfigDict(frozen=True, extra="forbid")


class EdgeModel(_Model):
    id: str
    kind: EdgeKind = Field(
        default="message", description="message: one message to one agent; handoff: one attempt of an "
                                       "application-recorded handoff (handoff_stage events), graded by contracts; "
                                       "trace_rule: one rule of a trace contract on one trace")
    trace_id: str
    path: str
    source: str
    destination: str
    event_id: str
    status: EdgeStatus
    counts: dict[str, int] = Field(description="Findings per verdict")


class SkippedModel(_Model):
    """A message that made no edge, under its trace."""

    event_id: str
    sender: str
    reason: SkipReason


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
    findings: list[Finding] = Field(default_factory=list)


class UsageModel(_Model):
    calls: int
    prompt_tokens: int
    completion_tokens: int
    cost_usd: float | None = Field(description="None when the model's price is unknown")


class RouteSufficiencyModel(_Model):
    edges: int
    verdicts: dict[str, int]
    measured: int = Field(description="Edges with no degraded leg: the only ones in the rates")
    stands_alone_rate: float | None
    missing_fields: dict[str, int] = Field(description="Fields the isolated receivers asked for, by count")


class SemanticSection(_Model):
    ran: bool
    mode: LlmMode
    model: str | None = None
    note: str = ""
    findings: list[SemanticFinding] = Field(default_factory=list)
    usage: dict[str, UsageModel] = Field(default_factory=dict, description="Per source: live (spent by this "
                                         "run), cache and cassette (recorded usage, not spent again)")
    errors: dict[str, int] = Field(default_factory=dict, description="Failed calls per kind")
    sufficiency: list[SufficiencyResult] = Field(default_factory=list)
    sufficiency_routes: dict[str, RouteSufficiencyModel] = Field(default_factory=dict)
    sufficiency_estimate: dict[str, int] | None = Field(default=None, description="Upper estimate made before "
                                                        "running: calls and tokens")


class TriageModel(_Model):
    """One edge of the triage list."""

    edge_id: str
    trace_id: str
    route: str = Field(description="source->destination")
    status: str = Field(description="The edge's status after the gate")
    fail: int = Field(description="Deterministic findings with status fail")
    warn: int
    unmeasured: int
    semantic_fail: int = Field(description="Semantic findings with status fail on this edge (reported apart)")
    verdicts: dict[str, int] = Field(description="Deterministic findings per verdict")


class SamplingModel(_Model):
    """What ``--sample`` did: how many traces it audited and left out."""

    rate: float
    seed: int
    min_per_route: dict[str, int]
    audited: int = Field(description="Traces audited")
    by_minimum: int = Field(description="Of those, traces the hash left out, audited to reach a route's minimum")
    skipped: int = Field(description="Traces read but not audited")
    route_traces: dict[str, int] = Field(description="Audited traces per route that has a minimum")


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
    fidelity: FidelitySection = Field(default_factory=FidelitySection, description="Edge fidelity: each message "
                                      "edge's score, its route's aggregate, and the weights used")
    triage: list[TriageModel] = Field(default_factory=list, description="Edges that did not pass, worst first "
                                      "(at most 25): read these first")
    sampling: SamplingModel | None = Field(default=None, description="Set when --sample left traces out")
