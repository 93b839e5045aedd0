"""``edge-audit.constraints.v1``: did every hard constraint upstream reach the handoff at the same strength?

For each constraint found in the source's upstream (a directive with an explicit cue at
or above ``min_strength``) the handoff is searched for sentences that mention one of its
anchors. A mentioning directive *carries* the constraint when its verb is the same as (or
the antonym of) the constraint's verb, or when it mentions every anchor; for a constraint
with no content verb, a strong anchor must be mentioned. Then:

* ``inverted``  a carrier flips the polarity (antonym verbs flip it back: "must not change"
  is carried by "keep ... unchanged"), or permits what was forbidden;
* ``softened``  every carrier is weaker (lower modal, a hedge, or a lost "only");
* ``kept``      a carrier has the same or greater strength;
* ``dropped``   no carrier, and the constraint has a strong anchor to prove it;
* ``needs_semantic``  no carrier and nothing specific to match: unmeasured, for an LLM grader.

When the handoff has a structured ``constraints`` field it is compared directly instead of the prose.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Literal

from ..edges import Edge, KeyedText, Quote, event_texts
from ..errors import ConfigError
from ..nlp import Directive, Haystack, Relation, Sentence, Strength, TextAnalyzer, verb_relation
from ..nlp._anchors import numbers_in
from ..nlp._lexicon import LIGHT_VERBS
from ..nlp._text import squash, verb_forms, words
from ._finding import Finding, Status
from ._registry import CheckContext, CheckFn, register_check

NAME = "edge-audit.constraints.v1"
Verdict = Literal["kept", "softened", "dropped", "inverted", "needs_semantic"]
_SOURCES = ("message",)


@dataclass(frozen=True)
class Constraint:
    quote: Quote
    directive: Directive


def _quote(text: KeyedText, sentence: Sentence) -> Quote:
    return Quote(text.event_id, text.field, sentence.start, sentence.end, sentence.text)


class ConstraintCheck:
    def __init__(self, analyzer: TextAnalyzer, min_strength: Strength, sources: tuple[str, ...],
                 dropped_if_receiver_saw: Status) -> None:
        self.analyzer = analyzer
        self.min_strength = min_strength
        self.sources = sources
        self.dropped_if_receiver_saw = dropped_if_receiver_saw

    def prepare(self, edges: Sequence[Edge]) -> None:
        """Parse, in two batches, every sentence that checking ``edges`` will need: the
        upstream candidates, then the handoff sentences that mention a constraint's anchor."""
        texts = {t.key: t for edge in edges for t in self._upstream_texts(edge)}
        self.analyzer.directives([s for t in texts.values() for s in self._candidates(t)], self.min_strength)
        needed = {(s.text_key, s.index): s for edge in edges
                  for hits in self._handoff_hits(edge, self.constraints(edge))[0] for _, s in hits}
        self.analyzer.directives(list(needed.values()), self.min_strength)

    def constraints(self, edge: Edge) -> list[Constraint]:
        found: list[Constraint] = []
        seen: set[tuple[str, str, str | None]] = set()
        for text in self._upstream_texts(edge):
            candidates = self._candidates(text)
            for sentence, directives in zip(candidates, self.analyzer.directives(candidates, self.min_strength),
                                            strict=True):
                for directive in directives:
                    if directive.strength < self.min_strength or not directive.has_explicit_cue:
                        continue
                    identity = (squash(sentence.text), directive.cue.lower(), directive.action)
                    if identity in seen:
                        continue
                    seen.add(identity)
                    found.append(Constraint(_quote(text, sentence), directive))
        return found

    def _upstream_texts(self, edge: Edge) -> list[KeyedText]:
        fields = {"system_prompt": "system_prompt", "message": "content", "tool_call": "result"}
        return [text for item in edge.upstream if item.kind in self.sources
                for text in event_texts(edge.trace_id, item.event_id, fields[item.kind], item.text, item.structured)]

    def _candidates(self, text: KeyedText) -> list[Sentence]:
        return self.analyzer.candidates(self.analyzer.sentences(text.key, text.text), self.min_strength)

    def _handoff_hits(self, edge: Edge, constraints: list[Constraint]) -> tuple[list[list[tuple[KeyedText, Sentence]]], bool]:
        """For each constraint, the handoff sentences that mention one of its anchors; and
        whether the handoff's structured ``constraints`` field is what was searched."""
        message = edge.message
        handoff = event_texts(edge.trace_id, message.id, "content", message.content, message.structured)
        structured = [t for t in handoff if t.field.startswith("structured.")]
        sentences = [(t, s) for t in structured or handoff for s in self.analyzer.sentences(t.key, t.text)]
        return [[(t, s) for t, s in sentences if _hits(c.directive, s.haystack)] for c in constraints], bool(structured)

    def __call__(self, edge: Edge) -> list[Finding]:
        constraints = self.constraints(edge)
        if not constraints:
            return []
        hits_per, structured = self._handoff_hits(edge, constraints)
        needed = list({(s.text_key, s.index): s for hits in hits_per for _, s in hits}.values())
        parsed = dict(zip(((s.text_key, s.index) for s in needed),
                          self.analyzer.directives(needed, self.min_strength), strict=True))
        return [self._judge(edge, constraint, hits, parsed, structured)
                for constraint, hits in zip(constraints, hits_per, strict=True)]

    def _judge(self, edge: Edge, constraint: Constraint, hits: list[tuple[KeyedText, Sentence]],
               parsed: dict[tuple[str, int], tuple[Directive, ...]], structured: bool) -> Finding:
        c = constraint.directive
        carriers: list[tuple[Verdict, KeyedText, Sentence, Directive]] = []
        for text, sentence in hits:
            for d in parsed[(sentence.text_key, sentence.index)]:
                carried = _carry(c, d, sentence)
                if carried is not None:
                    carriers.append((carried, text, sentence, d))
        details: dict[str, object] = {
            "strength": c.strength.name.lower(), "polarity": c.polarity, "action": c.action,
            "restrictive": c.restrictive, "hedged": c.hedged, "cue": c.cue,
            "anchors": [a.text for a in c.anchors], "compared_with": "structured" if structured else "prose",
        }
        mentions = tuple(_quote(t, s) for t, s in hits)
        if carriers:
            verdicts = {v for v, *_ in carriers}
            verdict: Verdict = "inverted" if "inverted" in verdicts else "kept" if "kept" in verdicts else "softened"
            chosen = [(t, s, d) for v, t, s, d in carriers if v == verdict]
            quotes = tuple(dict.fromkeys(_quote(t, s) for t, s, _ in chosen))
            best = chosen[0][2]
            details.update({"handoff_strength": Strength(best.strength).name.lower(),
                            "handoff_polarity": best.polarity, "handoff_hedged": best.hedged,
                            "handoff_restrictive": best.restrictive, "handoff_cue": best.cue})
            status: Status = "pass" if verdict == "kept" else "fail"
            summary = _summary(verdict, c, best)
            return Finding(NAME, edge.id, verdict, status, summary, constraint.quote, quotes,
                           tuple(m for m in mentions if m not in quotes), details)
        if not c.anchors or not any(a.strong for a in c.anchors):
            return Finding(NAME, edge.id, "needs_semantic", "unmeasured",
                           "no specific anchor to match deterministically; needs the semantic grader",
                           constraint.quote, (), mentions, details)
        saw = constraint.quote.event_id in edge.receiver_saw
        details["receiver_saw_source"] = saw
        status = self.dropped_if_receiver_saw if saw else "fail"
        summary = "not stated in the handoff" + (" (the receiver saw the original)" if saw else "")
        return Finding(NAME, edge.id, "dropped", status, summary, constraint.quote, (), mentions, details)


def _hits(c: Directive, haystack: Haystack) -> bool:
    return any(haystack.contains(a) for a in c.anchors)


def _relation(c: Directive, d: Directive, scope: str) -> Relation:
    """The verb relation, falling back to any verb form in the scope when the carrier's own
    main verb is light ("Shipping behind the flag is optional")."""
    relation = verb_relation(c.action, d.action)
    if relation != "unrelated" or (d.action is not None and d.action not in LIGHT_VERBS):
        return relation
    for word in scope.split():
        for form in verb_forms(word.strip(".,;:!?()\"'")):
            found = verb_relation(c.action, form)
            if found in ("same", "antonym"):
                return found
    return relation


def _carry(c: Directive, d: Directive, sentence: Sentence) -> Verdict | None:
    scope = sentence.text[d.scope[0]:d.scope[1]]
    hay = Haystack(squash(scope), frozenset(words(scope)), numbers_in(scope))
    hit = [a for a in c.anchors if hay.contains(a)]
    if not hit:
        return None
    relation = _relation(c, d, scope)
    strong = [a for a in c.anchors if a.strong]
    weak = [a for a in c.anchors if not a.strong]
    strong_hit = any(a.strong for a in hit)
    complete = all(a in hit for a in strong) and sum(a in hit for a in weak) >= len(weak) // 2
    if strong and not strong_hit:
        return None
    if relation == "unrelated" and not (complete and strong_hit):
        return None
    if relation == "waived" and not strong_hit:
        return None
    if d.strength == Strength.PERMITTED and relation not in ("same", "antonym"):
        return None
    polarity = d.polarity
    if relation == "antonym":
        polarity = "prohibition" if polarity == "obligation" else "obligation"
    if polarity != c.polarity:
        return "inverted" if relation in ("same", "antonym") else None
    if d.effective < c.effective or (c.restrictive and not d.restrictive):
        return "softened"
    return "kept"


def _summary(verdict: Verdict, c: Directive, d: Directive) -> str:
    upstream = f"{c.strength.name} {c.polarity}" + (" (only)" if c.restrictive else "")
    handoff = f"{Strength(d.strength).name} {d.polarity}" + (" hedged" if d.hedged else "") + (
        " (only)" if d.restrictive else "")
    return f"{verdict}: upstream {upstream} ({c.cue!r}) -> handoff {handoff} ({d.cue!r})"


@register_check(NAME)
def constraints_v1(context: CheckContext, min_strength: str = "absolute",
                   sources: list[str] | tuple[str, ...] = _SOURCES,
                   dropped_if_receiver_saw: str = "warn") -> CheckFn:
    try:
        strength = Strength[min_strength.upper()]
    except KeyError:
        raise ConfigError(f"{NAME}: min_strength must be absolute, recommended or permitted, "
                          f"not {min_strength!r}") from None
    bad = [s for s in sources if s not in ("system_prompt", "message", "tool_call")]
    if bad:
        raise ConfigError(f"{NAME}: unknown sources {bad}; use system_prompt, message, tool_call")
    if dropped_if_receiver_saw not in ("fail", "warn"):
        raise ConfigError(f"{NAME}: dropped_if_receiver_saw must be fail or warn")
    status: Status = "fail" if dropped_if_receiver_saw == "fail" else "warn"
    return ConstraintCheck(context.analyzer, strength, tuple(sources), status)
