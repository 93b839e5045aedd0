"""``edge-audit.claim-grader.v1``: decides the claims the deterministic pass left as
``needs_semantic`` (fuzzy claims such as "the user wants it configurable", and runs whose
output records no outcome). All such claims of one edge go in one call, with the edge's
upstream shown once as numbered evidence blocks.

Verdicts: ``supported`` (pass), ``unsupported``, ``contradicted`` (fail). ``supported`` and
``contradicted`` need a quote from the evidence block the grader names, verified against that
block's full text; otherwise the item is ``unverified``.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Literal

from pydantic import BaseModel, Field

from ..checks import Finding, Status, claims
from ..edges import Edge, EventText
from ..options import Options
from ._grader import Judged, Selection, cap, for_items, judge_items, register_grader
from ._types import Item, Job

NAME = "edge-audit.claim-grader.v1"
ClaimVerdict = Literal["supported", "unsupported", "contradicted"]
_STATUS: dict[str, Status] = {"supported": "pass", "unsupported": "fail", "contradicted": "fail"}


class ClaimJudgement(BaseModel):
    item_id: str = Field(description="The id of the claim, e.g. k1")
    reason: str = Field(description="Why, in one or two sentences, before deciding")
    source_id: str = Field(description="The id of the evidence block quoted, e.g. E2, or NONE")
    quote: str = Field(description="The words of that block that support or contradict the claim, copied "
                                   "exactly, or NONE")
    verdict: ClaimVerdict


class ClaimGrades(BaseModel):
    """One judgement per claim."""

    judgements: list[ClaimJudgement]


def _blocks(edge: Edge) -> list[EventText]:
    return [EventText(*f) for item in edge.upstream for f in item.fields() if f[2].strip()]


class ClaimGraderOptions(Options):
    max_block_chars: int = Field(default=2000, gt=0, description="Each evidence block shown, at most")
    max_evidence_chars: int = Field(default=12000, gt=0, description="All evidence blocks shown, at most (the "
                                                                     "latest are kept)")


class ClaimGrader:
    name = NAME
    output: type[BaseModel] = ClaimGrades
    selects = Selection(claims.NAME)

    def __init__(self, options: ClaimGraderOptions) -> None:
        self.max_block_chars = options.max_block_chars
        self.max_evidence_chars = options.max_evidence_chars

    def output_for(self, job: Job) -> type[BaseModel]:
        return for_items(ClaimGrades, ClaimJudgement, job)

    def job(self, edge: Edge, findings: Sequence[tuple[str, Finding]]) -> Job:
        items = tuple(Item(f"k{i}", fid, f.handoff[0].text if f.handoff else f.summary)
                      for i, (fid, f) in enumerate(findings, start=1))
        kept: list[EventText] = []
        budget = self.max_evidence_chars
        for block in reversed(_blocks(edge)):
            shown = min(len(block.text), self.max_block_chars)
            if shown > budget:
                break
            budget -= shown
            kept.append(block)
        kept.reverse()
        evidence = tuple(EventText(b.event_id, b.field, b.text, f"E{i}") for i, b in enumerate(kept, start=1))
        authors = {u.event_id: u.author for u in edge.upstream}
        inputs = {
            "source": edge.source, "destination": edge.destination,
            "evidence": [{"id": b.key, "from": f"{authors.get(b.event_id, b.event_id)} ({b.field})",
                          "text": cap(b.text, self.max_block_chars)} for b in evidence],
            "items": [{"id": item.item_id, "claim": item.text} for item in items],
        }
        return Job(NAME, edge.id, items, inputs, evidence)

    def judge(self, job: Job, output: BaseModel) -> list[Judged]:
        assert isinstance(output, ClaimGrades)
        by_id = {b.key: b for b in job.evidence}

        def blocks_for(j: ClaimJudgement) -> tuple[EventText, ...] | None:
            block = by_id.get(j.source_id.strip().upper())
            return (block,) if block is not None else None

        return judge_items(job, output.judgements, status_of=_STATUS,
                           needs_quote=frozenset({"supported", "contradicted"}), blocks_for=blocks_for)


register_grader(NAME, ClaimGraderOptions)(ClaimGrader)
