"""Sufficiency: does a handoff stand alone? The receiver is rerun with the handoff as its only
context, and the result is scored against what it did in the pipeline (context off vs on)."""

from ._accept import Decision, DegradedReason, by_callable, by_command, deterministic_problems, load_callable
from ._case import AgentSpec, Case, Selection, Selector, make_case
from ._result import IgnoredContext, Leg, Question, Result, Verdict
from ._run import RERUN, REVIEW, Acceptance, LegJudgement, SufficiencyReview, SufficiencyRunner
from ._setup import AgentsFile, load_agents, make_selector, make_sufficiency

__all__ = [
    "RERUN", "REVIEW", "Acceptance", "AgentSpec", "AgentsFile", "Case", "Decision", "DegradedReason", "IgnoredContext", "Leg", "LegJudgement",
    "Question", "Result", "Selection", "Selector", "SufficiencyReview", "SufficiencyRunner", "Verdict", "by_callable",
    "by_command", "deterministic_problems", "load_agents", "load_callable", "make_case", "make_selector", "make_sufficiency",
]
