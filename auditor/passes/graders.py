"""The semantic graders: each grader gets, per edge, the findings it selects as one job; the jobs
run together once every trace is read (or, in a shard of a parallel run, are left for the
parent, which runs every shard's jobs with ``grade``)."""

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
        if self.audit.defer_model_calls:
            index = {id(spec): n for n, spec in enumerate(self.specs)}
            self.audit.deferred_jobs.extend((index[id(spec)], job, route)
                                            for (spec, job), route in zip(self.jobs, self.routes, strict=True))
            return
        grade(self.audit, self.jobs, self.routes)


def grade(audit: Audit, jobs: list[tuple[GraderSpec, Job]], routes: list[str | None]) -> None:
    """Run the grader jobs (in job order, within the budget) and add their findings."""
    audit.semantic.extend(audit.llm().run(jobs, audit.hooks.semantic_progress, routes))


def make(audit: Audit) -> Graders | None:
    specs = grader_specs(audit.config)
    return Graders(audit, specs) if specs else None
