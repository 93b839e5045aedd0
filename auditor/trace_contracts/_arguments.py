"""Tool-argument checks: a JSON Pointer (RFC 6901) into a call's structured arguments, tested
with ``exists``, ``type``, ``equals`` or ``one_of`` on the first, all or any call of a tool.

Structured evidence is an arguments object (or array), or a string that parses whole as JSON
into one; anything else (no arguments, free text, a truncated preview) is
``argument_evidence_missing``, unmeasured, never a pass. Findings say which pointer failed and
the JSON type found there, never the arguments' values.
"""

from __future__ import annotations

import json
from typing import Any

from ._facts import Facts, Step
from ._model import ArgumentCheck
from ._outcome import Outcome, outcome
from ._rule import Rule

MISSING = object()


def structured(arguments: Any) -> Any:
    """The structured arguments of a call, or ``MISSING``."""
    if isinstance(arguments, (dict, list)):
        return arguments
    if isinstance(arguments, str):
        try:
            parsed = json.loads(arguments)
        except ValueError:
            return MISSING
        return parsed if isinstance(parsed, (dict, list)) else MISSING
    return MISSING


def resolve(document: Any, pointer: str) -> Any:
    """The value at ``pointer``, or ``MISSING``."""
    if pointer == "":
        return document
    current = document
    for raw in pointer[1:].split("/"):
        token = raw.replace("~1", "/").replace("~0", "~")
        if isinstance(current, dict) and token in current:
            current = current[token]
        elif isinstance(current, list) and token.isdigit() and (token == "0" or not token.startswith("0")) \
                and int(token) < len(current):
            current = current[int(token)]
        else:
            return MISSING
    return current


def json_type(value: Any) -> str:
    if value is None:
        return "null"
    if isinstance(value, bool):
        return "boolean"
    if isinstance(value, int):
        return "integer"
    if isinstance(value, float):
        return "number"
    if isinstance(value, str):
        return "string"
    return "array" if isinstance(value, list) else "object"


def _same(a: Any, b: Any) -> bool:
    """JSON equality: true is not 1, 1 equals 1.0, objects compare by content."""
    return json.dumps(a, sort_keys=True) == json.dumps(b, sort_keys=True) or (
        json_type(a) in ("integer", "number") and json_type(b) in ("integer", "number") and a == b)


def _verdict(check: ArgumentCheck, value: Any) -> bool:
    if check.op == "exists":
        return value is not MISSING
    if value is MISSING:
        return False
    if check.op == "type":
        found = json_type(value)
        return found == check.type or (check.type == "number" and found == "integer")
    if check.op == "equals":
        return _same(value, check.value)
    return any(_same(value, v) for v in check.values or [])


def _one(check: ArgumentCheck, step: Step) -> tuple[str, str]:
    """(``ok`` | ``failed`` | ``no_evidence``, a value-free description)."""
    document = structured(step.arguments)
    if document is MISSING:
        return "no_evidence", f"{step.id}: no structured arguments recorded"
    value = resolve(document, check.path)
    where = check.path or "(root)"
    if _verdict(check, value):
        return "ok", f"{step.id}: {where} holds"
    if value is MISSING:
        return "failed", f"{step.id}: {where} is absent"
    if check.op in ("equals", "one_of"):
        return "failed", f"{step.id}: {where} is a {json_type(value)} with another value"
    return "failed", f"{step.id}: {where} is a {json_type(value)}"


def _expectation(check: ArgumentCheck) -> str:
    where = check.path or "the arguments"
    if check.op == "exists":
        return f"{where} exists"
    if check.op == "type":
        return f"{where} is a {check.type}"
    if check.op == "equals":
        return f"{where} equals {json.dumps(check.value)}"
    return f"{where} is one of {json.dumps(check.values)}"


def argument_rule(rule_id: str, check: ArgumentCheck) -> Rule:
    expectation = _expectation(check)

    def evaluate(facts: Facts) -> Outcome:
        calls = facts.tools(check.tool)
        expected = {"tool": check.tool, "occurrence": check.occurrence, "path": check.path, "op": check.op}
        if not calls:
            if check.occurrence == "all":
                return outcome("pass", "not_called", f"{check.tool} was never called, so no call breaks "
                               f"\"{expectation}\"", [facts.run_evidence()], expected)
            return outcome("unmeasured", "not_called", f"{check.tool} was never called: nothing to check",
                           [facts.run_evidence()], expected)
        judged = [(s, *_one(check, s)) for s in (calls[:1] if check.occurrence == "first" else calls)]
        failed = [(s, why) for s, state, why in judged if state == "failed"]
        missing = [(s, why) for s, state, why in judged if state == "no_evidence"]
        ok = [(s, why) for s, state, why in judged if state == "ok"]
        if check.occurrence == "any" and ok:
            return outcome("pass", "satisfied", f"{check.tool} ({ok[0][0].id}): {expectation}",
                           [ok[0][0].evidence()], expected)
        if failed and (check.occurrence != "any" or not missing):
            return outcome("fail", "argument_mismatch", f"{check.tool}: expected {expectation}; "
                           + "; ".join(why for _, why in failed), [s.evidence() for s, _ in failed], expected,
                           [why for _, why in failed])
        if missing:
            return outcome("unmeasured", "argument_evidence_missing", f"{check.tool}: cannot check "
                           f"\"{expectation}\": " + "; ".join(why for _, why in missing),
                           [s.evidence() for s, _ in missing], expected)
        return outcome("pass", "satisfied", f"{check.tool} ({check.occurrence}): {expectation}",
                       [s.evidence() for s, _ in ok], expected)

    return Rule(rule_id, f"{check.tool} ({check.occurrence} call{'s' if check.occurrence == 'all' else ''}): "
                         f"{expectation}", evaluate)


def argument_rules(prefix: str, checks: list[ArgumentCheck]) -> list[Rule]:
    return [argument_rule(f"{prefix}.arguments.{i}", c) for i, c in enumerate(checks)]
