"""Rewriting a sentence's hard modal cue: weaker (soften) or the opposite (invert).

Each table lists (pattern, replacement when the cue opens the sentence, replacement elsewhere),
tried in order; the first pattern found in the sentence is rewritten, its capital kept. The
phrasings are what handoffs really do ("must not" -> "should try not to"; "must not" -> "may").
"""

from __future__ import annotations

import re

from ..nlp import TextAnalyzer

Rule = tuple[re.Pattern[str], str, str]


def _rules(rows: list[tuple[str, str, str]]) -> list[Rule]:
    return [(re.compile(rf"\b(?:{p})\b", re.IGNORECASE), opening, inner) for p, opening, inner in rows]


SOFTEN = _rules([
    (r"(?:must not|mustn't|shall not)(?= be\b)", "Should ideally not", "should ideally not"),
    (r"must never", "Should ideally never", "should ideally never"),
    (r"must not|mustn't|must n't|shall not|shan't", "Should try not to", "should try not to"),
    (r"cannot|can't|can not|may not", "Should try not to", "should try not to"),
    (r"do not|don't|does not|doesn't", "Try not to", "try not to"),
    (r"never", "Try not to", "ideally never"),
    (r"must|shall", "Should ideally", "should ideally"),
    (r"(?:is|are) required to|needs? to|ha(?:ve|s) to", "Should ideally", "should ideally"),
    (r"required|mandatory", "Recommended", "recommended"),
    (r"always", "Usually", "usually"),
    (r"at most|no more than|not more than", "Ideally at most", "ideally at most"),
    (r"at least|no less than|not less than", "Ideally at least", "ideally at least"),
    (r"only", "Mainly", "mainly"),
    (r"ensure|make sure", "Try to ensure", "try to ensure"),
])

INVERT = _rules([
    (r"must never|must not|mustn't|must n't|shall not|shan't", "May", "may"),
    (r"cannot|can't|can not|may not", "May", "may"),
    (r"do not|don't", "Feel free to", "feel free to"),
    (r"never", "Feel free to", "may"),
    (r"must|shall", "Need not", "need not"),
    (r"(?:is|are) required to", "Is not required to", "is not required to"),
    (r"needs? to|ha(?:ve|s) to", "Need not", "need not"),
    (r"required|mandatory", "Optional", "optional"),
    (r"always", "Never", "never"),
    (r"at most|no more than|not more than", "At least", "at least"),
    (r"at least|no less than|not less than", "At most", "at most"),
    (r"only", "Not only", "not only"),
    (r"ensure|make sure", "No need to ensure", "no need to ensure"),
])


def _phrase(sentence: str, match: re.Match[str], opening: str, inner: str) -> str:
    """The replacement of one cue: the opening phrasing at the sentence's start (after list
    markers, or after "Please"), its capital kept; the inner phrasing elsewhere."""
    head = sentence[:match.start()]
    if re.fullmatch(r"[\s\W\d]*", head):
        return opening if match.group(0)[0].isupper() else opening[0].lower() + opening[1:]
    if re.fullmatch(r"[\s\W\d]*please\s+", head, re.IGNORECASE):
        return opening[0].lower() + opening[1:]
    return inner


def rewrite_all(sentence: str, rules: list[Rule]) -> list[tuple[int, int, str]]:
    """(start, end, replacement) for every cue in the sentence, left to right, without overlaps;
    where two cues start at one place the rule listed first wins."""
    combined = re.compile("|".join(f"(?P<r{i}>{rule[0].pattern})" for i, rule in enumerate(rules)), re.IGNORECASE)
    out = []
    for match in combined.finditer(sentence):
        index = int(next(name for name, value in match.groupdict().items() if value is not None)[1:])
        out.append((match.start(), match.end(), _phrase(sentence, match, rules[index][1], rules[index][2])))
    return out


def after_please(head: str) -> bool:
    """Whether the text before a sentence's opening verb ends with "please" (then lower case)."""
    return head.rstrip().lower().endswith("please")


_OPENING = re.compile(r"^[\s\W\d]*(?:please\s+)?", re.IGNORECASE)


def imperative_opening(analyzer: TextAnalyzer, sentence: str) -> int | None:
    """Where the sentence's opening verb starts, when it opens with a verb in its base form (a
    bare imperative: "Use X"), after list markers or "Please"; else None."""
    at = _OPENING.match(sentence)
    start = at.end() if at else 0
    if not sentence[start:start + 1].isalpha():
        return None
    doc = analyzer.nlp(sentence[start:start + 200])
    return start if len(doc) and doc[0].tag_ == "VB" else None
