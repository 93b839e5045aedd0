"""``edge-audit.constraints.v1``: did every hard constraint upstream reach the handoff at the same strength?

**Where constraints come from.** Directives (a modal cue at or above ``min_strength``, or an
imperative naming something specific) in what the source was *told*: messages from a human,
or from an agent that delegated work to the source (it addressed the source before the source
ever addressed it; see ``edges.Contacts``), and optionally the source's system prompt. Replies,
reports, tool output and page text are never constraints. A cue used to infer rather than to
order ("must have been removed", "must be the cache, I'd guess") is not a directive. An edge
back to the agent that issued a constraint does not have to restate it.

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
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Literal

from ..edges import Edge, KeyedText, Quote, event_texts
from ..errors import ConfigError
from ..nlp import Directive, Sentence, Strength, TextAnalyzer, verb_relation
from ..nlp._align import Forms, Key, clauses, coverage, text_forms, word_forms
from ..nlp._lexicon import (
    CUE_PATTERN,
    CUE_TABLE,
    HEDGE_PATTERN,
    NEGATION_PATTERN,
    RESTRICTIVE_PATTERN,
    VERB_GROUPS,
)
from ..nlp._text import squash
from ._finding import Finding, Status
from ._registry import CheckContext, CheckFn, register_check

NAME = "edge-audit.constraints.v1"
Verdict = Literal["kept", "fulfilled", "softened", "dropped", "inverted", "needs_semantic"]
_SOURCES = ("message",)
#: Least weighted share of a constraint's keys that a carrier clause must hold.
ALIGN = 0.5
#: Most weighted share of a constraint's keys a whole handoff may hold for ``dropped``.
DROP = 0.25


@dataclass(frozen=True)
class Constraint:
    quote: Quote
    directive: Directive
    author: str


@dataclass(frozen=True)
class _Unit:
    """A stretch of the handoff a constraint may be restated in: one sentence, two adjacent
    sentences (a restatement split in two), or a code block (config written out)."""

    text: KeyedText
    sentences: tuple[Sentence, ...]
    start: int
    end: int
    forms: Forms
    code: bool = False

    @property
    def words(self) -> str:
        return self.text.text[self.start:self.end]

    def quote(self) -> Quote:
        return Quote(self.text.event_id, self.text.field, self.start, self.end, self.words)


_FENCE = re.compile(r"```[^\n]*\n(.*?)(?:```|\Z)", re.DOTALL)


class ConstraintCheck:
    def __init__(self, analyzer: TextAnalyzer, min_strength: Strength, sources: tuple[str, ...],
                 dropped_if_receiver_saw: Status) -> None:
        self.analyzer = analyzer
        self.min_strength = min_strength
        self.sources = sources
        self.dropped_if_receiver_saw = dropped_if_receiver_saw
        self._units: dict[str, tuple[_Unit, ...]] = {}

    def prepare(self, edges: Sequence[Edge]) -> None:
        """Parse, in one batch, every upstream sentence that may hold a constraint, then in a
        second batch the handoff sentences that carry one."""
        texts = {t.key: t for edge in edges for t, _ in self._upstream_texts(edge)}
        self.analyzer.directives([s for t in texts.values() for s in self._candidates(t)], Strength.NONE)
        needed: dict[tuple[str, int], Sentence] = {}
        for edge in edges:
            units = self._handoff_units(edge)
            for constraint in self.constraints(edge):
                best = _best(constraint.directive.keys, units)
                if best is not None:
                    needed.update(((s.text_key, s.index), s) for s in best[0].sentences)
        self.analyzer.directives(list(needed.values()), self.min_strength)

    def constraints(self, edge: Edge) -> list[Constraint]:
        found: list[Constraint] = []
        seen: set[tuple[str, str, str | None]] = set()
        for text, author in self._upstream_texts(edge):
            candidates = self._candidates(text)
            for sentence, directives in zip(candidates, self.analyzer.directives(candidates, Strength.NONE),
                                            strict=True):
                strong = [d for d in directives if _is_constraint(d, self.min_strength)]
                if any(d.keys for d in strong):  # "...; this is mandatory" restates a sibling, not a new rule
                    strong = [d for d in strong if d.keys]
                for directive in strong:
                    identity = (squash(sentence.text), directive.cue.lower(), directive.action)
                    if identity in seen:
                        continue
                    seen.add(identity)
                    found.append(Constraint(_quote(text, sentence, directive if len(strong) > 1 else None),
                                            directive, author))
        return found

    def _upstream_texts(self, edge: Edge) -> list[tuple[KeyedText, str]]:
        out: list[tuple[KeyedText, str]] = []
        for item in edge.upstream:
            if item.kind not in self.sources or item.author == edge.destination:
                continue
            if item.kind == "message" and not edge.contacts.delegates_to(item.author, edge.source):
                continue
            field = "system_prompt" if item.kind == "system_prompt" else "content"
            out.extend((t, item.author) for t in event_texts(edge.trace_id, item.event_id, field, item.text,
                                                              item.structured))
        return out

    def _candidates(self, text: KeyedText) -> list[Sentence]:
        """Sentences that may hold a constraint, in text order: a cue at the check's strength
        (the analyzer's prefilter), or an opening that may be an imperative."""
        sentences = self.analyzer.sentences(text.key, text.text)
        chosen = {s.index for s in self.analyzer.candidates(sentences, self.min_strength)}
        return [s for s in sentences if s.index in chosen or _looks_imperative(s.masked)]

    def _handoff_units(self, edge: Edge) -> tuple[_Unit, ...]:
        message = edge.message
        key = f"{edge.trace_id}/{message.id}"
        if key not in self._units:
            texts = event_texts(edge.trace_id, message.id, "content", message.content, message.structured)
            units: list[_Unit] = []
            for text in texts:
                sentences = self.analyzer.sentences(text.key, text.text)
                for s in sentences:
                    units.append(_Unit(text, (s,), s.start, s.end, text_forms(s.text)))
                for a, b in zip(sentences, sentences[1:], strict=False):
                    units.append(_Unit(text, (a, b), a.start, b.end, text_forms(text.text[a.start:b.end])))
                for m in _FENCE.finditer(text.text):
                    units.append(_Unit(text, (), m.start(1), m.end(1), text_forms(m.group(1)), code=True))
            self._units[key] = tuple(units)
        return self._units[key]

    def __call__(self, edge: Edge) -> list[Finding]:
        constraints = self.constraints(edge)
        if not constraints:
            return []
        units = self._handoff_units(edge)
        structured = any(u.text.field.startswith("structured.") for u in units)
        return [self._judge(edge, c, units, structured) for c in constraints]

    def _judge(self, edge: Edge, constraint: Constraint, units: tuple[_Unit, ...], structured: bool) -> Finding:
        c = constraint.directive
        keys = c.keys
        details: dict[str, object] = {
            "strength": c.strength.name.lower(), "polarity": c.polarity, "action": c.action,
            "restrictive": c.restrictive, "hedged": c.hedged, "cue": c.cue,
            "keys": [k.text for k in keys], "compared_with": "structured" if structured else "prose",
        }
        mentions = tuple(dict.fromkeys(u.quote() for u in units if len(u.sentences) == 1 and any(
            u.forms.has(k) for k in keys if k.strong or k.kind == "noun")))
        if not _specific(keys):
            return Finding(NAME, edge.id, "needs_semantic", "unmeasured",
                           "nothing specific to match deterministically; needs the semantic grader",
                           constraint.quote, (), mentions, details)
        best = _best(keys, units)
        if best is not None:
            unit, share, hit = best
            details.update({"alignment": round(share, 2), "matched": [k.text for k in hit]})
            if unit.code:
                return Finding(NAME, edge.id, "needs_semantic", "unmeasured",
                               "restated in a code block; needs the semantic grader", constraint.quote,
                               (unit.quote(),), mentions, details)
            parsed = [(s, d) for s, ds in zip(unit.sentences, self.analyzer.directives(
                list(unit.sentences), self.min_strength), strict=True) for d in ds]
            verdict, why = _compare(c, constraint.quote.text, unit, hit, parsed)
            status: Status = "unmeasured" if verdict == "needs_semantic" else "pass" if verdict in (
                "kept", "fulfilled") else "fail"
            if verdict == "softened" and constraint.quote.event_id in edge.receiver_saw:
                status = self.dropped_if_receiver_saw
            return Finding(NAME, edge.id, verdict, status, why, constraint.quote, (unit.quote(),),
                           tuple(m for m in mentions if m != unit.quote()), details)
        whole = text_forms(edge.message.content + " " + " ".join(u.words for u in units if u.text.field != "content"))
        share, hit = coverage(keys, whole)
        details["alignment"] = round(share, 2)
        if any(k.strong for k in hit) or share >= DROP or not any(k.strong for k in keys):
            return Finding(NAME, edge.id, "needs_semantic", "unmeasured",
                           "mentioned in other words or in part; needs the semantic grader",
                           constraint.quote, (), mentions, details)
        saw = constraint.quote.event_id in edge.receiver_saw
        details["receiver_saw_source"] = saw
        status = self.dropped_if_receiver_saw if saw else "fail"
        summary = "not stated in the handoff" + (" (the receiver saw the original)" if saw else "")
        return Finding(NAME, edge.id, "dropped", status, summary, constraint.quote, (), mentions, details)


def _quote(text: KeyedText, sentence: Sentence, directive: Directive | None) -> Quote:
    if directive is None:
        return Quote(text.event_id, text.field, sentence.start, sentence.end, sentence.text)
    start, end = directive.scope
    piece = sentence.text[start:end]
    lead = len(piece) - len(piece.lstrip(" ,;:-\u2014"))
    piece = piece.strip(" ,;:-\u2014")
    return Quote(text.event_id, text.field, sentence.start + start + lead, sentence.start + start + lead + len(piece),
                 piece)


def _is_constraint(d: Directive, min_strength: Strength) -> bool:
    if d.epistemic or d.strength < min_strength:
        return False
    return d.has_explicit_cue or any(k.strong for k in d.keys)


_IMPERATIVE_LEAD = ("please ", "also ", "then ", "first ", "just ", "and ", "finally ")


_NOT_VERBS = frozenset({"the", "a", "an", "i", "we", "you", "it", "this", "that", "they", "he", "she", "there",
                        "here", "our", "my", "your", "if", "when", "for", "is", "are", "was", "were", "let"})


def _looks_imperative(masked: str) -> bool:
    """A cheap prefilter: the sentence, or a clause after a semicolon, colon or dash, opens with
    a word that may be a bare verb (the parse decides)."""
    for piece in re.split(r"[;:\u2014\u2013]|\s-\s", masked.lower()):
        low = piece.lstrip()
        for lead in _IMPERATIVE_LEAD:
            if low.startswith(lead):
                low = low[len(lead):]
        word = re.sub(r"^[^a-z]+|[^a-z]+$", "", low.split(" ", 1)[0])
        if word.isalpha() and word not in _NOT_VERBS:
            return True
    return False


def _specific(keys: tuple[Key, ...]) -> bool:
    return any(k.strong for k in keys) or sum(k.weight for k in keys if k.kind in ("noun", "action")) >= 2


def _best(keys: tuple[Key, ...], units: tuple[_Unit, ...]) -> tuple[_Unit, float, tuple[Key, ...]] | None:
    """The unit carrying the largest share of the keys, if it is aligned: at least ``ALIGN``,
    two keys or a strong one, and every number. An aligned structured constraint comes first."""
    structured = [u for u in units if u.text.field.startswith("structured.")]
    if structured and units != tuple(structured):
        found = _best(keys, tuple(structured))
        if found is not None:
            return found
        units = tuple(u for u in units if u not in structured)
    best: tuple[_Unit, float, tuple[Key, ...]] | None = None
    numbers = [k for k in keys if k.kind == "number"]
    for unit in units:
        share, hit = coverage(keys, unit.forms)
        if best is None or share > best[1] + (0.15 if len(unit.sentences) > 1 else 0.0):
            best = (unit, share, hit)
    if best is None:
        return None
    _, share, hit = best
    enough = len(hit) >= 2 or any(k.strong for k in hit)
    if share < ALIGN or not enough or not all(n in hit for n in numbers):
        return None
    return best


_PERMISSION = frozenset({"may", "can", "could", "might", "optional", "optionally", "feel free to", "feel free",
                         "free to", "allowed to", "is allowed", "are allowed", "permitted to", "is permitted",
                         "are permitted", "up to you", "at your discretion", "is fine to", "it's fine to",
                         "is ok to", "is fine", "are fine", "fine to", "ok to", "okay to", "go ahead",
                         "welcome to", "is acceptable", "are acceptable", "no problem"})


def _relation(action: str | None, words: str) -> Literal["same", "antonym", "none"]:
    """Whether the clause names the constraint's action (or a synonym), or its antonym."""
    if action is None:
        return "none"
    own = word_forms(action)
    present = text_forms(words).forms
    if own & present:
        return "same"
    for positive, negative in VERB_GROUPS:
        for side, other in ((positive, negative), (negative, positive)):
            if action in side and other and any(word_forms(v) & present for v in other):
                return "antonym"
    return "none"


_UPPER = re.compile(r"\b(?:under|at most|no more than|not more than|max(?:imum)?|exceed|below|up to|capped|limit|"
                    r"within|less than|fewer than|until|no later than|before)\b")
_LOWER = re.compile(r"\b(?:at least|no less than|no fewer than|min(?:imum)?|or later|or more|no earlier than|after)\b")
_PAST_UPPER = re.compile(r"\b(?:over|above|exceed\w*|more than|beyond|past|later|longer)\b")
_PAST_LOWER = re.compile(r"\b(?:under|below|less than|fewer|earlier|older|before|shorter)\b")
_COMPLEMENT = re.compile(r"\b(?:other|else|besides|anything but|except)\b")


def _clause_of(unit: _Unit, hit: tuple[Key, ...]) -> tuple[int, int]:
    """The clause of the unit (offsets into its text) holding the most matched keys (then the
    most weight, then one with a directive cue)."""
    words = unit.words
    best: tuple[tuple[int, bool, float, bool], tuple[int, int]] = ((0, False, 0.0, False), (0, len(words)))
    for start, end in clauses(words):
        forms = text_forms(words[start:end])
        found = [k for k in hit if forms.has(k)]
        rank = (len(found), any(k.kind == "action" for k in found), sum(k.weight for k in found),
                CUE_PATTERN.search(words[start:end].lower()) is not None)
        if rank > best[0]:
            best = (rank, (start, end))
    start, end = best[1]
    return unit.start + start, unit.start + end


_STANDING = re.compile(r"\b(?:always|never|every|each|any|all|whenever|no|only|at all times)\b")
_IF_ABLE = re.compile(r"\bif (?:we|you|they|it|i|possible) (?:can|could|may|might)\b")
_FULFILLED = re.compile(r"\b(?:has been|have been|had been|was|were|already|is done|are done|is now|are now)\b")


_DONE = re.compile(r"\s*(?:(?:i|we)(?:'ve| have)?\s+)?([a-z]+ed)\b")


def _done(action: str | None, low: str) -> bool:
    """The clause opens with the action in the past tense: "Refunded the duplicate charge"."""
    m = _DONE.match(low)
    return action is not None and m is not None and bool(word_forms(m.group(1)) & word_forms(action))


def _compare(c: Directive, upstream: str, unit: _Unit, hit: tuple[Key, ...],
             parsed: list[tuple[Sentence, Directive]]) -> tuple[Verdict, str]:
    """Compare the aligned unit with the constraint: strength, polarity, "only", bounds."""
    start, end = _clause_of(unit, hit)
    words = unit.text.text[start:end]
    low = words.lower()
    whole = unit.words.lower()
    cues = [m.group(0) for m in CUE_PATTERN.finditer(_IF_ABLE.sub(" ", low))]
    permission = [q for q in cues if q in _PERMISSION and CUE_TABLE[q][0] == Strength.PERMITTED]
    waived = [q for q in cues if CUE_TABLE[q] == (Strength.PERMITTED, "obligation") and q not in _PERMISSION]
    negated = NEGATION_PATTERN.search(low) is not None or re.search(r"\b(?:no|nothing|none)\b", low) is not None
    relation = _relation(c.action, words)
    polarity = "prohibition" if negated else "obligation"
    strength = Strength.ABSOLUTE
    inside = [d for s, d in parsed if start <= s.start + d.cue_at < end]
    hedged = HEDGE_PATTERN.search(low) is not None
    restrictive = RESTRICTIVE_PATTERN.search(whole) is not None or (negated and _COMPLEMENT.search(whole) is not None)
    if inside:
        related = [d for d in inside if verb_relation(c.action, d.action) in ("same", "antonym")]
        d = (related or inside)[-1]
        own = verb_relation(c.action, d.action)
        if own in ("same", "antonym"):
            relation = own
        polarity = d.polarity
        strength = d.strength if not d.imperative else Strength.ABSOLUTE
    elif any(CUE_TABLE[q][0] == Strength.RECOMMENDED for q in cues):
        strength = Strength.RECOMMENDED
    elif not cues and (_FULFILLED.search(low) or _done(c.action, low)):
        if c.polarity == "obligation" and not _STANDING.search(upstream.lower()):
            return "fulfilled", "the source reports it done: nothing left to pass on"
        return "needs_semantic", "the handoff reports a standing rule as done once; needs the semantic grader"
    if permission:
        strength = Strength.PERMITTED
    if c.restrictive and negated and _COMPLEMENT.search(low):
        polarity = "obligation"
    if relation == "antonym":
        polarity = "prohibition" if polarity == "obligation" else "obligation"
    if waived and c.polarity == "obligation" and relation == "same":
        return "inverted", f"inverted: upstream {c.strength.name.lower()} obligation -> the handoff waives it ({waived[0]!r})"
    said = f"handoff {strength.name.lower()} {polarity}" + (" hedged" if hedged else "")
    said += f" ({words.strip()[:80]!r})"
    up = f"upstream {c.strength.name.lower()} {c.polarity} ({c.cue!r})"
    allowed = any(q in _PERMISSION for q in (m.group(0) for m in CUE_PATTERN.finditer(whole)))
    low_up = upstream.lower()
    if allowed and ((_UPPER.search(low_up) and _PAST_UPPER.search(whole))
                    or (_LOWER.search(low_up) and _PAST_LOWER.search(whole))):
        return "inverted", f"inverted: {up} -> the handoff permits going past the bound"
    if polarity != c.polarity:
        if relation == "none" and not (permission and c.polarity == "prohibition"):
            return "needs_semantic", f"the carrier's polarity differs, about another action: {up}, {said}"
        return "inverted", f"inverted: {up} -> {said}"
    if strength == Strength.PERMITTED and c.polarity == "prohibition" and relation != "antonym":
        return "inverted", f"inverted: {up} -> the handoff permits it"
    if hedged or strength < c.strength:
        return "softened", f"softened: {up} -> {said}"
    if c.restrictive and not restrictive:
        return "softened", f"softened: {up} -> the handoff drops the restriction (only)"
    return "kept", f"kept: {up} -> {said}"


@register_check(NAME)
def constraints_v1(context: CheckContext, min_strength: str = "absolute",
                   sources: list[str] | tuple[str, ...] = _SOURCES,
                   dropped_if_receiver_saw: str = "warn") -> CheckFn:
    try:
        strength = Strength[min_strength.upper()]
    except KeyError:
        raise ConfigError(f"{NAME}: min_strength must be absolute, recommended or permitted, "
                          f"not {min_strength!r}") from None
    bad = [s for s in sources if s not in ("system_prompt", "message")]
    if bad:
        raise ConfigError(f"{NAME}: unknown sources {bad}; use system_prompt, message (tool output is never a source)")
    if dropped_if_receiver_saw not in ("fail", "warn"):
        raise ConfigError(f"{NAME}: dropped_if_receiver_saw must be fail or warn")
    status: Status = "fail" if dropped_if_receiver_saw == "fail" else "warn"
    return ConstraintCheck(context.analyzer, strength, tuple(sources), status)
