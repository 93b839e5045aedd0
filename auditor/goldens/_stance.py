"""Is a phrase asserted, or quoted to deny it? Decided mechanically on a dependency parse.

A banned form found in an answer counts against it unless the parse shows it is **denied** or
**questioned**, from one of these, and nothing else:

* a negation outside the phrase attached to a word of it ("*No* refund was issued");
* a denial word, or a negated word of saying, knowing or showing (or a negated verb whose object is
  a record or evidence), on a word that takes the phrase's clause as its complement, climbing only
  through complement links (``ccomp``, ``xcomp``, ``acl``, ``csubj``, prepositions and their
  objects): "I *cannot confirm* that order 4412 exists", "there is *no record* that a refund was
  issued", "it is *false* / *not true* that ...", "*nothing shows* that ...", "I *doubt* that ...".
  Never through a conjunction or an adverbial clause ("Order 4412 exists, but I can't refund it"
  asserts it), nor up from a clausal complement that comes before its verb ("Order 4412 was not
  found, so I cannot confirm ...": the small parser attaches the first clause to "confirm"). A
  negation of anything else does not deny ("I can't wait to tell you that ...", "don't worry, ..."),
  and a negated denial asserts ("I have *no doubt* that ...", "nobody can *deny* that ...");
* an embedded question: the clause opens with *whether*, or with *if* as a complement ("I don't
  know if ...");
* the phrase in double quotes, in a sentence holding a denial word or a negated truth ("You
  mentioned "the refund was issued", but that is not true").

Anything else is ``asserted``: a condition ("if the refund was issued, ...") is asserted too, so
the harness fails rather than passes when unsure.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any, Literal

from ..nlp import load_pipeline

Stance = Literal["asserted", "denied", "questioned"]

_NEGATORS = frozenset({"not", "n't", "never", "no", "nothing", "none", "nobody", "neither", "nor", "without"})
_DENIALS = frozenset({"deny", "dispute", "doubt", "refute", "false", "untrue", "incorrect", "wrong", "inaccurate",
                      "unconfirmed", "unverified", "unfounded", "baseless", "unable", "unknown", "unclear"})
#: Words whose negation denies the clause they govern: saying, knowing, showing, and records of it.
_EPISTEMIC = frozenset({
    "say", "tell", "state", "claim", "confirm", "verify", "know", "think", "believe", "find", "see", "show", "prove",
    "guarantee", "promise", "assume", "suggest", "indicate", "mean", "report", "assert", "imply", "recall",
    "remember", "check", "establish", "determine", "mention", "write", "record", "evidence", "proof", "sign",
    "indication", "information", "confirmation", "trace", "data", "note", "reason"})
_TRUTH = frozenset({"true", "correct", "accurate", "right", "case", "so"})
_CLIMB = frozenset({"ccomp", "xcomp", "acl", "csubj", "csubjpass", "pcomp", "pobj", "prep", "dobj", "attr"})
_QUOTES = "\"\u201c\u201d"
#: A denial that is itself negated ("no doubt that", "nobody can deny that") asserts the clause.
_CANCELLED = "cancelled"


@dataclass(frozen=True)
class StanceOf:
    stance: Stance
    cue: str | None
    """The word that decided it (the negation, the denial, the question word), or None."""


def _negator(token: Any) -> bool:
    return token.dep_ == "neg" or token.lower_ in _NEGATORS and token.dep_ in (
        "det", "nsubj", "nsubjpass", "advmod", "neg", "dobj", "prep", "preconj", "cc")


def _denial(token: Any) -> bool:
    return token.lower_ in _DENIALS or token.lemma_.lower() in _DENIALS


def _lemma(token: Any) -> str:
    return str(token.lemma_).lower()


def _cue_on(head: Any, via: Any) -> str | None:
    """What ``head`` (reached from its child ``via`` on the way up from the phrase) says of the
    clause below it: a denial word, a negation of a saying/knowing word (or of a verb whose object is
    a record or evidence: "don't have evidence that"), a negated truth ("is not true that"), or
    ``_CANCELLED`` for a negated denial."""
    others = [c for c in head.children if c.i != via.i]
    negation = next((c for c in others if _negator(c)), None)
    denial = head if _denial(head) else next((c for c in others if c.dep_ in ("acomp", "attr") and _denial(c)), None)
    if denial is not None:
        return _CANCELLED if negation is not None else str(denial.text)
    if negation is None:
        return None
    truth = _lemma(head) == "be" and any(c.dep_ in ("acomp", "attr") and _lemma(c) in _TRUTH for c in others)
    if truth or _lemma(head) in _EPISTEMIC or (via.dep_ in ("dobj", "attr") and _lemma(via) in _EPISTEMIC):
        return str(negation.text)
    return None


def _question(token: Any) -> str | None:
    for child in token.children:
        if child.dep_ == "mark" and (child.lower_ == "whether" or child.lower_ == "if" and token.dep_ == "ccomp"):
            return str(child.text)
    return None


def stance_of_span(doc: Any, start: int, end: int) -> StanceOf:
    """The stance of the characters ``start:end`` of a parsed ``doc``."""
    span = doc.char_span(start, end, alignment_mode="expand")
    if span is None or len(span) == 0:
        return StanceOf("asserted", None)
    inside = {t.i for t in span}
    for token in span:
        for child in token.children:
            if child.i not in inside and child.i < span.start and _negator(child):
                return StanceOf("denied", child.text)
    node = span.root
    asked = _question(node)
    if asked:
        return StanceOf("questioned", asked)
    while node.dep_ in _CLIMB and node.head.i != node.i:
        head = node.head
        if node.dep_ == "ccomp" and node.i < head.i:
            break  # a "complement" before its verb is a clause of its own the parser attached to the next one
        cue = _cue_on(head, node)
        if cue == _CANCELLED:
            return StanceOf("asserted", None)
        if cue:
            return StanceOf("denied", cue)
        asked = _question(head)
        if asked:
            return StanceOf("questioned", asked)
        node = head
    sentence = span.sent
    before = doc.text[sentence.start_char:start]
    after = doc.text[end:sentence.end_char]
    if sum(before.count(q) for q in _QUOTES) % 2 == 1 and any(q in after for q in _QUOTES):
        for token in sentence:
            if token.i in inside:
                continue
            if _denial(token) or _negator(token) and any(_lemma(c) in _TRUTH for c in token.head.children):
                return StanceOf("denied", token.text)
    return StanceOf("asserted", None)


class StanceReader:
    """Parses answers (with the dependency parser, which the audit's own pipeline leaves out) and
    reads the stance of spans of them. The pipeline loads on first use."""

    def __init__(self, pipeline: str) -> None:
        self.pipeline = pipeline
        self._nlp: Any = None
        self._docs: dict[str, Any] = {}

    def _doc(self, text: str) -> Any:
        if text not in self._docs:
            if self._nlp is None:
                self._nlp = load_pipeline(self.pipeline, ("ner",))
            self._docs[text] = self._nlp(text)
        return self._docs[text]

    def stance(self, text: str, start: int, end: int) -> StanceOf:
        return stance_of_span(self._doc(text), start, end)

    def sentences(self, text: str) -> Sequence[str]:
        return [s.text for s in self._doc(text).sents]
