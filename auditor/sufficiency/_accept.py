"""Acceptance checks for one leg's output, and the deterministic checks an isolated output must
also pass.

* ``callable``: ``module:function`` (or ``file.py:function``, relative to the config file) called as ``function(output, context)`` where ``context`` is
  a dict (``leg``, ``edge_id``, ``route``, ``handoff``); it returns a bool, a score in [0, 1]
  (0.5 and above passes), or a dict ``{"accepted", "score", "reason"}``.
* ``command``: a shell command that gets ``{"leg", "output", "edge_id", "route", "handoff"}`` as
  JSON on stdin and answers with its exit code (0 accepts); its output is the reason.

A check that cannot run (import error, exception, timeout) leaves the leg degraded with
``grader_error``: never a pass.
"""

from __future__ import annotations

import importlib
import json
import subprocess
from collections.abc import Callable
from dataclasses import dataclass
from importlib.util import module_from_spec, spec_from_file_location
from pathlib import Path
from typing import Any, Literal

from ..checks import CheckFn
from ..edges import Edge, UpstreamItem
from ..trace import Message
from ._case import Case

DegradedReason = Literal["runtime_unavailable", "receiver_unknown", "insufficient_decision_evidence", "grader_error",
                         "cassette_miss"]


@dataclass(frozen=True)
class Decision:
    accepted: bool | None
    score: float | None
    reason: str
    degraded: DegradedReason | None = None

    @classmethod
    def degrade(cls, why: DegradedReason, reason: str) -> Decision:
        return cls(None, None, reason, why)


def _context(case: Case, leg: str) -> dict[str, Any]:
    return {"leg": leg, "edge_id": case.edge_id, "route": case.route, "handoff": case.handoff}


def load_callable(target: str) -> Callable[..., Any]:
    """``package.module:function``, or ``path/to/file.py:function`` (a path as given: the
    setup resolves it against the config file's folder)."""
    module, _, name = target.rpartition(":")
    if not module or not name:
        raise ValueError(f"{target!r} is not module:function")
    if module.endswith(".py"):
        spec = spec_from_file_location(f"edge_audit_check_{Path(module).stem}", module)
        if spec is None or spec.loader is None:
            raise ValueError(f"cannot load {module}")
        loaded = module_from_spec(spec)
        spec.loader.exec_module(loaded)
        function = getattr(loaded, name)
    else:
        function = getattr(importlib.import_module(module), name)
    if not callable(function):
        raise ValueError(f"{target} is not callable")
    return function  # type: ignore[no-any-return]


def by_callable(target: str, case: Case, leg: str, output: str) -> Decision:
    try:
        answer = load_callable(target)(output, _context(case, leg))
    except Exception as err:  # noqa: BLE001 - a user check that fails leaves the leg degraded, never passed
        return Decision.degrade("grader_error", f"{target} failed: {type(err).__name__}: {err}")
    if isinstance(answer, bool):
        return Decision(answer, 1.0 if answer else 0.0, f"{target} returned {answer}")
    if isinstance(answer, (int, float)):
        return Decision(float(answer) >= 0.5, float(answer), f"{target} scored {float(answer):.2f}")
    if isinstance(answer, dict) and isinstance(answer.get("accepted"), bool):
        score = answer.get("score")
        return Decision(answer["accepted"], float(score) if isinstance(score, (int, float)) else
                        (1.0 if answer["accepted"] else 0.0), str(answer.get("reason", "")))
    return Decision.degrade("grader_error", f"{target} returned {type(answer).__name__}, not a bool, score or dict")


def by_command(command: str, case: Case, leg: str, output: str, timeout: float) -> Decision:
    payload = json.dumps({**_context(case, leg), "output": output})
    try:
        done = subprocess.run(command, shell=True, input=payload, capture_output=True, text=True,  # noqa: S602
                              timeout=timeout)
    except subprocess.TimeoutExpired:
        return Decision.degrade("grader_error", f"acceptance command timed out after {timeout:g} s")
    except OSError as err:
        return Decision.degrade("grader_error", f"acceptance command could not start: {err}")
    said = " ".join((done.stdout or done.stderr).split())[:300]
    return Decision(done.returncode == 0, 1.0 if done.returncode == 0 else 0.0,
                    f"exit code {done.returncode}" + (f": {said}" if said else ""))


#: Claim kinds that fail an isolated output when the handoff does not back them: the rerun has
#: no tools, so a claim to have run, changed or verified something cannot be true of it.
WORK_CLAIMS = frozenset({"result", "execution", "action"})


def deterministic_problems(claims: CheckFn, case: Case, output: str) -> list[str]:
    """Failing work claims (test results, runs, actions) of the isolated output, checked against
    what the isolated receiver had: the handoff alone."""
    message = Message(id=f"{case.handoff_event}:isolated", sender=case.destination, recipients=[case.source],
                      content=output)
    upstream = (UpstreamItem("message", case.handoff_event, case.source, case.handoff),)
    edge = Edge(f"{case.edge_id}:isolated", case.trace_id, case.destination, case.source, message, 0, upstream,
                frozenset())
    return [f"{f.verdict}: {f.handoff[0].text if f.handoff else ''} ({f.summary})" for f in claims(edge)
            if f.status == "fail" and f.details.get("kind") in WORK_CLAIMS]
