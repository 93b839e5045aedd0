"""``edge-audit.constraints.v1``: did every hard constraint upstream reach the handoff at the same strength?

**Where constraints come from.** Directives (a modal cue at or above ``min_strength``, or an
imperative naming something specific) in what the source was *told*: messages from a human,
or from an agent that delegated work to the source (it addressed the source before the source
ever addressed it; see ``edges.Contacts``), and optionally the source's system prompt. Replies,
reports, tool output and page text are never constraints. A cue used to infer rather than to
order ("must have been removed", "must be the cache, I'd guess") is not a directive. An edge
back to the agent that issued a constraint does not have to restate it.

**Once per route.** A constraint is judged on a route (source -> destination) at the first edge
of that route after the source could see it; later edges of the route start from there. A rule
is passed on once, not in every message, and each edge reads only what its source newly saw,
so the check's cost grows with the trace, not with messages x upstream.

**Alignment.** Each constraint's content keys (action, objects, numbers, names, identifiers;
see ``nlp._align``) are looked up in every clause of the handoff. The clause carrying the
largest weighted share of them is the carrier, if that share is at least ``ALIGN`` and it
carries at least two keys or one strong key, and every number of the constraint.

**Verdicts**, decided only when sure:

* ``kept``      the carrier states it at the same or greater strength and polarity (a plain
  statement or an imperative counts as absolute; an antonym verb flips polarity back:
  "must not change" is carried by "must stay");
* ``fulfilled`` a one-off order (not a standing rule: no always/never/every/any/only) that the
  carrier reports done ("Refunded the duplicate charge"): nothing is left to pass on;
* ``softened``  the carrier hedges or weakens it (should, ideally, roughly, if possible, may ...)
  or loses an "only";
* ``inverted``  the carrier permits what was forbidden, or orders or permits the opposite,
  with the constraint's own action verb (or its antonym) in the carrier;
* ``dropped``   no clause mentions any strong key and the whole handoff carries less than
  ``DROP`` of the keys, for a constraint specific enough to prove it;
* ``needs_semantic`` anything else: unmeasured, for the LLM grader. Never a guess.

A handoff's structured ``constraints`` field is searched along with its prose.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, replace
from typing import Literal

from pydantic import Field

from ..edges import (
    Edge,
    KeyedText,
    Mark,
    Quote,
    UpstreamItem,
    event_texts,
    fingerprint,
    upstream_mark,
    upstream_since,
)
from ..nlp import (
    Directive,
    Key,
    Sentence,
    Strength,
    TextAnalyzer,
    content_forms,
    coverage,
    squash,
    text_forms,
)
from ..options import Options
from ._carrier import read_units, unit_clauses
from ._constraint_align import (
    AlignUnit,
    aligned_units,
    bound_lost,
    loosely_bounded,
    may_align,
    specific,
)
from ._constraint_sources import is_constraint, looks_imperative
from ._finding import FailOrWarn, Finding, Status
from ._lifted import lifted
from ._reading import Reading, Unit
from ._registry import CheckContext, CheckFn, register_check

NAME = "edge-audit.constraints.v1"
#: Most weighted share of a constraint's keys a whole handoff may hold for ``dropped``.
DROP = 0.25


@dataclass(frozen=True)
class Constraint:
    quote: Quote
    directive: Directive
    author: str
    sentence: str
    #: The whole upstream text the constraint came from.
    origin: str


_FENCE = re.compile(r"```[^\n]*\n(.*?)(?:```|\Z)", re.DOTALL)


class ConstraintCheck:
    def __init__(self, analyzer: TextAnalyzer, min_strength: Strength, sources: tuple[str, ...],
                 dropped_if_receiver_saw: Status) -> None:
        self.analyzer = analyzer
        self.min_strength = min_strength
        self.sources = sources
        self.dropped_if_receiver_saw = dropped_if_receiver_saw
        self._units: dict[str, tuple[AlignUnit, ...]] = {}
        self._sentence_forms: dict[str, frozenset[str]] = {}
        self._candidate_cache: dict[str, list[Sentence]] = {}
        self._last: dict[tuple[str, str, str], Mark | None] = {}  # route -> mark of its latest edge seen
        self._previous: dict[tuple[str, str], Mark | None] = {}  # edge -> mark of its route's edge before it

    def prepare(self, edges: Sequence[Edge]) -> None:
        """Parse, in one batch, every upstream sentence that may hold a constraint, then in a
        second batch the handoff sentences that carry one."""
        wanted = {(s.text_key, s.index): s for edge in edges for *_, sentences in self._sources(edge)
                  for s in sentences}
        self.analyzer.directives(list(wanted.values()), Strength.NONE)
        needed: dict[tuple[str, int], Sentence] = {}
        for edge in edges:
            constraints = self.constraints(edge)
            units = self._handoff_units(edge) if constraints else ()
            for constraint in constraints:
                for unit, _, _ in aligned_units(constraint.directive.keys, units):
                    needed.update(((s.text_key, s.index), s) for s in unit.sentences)
        self.analyzer.directives(list(needed.values()), self.min_strength)

    def constraints(self, edge: Edge) -> list[Constraint]:
        found: list[Constraint] = []
        seen: set[tuple[str, str, str | None]] = set()
        for text, author, origin, candidates in self._sources(edge):
            for sentence, directives in zip(candidates, self.analyzer.directives(candidates, Strength.NONE),
                                            strict=True):
                strong = [d for d in directives if is_constraint(d, self.min_strength, sentence.text)]
                if any(d.keys for d in strong):  # "...; this is mandatory" restates a sibling, not a new rule
                    strong = [d for d in strong if d.keys]
                for directive in strong:
                    identity = (squash(sentence.text), directive.cue.lower(), directive.action)
                    if identity in seen:
                        continue
                    seen.add(identity)
                    found.append(Constraint(_quote(text, sentence, directive),
                                            directive, author, sentence.text, origin))
        return found

    def _window(self, edge: Edge) -> Iterable[UpstreamItem]:
        """What the source saw since the previous edge of the same route (all of its upstream
        for the route's first edge, or for an edge built by hand on a plain sequence). Edges are
        met in trace order, by ``prepare`` or a call."""
        key = (edge.trace_id, edge.id)
        if key not in self._previous:
            route = (edge.trace_id, edge.source, edge.destination)
            self._previous[key] = self._last.get(route)
            self._last[route] = upstream_mark(edge.upstream)
        items = upstream_since(edge.upstream, self._previous[key])
        return edge.upstream if items is None else items

    def _sources(self, edge: Edge) -> list[tuple[KeyedText, str, str, list[Sentence]]]:
        """The upstream texts constraints of ``edge`` come from (in its route's window), with
        their authors, whole texts and candidate sentences. A sentence the receiver saw itself
        is read only if the handoff shares two content words or a number with it: otherwise
        nothing can align, and an unrestated constraint the receiver saw gives no finding
        (``_judge``), so it is not parsed at all."""
        out: list[tuple[KeyedText, str, str, list[Sentence]]] = []
        handoff: frozenset[str] | None = None
        for item in self._window(edge):
            if item.kind not in self.sources or item.author == edge.destination:
                continue
            if item.kind == "message" and not edge.contacts.delegates_to(item.author, edge.source):
                continue
            field = "system_prompt" if item.kind == "system_prompt" else "content"
            for text in event_texts(edge.trace_id, item.event_id, field, item.text, item.structured):
                candidates = self._candidates(text)
                if candidates and item.event_id in edge.receiver_saw:
                    if handoff is None:
                        handoff = self._handoff_forms(edge)
                    candidates = [c for c in candidates if may_align(self._forms(c), handoff)]
                out.append((text, item.author, item.text, candidates))
        return out

    def _forms(self, sentence: Sentence) -> frozenset[str]:
        key = f"{sentence.text_key}#{sentence.index}"
        if key not in self._sentence_forms:
            self._sentence_forms[key] = content_forms(sentence.text)
        return self._sentence_forms[key]

    def _handoff_forms(self, edge: Edge) -> frozenset[str]:
        message = edge.message
        return content_forms(" ".join([message.content] + [str(c) for c in (message.structured or {}).get(
            "constraints", []) or []]))

    def _candidates(self, text: KeyedText) -> list[Sentence]:
        """Sentences that may hold a constraint, in text order: a cue at the check's strength
        (the analyzer's prefilter), or an opening that may be an imperative."""
        if text.key not in self._candidate_cache:
            sentences = self.analyzer.sentences(text.key, text.text)
            chosen = {s.index for s in self.analyzer.candidates(sentences, self.min_strength)}
            self._candidate_cache[text.key] = [s for s in sentences if s.index in chosen
                                               or looks_imperative(s.masked)]
        return self._candidate_cache[text.key]

    def _handoff_units(self, edge: Edge) -> tuple[AlignUnit, ...]:
        message = edge.message
        key = f"{edge.trace_id}/{message.id}@{fingerprint(message.content)}"
        if key not in self._units:
            texts = event_texts(edge.trace_id, message.id, "content", message.content, message.structured)
            units: list[AlignUnit] = []
            observed = _observed(edge)
            for text in texts:
                if observed and text.field == "content":
                    text = replace(text, text=_blank(text.text, observed))
                sentences = self.analyzer.sentences(text.key + "#own" if observed else text.key, text.text)
                for s in sentences:
                    units.append(AlignUnit(text, (s,), s.start, s.end, text_forms(s.text)))
                for a, b in zip(sentences, sentences[1:], strict=False):
                    units.append(AlignUnit(text, (a, b), a.start, b.end, text_forms(text.text[a.start:b.end])))
                for m in _FENCE.finditer(text.text):
                    units.append(AlignUnit(text, (), m.start(1), m.end(1), text_forms(m.group(1)), code=True))
            self._units[key] = tuple(units)
        return self._units[key]

    def __call__(self, edge: Edge) -> list[Finding]:
        constraints = self.constraints(edge)
        if not constraints:
            return []
        units = self._handoff_units(edge)
        structured = any(u.text.field.startswith("structured.") for u in units)
        judged = (self._judge(edge, c, units, structured) for c in constraints)
        return [f for f in judged if f is not None]

    def _judge(self, edge: Edge, constraint: Constraint, units: tuple[AlignUnit, ...],
               structured: bool) -> Finding | None:
        """The finding for one constraint; None when the handoff does not restate it and the
        receiver saw the original itself: nothing was lost on this edge, and nothing to grade."""
        c = constraint.directive
        keys = c.keys
        details: dict[str, object] = {
            "strength": c.strength.name.lower(), "polarity": c.polarity, "action": c.action,
            "restrictive": c.restrictive, "hedged": c.hedged, "cue": c.cue,
            "keys": [k.text for k in keys], "compared_with": "structured" if structured else "prose",
        }
        naming = [u for u in units if len(u.sentences) == 1 and not u.code and any(
            u.forms.has(k) for k in keys if k.strong or k.kind == "noun")]
        mentions = tuple(dict.fromkeys(u.quote() for u in naming))
        aligned = aligned_units(keys, units) if specific(keys) else []
        if not aligned and constraint.quote.event_id in edge.receiver_saw:
            return None
        if not specific(keys):
            return Finding(NAME, edge.id, "needs_semantic", "unmeasured",
                           "nothing specific to match deterministically; needs the semantic grader",
                           constraint.quote, (), mentions, details)
        if aligned:
            share, hit = aligned[0][1], aligned[0][2]
            details.update({"alignment": round(share, 2), "matched": [k.text for k in hit]})
            prose = [(u, h) for u, _, h in aligned if not u.code]
            quotes = tuple(dict.fromkeys(u.quote() for u, _, _ in aligned))
            if not prose:
                return Finding(NAME, edge.id, "needs_semantic", "unmeasured",
                               "restated in a code block; needs the semantic grader", constraint.quote,
                               quotes, mentions, details)
            sentences = [s for u, _ in prose for s in u.sentences]
            parsed = dict(zip(((s.text_key, s.index) for s in sentences),
                              self.analyzer.directives(sentences, self.min_strength), strict=True))
            reading = _reading(c, constraint.sentence, prose, parsed)
            verdict, why = reading.verdict, reading.why
            if reading.units:
                quotes = tuple(prose[n][0].quote() for n in reading.units)
            status: Status = "unmeasured" if verdict == "needs_semantic" else "pass" if verdict in (
                "kept", "fulfilled") else "fail"
            if verdict == "softened" and constraint.quote.event_id in edge.receiver_saw:
                status = self.dropped_if_receiver_saw
            return Finding(NAME, edge.id, verdict, status, why, constraint.quote, quotes,
                           tuple(m for m in mentions if m not in quotes), details)
        whole = text_forms(edge.message.content + " " + " ".join(u.words for u in units if u.text.field != "content"))
        loose = bound_lost(keys, units, constraint.sentence, whole, c.cue_at)
        if loose:
            sentences = [s for u, _ in loose for s in u.sentences]
            parsed = dict(zip(((s.text_key, s.index) for s in sentences),
                              self.analyzer.directives(sentences, self.min_strength), strict=True))
            reading = _reading(c, constraint.sentence, loose, parsed, numbers=False)
            if reading.verdict in ("kept", "softened"):
                read = [loose[n][0] for n in reading.units] or [loose[0][0]]
                quotes = tuple(u.quote() for u in read)
                bound = ", ".join(k.text for k in keys if k.kind == "number")
                details["matched"] = [k.text for k in loose[0][1]]
                others = tuple(m for m in mentions if m not in quotes)
                if not any(loosely_bounded(u.words, constraint.sentence) for u in read):
                    return Finding(NAME, edge.id, "needs_semantic", "unmeasured",
                                   f"restated without its bound ({bound}), with a value of its own or no loose amount "
                                   f"in its place; needs the semantic grader", constraint.quote, quotes, others, details)
                status = self.dropped_if_receiver_saw if constraint.quote.event_id in edge.receiver_saw else "fail"
                return Finding(NAME, edge.id, "softened", status,
                               f"softened: the handoff keeps the rule but drops its bound ({bound})",
                               constraint.quote, quotes, others, details)
        share, hit = coverage(keys, whole)
        details["alignment"] = round(share, 2)
        if any(k.strong for k in hit) or share >= DROP or not any(k.strong for k in keys):
            for unit in naming:
                phrase = lifted(c, unit.words, constraint.sentence)
                if phrase is not None:
                    quote = unit.quote()
                    return Finding(NAME, edge.id, "inverted", "fail",
                                   f"inverted: upstream {c.strength.name.lower()} {c.polarity} ({c.cue!r}) -> a "
                                   f"handoff sentence naming it {'permits' if c.polarity == 'prohibition' else 'lifts'}"
                                   f" it ({phrase!r})", constraint.quote, (quote,),
                                   tuple(m for m in mentions if m != quote), details)
            return Finding(NAME, edge.id, "needs_semantic", "unmeasured",
                           "mentioned in other words or in part; needs the semantic grader",
                           constraint.quote, (), mentions, details)
        if not _for_receiver(constraint, edge):
            return Finding(NAME, edge.id, "needs_semantic", "unmeasured",
                           "not restated; whether it concerns the receiver (or the source already "
                           "fulfilled it) needs the semantic grader", constraint.quote, (), mentions, details)
        return Finding(NAME, edge.id, "dropped", "fail", "not stated in the handoff, and the receiver never saw it",
                       constraint.quote, (), mentions, details)


_PASS_ON = re.compile(r"\b(?:whoever (?:picks|takes|works)|pass (?:this|it|that|these) (?:on|along)|hand (?:it|this) "
                      r"(?:over|on)|when you hand|tell (?:the|them)|let (?:the|them) know|make sure (?:the|they)|"
                      r"downstream|next agent|the receiving)\b")


def _for_receiver(constraint: Constraint, edge: Edge) -> bool:
    """Whether a constraint is evidently meant for the receiver, so that leaving it out is a drop
    and not work the source did itself: its subject is the receiver ("Layout must only use ..."),
    or its message asks for it to be passed on ("whoever picks it up", "when you hand it over")."""
    names = {w for w in re.findall(r"[a-z]{3,}", edge.destination.lower()) if w not in {"agent", "bot", "the"}}
    subject = constraint.quote.text.lower()[:max(0, constraint.directive.cue_at - constraint.directive.scope[0])]
    if names and names <= set(re.findall(r"[a-z]{3,}", subject)):
        return True
    return _PASS_ON.search(constraint.origin.lower()) is not None


_ASIDE = re.compile(r"\s[\u2014\u2013-]\s")


def _quote(text: KeyedText, sentence: Sentence, directive: Directive) -> Quote:
    """The directive's own clause of the sentence, trimmed of a trailing conjunction. It ends at the
    first semicolon or dash after the cue, as the directive's keys do: in "the editor must check every
    reference; final copy comes back to me by 12:00" the second clause is another rule or an aside,
    and in "never the bi-prod one — analysts' dashboards run there" a reason."""
    start, end = directive.scope
    after = directive.cue_at + (0 if directive.imperative else len(directive.cue))
    semicolon = sentence.text.find(";", after, end)
    end = semicolon if semicolon != -1 else end
    dash = _ASIDE.search(sentence.text, after, end)  # "never the bi-prod one — analysts' dashboards run there"
    end = dash.start() if dash is not None else end
    piece = re.sub(r"[\s,;:]+(?:and|but|or|so)?[\s,;:]*$", "", sentence.text[start:end])
    lead = len(piece) - len(piece.lstrip(" ,;:-\u2014"))
    piece = piece.strip(" ,;:-\u2014")
    return Quote(text.event_id, text.field, sentence.start + start + lead, sentence.start + start + lead + len(piece),
                 piece)


def _observed(edge: Edge) -> tuple[str, ...]:
    """Transcripts of the source's own observation that its message carries (a browser's page
    text): evidence, not the source's words, so never a restatement of a constraint."""
    return tuple(item.text for item in edge.upstream if item.tool_call is not None
                 and item.tool_call.recorded_as == "observation" and item.tool_call.agent == edge.source
                 and len(item.text) > 40 and item.text in edge.message.content)


def _blank(text: str, pieces: tuple[str, ...]) -> str:
    for piece in pieces:
        at = text.find(piece)
        if at != -1:
            text = text[:at] + re.sub(r"\S", " ", piece) + text[at + len(piece):]
    return text


def _reading(c: Directive, sentence: str, aligned: list[tuple[AlignUnit, tuple[Key, ...]]],
             parsed: dict[tuple[str, int], tuple[Directive, ...]], numbers: bool = True) -> Reading:
    """Read the aligned units' clauses (``_carrier``) against the constraint."""
    units = [Unit(u.words, unit_clauses(u.words), hit,
                  [(s.start + d.cue_at - u.start, d) for s in u.sentences for d in parsed[(s.text_key, s.index)]])
             for u, hit in aligned]
    return read_units(c, sentence, units, numbers)


class ConstraintsOptions(Options):
    min_strength: Literal["absolute", "recommended", "permitted"] = Field(
        default="absolute", description="The weakest upstream cue that makes a constraint")
    sources: list[Literal["system_prompt", "message"]] = Field(
        default=["message"], description="Where upstream constraints are looked for (tool output is never a source)")
    dropped_if_receiver_saw: FailOrWarn = Field(
        default="warn", description="Status of a dropped constraint the receiver saw itself")


@register_check(NAME, ConstraintsOptions)
def constraints_v1(context: CheckContext, options: ConstraintsOptions) -> CheckFn:
    return ConstraintCheck(context.analyzer, Strength[options.min_strength.upper()], tuple(options.sources),
                           options.dropped_if_receiver_saw)
