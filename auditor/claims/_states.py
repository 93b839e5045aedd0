"""States of named things: "PA-BC-771203 is approved", "INC-2291 was resolved", "the deploy is
now live", checked against the ``status`` / ``state`` fields of the tool calls about that thing.

A state claim names a subject by an identifier (``PA-BC-771203``) and asserts a state word. The
evidence is the tool calls whose arguments or result mention the identifier, and the
``"status": "..."`` / ``"state": "..."`` values of their results (JSON pairs, or ``status: x``
lines). States fall in three families: done (approved, paid, resolved, active, ...), pending
(pending, pended, queued, scheduled, ...) and failed (failed, rejected, denied, expired, ...).

* a value with the same stem as the claimed state -> ``grounded``;
* values, all of another family -> ``contradicted`` ("is approved" against ``"status": "pended"``);
* no call about the subject, or no status in them -> ``needs_semantic``, which the check does not
  report: the state is left unchecked and the claim's identifier is still checked as one.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass

from ..trace import ToolCall
from ._actions import call_text
from ._rows import vocabulary
from ._verdicts import Verdict

FAMILIES: dict[str, frozenset[str]] = {
    "done": vocabulary("""approved accepted succeeded successful success completed complete done paid settled
verified confirmed active resolved merged deployed delivered passed healthy ready running enabled signed
available live published shipped released cleared granted"""),
    "pending": vocabulary("""pending pended queued waiting scheduled processing submitted requested review
in_review under_review in_progress draft held on_hold awaiting open"""),
    "failed": vocabulary("""failed rejected denied declined cancelled canceled error errored expired inactive
disabled blocked unhealthy suspended revoked terminated bounced"""),
}
STATE_WORDS = "|".join(sorted({w for words in FAMILIES.values() for w in words}, key=len, reverse=True))
CLAIM = re.compile(rf"\b(?:is|was|are|were|has been|have been|got|been)\s+(?:now\s+|already\s+|still\s+|"
                   rf"fully\s+|all\s+)?(?P<state>{STATE_WORDS})\b", re.IGNORECASE)
_VALUE = re.compile(r"\"?(?:[\w.]*_)?(?:status|state)\"?\s*[:=]\s*\"?(?P<value>[A-Za-z_ -]{2,30}?)\"?\s*(?:[,}\n]|$)",
                    re.IGNORECASE | re.MULTILINE)


@dataclass(frozen=True)
class StateVerdict:
    verdict: Verdict
    reason: str
    call: ToolCall | None = None
    span: tuple[int, int] | None = None


def family(word: str) -> str | None:
    word = word.lower().strip().replace(" ", "_").replace("-", "_")
    return next((name for name, words in FAMILIES.items() if word in words), None)


def _stem(word: str) -> str:
    word = word.lower()
    for suffix in ("ed", "d", "ing"):
        if word.endswith(suffix) and len(word) > len(suffix) + 3:
            return word[:-len(suffix)]
    return word


def ground_state(state: str, subjects: Sequence[str], calls: Sequence[ToolCall]) -> StateVerdict | None:
    """``subjects`` are the identifiers the claim names (lower case)."""
    claimed = family(state)
    if claimed is None or not subjects:
        return None
    seen: list[tuple[ToolCall, str, tuple[int, int]]] = []
    for call in calls:
        result = call.result or ""
        if not any(s in call_text(call) or s in result.lower() for s in subjects):
            continue
        seen.extend((call, m.group("value").strip(), m.span("value")) for m in _VALUE.finditer(result)
                    if family(m.group("value")) is not None)
    for call, value, span in reversed(seen):
        if _stem(value) == _stem(state):
            return StateVerdict("grounded", f"{call.id} ({call.tool}) gives status {value!r}", call, span)
    if seen and all(family(value) != claimed for _, value, _ in seen):
        call, value, span = seen[-1]
        return StateVerdict("contradicted", f"{call.id} ({call.tool}) gives status {value!r}, not {state!r}",
                            call, span)
    return None
