"""The golden report (``edge-audit schema golden-report``): one row per case with its pass bits.

A case's ``status`` is ``pass`` only when every part was measured and passed; a part that could
not be measured (an unreadable trace, an audit error, a replay with no cassette) makes it
``unmeasured``, never a pass. Reports hold no wall-clock field and no temporary path, so the same
goldens, config and cassettes give the same bytes.
"""

from __future__ import annotations

from typing import Literal

from pydantic import BaseModel, ConfigDict, Field

GOLDEN_REPORT_SCHEMA = "edge-audit.golden-report.v1"
CaseStatus = Literal["pass", "fail", "unmeasured"]


class _Model(BaseModel):
    model_config = ConfigDict(frozen=True, extra="forbid")


class ClaimHit(_Model):
    claim: str = Field(description="The banned claim's id")
    form: str = Field(description="The form that matched")
    text_id: str = Field(description="The answer text it is in: a message's event id, or `answer` for a replay")
    start: int
    end: int
    quote: str
    stance: Literal["asserted", "denied", "questioned"] = Field(
        description="asserted counts against the answer; denied and questioned (a refusal quoting it) do not")
    cue: str | None = Field(description="The word that made it denied or questioned")


class ContainmentResult(_Model):
    passed: bool = Field(description="No banned claim is asserted")
    asserted: list[str] = Field(description="Ids of the banned claims the answer asserts")
    hits: list[ClaimHit]


class BehaviourResult(_Model):
    id: str
    kind: str
    passed: bool
    text_id: str | None = None
    evidence: str | None = Field(description="The words that show it")
    reason: str | None = None


class EdgeResult(_Model):
    passed: bool | None = Field(description="No edge of the case's trace fails the audit; None when it could not be "
                                            "audited")
    edges: int = 0
    failing: list[str] = Field(default_factory=list, description="Ids of the failing edges")
    findings: list[str] = Field(default_factory=list, description="The failing findings: <edge>: <check> <verdict>")
    error: str | None = None


class CaseResult(_Model):
    id: str
    status: CaseStatus
    passed: bool = Field(description="status == pass")
    containment: ContainmentResult | None = Field(description="None when there was no answer to grade")
    behaviours: list[BehaviourResult]
    edges: EdgeResult | None = Field(description="The audit of the case's trace (check); None in replay")
    answer: str | None = Field(default=None, description="The replayed model answer (replay only)")
    source: str | None = Field(default=None, description="replay: where the answer came from (live, cache, cassette)")
    unmeasured: str | None = Field(default=None, description="Why the case could not be graded")


class GoldenSummary(_Model):
    cases: int
    passed: int
    failed: int
    unmeasured: int
    exit_code: int = Field(description="0: every case passed; 1: some case failed or could not be graded")


class GoldenReport(_Model):
    schema_: Literal["edge-audit.golden-report.v1"] = Field(default="edge-audit.golden-report.v1", alias="schema")
    mode: Literal["check", "replay"]
    goldens: str | None = Field(description="The goldens file, as given")
    model: str | None = Field(default=None, description="replay: the model the answers came from")
    system_prompt_sha256: str | None = Field(default=None, description="replay: hash of the pinned system prompt")
    summary: GoldenSummary
    cases: list[CaseResult]

    model_config = ConfigDict(frozen=True, extra="forbid", populate_by_name=True)


def case_status(parts: list[bool | None], why: str | None) -> CaseStatus:
    if why is not None or any(p is None for p in parts):
        return "fail" if any(p is False for p in parts) else "unmeasured"
    return "pass" if all(parts) else "fail"


def summarise(cases: list[CaseResult]) -> GoldenSummary:
    passed = sum(c.status == "pass" for c in cases)
    failed = sum(c.status == "fail" for c in cases)
    return GoldenSummary(cases=len(cases), passed=passed, failed=failed, unmeasured=len(cases) - passed - failed,
                         exit_code=0 if passed == len(cases) else 1)
