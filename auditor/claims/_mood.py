"""Which parts of a handoff assert something. Only assertions hold claims.

A sentence is cut into clauses (at ``;``, dashes, ", so", ", but", ", and", ", which" and
similar joints). A clause is *not* an assertion when it is:

* a question;
* a condition or a plan: "if ...", "unless ...", "once ...", "I'll ...", "we will ...",
  "going to", "let's", "need to";
* a hypothesis or an opinion: "probably", "likely", "might", "may", "could", "seems",
  "looks like", "I think", "I'd guess", "should" (as a prediction), "would", "maybe";
* an instruction or request to the receiver: it opens with "please", or with a bare verb
  ("Keep the diff small", "Publish to Indeed"), or it carries a directive modal (must,
  should, need to, don't, never): the constraint pass owns those;
* an example ("e.g.", "for example", "such as").

Reported speech of others ("the customer says ...") is still an assertion by the author that
it was said. Quoted text and code spans are masked before this runs.
"""

from __future__ import annotations

import re

from ..nlp import PLACEHOLDER_LEAD
from ._rows import vocabulary

_JOINT = re.compile(r";|\s[—–]\s|\s-\s|,\s*(?=(?:so|but|and|which|while|though|although|whereas|because|since|"
                    r"probably|likely|maybe|possibly|perhaps)\b)"
                    rf"|:\s+(?=[A-Z](?!{PLACEHOLDER_LEAD[1:]}))", re.IGNORECASE)
_HEDGE = re.compile(
    r"\b(?:probably|likely|unlikely|might|may(?![ \t]+\d)|maybe|perhaps|possibly|could|seems?|seemed|looks?|appears? to|"
    r"I think|I believe|I suspect|I guess|I'd guess|I'd|I would|we'd|guess|presumably|suppose|should|would|"
    r"worth|ideally|clearly|obviously|hopefully|assume|assuming|almost certainly|in theory|supposedly|feel free|"
    r"nice to have|if possible|where possible|if you can|prefer(?:ably)?|optional(?:ly)?|assum\w*|simulat\w*|"
    r"suppos\w*|hypothetical\w*|sample data|dummy|placeholder|mock\w*|let's say|imagine)\b",
    re.IGNORECASE)
#: A condition, or the consequence of one not met ("otherwise the nightly pipeline breaks", not
#: "otherwise clean"): asserts nothing.
_CONDITION = re.compile(r"\b(?:if|unless|once|whether|in case|provided that|as soon as|before you|"
                        r"when you|after you|(?:otherwise|or else)(?= (?:the|it|we|you|they|this|that|there|he|she)\b))\b",
                        re.IGNORECASE)
_PLAN = re.compile(
    r"\b(?:I'll|I will|we'll|we will|I'm going to|we're going to|going to|plan to|I need to|"
    r"we need to|need to|needs to|have to|has to|must|mustn't|shall|can't|cannot|can|"
    r"to do|todo|next step|will need)\b", re.IGNORECASE)
#: A bare verb first, after any JSON key that labels the clause ("note": "matches the transcript"
#: starts with "matches", not with the order "note").
_REQUEST = re.compile(r"^[\s{\[,]*(?:\"[^\"\n]{1,60}\"\s*:)?\W*(?:\d+[.)]\s*)?(?:please|kindly|pls|and|then|also|so|but|now|just|first|next|finally)?\s*"
                      r"(?:please\s+)?(?P<verb>[a-z]+)\b", re.IGNORECASE)
_PLEASE = re.compile(r"\b(?:please|kindly)\b", re.IGNORECASE)
_SHOWN = re.compile(r"\\\[[\s\S]*?\\\]|\\\([\s\S]*?\\\)|^[ \t]*(?:/[\w.@-]+)+:\d+:[^\n]*(?:\n[ \t]+[^\n]*)*|"
                    r"^[ \t]*Traceback \(most recent call last\):(?:\n[ \t]+[^\n]*)*", re.MULTILINE)
_AGENDA = re.compile(r"\b(?:plan|steps?|next|todo|to-do|approach|proposal|proposed|options?|here's how|"
                     r"here is how|we will|we'll|I will|I'll)\b", re.IGNORECASE)
_LIST_AFTER = re.compile(r"(?:\s*\n[ \t]*(?:[-*•]|\d+[.)])[^\n]*)+")
_EXAMPLE = re.compile(r"\b(?:e\.g\.|for example|for instance|such as|say,)", re.IGNORECASE)
IMPERATIVE_VERBS = vocabulary("""never don't do add apply ask assign avoid book bump call cap change check choose confirm consider
contact copy create cut delete deploy diff do double-check draft edit email enable enter escalate
file fix flag follow forward get give grab hand hold include keep leave let link look loop make mark
merge move note notify open pass pay ping pick post publish pull push put quote raise re-run read
reach record refund reject remember remove replace reply request rerun reschedule reserve restart
retry return review roll run schedule send set ship skip start stick stop submit swap switch take
tell test treat try update upgrade use verify wait watch write""")


def clauses(text: str, start: int, end: int) -> list[tuple[int, int]]:
    """The clause spans of one sentence ``text[start:end]``."""
    out: list[tuple[int, int]] = []
    pos = start
    for m in _JOINT.finditer(text, start, end):
        if m.start() > pos:
            out.append((pos, m.start()))
        pos = m.end()
    if end > pos:
        out.append((pos, end))
    return [(s, e) for s, e in out if text[s:e].strip()]


def assertive(text: str, start: int, end: int, sentence_end: int) -> bool:
    """Does the clause ``text[start:end]`` (of a sentence ending at ``sentence_end``) assert something?"""
    piece = text[start:end]
    if text[start:sentence_end].rstrip().endswith("?"):
        return False
    if _HEDGE.search(piece) or _CONDITION.search(piece) or _PLAN.search(piece) or _EXAMPLE.search(piece):
        return False
    return not _requests(text, start, end)


def _starts_with_subject(piece: str, verb_at: int) -> bool:
    """"Check passed", "Run 8812345 failed": a noun that looks like a verb, followed by a verb."""
    rest = piece[verb_at:].split()
    return len(rest) > 1 and rest[1].lower().rstrip(",.:") in (
        "is", "are", "was", "were", "has", "have", "had", "passed", "failed", "succeeded", "returned", "shows", "took",
        "pass", "passes", "fail", "fails", "for", "of", "on")


def shown_spans(original: str) -> list[tuple[int, int]]:
    """Spans of the *original* text that show work or output rather than assert: written-out
    math (``\\[ ... \\]``, ``\\( ... \\)``) and log lines pasted into the message (a warning
    with its path and line number, a traceback)."""
    return [(m.start(), m.end()) for m in _SHOWN.finditer(original)]


def request_spans(text: str, sentences: list[tuple[int, int]]) -> list[tuple[int, int]]:
    """Clauses that ask or instruct the receiver ("Please process the refund the customer asked
    for"). Reported speech ("the customer said the export can run at night") is still reported
    when the words reported are modal, so for it only requests are taken out."""
    out: list[tuple[int, int]] = []
    for s, e in sentences:
        for a, b in clauses(text, s, e):
            if _requests(text, a, b) or text[a:e].rstrip().endswith("?"):
                out.append((a, b))
    return out


def _requests(text: str, start: int, end: int) -> bool:
    """The clause asks or tells the receiver to do something: "please", or a bare verb first."""
    piece = text[start:end]
    request = _REQUEST.match(piece)
    imperative = request is not None and request.group("verb").lower() in IMPERATIVE_VERBS \
        and not _starts_with_subject(piece, request.start("verb"))
    return imperative or _PLEASE.search(piece) is not None


def non_assertive_spans(text: str, sentences: list[tuple[int, int]]) -> list[tuple[int, int]]:
    """Every clause of ``text`` that asserts nothing; a condition opening a sentence
    ("If TAP falls through, ...") covers the whole sentence; a non-assertive sentence that
    introduces a list ("Let's assume the following numbers:") covers the list."""
    out: list[tuple[int, int]] = []
    for s, e in sentences:
        if text[s:e].rstrip().endswith(":") and (not assertive(text, s, e, e) or _AGENDA.search(text, s, e)):
            block = _LIST_AFTER.match(text, e)
            if block is not None:
                out.append((e, block.end()))
        parts = clauses(text, s, e)
        if parts and (_CONDITION.match(text[parts[0][0]:parts[0][1]].lstrip()) or _requests(text, *parts[0])):
            out.append((s, e))
            continue
        out.extend((a, b) for a, b in parts if not assertive(text, a, b, e))
    return out
