"""The semantic graders: each grader gets, per edge, the findings it selects as one job; the jobs
run together once every trace is read."""

from __future__ import annotations

from ..edges import Edge
from ..graders import GraderSpec, Job, grader_specs
from ..sampling import route_of
from ..trace import LoadedTrace
from ._base import Audit, BasePass, Numbered


class Graders(BasePass):
    def __init__(self, audit: Audit, specs: list[GraderSpec]) -> None:
        self.audit = audit
        self.specs = specs
        self.runner = audit.llm()
        self.jobs: list[tuple[GraderSpec, Job]] = []
        self.routes: list[str | None] = []
        self.committed = 0

    def edge(self, item: LoadedTrace, edge: Edge, found: list[Numbered]) -> None:
        for spec in self.specs:
            selected = [(fid, f) for fid, f in found if spec.grader.selects(f)]
            if selected:
                self.jobs.append((spec, spec.grader.job(edge, selected)))
                self.routes.append(route_of(edge.source, edge.destination))

    def commit(self) -> None:
        self.committed = len(self.jobs)

    def rollback(self) -> None:
        del self.jobs[self.committed:], self.routes[self.committed:]

    def finish(self) -> None:
        self.audit.semantic.extend(self.runner.run(self.jobs, self.audit.hooks.semantic_progress, self.routes))


def make(audit: Audit) -> Graders | None:
    specs = grader_specs(audit.config)
    return Graders(audit, specs) if specs else None
