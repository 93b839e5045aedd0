"""Grounding: each claim against what its source could see.

The evidence of an edge is its upstream (see ``auditor.edges``): the tool calls visible to
the source, in trace order, and the texts of its system prompt, the messages it received and
those tool calls' arguments and results. Verdicts:

* ``grounded``: the evidence supports it (the reference names the event);
* ``contradicted``: the evidence says otherwise. For a result claim the *latest* relevant
  run decides, so a failure that a later run fixed does not contradict "tests pass";
* ``invented``: checkable, but nothing in the evidence bears on it;
* ``needs_semantic``: no code can decide it (a wish, a judgement, a run whose output says
  nothing about its outcome). Left for an LLM grader; unmeasured until then;
* ``unverifiable``: what would be ``invented``, when the source's observations are only partly
  captured (``Evidence.capture == "partial"``).

Numbers, dates and times are grounded by ``_numbers``; see ``_verdicts`` for the vocabulary.
"""

from __future__ import annotations

import itertools
import re

from ..edges import EvidenceText
from ._actions import ground_action
from ._beside import enclosing_sentence, own_words, said_beside
from ._claim import Claim
from ._evidence import Evidence, command_of, quote_at, run_ref
from ._headers import header_value
from ._hearsay import ground_hearsay
from ._numbers import ground_number
from ._results import agrees, ground_result
from ._rows import strong
from ._states import ground_state
from ._tally import ground_tally
from ._verdicts import Grounding, Located, Verdict, under_capture
from .parsers import http_statuses


def ground(claim: Claim, evidence: Evidence, message: str = "") -> Grounding:
    """The verdict on ``claim``; ``message`` is the handoff text it was extracted from (a name's
    appearance grounds it only with its sentence's words beside it: ``_beside``)."""
    return under_capture(_ground(claim, evidence, message), evidence.source, evidence.capture)


def _ground(claim: Claim, evidence: Evidence, message: str) -> Grounding:
    if claim.subkind == "hearsay":
        return ground_hearsay(claim, evidence)
    if claim.kind == "fuzzy":
        return Grounding("needs_semantic", "a statement about what someone wants or said: no code can check it")
    if claim.kind == "result":
        return ground_result(claim, evidence)
    if claim.kind == "execution":
        return _ground_execution(claim, evidence)
    if claim.kind == "action":
        return _ground_action(claim, evidence)
    if claim.subkind == "state":
        return _ground_state(claim, evidence)
    if claim.subkind == "tally":
        tally = ground_tally(claim.value or claim.text, claim.keys, evidence.index)
        if tally is None:
            return Grounding("needs_semantic", "no evidence line carries the same labels")
        return _quoted(tally)
    if claim.subkind == "http":
        found_status = _ground_http(claim, evidence)
        if found_status is not None:
            return found_status
    if claim.kind == "number" and claim.quantity is not None and claim.quantity.family == "count" \
            and claim.quantity.noun and claim.total is None and not claim.limit:
        headed = header_value(claim.quantity, frozenset(k for k in claim.keys if strong(k)),
                              evidence.index.texts_with(claim.quantity.noun))
        if headed is not None:
            return _quoted(headed)
    if claim.kind == "number" and claim.subkind not in ("url", "version", "hash", "ticket"):
        found = ground_number(claim, evidence.index, evidence.tables)
        if found.row is None:
            return Grounding(found.verdict, found.reason)
        text = evidence.sources[found.row.field_index]
        start, end = found.span or (found.row.start, found.row.end)
        return Grounding(found.verdict, f"{found.reason} in {text.event_id} ({text.field})", quote_at(text, start, end))
    return _ground_literal(claim, evidence, message)


def _quoted(found: Located) -> Grounding:
    return Grounding(found.verdict, f"{found.reason} in {found.text.event_id} ({found.text.field})",
                     quote_at(found.text, *found.span))


def _ground_execution(claim: Claim, evidence: Evidence) -> Grounding:
    if claim.subkind == "ran" and evidence.runs:
        latest_run = evidence.runs[-1]
        return Grounding("grounded", f"a run is visible ({latest_run.call.id}, {latest_run.call.tool})",
                         run_ref(latest_run))
    runs = [r for r in evidence.runs if r.outcome.passed is not None]
    if runs:
        latest = runs[-1]
        state = "succeeded" if latest.outcome.passed else "failed"
        verdict: Verdict = "grounded" if agrees(claim, bool(latest.outcome.passed)) else "contradicted"
        return Grounding(verdict, f"the latest run ({latest.call.id}, {latest.call.tool}) {state}",
                         run_ref(latest))
    if evidence.runs:
        return Grounding("needs_semantic", "the visible runs record no outcome", run_ref(evidence.runs[-1]))
    return Grounding("invented", f"no run is visible to {evidence.source}")


def _ground_http(claim: Claim, evidence: Evidence) -> Grounding | None:
    """An HTTP status ("returns 200", "403 Forbidden") against the statuses the visible calls
    report (``parsers.http``): one of them -> grounded; others only -> contradicted; none -> the
    number is grounded as any other."""
    code = int(claim.quantity.value) if claim.quantity is not None else -1
    seen: list[tuple[EvidenceText, int, int, int]] = []
    for run in evidence.runs:
        result = run.call.result or ""
        text = EvidenceText(run.call.id, "result", result)
        seen.extend((text, c, a, b) for c, a, b in http_statuses(result, command_of(run.call)))
    for text, c, a, b in reversed(seen):
        if c == code:
            return Grounding("grounded", f"{text.event_id} reports HTTP {c}", quote_at(text, a, b))
    if seen:
        text, c, a, b = seen[-1]
        codes = sorted({s[1] for s in seen})
        return Grounding("contradicted", f"the visible calls report HTTP {', '.join(map(str, codes))}, "
                                         f"not {code}", quote_at(text, a, b))
    return None


def _ground_state(claim: Claim, evidence: Evidence) -> Grounding:
    found = ground_state(claim.value or "", sorted(claim.keys), [r.call for r in evidence.runs])
    if found is None:
        return Grounding("needs_semantic", f"no visible call about {', '.join(sorted(claim.keys))} records a status")
    if found.call is None or found.span is None:
        return Grounding(found.verdict, found.reason)
    text = EvidenceText(found.call.id, "result", found.call.result or "")
    return Grounding(found.verdict, found.reason, quote_at(text, *found.span))


def _ground_action(claim: Claim, evidence: Evidence) -> Grounding:
    own = [r.call for r in evidence.runs if claim.collective or r.call.agent == evidence.source]
    found = ground_action(claim.subkind or "", claim.value or "", evidence.source, own, claim.shown_code)
    if claim.implicit and not own and found.verdict == "invented":
        return Grounding("needs_semantic", f"'{claim.text}' names no doer, and {evidence.source} has no tool calls: "
                                           f"it may report someone else's work")
    if claim.collective and found.verdict == "invented":
        return Grounding("needs_semantic", f"{found.reason}; 'we' may be another agent whose work "
                                           f"{evidence.source} saw in a message")
    if found.call is None:
        return Grounding(found.verdict, found.reason)
    run = next(r for r in evidence.runs if r.call is found.call)
    return Grounding(found.verdict, found.reason, run_ref(run))


#: The names whose appearance grounds only the sentence that has its words beside them
#: (``_beside``): tickets and versions, which sentences say things of ("HS-05 is fixed in prod",
#: "8.2.3, the latest"). A URL is offered as a source, a commit hash names a revision whose state
#: the sentence's result claim is checked for ("CI passed on 9f3c2ab"), and paths and identifiers
#: were not measured to gain from it (their routed groundings were right 0.75 to 0.8 of the time).
_SAID_OF = frozenset({"ticket", "version"})
#: Places of a name read in its latest text, at most (a long log may name it thousands of times).
_PLACES = 200


def _ground_literal(claim: Claim, evidence: Evidence, message: str) -> Grounding:
    """Paths, identifiers, URLs, versions, hashes and ticket ids: the same string in the evidence,
    and, for ``_SAID_OF``, with the sentence's other words beside it."""
    value = (claim.value or claim.text).strip("`")
    if claim.kind == "path":
        value = value.removeprefix("./")
    if not value:
        return Grounding("needs_semantic", "nothing to match")
    needle = value[:7] if claim.subkind == "hash" else value.lstrip("vV") if claim.subkind == "version" else value
    if claim.subkind == "hash":
        pattern = re.compile(rf"\b{re.escape(needle)}[0-9a-f]*\b", re.IGNORECASE)
    elif claim.subkind == "version":
        pattern = re.compile(rf"(?<![\d.])v?{re.escape(needle)}(?!\d|\.\d)", re.IGNORECASE)
    elif claim.kind in ("identifier", "path"):
        pattern = re.compile(rf"(?<![\w]){re.escape(value)}(?![\w])")
    else:
        pattern = re.compile(rf"(?<![\w.]){re.escape(value)}(?![\w])", re.IGNORECASE)
    found = _search(pattern, evidence, needle)
    if found is None and claim.kind == "identifier" and value.endswith("s") and len(value) > 3:
        found = _search(re.compile(rf"(?<![\w]){re.escape(value[:-1])}(?![\w])"), evidence, value[:-1])
    if found is not None:
        text, m = found
        if claim.subkind not in _SAID_OF or not message:
            return Grounding("grounded", f"appears in {text.event_id} ({text.field})", quote_at(text, m.start(), m.end()))
        own = own_words(enclosing_sentence(message, claim.start, claim.end), claim.text)
        # the latest text naming it decides, as a rerun does: an earlier "fixed" is no support once
        # a later record names the ticket without it; within that text, any place may say it
        beside = next((n for n in itertools.islice(pattern.finditer(text.text), _PLACES)
                       if said_beside(own, text.text, n.start(), n.end())), None)
        if beside is None:
            return Grounding("needs_semantic", f"appears in {text.event_id} ({text.field}), but nothing beside it "
                                               f"there says what the sentence says of it: the grader decides",
                             quote_at(text, m.start(), m.end()))
        return Grounding("grounded", f"appears in {text.event_id} ({text.field})",
                         quote_at(text, beside.start(), beside.end()))
    if claim.kind == "identifier" and value in evidence.participants:
        return Grounding("grounded", f"{value!r} names a participant of the conversation")
    if claim.subkind == "snippet":
        return _ground_snippet(claim, value, evidence)
    if claim.subkind == "version":
        for name in sorted(claim.keys):
            other = _search(re.compile(rf"(?<![\w-]){re.escape(name)}(?![\w-])\S*?[\s=@:]+v?(\d+(?:\.\d+)+)",
                                       re.IGNORECASE), evidence, name)
            if other is not None:
                text, m = other
                return Grounding("contradicted", f"{value!r} appears nowhere; {text.event_id} ({text.field}) gives "
                                                 f"{name} {m.group(1)}", quote_at(text, m.start(1), m.end(1)))
    alike = _written_alike(claim, value, evidence)
    if alike is not None:
        text, m = alike
        return Grounding("needs_semantic", f"{value!r} appears nowhere as written, but {m.group(0)!r} in "
                                           f"{text.event_id} may be it", quote_at(text, m.start(), m.end()))
    if claim.kind in ("path", "identifier"):
        return Grounding("needs_semantic", f"{value!r} appears in no tool call and no upstream message; a name "
                                           f"nothing shows may be one to create, a conventional one or one known "
                                           f"from outside the trace: the grader decides")
    return Grounding("invented", f"{value!r} appears in no tool call and no upstream message")


def _written_alike(claim: Claim, value: str, evidence: Evidence) -> tuple[EvidenceText, re.Match[str]] | None:
    """Absence is looked for loosely, since ``invented`` rests on it: a ticket's number alone
    ("9921" in a ``gh pr list`` row for "#9921"), a name in any case and with or without
    separators, or inside a longer name ("access_key_1" in "access_key_1_active",
    "minAvailable" as "min_available"), a path's file name in another directory."""
    if claim.subkind == "ticket":
        digits = re.search(r"\d{2,}", value)
        return None if digits is None else _search(re.compile(rf"(?<![\w.]){digits.group(0)}(?![\w.])"), evidence,
                                                  digits.group(0))
    if claim.kind == "identifier":
        chars = [c for c in value if c.isalnum()]
        if len(chars) < 4:
            return None
        return _search(re.compile("[-_ .]?".join(re.escape(c) for c in chars), re.IGNORECASE), evidence, "")
    if claim.kind == "path":
        name = value.rstrip("/").rsplit("/", 1)[-1]
        if len(name) < 5 or name == value:
            return None
        return _search(re.compile(rf"(?<![\w.-]){re.escape(name)}(?![\w-])"), evidence, name)
    return None


def _search(pattern: re.Pattern[str], evidence: Evidence, needle: str) -> tuple[EvidenceText, re.Match[str]] | None:
    return evidence.index.search(pattern, needle)


def _ground_snippet(claim: Claim, value: str, evidence: Evidence) -> Grounding:
    """A code snippet of several words ("`import os`", a command line) is a paraphrase or a
    suggestion more often than a quote: grounded when every one of its names is visible,
    otherwise for the graders."""
    names = [w for w in re.findall(r"[A-Za-z_][\w.-]*", value) if len(w) > 1]
    missing = [w for w in names if _search(re.compile(rf"(?<![\w]){re.escape(w)}(?![\w])"), evidence, w) is None]
    if names and not missing:
        return Grounding("grounded", f"every name of {value!r} is visible")
    return Grounding("needs_semantic", f"a code snippet whose names {', '.join(missing) or value!r} are not all "
                                       f"visible: it may be a paraphrase or a suggestion")
