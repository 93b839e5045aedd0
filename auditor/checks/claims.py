"""``edge-audit.claims.v1``: is every checkable claim in the handoff grounded in what its source saw?

Claims are extracted from the handoff's prose (``auditor.claims``) and grounded against the
edge's upstream: the tool calls visible to the source and the texts it received. Statuses:
``grounded`` passes; ``contradicted`` fails (severity ``critical``: the evidence says the
opposite); ``invented`` fails (severity ``major``: nothing supports it), or warns if so
configured; ``unverifiable`` (the source saw more than the trace records) and
``needs_semantic`` are unmeasured (see ``auditor.claims._verdicts``).

An entry point (an edge whose source saw nothing: the first message of a pipeline, which
carries the task) has no evidence to ground anything on; it is skipped unless
``entry_points: check``.

Per-event work (outcome parsing, number scanning, relayed results) is cached by event id,
so a message seen by many edges is analysed once, and each source's evidence is gathered
incrementally along the trace.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path
from typing import Literal

from pydantic import Field

from ..claims import (
    SEVERITY,
    STATUS,
    Claim,
    ClaimKind,
    Evidence,
    EvidenceIndex,
    EvidenceText,
    Grounding,
    Row,
    Run,
    ToolSemantics,
    extract_claims,
    ground,
    load_tool_semantics,
    make_run,
    records,
    rows,
    tabular,
)
from ..edges import Contacts, Edge, Mark, Quote, UpstreamItem, fingerprint, upstream_mark, upstream_since
from ..errors import NlpUnavailableError
from ..nlp import TextAnalyzer
from ..options import Options
from ._claim_doubts import Parts, order_clause
from ._finding import FailOrWarn, Finding, Status
from ._registry import CheckContext, CheckFn, register_check

NAME = "edge-audit.claims.v1"
KINDS: tuple[ClaimKind, ...] = ("result", "execution", "action", "path", "identifier", "number", "fuzzy")


@dataclass
class _Gathered:
    """One source's evidence so far, up to ``mark`` of its upstream (appended to, never changed:
    an ``Evidence`` made from it stays true for the edge it was made for)."""

    mark: Mark | None = None
    runs: list[Run] = field(default_factory=list)
    index: EvidenceIndex = field(default_factory=EvidenceIndex)
    relayed: list[tuple[EvidenceText, Claim]] = field(default_factory=list)
    tables: list[tuple[frozenset[str], ...]] = field(default_factory=list)
    sources: dict[int, EvidenceText] = field(default_factory=dict)


class ClaimCheck:
    def __init__(self, analyzer: TextAnalyzer, semantics: ToolSemantics, kinds: frozenset[str], invented: Status,
                 entry_points: str) -> None:
        self.analyzer = analyzer
        self.semantics = semantics
        self.entry_points = entry_points
        self.kinds = kinds
        self.invented = invented
        # Per-event work is keyed by trace, event and a fingerprint of the text (two traces may share
        # a trace id), or by the tool call object itself, which the cache keeps alive.
        self._rows: dict[tuple[str, str, str, str], tuple[Row, ...]] = {}
        self._records: dict[tuple[str, str, str, str], tuple[frozenset[str], ...]] = {}
        self._text_ids: dict[tuple[str, str, str, str], int] = {}
        self._claims: dict[tuple[str, str, str], tuple[Claim, ...]] = {}
        self._runs: dict[int, Run] = {}
        self._gathered: dict[tuple[str, str], _Gathered] = {}  # (trace, source) -> its evidence so far
        self._orders: dict[str, bool] = {}  # clause -> does it open with an order
        self._names: dict[int, tuple[Contacts, frozenset[str]]] = {}  # id(contacts) -> the trace's participants

    def evidence(self, edge: Edge) -> Evidence:
        """What the source saw, gathered incrementally: each source's evidence so far is kept,
        and an edge adds only the items its source saw since that source's previous edge."""
        key = (edge.trace_id, edge.source)
        gathered = self._gathered.get(key)
        new = upstream_since(edge.upstream, gathered.mark) if gathered is not None else None
        if gathered is None or new is None:
            gathered, new = _Gathered(), edge.upstream
        for item in new:
            self._gather(gathered, edge.trace_id, item)
        gathered.mark = upstream_mark(edge.upstream)
        if gathered.mark is not None:
            self._gathered[key] = gathered
        return Evidence(edge.source, tuple(gathered.runs), gathered.index, tuple(gathered.relayed), edge.capture,
                        tuple(gathered.tables), gathered.sources, self._participants(edge))

    def _gather(self, into: _Gathered, trace_id: str, item: UpstreamItem) -> None:
        if item.tool_call is not None:
            if id(item.tool_call) not in self._runs:
                self._runs[id(item.tool_call)] = make_run(item.tool_call, self.semantics)
            into.runs.append(self._runs[id(item.tool_call)])
        for text in (EvidenceText(*f) for f in item.fields() if f[2]):
            key = (trace_id, text.event_id, text.field, fingerprint(text.text))
            if key not in self._rows:
                self._text_ids[key] = len(self._text_ids)
                output = text.field == "result"
                body = tabular(text.text) if output else text.text  # a CSV table read cell by cell
                self._rows[key] = rows(self._text_ids[key], body, output=output, request=text.field == "arguments")
                self._records[key] = records(body) if output else ()
            if self._records[key]:
                into.tables.append(self._records[key])
            into.sources[self._text_ids[key]] = text
            into.index.add_rows(self._rows[key])
            into.index.add_text(text)
            if item.kind == "message":
                into.relayed.extend((text, c) for c in self._message_claims(trace_id, item.event_id, text.text)
                                    if c.kind in ("result", "execution"))

    def _participants(self, edge: Edge) -> frozenset[str]:
        """Everyone the trace shows taking part (the authors and addressees of its messages, the
        edge's two ends), as spelled; worked out once per trace, whose edges share ``contacts``."""
        contacts = edge.contacts
        cached = self._names.get(id(contacts))
        if cached is None or cached[0] is not contacts:
            names = {*contacts.broadcast, *contacts.humans, *(name for pair in contacts.direct for name in pair)}
            cached = self._names[id(contacts)] = (contacts, frozenset(names))
        return cached[1] | {edge.source, edge.destination}

    def _message_claims(self, trace_id: str, event_id: str, text: str) -> tuple[Claim, ...]:
        """Claims of one message, extracted once: as a handoff, and as relayed evidence for later edges."""
        key = (trace_id, event_id, fingerprint(text))
        if key not in self._claims:
            self._claims[key] = tuple(extract_claims(text))
        return self._claims[key]

    def _ordered(self, edge: Edge, claims: list[Claim]) -> set[int]:
        """The indexes of ``claims`` inside a clause that orders the receiver to do something
        ("Regenerate the lockfile under OPS-4471", "Proposed fix: sort the parts before X").
        Extraction knows orders by a list of verbs; before a claim fails on absence, the tagger
        is asked, once for the handoff's uncached clauses. Not for a link ("See https://... for
        the API" offers it as a source that exists). Without a spaCy pipeline, nothing is an order."""
        message = edge.message
        key = f"{edge.trace_id}/{message.id}/content@{fingerprint(message.content)}"  # as the constraint pass's
        sentences = self.analyzer.sentences(key, message.content)
        starts = [s.start for s in sentences]
        clauses = {n: order_clause(sentences, starts, c) for n, c in enumerate(claims) if c.subkind != "url"}
        todo = list(dict.fromkeys(c for c in clauses.values() if c is not None and c not in self._orders))
        try:
            self._orders.update(zip(todo, self.analyzer.orders(todo), strict=True))
        except NlpUnavailableError:
            return set()
        return {n for n, clause in clauses.items() if clause is not None and self._orders[clause]}

    def __call__(self, edge: Edge) -> list[Finding]:
        if not edge.upstream and self.entry_points == "skip":
            return []
        claims = [c for c in self._message_claims(edge.trace_id, edge.message.id, edge.message.content)
                  if c.kind in self.kinds]
        if not claims:
            return []
        evidence = self.evidence(edge)
        parts = Parts(edge.message.content, claims)
        results = []
        for claim in claims:
            result = ground(claim, evidence, edge.message.content)
            doubt = parts.doubt(claim, result.verdict)
            if doubt is not None:
                result = Grounding("needs_semantic", f"{result.reason}; but {doubt}: the grader decides", result.ref)
            results.append(result)
        invented = [n for n, r in enumerate(results) if r.verdict == "invented"]
        for n in self._ordered(edge, [claims[n] for n in invented]):
            results[invented[n]] = Grounding("needs_semantic", "it is part of an order to the receiver, which "
                                                               "asserts nothing by itself; whether it takes "
                                                               "something for granted needs the grader")
        findings = []
        for claim, result in zip(claims, results, strict=True):
            if claim.subkind in ("state", "tally") and result.verdict == "needs_semantic":
                continue  # reported only where a visible call records a status or the same tally labels
            status = self.invented if result.verdict == "invented" else STATUS[result.verdict]
            ref = result.ref
            handoff = Quote(edge.message.id, "content", claim.start, claim.end, claim.text)
            label = claim.kind + (f" ({claim.category or claim.subkind})" if claim.category or claim.subkind else "")
            details: dict[str, object] = {
                "kind": claim.kind, "category": claim.category, "subkind": claim.subkind,
                "polarity": claim.polarity, "severity": SEVERITY[result.verdict],
                "evidence": f"{ref.event_id}:{ref.field}" if ref else None,
            }
            if claim.counts:
                details["counts"] = dict(claim.counts)
            findings.append(Finding(NAME, edge.id, result.verdict, status, f"{label}: {result.reason}",
                                    ref, (handoff,), (), details))
        return findings


class ClaimsOptions(Options):
    tools: str | None = Field(default=None, description="A tool semantics file (schema edge-audit.tools.v1); "
                                                        "null = the built-in one")
    kinds: list[ClaimKind] = Field(default=list(KINDS), description="The claim kinds checked")
    invented: FailOrWarn = Field(default="fail", description="Status of a claim nothing supports")
    entry_points: Literal["skip", "check"] = Field(default="skip", description="Check the first message of a "
                                                   "pipeline too (its source saw nothing)")


@register_check(NAME, ClaimsOptions)
def claims_v1(context: CheckContext, options: ClaimsOptions) -> CheckFn:
    path = None if options.tools is None else context.resolve(options.tools, Path())
    return ClaimCheck(context.analyzer, load_tool_semantics(path), frozenset(options.kinds), options.invented, options.entry_points)
