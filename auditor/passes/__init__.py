"""The passes of an audit behind one runner: the deterministic checks, the semantic graders and
sufficiency, each one module with a ``make(audit)`` factory, listed in ``PASSES``."""

from ._base import Audit, BasePass, Graded, Hooks, Numbered, Pass, PassFactory, Progress
from ._report import EXIT_FAILURES, EXIT_INPUT, EXIT_OK, EXIT_RUNTIME, EXIT_USAGE, to_report
from ._runner import PASSES, PREPARE_CHUNK, run
from .graders import grade
from .sufficiency import check_selected

__all__ = [
    "EXIT_FAILURES", "EXIT_INPUT", "EXIT_OK", "EXIT_RUNTIME", "EXIT_USAGE", "PASSES", "PREPARE_CHUNK", "Audit",
    "BasePass", "Graded", "Hooks", "Numbered", "Pass", "PassFactory", "Progress", "check_selected", "grade", "run", "to_report",
]
