"""Running grader jobs: modes, cache, cassettes, budget and concurrency, failing closed.

Modes:

* ``off``: no call; every item is ``unmeasured`` (``llm_off``).
* ``live``: the cache, then the model.
* ``record``: as live, and every answer is also written as a cassette.
* ``replay``: cassettes only; a miss is ``unmeasured`` (``cassette_miss``).

Every failure (timeout, rate limit after its retries, output that does not validate after its
retries, provider error, cassette miss, spent budget) makes the job's items ``unmeasured`` with
the reason. Nothing becomes a pass by failing.
"""

from __future__ import annotations

import threading
from collections import Counter
from collections.abc import Callable, Sequence
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass, field

from pydantic import BaseModel, ValidationError

from ..config import LlmMode
from ..errors import GraderError
from ._budget import CallBudget
from ._grader import Grader, Judged
from ._providers import ModelSettings, Provider, Request, provider_for
from ._rubric import Rubric
from ._store import Cache, Cassettes, KeyParts, Stored
from ._types import Job, RubricRef, SemanticFinding, Source, UnmeasuredReason, Usage


@dataclass(frozen=True)
class GraderSpec:
    """A grader with its rubric. In ``off`` mode the rubric is not loaded (``rubric`` is None)
    and findings name it without a hash: nothing was graded with it."""

    grader: Grader
    rubric_name: str
    rubric: Rubric | None

    @property
    def ref(self) -> RubricRef:
        if self.rubric is None:
            rid, _, version = self.rubric_name.rpartition(".v")
            return RubricRef(rid, int(version) if version.isdigit() else 0, None)
        return self.rubric.ref


@dataclass(frozen=True)
class Answer:
    """What one model request gave: the validated output, or the reason there is none."""

    output: BaseModel | None
    source: Source
    usage: Usage
    failure: UnmeasuredReason | None = None
    reason: str = ""


@dataclass
class Accounting:
    """Calls and usage per source. ``live`` usage is what this run spent."""

    calls: Counter[str] = field(default_factory=Counter)
    usage: dict[str, Usage] = field(default_factory=dict)
    errors: Counter[str] = field(default_factory=Counter)

    def add(self, source: str, usage: Usage) -> None:
        self.calls[source] += 1
        self.usage[source] = self.usage.get(source, Usage()) + usage


class SemanticRunner:
    def __init__(self, mode: LlmMode, settings: ModelSettings, *, cache: Cache | None = None,
                 cassettes: Cassettes | None = None, max_cost: float | None = None, concurrency: int = 4,
                 budget: CallBudget | None = None) -> None:
        self.mode = mode
        self.settings = settings
        self.cache = cache
        self.cassettes = cassettes
        self.max_cost = max_cost
        self.concurrency = max(1, concurrency)
        self.accounting = Accounting()
        self.budget = budget or CallBudget()
        self._spent = 0.0
        self._lock = threading.Lock()
        self._providers: dict[str, Provider] = {}

    def parts(self, spec: GraderSpec, job: Job) -> KeyParts:
        assert spec.rubric is not None
        return KeyParts(job.grader, spec.rubric.id, spec.rubric.version, spec.rubric.hash, self.settings.model,
                        self.settings.sampling(), job.inputs)

    def run(self, jobs: Sequence[tuple[GraderSpec, Job]], progress: Callable[[int, int], None] | None = None,
            routes: Sequence[str | None] | None = None) -> list[SemanticFinding]:
        """Grade every job; ``routes`` (each job's ``source->destination``) count against the
        budget's route quotas. The budget is shared out in job order before any request."""
        results: list[list[SemanticFinding]] = [[] for _ in jobs]
        done = 0
        granted: list[str | None] = [None] * len(jobs)
        if self.mode != "off" and self.budget.active:
            granted = [self.budget.allot(route) for route in (routes or [None] * len(jobs))]

        def one(index: int) -> None:
            nonlocal done
            spec, job = jobs[index]
            refused = granted[index]
            results[index] = (self._grade(spec, job) if refused is None
                              else self._unmeasured(spec, job, "budget_exhausted", refused))
            with self._lock:
                done += 1
                if progress is not None:
                    progress(done, len(jobs))

        if self.mode in ("live", "record") and self.concurrency > 1 and len(jobs) > 1:
            with ThreadPoolExecutor(max_workers=self.concurrency) as pool:
                list(pool.map(one, range(len(jobs))))
        else:
            for index in range(len(jobs)):
                one(index)
        return [f for chunk in results for f in chunk]

    def _grade(self, spec: GraderSpec, job: Job) -> list[SemanticFinding]:
        if self.mode == "off" or spec.rubric is None:
            return self._unmeasured(spec, job, "llm_off", "semantic grading is off (--llm off)")
        rubric = spec.rubric
        answer = self.call(self.parts(spec, job), spec.grader.output_for(job), lambda: rubric.render(job.inputs), job,
                           [i.finding_id for i in job.items], budgeted=False)
        if answer.output is None:
            return self._unmeasured(spec, job, answer.failure or "grader_error", answer.reason)
        return [self._finding(spec, job, j, answer.source) for j in spec.grader.judge(job, answer.output)]

    def call(self, parts: KeyParts, output: type[BaseModel], messages: Callable[[], list[dict[str, str]]], job: Job,
             items: list[str], settings: ModelSettings | None = None, *, route: str | None = None,
             budgeted: bool = True) -> Answer:
        """One model request, through the cache or the cassettes as the mode says, within the
        budget (``budgeted``: counted here, for ``route``; graders count theirs in ``run``).
        Every failure comes back as an ``Answer`` with no output and its reason."""
        settings = settings or self.settings
        if self.mode == "off":
            return Answer(None, "none", Usage(), "llm_off", "model calls are off (--llm off)")
        refused = self.budget.allot(route) if budgeted and self.budget.active else None
        if refused is not None:
            return Answer(None, "none", Usage(), "budget_exhausted", refused)
        stored: Stored | None = None
        result: BaseModel | None = None
        source: Source = "cassette" if self.mode == "replay" else "live"
        if self.cache is not None and self.mode != "replay":
            stored = self.cache.get(parts)
            if stored is not None:
                try:
                    result = output.model_validate(stored.output)
                    source = "cache"
                    self._account("cache", stored.usage)
                except ValidationError:
                    result, stored = None, None
        if result is None:
            if self.mode != "replay" and not self._within_budget():
                return Answer(None, "none", Usage(), "budget_exhausted",
                              f"--max-cost {self.max_cost} USD was spent before this call")
            try:
                provider = self._provider_for(settings.model)
                result, usage = provider.complete(
                    Request(job, messages() if self.mode != "replay" else [], output, settings, parts))
            except GraderError as err:
                with self._lock:
                    self.accounting.errors[err.kind] += 1
                reason: UnmeasuredReason = "cassette_miss" if err.kind == "cassette_miss" else "grader_error"
                return Answer(None, "none", Usage(), reason, f"{err.kind}: {err.reason}")
            self._account(source, usage)
            stored = Stored(result.model_dump(mode="json"), usage)
            if self.cache is not None and self.mode != "replay":
                self.cache.put(parts, stored)
        if self.mode == "record" and self.cassettes is not None and stored is not None:
            self.cassettes.put(parts, stored, items)
        return Answer(result, source, stored.usage if stored else Usage())

    def _provider_for(self, model: str) -> Provider:
        with self._lock:
            if model not in self._providers:
                self._providers[model] = provider_for(model, self.cassettes, replay=self.mode == "replay")
            return self._providers[model]

    def _within_budget(self) -> bool:
        with self._lock:
            return self.max_cost is None or self._spent < self.max_cost

    def _account(self, source: str, usage: Usage) -> None:
        with self._lock:
            self.accounting.add(source, usage)
            if source == "live":
                self._spent += usage.cost_usd or 0.0

    def _finding(self, spec: GraderSpec, job: Job, j: Judged, source: Source) -> SemanticFinding:
        details = {"grader_verdict_problem": j.problem} if j.problem else {}
        return SemanticFinding(job.grader, job.edge_id, j.item.finding_id, j.verdict, j.status, j.reason, spec.ref,
                               self.settings.model, source, j.quote, j.quote_verified, j.grader_quote,
                               j.unmeasured_reason, details)

    def _unmeasured(self, spec: GraderSpec, job: Job, reason: UnmeasuredReason, why: str) -> list[SemanticFinding]:
        return [SemanticFinding(job.grader, job.edge_id, item.finding_id, "unmeasured", "unmeasured", why, spec.ref,
                                self.settings.model, "none", unmeasured_reason=reason) for item in job.items]
