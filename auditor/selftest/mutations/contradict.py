"""contradict: change a number or a status in a claim the baseline grounded on a tool result
("58 passed" -> "59 passed"; "succeeded" -> "failed"), so the handoff says what the tool did not."""

from __future__ import annotations

import re

from ...trace import ToolCall
from .._splice import Splice
from ._target import CLAIMS, Plan, Target

NAME = "contradict"
_NUMBER = re.compile(r"(?<![\w.,])(\d{1,3}(?:,\d{3})+|\d+)((?:\.\d+)?)(?![\d,]\d)")
_STATUS = {"passed": "failed", "passes": "fails", "pass": "fail", "succeeded": "failed", "success": "failure",
           "successful": "unsuccessful", "successfully": "with errors", "green": "red"}
_STATUS_WORD = re.compile(r"\b(?:" + "|".join(_STATUS) + r")\b", re.IGNORECASE)


def _replacement(word: str) -> str:
    new = _STATUS[word.lower()]
    return new.capitalize() if word[0].isupper() else new


def _plus_one(match: re.Match[str]) -> str:
    """The number one greater, written as it was (thousands separators, decimals)."""
    whole = int(match.group(1).replace(",", "")) + 1
    return (f"{whole:,}" if "," in match.group(1) else str(whole)) + match.group(2)


def plan(target: Target) -> Plan | str:
    tools = {e.id for e in target.trace.events if isinstance(e, ToolCall)}
    grounded = [f for f in target.findings if f.check.startswith(CLAIMS) and f.verdict == "grounded"
                and f.upstream is not None and f.upstream.event_id in tools
                and f.handoff and target.own(f.handoff[0])]
    if not grounded:
        return "no claim grounded on a tool result in this message"
    edits: list[tuple[str, int, int, str]] = []
    for finding in grounded:
        quote = finding.handoff[0]
        for m in _NUMBER.finditer(quote.text):
            edits.append((quote.field, quote.start + m.start(), quote.start + m.end(), _plus_one(m)))
        for m in _STATUS_WORD.finditer(quote.text):
            edits.append((quote.field, quote.start + m.start(), quote.start + m.end(), _replacement(m.group(0))))
    if not edits:
        return "no number or status word in the claims grounded on a tool result"
    field, start, end, text = sorted(set(edits))[target.rng.randrange(len(set(edits)))]
    old = target.edge.message.content[start:end]
    return Plan((Splice(field, start, end, text),), f"{old!r} -> {text!r} in {field}[{start}:{end}]", CLAIMS)
