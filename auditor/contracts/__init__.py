"""Handoff contracts: reviewed files that say which keys must cross a route, a deterministic
grader that names the first boundary that lost one, a linter, and a producer-side helper that
builds envelopes from the same files."""

from ._grade import STAGES, Attempt, Graded, attempts, grade, grade_trace, unpermitted
from ._lint import LintProblem, lint
from ._model import (
    BOUNDARIES,
    CONTRACT_SCHEMA_ID,
    Contract,
    ContractBook,
    ContractFile,
    Migration,
    Owners,
    contract_files,
    load_contract,
    load_contracts,
)
from ._producer import Envelope, build_envelope, received, stage_event

__all__ = [
    "BOUNDARIES", "CONTRACT_SCHEMA_ID", "STAGES", "Attempt", "Contract", "ContractBook", "ContractFile", "Envelope",
    "Graded", "LintProblem", "Migration", "Owners", "attempts", "build_envelope", "contract_files", "grade",
    "grade_trace", "lint", "load_contract", "load_contracts", "received", "stage_event", "unpermitted",
]
