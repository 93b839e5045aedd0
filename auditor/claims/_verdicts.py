"""The one vocabulary of claim verdicts, with the report status and severity of each.

* ``grounded``: the evidence supports the claim (stated, or derived by simple arithmetic);
  status ``pass``.
* ``contradicted``: visible evidence about the same subject says otherwise; status ``fail``,
  severity ``critical``.
* ``invented``: checkable, and nothing the source could see supports or contradicts it;
  status ``fail`` (or ``warn`` by option), severity ``major``.
* ``unverifiable``: as ``invented``, but the source saw things the trace does not record
  (``capture: partial``, e.g. a web browsing agent), so absence proves nothing; status
  ``unmeasured``, never a failure.
* ``needs_semantic``: no code can decide it (an opinion, a wish, a run that records no
  outcome, a date that may be computed from a rule); status ``unmeasured`` until an LLM
  grader decides it.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Literal

from ..edges import EvidenceText, Quote
from ..trace import ObservationCapture

Verdict = Literal["grounded", "contradicted", "invented", "unverifiable", "needs_semantic"]
VERDICTS: tuple[Verdict, ...] = ("grounded", "contradicted", "invented", "unverifiable", "needs_semantic")
STATUS: dict[Verdict, Literal["pass", "fail", "unmeasured"]] = {
    "grounded": "pass", "contradicted": "fail", "invented": "fail", "unverifiable": "unmeasured",
    "needs_semantic": "unmeasured"}
SEVERITY: dict[Verdict, str] = {"grounded": "none", "contradicted": "critical", "invented": "major",
                                "unverifiable": "unknown", "needs_semantic": "unknown"}


@dataclass(frozen=True)
class Grounding:
    """A claim's verdict, why, and the evidence line that decided it (when one did)."""

    verdict: Verdict
    reason: str
    ref: Quote | None = None


@dataclass(frozen=True)
class Located:
    """A verdict decided by one span of one evidence text, before it is quoted as a ``Grounding``."""

    verdict: Verdict
    reason: str
    text: EvidenceText
    span: tuple[int, int]


def under_capture(found: Grounding, source: str, capture: ObservationCapture) -> Grounding:
    """Absence proves nothing when the source saw more than the trace records: an ``invented``
    claim of a source with ``capture: partial`` is ``unverifiable``. Support and contradiction
    by what *is* recorded stand."""
    if found.verdict == "invented" and capture == "partial":
        return Grounding("unverifiable", f"{found.reason}; {source} saw more than the trace records "
                                         f"(capture: partial)", found.ref)
    return found
