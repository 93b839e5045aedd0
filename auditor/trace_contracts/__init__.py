"""Trace contracts: typed expectations over what a run did (tool calls, their order and
arguments, retries, model calls, run status), compiled to deterministic rules and evaluated on
any ingested trace. Not to be confused with handoff contracts (``auditor.contracts``), which
check the keys of handoff envelopes."""

from ._arguments import json_type, resolve, structured
from ._compile import Evaluation, branch_rules, compile_contract, evaluate_contract
from ._explain import explain_contract
from ._facts import Facts, Step, applies, select, trace_steps
from ._lint import TraceContractProblem, lint_contract, lint_trace_contracts
from ._model import (
    TRACE_CONTRACT_SCHEMA_ID,
    TraceContract,
    TraceContractFile,
    load_trace_contract,
    load_trace_contracts,
    parse_contract,
    trace_contract_files,
)
from ._outcome import Evidence, Outcome, RuleStatus
from ._rule import Rule, RuleResult

__all__ = [
    "TRACE_CONTRACT_SCHEMA_ID", "Evaluation", "Evidence", "Facts", "Outcome", "Rule", "RuleResult",
    "RuleStatus", "Step", "TraceContract", "TraceContractProblem", "explain_contract", "lint_contract",
    "lint_trace_contracts", "TraceContractFile", "applies", "branch_rules", "compile_contract",
    "evaluate_contract", "json_type", "load_trace_contract", "load_trace_contracts", "parse_contract", "resolve",
    "select", "structured", "trace_contract_files", "trace_steps",
]
