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

from ..checks import Finding, Status
from ..edges import Edge
from ._grader import Judged, cap, for_items, judge_items, register_grader
from ._types import EvidenceBlock, Item, Job

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


def _blocks(edge: Edge) -> list[EvidenceBlock]:
    return [EvidenceBlock("", *f) for item in edge.upstream for f in item.fields() if f[2].strip()]


class ClaimGrader:
    name = NAME
    output: type[BaseModel] = ClaimGrades

    def __init__(self, max_block_chars: int = 2000, max_evidence_chars: int = 12000) -> None:
        self.max_block_chars = max_block_chars
        self.max_evidence_chars = max_evidence_chars

    def selects(self, finding: Finding) -> bool:
        return finding.check == "edge-audit.claims.v1" and finding.verdict == "needs_semantic"

    def output_for(self, job: Job) -> type[BaseModel]:
        return for_items(ClaimGrades, ClaimJudgement, job)

    def job(self, edge: Edge, findings: Sequence[tuple[str, Finding]]) -> Job:
        items = tuple(Item(f"k{i}", fid, f.handoff[0].text if f.handoff else f.summary)
                      for i, (fid, f) in enumerate(findings, start=1))
        kept: list[EvidenceBlock] = []
        budget = self.max_evidence_chars
        for block in reversed(_blocks(edge)):
            shown = min(len(block.text), self.max_block_chars)
            if shown > budget:
                break
            budget -= shown
            kept.append(block)
        kept.reverse()
        evidence = tuple(EvidenceBlock(f"E{i}", b.event_id, b.field, b.text) for i, b in enumerate(kept, start=1))
        authors = {u.event_id: u.author for u in edge.upstream}
        inputs = {
            "source": edge.source, "destination": edge.destination,
            "evidence": [{"id": b.block_id, "from": f"{authors.get(b.event_id, b.event_id)} ({b.field})",
                          "text": cap(b.text, self.max_block_chars)} for b in evidence],
            "items": [{"id": item.item_id, "claim": item.text} for item in items],
        }
        return Job(NAME, edge.id, items, inputs, evidence)

    def judge(self, job: Job, output: BaseModel) -> list[Judged]:
        assert isinstance(output, ClaimGrades)
        by_id = {b.block_id: b for b in job.evidence}

        def blocks_for(j: ClaimJudgement) -> tuple[EvidenceBlock, ...] | None:
            block = by_id.get(j.source_id.strip().upper())
            return (block,) if block is not None else None

        return judge_items(job, output.judgements, status_of=_STATUS,
                           needs_quote=frozenset({"supported", "contradicted"}), blocks_for=blocks_for)


@register_grader(NAME)
def claim_grader_v1(max_block_chars: int = 2000, max_evidence_chars: int = 12000) -> ClaimGrader:
    return ClaimGrader(max_block_chars, max_evidence_chars)
