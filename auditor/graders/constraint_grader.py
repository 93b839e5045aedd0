"""``edge-audit.constraint-grader.v1``: decides the constraints the deterministic pass left as
``needs_semantic`` (nothing it could be sure of). All such constraints of one edge go in one
call, with the handoff once.

Verdicts: ``preserved`` (pass), ``softened``, ``dropped``, ``contradicted`` (fail). Every
verdict but ``dropped`` needs a quote of the handoff sentence that carries the constraint,
verified against the handoff's text; otherwise the item is ``unverified``.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Literal

from pydantic import BaseModel, Field

from ..checks import Finding, Status, constraints
from ..edges import Edge, EventText
from ..options import Options
from ._grader import Judged, Selection, cap, for_items, judge_items, register_grader
from ._types import Item, Job

NAME = "edge-audit.constraint-grader.v1"
ConstraintVerdict = Literal["preserved", "softened", "dropped", "contradicted"]
_STATUS: dict[str, Status] = {"preserved": "pass", "softened": "fail", "dropped": "fail", "contradicted": "fail"}


class ConstraintJudgement(BaseModel):
    item_id: str = Field(description="The id of the constraint, e.g. c1")
    reason: str = Field(description="Why, in one or two sentences, before deciding")
    quote: str = Field(description="The handoff sentence that carries the constraint, copied exactly, or NONE")
    verdict: ConstraintVerdict


class ConstraintGrades(BaseModel):
    """One judgement per constraint."""

    judgements: list[ConstraintJudgement]


class ConstraintGraderOptions(Options):
    max_handoff_chars: int = Field(default=6000, gt=0, description="The handoff shown, head and tail, at most")
    context_chars: int = Field(default=240, ge=0, description="Upstream text shown each side of a constraint")


class ConstraintGrader:
    name = NAME
    output: type[BaseModel] = ConstraintGrades
    selects = Selection(constraints.NAME)

    def __init__(self, options: ConstraintGraderOptions) -> None:
        self.max_handoff_chars = options.max_handoff_chars
        self.context_chars = options.context_chars

    def _context(self, edge: Edge, finding: Finding) -> str:
        q = finding.upstream
        if q is None:
            return ""
        for item in edge.upstream:
            if item.event_id == q.event_id:
                text = item.text
                lo, hi = max(q.start - self.context_chars, 0), min(q.end + self.context_chars, len(text))
                return ("..." if lo else "") + text[lo:hi] + ("..." if hi < len(text) else "")
        return q.text

    def output_for(self, job: Job) -> type[BaseModel]:
        return for_items(ConstraintGrades, ConstraintJudgement, job)

    def job(self, edge: Edge, findings: Sequence[tuple[str, Finding]]) -> Job:
        items = tuple(Item(f"c{i}", fid, f.upstream.text if f.upstream else f.summary)
                      for i, (fid, f) in enumerate(findings, start=1))
        inputs = {
            "source": edge.source, "destination": edge.destination,
            "handoff": cap(edge.message.content, self.max_handoff_chars),
            "items": [{"id": item.item_id, "constraint": item.text, "context": self._context(edge, f)}
                      for item, (_, f) in zip(items, findings, strict=True)],
        }
        evidence = (EventText(edge.message.id, "content", edge.message.content, "handoff"),)
        return Job(NAME, edge.id, items, inputs, evidence)

    def judge(self, job: Job, output: BaseModel) -> list[Judged]:
        assert isinstance(output, ConstraintGrades)
        return judge_items(job, output.judgements, status_of=_STATUS,
                           needs_quote=frozenset({"preserved", "softened", "contradicted"}),
                           blocks_for=lambda j: job.evidence)


register_grader(NAME, ConstraintGraderOptions)(ConstraintGrader)
