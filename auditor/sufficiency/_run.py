"""The sufficiency check: rerun the receiver with the handoff alone, and score context off
against context on.

For each selected edge:

1. **context_off**: the receiver, in a fresh session, gets its system prompt and the handoff as
   the only user message (no parent conversation, no scratchpad, no earlier messages). Its
   output is kept in full.
2. **review** (rubric ``sufficiency.v1``): one structured call lists the questions the isolated
   receiver asked or had to guess about (each naming the missing field), and judges both
   outputs against the task stated in the handoff, quoting each output.
3. **acceptance** per route (``judge``, ``callable`` or ``command``) decides each leg. The
   isolated output must also pass the deterministic claim checks against the handoff alone.
4. **context_on** is what the receiver actually produced next in the trace.

Verdicts: ``stands_alone`` (both pass), ``leaked_context`` (fails alone, passed in the
pipeline: fix the message), ``broken`` (fails both ways), ``inconclusive`` (a degraded leg, or
passing alone but failing in the pipeline). A degraded leg (``runtime_unavailable``,
``receiver_unknown``, ``insufficient_decision_evidence``, ``grader_error``, ``cassette_miss``)
is left out of aggregates and never counts as a pass.
"""

from __future__ import annotations

import fnmatch
import hashlib
from collections.abc import Callable, Sequence
from dataclasses import dataclass, replace
from typing import Literal

from pydantic import BaseModel, Field

from ..checks import CheckFn
from ..claims import extract_claims
from ..graders import (
    Answer,
    Job,
    KeyParts,
    ModelSettings,
    Rubric,
    RubricRef,
    SemanticRunner,
    TextOutput,
    count_tokens,
    is_none,
    locate,
)
from ._accept import Decision, DegradedReason, by_callable, by_command, deterministic_problems
from ._case import Case
from ._result import IgnoredContext, Leg, Question, Result, Verdict

RERUN = "edge-audit.sufficiency.rerun.v1"
REVIEW = "edge-audit.sufficiency.v1"
#: What a rerun request is; its hash stands in for a rubric hash in the rerun's request key.
RERUN_PROTOCOL = "edge-audit receiver rerun v1: the receiver's system prompt, then the handoff as the only user message"
AcceptanceKind = Literal["judge", "callable", "command"]


class LegJudgement(BaseModel):
    reason: str = Field(description="Why, before deciding")
    quote: str = Field(description="The words of this output that show it (copied exactly), or NONE")
    accepted: bool = Field(description="Does this output do the task the handoff states?")


class SufficiencyReview(BaseModel):
    """Questions first, then one judgement per output."""

    questions: list[Question]
    isolated: LegJudgement
    pipeline: LegJudgement


@dataclass(frozen=True)
class Acceptance:
    route: str = "*"
    kind: AcceptanceKind = "judge"
    target: str | None = None
    timeout: float = 60.0

    def matches(self, route: str) -> bool:
        return fnmatch.fnmatchcase(route, self.route)


_FAILURE: dict[str, DegradedReason] = {"llm_off": "runtime_unavailable", "budget_exhausted": "runtime_unavailable",
                                       "cassette_miss": "cassette_miss", "grader_error": "grader_error"}


def _degraded_by(answer: Answer) -> DegradedReason:
    if answer.reason.startswith(("refused", "provider")):
        return "runtime_unavailable"
    return _FAILURE.get(answer.failure or "grader_error", "grader_error")


def _excerpt(text: str, limit: int = 300) -> str:
    flat = " ".join(text.split())
    return flat if len(flat) <= limit else flat[:limit - 1] + "…"


class SufficiencyRunner:
    def __init__(self, runner: SemanticRunner, rubric: Rubric | None, acceptance: Sequence[Acceptance],
                 claims: CheckFn, rerun_max_tokens: int = 1024, max_output_chars: int = 8000) -> None:
        self.runner = runner
        self.rubric = rubric
        self.acceptance = list(acceptance) or [Acceptance()]
        self.claims = claims
        self.rerun_max_tokens = rerun_max_tokens
        self.max_output_chars = max_output_chars

    def receiver_settings(self, case: Case) -> ModelSettings:
        return replace(self.runner.settings, model=case.receiver_model or self.runner.settings.model,
                       max_tokens=self.rerun_max_tokens)

    def rerun_messages(self, case: Case) -> list[dict[str, str]]:
        system = [{"role": "system", "content": case.receiver_system}] if case.receiver_system else []
        return [*system, {"role": "user", "content": case.handoff}]

    def rerun_parts(self, case: Case) -> KeyParts:
        settings = self.receiver_settings(case)
        protocol = hashlib.sha256(RERUN_PROTOCOL.encode()).hexdigest()[:16]
        return KeyParts(RERUN, "receiver_rerun", 1, protocol, settings.model, settings.sampling(),
                        {"system": case.receiver_system, "handoff": case.handoff})

    def review_inputs(self, case: Case, isolated: str) -> dict[str, object]:
        cap = self.max_output_chars
        return {"route": case.route, "handoff": case.handoff, "isolated_output": isolated[:cap],
                "pipeline_output": (case.pipeline_output or "(the receiver produced nothing after the handoff)")[:cap]}

    def review_parts(self, case: Case, isolated: str) -> KeyParts:
        assert self.rubric is not None
        r = self.rubric
        return KeyParts(REVIEW, r.id, r.version, r.hash, self.runner.settings.model, self.runner.settings.sampling(),
                        self.review_inputs(case, isolated))

    def estimate(self, cases: Sequence[Case]) -> tuple[int, int]:
        """An upper estimate of the calls and tokens the run will cost (cache and cassette hits cost nothing)."""
        calls = tokens = 0
        for case in cases:
            if not case.receiver_known:
                continue
            calls += 2
            tokens += count_tokens(self.receiver_settings(case).model, self.rerun_messages(case))
            tokens += 2 * self.rerun_max_tokens
            if self.rubric is not None:
                review = self.rubric.render(self.review_inputs(case, "x" * min(self.rerun_max_tokens * 4,
                                                                                self.max_output_chars)))
                tokens += count_tokens(self.runner.settings.model, review) + 400
        return calls, tokens

    def run(self, cases: Sequence[Case], progress: Callable[[int, int | None], None] | None = None) -> list[Result]:
        out = []
        for done, case in enumerate(cases, start=1):
            out.append(self.check(case))
            if progress is not None:
                progress(done, len(cases))
        return out

    def _accept(self, case: Case) -> Acceptance:
        return next((a for a in self.acceptance if a.matches(case.route)), Acceptance())

    def check(self, case: Case) -> Result:
        acceptance = self._accept(case)
        rubric = self.rubric.ref if self.rubric else None
        model = self.runner.settings.model
        receiver_model = self.receiver_settings(case).model
        on_tokens = self._tokens(case.pipeline_output, receiver_model)
        if not case.receiver_known:
            leg = Leg("degraded", None, "none", "none", f"the receiver {case.destination!r} is not a known agent",
                      "receiver_unknown")
            return Result.of(case, "inconclusive", "receiver_unknown", leg, leg, acceptance.kind, rubric=rubric,
                          model=model, receiver_model=receiver_model)
        job = Job(RERUN, case.edge_id, (), {"handoff": case.handoff}, ())
        rerun = self.runner.call(self.rerun_parts(case), TextOutput, lambda: self.rerun_messages(case), job,
                                 [case.edge_id], self.receiver_settings(case), route=case.route)
        on_output = case.pipeline_output
        if rerun.output is None:
            off = Leg("degraded", None, "none", "none", rerun.reason, _degraded_by(rerun))
            on = self._leg_without_review(case, acceptance, "pipeline", on_output, on_tokens)
            return self._verdict(case, off, on, acceptance, (), rubric, model, receiver_model, ())
        assert isinstance(rerun.output, TextOutput)
        isolated = rerun.output.text
        off_tokens = rerun.usage.completion_tokens or self._tokens(isolated, receiver_model)
        review: SufficiencyReview | None = None
        review_answer: Answer | None = None
        if self.rubric is not None:
            rubric_obj = self.rubric
            inputs = self.review_inputs(case, isolated)
            review_job = Job(REVIEW, case.edge_id, (), inputs, ())
            review_answer = self.runner.call(self.review_parts(case, isolated), SufficiencyReview,
                                             lambda: rubric_obj.render(inputs), review_job, [case.edge_id],
                                             route=case.route)
            if isinstance(review_answer.output, SufficiencyReview):
                review = review_answer.output
        problems = tuple(deterministic_problems(self.claims, case, isolated))
        off = self._decide(case, acceptance, "isolated", isolated, review.isolated if review else None,
                           review_answer, rerun.source, off_tokens, None)
        if problems and off.status == "pass":
            off = replace(off, status="fail", score=0.0,
                          evidence=f"deterministic checks failed the isolated output: {'; '.join(problems)}")
        if on_output is None:
            on = Leg("degraded", None, "trace", "none", "the receiver produced nothing after the handoff in the trace",
                     "insufficient_decision_evidence", tokens=on_tokens)
        else:
            on = self._decide(case, acceptance, "pipeline", on_output, review.pipeline if review else None,
                              review_answer, "trace", on_tokens, case.pipeline_event)
        questions = tuple(q for q in review.questions if not is_none(q.missing_field)) if review else ()
        return self._verdict(case, off, on, acceptance, questions, rubric, model, receiver_model, problems)

    def _leg_without_review(self, case: Case, acceptance: Acceptance, leg: str, output: str | None,
                            tokens: int | None) -> Leg:
        if output is None:
            return Leg("degraded", None, "trace", "none", "the receiver produced nothing after the handoff in the trace",
                       "insufficient_decision_evidence", tokens=tokens)
        if acceptance.kind == "judge":
            return Leg("degraded", None, "trace", "none", "the judge needs the isolated output, which is missing",
                       "insufficient_decision_evidence", case.pipeline_event, _excerpt(output), tokens)
        return self._decide(case, acceptance, leg, output, None, None, "trace", tokens, case.pipeline_event)

    def _decide(self, case: Case, acceptance: Acceptance, leg: str, output: str, judged: LegJudgement | None,
                review: Answer | None, output_source: str, tokens: int | None, event: str | None) -> Leg:
        excerpt = _excerpt(output)
        if acceptance.kind == "callable" or acceptance.kind == "command":
            target = acceptance.target or ""
            decision = (by_callable(target, case, leg, output) if acceptance.kind == "callable"
                        else by_command(target, case, leg, output, acceptance.timeout))
            return self._leg(decision, output_source, acceptance.kind, event, excerpt, tokens)
        if judged is None or review is None:
            why: DegradedReason = _degraded_by(review) if review is not None else "runtime_unavailable"
            reason = review.reason if review is not None else "no rubric for the judge"
            return Leg("degraded", None, output_source, "none", reason, why, event, excerpt, tokens)
        source = review.source
        if judged.accepted and (is_none(judged.quote) or locate(judged.quote, output) is None):
            return Leg("degraded", None, output_source, source, f"the judge accepted without a quote found in the "
                       f"output ({judged.quote!r}): {judged.reason}", "insufficient_decision_evidence", event, excerpt,
                       tokens)
        decision = Decision(judged.accepted, 1.0 if judged.accepted else 0.0,
                            judged.reason + ("" if is_none(judged.quote) else f" [quote: {judged.quote}]"))
        return self._leg(decision, output_source, source, event, excerpt, tokens)

    @staticmethod
    def _leg(decision: Decision, output_source: str, decision_source: str, event: str | None, excerpt: str,
             tokens: int | None) -> Leg:
        if decision.degraded is not None or decision.accepted is None:
            return Leg("degraded", None, output_source, decision_source, decision.reason,
                       decision.degraded or "grader_error", event, excerpt, tokens)
        return Leg("pass" if decision.accepted else "fail", decision.score, output_source, decision_source,
                   decision.reason, None, event, excerpt, tokens)

    def _verdict(self, case: Case, off: Leg, on: Leg, acceptance: Acceptance, questions: tuple[Question, ...],
                 rubric: RubricRef | None, model: str, receiver_model: str, problems: tuple[str, ...]) -> Result:
        degraded = [f"{name}: {leg.degraded_reason}" for name, leg in (("context_off", off), ("context_on", on))
                    if leg.status == "degraded"]
        verdict: Verdict
        if degraded:
            verdict, reason = "inconclusive", "; ".join(degraded)
        elif off.status == "pass" and on.status == "pass":
            verdict, reason = "stands_alone", "the receiver does the task with the handoff alone"
        elif off.status == "fail" and on.status == "pass":
            verdict, reason = "leaked_context", "fails with the handoff alone but passed in the pipeline: fix the message"
        elif off.status == "fail":
            verdict, reason = "broken", "fails with the handoff alone and in the pipeline"
        else:
            verdict, reason = "inconclusive", "passes with the handoff alone but failed in the pipeline"
        return Result.of(case, verdict, reason, off, on, acceptance.kind, questions, self._ignored(case), rubric, model,
                      receiver_model, problems)

    @staticmethod
    def _ignored(case: Case) -> tuple[IgnoredContext, ...]:
        """Specific things (numbers, identifiers, paths) the receiver used in the pipeline that
        the handoff did not carry but something else it saw did: the leaked context."""
        if not case.pipeline_output:
            return ()
        handoff = case.handoff.lower()
        found: list[tuple[str, str]] = []
        for claim in extract_claims(case.pipeline_output):
            term = claim.text.strip()
            if claim.kind not in ("number", "identifier", "path") or term.lower() in handoff:
                continue
            source = next((event for event, text in case.receiver_context if term.lower() in text.lower()), None)
            if source is not None and (source, term) not in found:
                found.append((source, term))
        return tuple(IgnoredContext(event, term) for event, term in found[:5])

    @staticmethod
    def _tokens(text: str | None, model: str) -> int | None:
        """The tokens of a receiver's output, with the receiver's model's tokenizer."""
        if text is None:
            return None
        return count_tokens(model, text)
