"""Semantic (LLM) graders: what the deterministic passes cannot decide.

Graders never import litellm at module import; the deterministic passes never import this
package's providers. Every semantic result is reported apart from the deterministic verdicts.
"""

# One module per grader, named after its registry name (edge-audit.claim-grader.v1: claim_grader.py).
from . import claim_grader, constraint_grader
from ._budget import CallBudget
from ._grader import (
    Grader,
    Judged,
    Selection,
    grader_options,
    make_grader,
    register_grader,
    registered_graders,
)
from ._providers import (
    ModelSettings,
    Request,
    TextOutput,
    allow_live_requests,
    count_tokens,
    register_provider,
    register_responder,
)
from ._rubric import Rubric, RubricFile, load_rubric, lock_problems, read_lock, rubric_names, write_lock
from ._run import Accounting, Answer, GraderSpec, SemanticRunner
from ._setup import cassettes_dir, grader_specs, make_runner, model_settings, rubric_dirs
from ._store import Cache, Cassettes, KeyParts
from ._types import Item, Job, RubricRef, SemanticFinding, Source, UnmeasuredReason, Usage
from ._verify import is_none, locate, verify_quote

__all__ = [
    "claim_grader", "constraint_grader",
    "Accounting", "Answer", "Cache", "CallBudget", "Cassettes", "Grader", "GraderSpec", "Item", "Job", "Judged", "Selection", "cap", "for_items", "grader_options", "judge_items",
    "KeyParts", "ModelSettings", "Request", "Rubric", "RubricFile", "RubricRef", "SemanticFinding", "Source", "UnmeasuredReason",
    "SemanticRunner", "TextOutput", "Usage", "allow_live_requests", "cassettes_dir", "count_tokens", "grader_specs", "is_none", "load_rubric", "locate",
    "lock_problems", "make_grader", "make_runner", "model_settings", "read_lock", "register_grader", "register_provider",
    "register_responder", "registered_graders", "rubric_dirs", "rubric_names", "verify_quote", "write_lock",
]
