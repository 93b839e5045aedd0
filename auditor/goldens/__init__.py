"""Golden traces: frozen cases of what a run may say, graded on their own trace (``golden check``)
or on a model's fresh answer to the same observations (``golden replay``)."""

from ._check import answer_texts, case_trace, check_goldens
from ._grade import AnswerText, behaviours, containment
from ._model import (
    GOLDENS_SCHEMA,
    AsksQuestion,
    BannedClaim,
    Behaviour,
    GoldenCase,
    Goldens,
    GoldensFile,
    Mentions,
    StatesFact,
    load_goldens,
)
from ._replay import REPLAY, observations, replay_goldens, replay_messages
from ._report import (
    GOLDEN_REPORT_SCHEMA,
    BehaviourResult,
    CaseResult,
    ClaimHit,
    ContainmentResult,
    EdgeResult,
    GoldenReport,
    GoldenSummary,
)
from ._stance import Stance, StanceOf, StanceReader, stance_of_span
from ._terminal import print_golden

__all__ = [
    "GOLDENS_SCHEMA", "GOLDEN_REPORT_SCHEMA", "REPLAY", "AnswerText", "AsksQuestion", "BannedClaim", "Behaviour",
    "BehaviourResult", "CaseResult", "ClaimHit", "ContainmentResult", "EdgeResult", "GoldenCase", "GoldenReport",
    "GoldenSummary", "Goldens", "GoldensFile", "Mentions", "Stance", "StanceOf", "StanceReader", "StatesFact",
    "answer_texts", "behaviours", "case_trace", "check_goldens", "containment", "load_goldens", "observations", "print_golden",
    "replay_goldens", "replay_messages", "stance_of_span",
]
