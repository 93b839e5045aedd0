"""contradict: change a number or a status in a claim the baseline grounded on a tool result
("58 passed" -> "59 passed", the nearest larger number the source never saw; "succeeded" ->
"failed"; "executed successfully" -> "failed" or "executed with errors"), so the handoff says
what the tool did not. The seed picks one of the candidate edits."""

from __future__ import annotations

import re

from ...trace import ToolCall
from .._splice import Splice
from ._target import CLAIMS, Plan, Target

NAME = "contradict"
_NUMBER = re.compile(r"(?<![\w.,])(\d{1,3}(?:,\d{3})+|\d+)((?:\.\d+)?)(?![\d,]\d)")
_STATUS = {"passed": "failed", "passes": "fails", "pass": "fail", "succeeded": "failed", "success": "failure",
           "successful": "unsuccessful", "green": "red"}
_STATUS_WORD = re.compile(r"\b(?:" + "|".join(_STATUS) + r")\b", re.IGNORECASE)
_RAN_WELL = re.compile(r"\b(ran|run|executed|completed|finished|worked)\s+successfully\b", re.IGNORECASE)


def _replacement(word: str) -> str:
    new = _STATUS[word.lower()]
    return new.capitalize() if word[0].isupper() else new


def _larger(match: re.Match[str], seen: str) -> str:
    """The nearest larger number, written as this one was (separators, decimals), that appears
    nowhere in what the source saw."""
    whole = int(match.group(1).replace(",", ""))
    for bigger in range(whole + 1, whole + 10_000):
        text = (f"{bigger:,}" if "," in match.group(1) else str(bigger)) + match.group(2)
        if text not in seen:
            return text
    return f"{whole + 10_000}{match.group(2)}"


def plan(target: Target) -> Plan | str:
    tools = {e.id for e in target.trace.events if isinstance(e, ToolCall)}
    grounded = [f for f in target.findings if f.check.startswith(CLAIMS) and f.verdict == "grounded"
                and f.upstream is not None and f.upstream.event_id in tools
                and f.handoff and target.own(f.handoff[0])]
    if not grounded:
        return "no claim grounded on a tool result in this message"
    seen = " ".join(text for item in target.edge.upstream for _, _, text in item.fields())
    edits: list[tuple[str, int, int, str]] = []
    for finding in grounded:
        quote = finding.handoff[0]
        at = quote.start
        edits += [(quote.field, at + m.start(), at + m.end(), _larger(m, seen)) for m in _NUMBER.finditer(quote.text)]
        edits += [(quote.field, at + m.start(), at + m.end(), _replacement(m.group(0)))
                  for m in _STATUS_WORD.finditer(quote.text)]
        for m in _RAN_WELL.finditer(quote.text):
            edits += [(quote.field, at + m.start(), at + m.end(), "failed"),
                      (quote.field, at + m.start(), at + m.end(), f"{m.group(1)} with errors")]
    if not edits:
        return "no number or status word in the claims grounded on a tool result"
    field, start, end, text = sorted(set(edits))[target.rng.randrange(len(set(edits)))]
    old = target.edge.message.content[start:end]
    return Plan((Splice(field, start, end, text),), f"{old!r} -> {text!r} in {field}[{start}:{end}]", CLAIMS)
