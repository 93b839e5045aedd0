"""Semantic (LLM) graders: what the deterministic passes cannot decide.

Graders never import litellm at module import; the deterministic passes never import this
package's providers. Every semantic result is reported apart from the deterministic verdicts.
"""

from . import claim as _claim  # noqa: F401  (registers edge-audit.claim-grader.v1)
from . import constraint as _constraint  # noqa: F401  (registers edge-audit.constraint-grader.v1)
from ._grader import Grader, Judged, make_grader, register_grader, registered_graders
from ._providers import ModelSettings, Request, allow_live_requests, register_provider, register_responder
from ._rubric import Rubric, RubricFile, load_rubric, lock_problems, read_lock, rubric_names, write_lock
from ._run import MODES, Accounting, GraderSpec, Mode, SemanticRunner
from ._setup import cassettes_dir, grader_specs, make_runner, rubric_dirs
from ._store import Cache, Cassettes, KeyParts
from ._types import EvidenceBlock, Item, Job, RubricRef, SemanticFinding, Usage
from ._verify import locate, verify_quote

__all__ = [
    "MODES", "Accounting", "Cache", "Cassettes", "EvidenceBlock", "Grader", "GraderSpec", "Item", "Job", "Judged",
    "KeyParts", "Mode", "ModelSettings", "Request", "Rubric", "RubricFile", "RubricRef", "SemanticFinding",
    "SemanticRunner", "Usage", "allow_live_requests", "cassettes_dir", "grader_specs", "load_rubric", "locate",
    "lock_problems", "make_grader", "make_runner", "read_lock", "register_grader", "register_provider",
    "register_responder", "registered_graders", "rubric_dirs", "rubric_names", "verify_quote", "write_lock",
]
