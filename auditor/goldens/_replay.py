"""``golden replay``: the pinned system prompt and each case's observations, sent to a model
through the project's runner (``--llm live|record|replay``, cache and cassettes), and the answer
graded like a trace's.

The request key holds the model, the sampling parameters, a hash of the system prompt and the
case's observations: editing the prompt, the observations or the model misses every cassette, and
a miss leaves the case ``unmeasured``, never passed.
"""

from __future__ import annotations

import hashlib
import json
from collections.abc import Sequence
from dataclasses import replace
from functools import partial

from ..config import AuditConfig
from ..errors import TraceError, UsageError
from ..graders import Job, KeyParts, TextOutput, make_runner
from ..trace import Message, ToolCall, Trace
from ._check import case_trace
from ._grade import AnswerText, behaviours, containment
from ._model import GoldenCase, Goldens
from ._report import CaseResult, GoldenReport, case_status, summarise
from ._stance import StanceReader

REPLAY = "edge-audit.golden.replay.v1"
DEFAULT_MAX_TOKENS = 256


def observations(case: GoldenCase, trace: Trace | None) -> list[str]:
    """The case's own observations, else its trace's pipeline inputs and tool results, in order."""
    if case.observations is not None:
        return list(case.observations)
    assert trace is not None
    humans = {a.name for a in trace.agents if a.kind == "human"}
    lines = []
    for event in trace.events:
        if isinstance(event, Message) and event.sender in humans and event.content.strip():
            lines.append(f"{event.sender}: {event.content.strip()}")
        elif isinstance(event, ToolCall):
            args = event.arguments if isinstance(event.arguments, str) else json.dumps(event.arguments, sort_keys=True)
            lines.append(f"tool {event.tool} ({args}): {(event.result or '').strip()}")
    return lines


def replay_messages(system: str, lines: Sequence[str]) -> list[dict[str, str]]:
    return [{"role": "system", "content": system.strip()},
            {"role": "user", "content": "Observations:\n" + "\n".join(f"- {line}" for line in lines)}]


def replay_goldens(goldens: Goldens, config: AuditConfig, *, cases: Sequence[str] | None = None,
                   max_tokens: int | None = None) -> GoldenReport:
    """Ask ``config.semantic``'s model for each case's answer (as its mode says) and grade it."""
    system = goldens.system_prompt()
    prompt_hash = hashlib.sha256(system.encode("utf-8")).hexdigest()
    runner = make_runner(config)
    settings = replace(runner.settings, max_tokens=max_tokens or DEFAULT_MAX_TOKENS)
    reader = StanceReader(config.nlp.pipeline)
    results = []
    for case in goldens.cases:
        if cases is not None and case.id not in cases:
            continue
        try:
            lines = observations(case, None if case.observations is not None else case_trace(goldens, case, config))
        except (TraceError, UsageError) as err:
            results.append(CaseResult(id=case.id, status="unmeasured", passed=False, containment=None, behaviours=[],
                                      edges=None, unmeasured=f"the case's trace cannot be read: {err}"))
            continue
        inputs = {"case": case.id, "observations": lines}
        parts = KeyParts(REPLAY, "golden_system", 1, prompt_hash[:16], settings.model, settings.sampling(), inputs)
        answer = runner.call(parts, TextOutput, partial(replay_messages, system, lines),
                             Job(REPLAY, case.id, (), inputs, ()), [case.id], settings)
        if not isinstance(answer.output, TextOutput):
            results.append(CaseResult(id=case.id, status="unmeasured", passed=False, containment=None, behaviours=[],
                                      edges=None, unmeasured=answer.reason or "no answer", source=answer.source))
            continue
        text = [AnswerText("answer", answer.output.text)]
        kept = containment(case, text, reader)
        done = behaviours(case, text, reader)
        status = case_status([kept.passed, *(b.passed for b in done)], None)
        results.append(CaseResult(id=case.id, status=status, passed=status == "pass", containment=kept,
                                  behaviours=done, edges=None, answer=answer.output.text, source=answer.source))
    return GoldenReport(mode="replay", goldens=str(goldens.path) if goldens.path else None, model=settings.model,
                        system_prompt_sha256=prompt_hash, summary=summarise(results), cases=results)
