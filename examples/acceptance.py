"""Acceptance check for the sufficiency examples (sufficiency.acceptance, kind: callable).

A billing reply does its job only if it names the order or invoice it acted on: a reply that
has to ask "which order?" or that guesses is not accepted. Called as
``names_the_case_id(output, context)``; returns a dict with the decision and its reason.
"""

from __future__ import annotations

import re

CASE_ID = re.compile(r"\b(?:A-\d{3,}|INV-\d{3,})\b")


def names_the_case_id(output: str, context: dict[str, object]) -> dict[str, object]:
    found = sorted(set(CASE_ID.findall(output)))
    if found:
        return {"accepted": True, "score": 1.0, "reason": f"names {', '.join(found)}"}
    return {"accepted": False, "score": 0.0, "reason": "names no order or invoice id"}
