"""Directives: what a sentence orders, at what strength, about which action and keys.

Works on one parsed sentence (POS tags and lemmas, entities). Each modal cue opens a
directive whose scope runs to the next cue, so one sentence can hold several
constraints. A sentence that starts with a bare verb is an imperative (absolute
obligation) even without a cue; a question holds no directive.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from dataclasses import dataclass, replace
from typing import Any

from ._align import GENERIC_NOUNS, NUMBER, Key, code_key, is_light, name_key, number_key_of, word_key
from ._cues import STRONG_BREAK, Cue, find_cues
from ._lexicon import (
    HEDGE_PATTERN,
    IMPERATIVE_LEADS,
    INSTRUCTION_VERBS,
    KNOWN_VERBS,
    NEGATION_PATTERN,
    RESTRICTIVE_PATTERN,
    Polarity,
    Strength,
)
from ._text import verb_forms

Lemmatize = Callable[[Any], str]


@dataclass(frozen=True)
class Directive:
    strength: Strength
    polarity: Polarity
    action: str | None
    restrictive: bool
    hedged: bool
    cue: str
    imperative: bool
    scope: tuple[int, int]
    keys: tuple[Key, ...] = ()
    epistemic: bool = False
    cue_at: int = 0

    @property
    def effective(self) -> int:
        return max(0, int(self.strength) - (1 if self.hedged else 0))

    @property
    def has_explicit_cue(self) -> bool:
        return not self.imperative or self.restrictive


def _clause_start(low: str, prev_end: int, cue_start: int) -> int:
    """Where the clause of a later cue begins: after the last clause break before it."""
    gap = low[prev_end:cue_start]
    best = -1
    for sep in (";", ",", " and ", " but ", " or ", ":"):
        at = gap.rfind(sep)
        if at != -1:
            best = max(best, at + len(sep))
    return prev_end + best if best != -1 else cue_start


_BOUND_CUES = frozenset({"at least", "at most", "no more than", "no fewer than", "no less than", "not more than",
                         "max", "maximum", "min", "minimum", "at or below", "at or above",
                         "not less than", "up to", "capped at", "limited to", "no later than", "no earlier than"})


def _absorb_bounds(cues: list[Cue], low: str) -> list[Cue]:
    """A bound after another cue of the same clause qualifies that directive ("Keep the
    snapshots for at least 30 days"): it opens no directive of its own."""
    out: list[Cue] = []
    for cue in cues:
        if out and cue.text in _BOUND_CUES and not STRONG_BREAK.search(low, out[-1].end, cue.start):
            continue
        out.append(cue)
    return out


#: ", and the narrative must ...": a coordinated clause with a subject of its own
_NEW_SUBJECT = re.compile(r",\s+(?:and|while|whereas)\s+(?=(?:the|a|an|this|that|these|those|each|every|all|any|our|"
                          r"your|its|their|his|her)\s)")


def _first_clause_start(doc: Any, low: str, cue_start: int) -> int:
    """Where the first directive's clause begins: after the last strong break before its cue
    ("FYI, customers will get more later, but that's a later phase -- don't build X now"), or
    after ", and" opening a clause with its own subject when a verb comes before it ("The write-up
    is to present the base case, and the narrative must not exceed two pages")."""
    breaks = [m.end() for m in STRONG_BREAK.finditer(low, 0, cue_start)]
    start = breaks[-1] if breaks else 0
    joins = [m for m in _NEW_SUBJECT.finditer(low, start, cue_start) if "," not in low[m.end():cue_start]]
    if joins and any(t.pos_ in ("VERB", "AUX") and start <= t.idx < joins[-1].start() for t in doc):
        return joins[-1].end()
    return start


_CLAUSE_OPEN = re.compile(r"(?:;|:(?!\d)|[\u2014\u2013])\s*|\s-\s")


def _imperative_verbs(doc: Any, low: str) -> list[Any]:
    """Bare verbs opening the sentence or a clause after a semicolon, colon or dash:
    "Staging first: set X to 800; restart the pods." has two."""
    starts = [0] + [m.end() for m in _CLAUSE_OPEN.finditer(low)]
    found: list[Any] = []
    for start in starts:
        verb = _imperative_verb([t for t in doc if t.idx >= start])
        if verb is not None and verb not in found:
            found.append(verb)
    return found


def opening_order(doc: Any) -> Any | None:
    """The verb of an order the clause surely opens with: one the tagger reads as a bare verb
    ("then regenerate the lockfile"), with no past or third-person verb after it that would
    make the opening words a subject ("Echo this admission showed EF 45%")."""
    tokens = list(doc)
    verb = _imperative_verb(tokens)
    if verb is None or verb.tag_ != "VB" or any(t.tag_ in ("VBD", "VBZ") for t in tokens[verb.i + 1:]):
        return None
    return verb


def _imperative_verb(tokens: Any) -> Any | None:
    for at, token in enumerate(tokens):
        low = token.lower_
        if token.is_punct or low in IMPERATIVE_LEADS or low in {"always", "never", "only", "do", "not", "n't"}:
            continue
        if low == "let":  # "Let's search ...": a suggestion, not an order
            return None
        if low in ("need", "want"):  # "Need the Q1 numbers": the speaker's own request, its "I" dropped
            return None
        if _heads_a_subject(tokens[at + 1:at + 8]):
            return None
        if token.tag_ == "VB" and token.pos_ == "VERB":
            return token
        if token.lower_ in INSTRUCTION_VERBS and token.tag_ not in ("VBD", "VBN", "VBZ", "VBG", "NNS"):
            return token
        return None
    return None


_NOUNISH = frozenset({"NN", "NNS", "NNP", "NNPS", "CD", "HYPH", "POS"})
_FINITE = frozenset({"VBD", "VBZ", "VBP", "MD"})
_BE_HAVE = frozenset({"is", "are", "has", "have", "was", "were"})


def _heads_a_subject(following: Any) -> bool:
    """The opening word modifies a noun that a finite verb follows: "Bank details came in by
    email", "Change form X arrived on 12 Nov" state something; they order nothing."""
    nouns = 0
    for token in following:
        if token.tag_ in _NOUNISH or token.text.startswith("Xx"):
            nouns += 1
        elif token.tag_ in _FINITE and (token.tag_ in ("VBD", "MD") or token.lower_ in _BE_HAVE):
            return nouns > 0  # a present tense only of be / have: "invoices" may be a plural the tagger took for a verb
        else:
            return False
    return False


def _action(doc: Any, start: int, end: int, cue: tuple[int, int]) -> Any | None:
    following = [t for t in doc if cue[1] <= t.idx < end and not t.is_punct]
    # "no test-dropping shards": the first word of a hyphenated compound is a modifier, not the act
    compound = bool(following) and following[0].i + 1 < len(doc) and doc[following[0].i + 1].text == "-"
    if following and following[0].pos_ != "VERB" and following[0].lower_ in KNOWN_VERBS and not compound:
        return following[0]
    if following and following[0].lower_ == "be" and len(following) > 1 and following[1].pos_ != "VERB":
        return following[0]  # "must be at most 30 characters": a state, not the verb of a later phrase
    after = [t for t in doc if cue[1] <= t.idx < end and t.pos_ in ("VERB", "AUX") and t.tag_ != "MD"
             and not t.text.startswith("Xx") and not _reduced_relative(doc, t)]
    main = [t for t in after if t.pos_ == "VERB"]
    if main:
        return main[0]
    if after:
        return after[0]
    before = [t for t in doc if start <= t.idx < cue[0] and t.pos_ in ("VERB", "AUX") and t.tag_ != "MD"]
    if before:
        return before[-1]
    gerunds = [t for t in doc if start <= t.idx < end and _gerund_base(t) is not None]
    return gerunds[0] if gerunds else None


def _reduced_relative(doc: Any, token: Any) -> bool:
    """A participle modifying the noun before it ("the gyms listed are ..."): not the action."""
    return bool(token.tag_ == "VBN" and token.i > 0 and doc[token.i - 1].pos_ in ("NOUN", "PROPN"))


def _gerund_base(token: Any) -> str | None:
    if not token.lower_.endswith("ing"):
        return None
    return next((form for form in verb_forms(token.lower_) if form in INSTRUCTION_VERBS), None)


def _lemma(token: Any | None, lemmatize: Lemmatize | None) -> str | None:
    if token is None:
        return None
    if token.pos_ not in ("VERB", "AUX"):
        return _gerund_base(token) or str(token.lower_)
    lemma = (lemmatize(token) if lemmatize is not None else str(token.lemma_)).lower()
    return "be" if lemma in {"is", "are", "was", "were"} else lemma


def directives(doc: Any, sentence: str, low: str, masked_spans: list[tuple[str, int, int]],
               lemmatize: Lemmatize | None = None) -> tuple[Directive, ...]:
    """The directives of one sentence. ``doc`` is the spaCy parse of the masked sentence,
    ``low`` its lower-cased masked text, ``masked_spans`` the code spans relative to it.
    ``lemmatize`` computes a token's lemma when the pipeline did not (``token.lemma_`` otherwise)."""
    if sentence.rstrip().endswith("?"):
        return ()
    cues = find_cues(low)
    verbs = {v.idx: v for v in _imperative_verbs(doc, low)}
    opening = [Cue(idx, idx, "<imperative>", Strength.ABSOLUTE, "obligation") for idx in verbs
               if not any(c.start <= idx <= c.end + 12 for c in cues)]
    all_cues = _absorb_bounds(sorted(opening + cues, key=lambda c: c.start), low)
    cue_words = {w for c in all_cues for w in c.text.split()} | {"only"}
    out: list[Directive] = []
    bounds = [_first_clause_start(doc, low, all_cues[0].start) if all_cues else 0] + [
        _clause_start(low, all_cues[k - 1].end, all_cues[k].start) for k in range(1, len(all_cues))]
    for k, cue in enumerate(all_cues):
        start = bounds[k]
        end = bounds[k + 1] if k + 1 < len(all_cues) else len(sentence)
        token = verbs[cue.start] if cue.text == "<imperative>" else _action(doc, start, end, (cue.start, cue.end))
        polarity = cue.polarity
        if polarity == "obligation" and token is not None and NEGATION_PATTERN.search(low, cue.end, token.idx):
            polarity = "prohibition"
        hedged = any(not (cue.start <= m.start() < cue.end) for m in HEDGE_PATTERN.finditer(low, start, end))
        own_end = _key_end(low, max(cue.end, token.idx if token is not None else 0), end)
        restrictive = RESTRICTIVE_PATTERN.search(low, start, own_end) is not None  # not "— you only report"
        out.append(Directive(
            strength=cue.strength, polarity=polarity, action=_lemma(token, lemmatize), restrictive=restrictive,
            hedged=hedged, cue=sentence[cue.start:cue.end] or "<imperative>",
            imperative=cue.text == "<imperative>", scope=(start, end),
            keys=keys_in(doc, sentence, start, own_end, masked_spans, cue_words, token, lemmatize),
            epistemic=_epistemic(doc, low, cue, token), cue_at=cue.start,
        ))
    return tuple(out)


_EXPLANATION = re.compile(r"\s(?:\u2014|\u2013|-)\s|;|\bso that\b|\bso\b|\bbecause\b|\bsince\b|, as\b|"
                          r", which\b|\bas otherwise\b|\botherwise\b")


def _key_end(low: str, after: int, end: int) -> int:
    """Where a directive's own clause ends: before an explanation that follows it ("... ; the v1
    parser double-counts", "... so we can rerun", "... because ...")."""
    m = _EXPLANATION.search(low, after, end)
    return m.start() if m else end


def _in_brackets(text: str, at: int) -> bool:
    return text.rfind("(", 0, at) > text.rfind(")", 0, at)


_NUMERIC_ENTS = frozenset({"CARDINAL", "ORDINAL", "QUANTITY", "PERCENT", "MONEY", "DATE", "TIME"})


def keys_in(doc: Any, sentence: str, start: int, end: int, masked_spans: list[tuple[str, int, int]],
            cue_words: set[str], action: Any | None, lemmatize: Lemmatize | None) -> tuple[Key, ...]:
    """The content keys of [start, end) of one sentence (see ``_align``): code spans, numbers,
    names, the action, nouns, other verbs and adjectives; cue words, stop words and light verbs
    left out."""
    keys: list[Key] = [code_key(sentence[s:e]) for _, s, e in masked_spans if start <= s < end]
    keys.extend(replace(number_key_of(m.group(0)), aside=_in_brackets(sentence, m.start()))
                for m in NUMBER.finditer(sentence, start, end)
                if not any(s <= m.start() < e for _, s, e in masked_spans)
                and not (m.start() > 1 and sentence[m.start() - 1] in "-_" and sentence[m.start() - 2].isalnum()))
    covered: set[int] = set()
    for ent in doc.ents:
        if ent.label_ in _NUMERIC_ENTS or not (start <= ent.start_char < end) or ent.text.startswith("Xx"):
            continue
        if any(t.is_alpha and not t.is_stop for t in ent):
            keys.append(name_key(ent.text))
            covered.update(t.i for t in ent)
    for token in doc:
        if not (start <= token.idx < end) or token.i in covered or token.text.startswith("Xx"):
            continue
        if _CODEISH.search(token.text) and any(c.isalpha() for c in token.text) and not NUMBER.fullmatch(token.text):
            keys.append(code_key(token.text))
            continue
        if not token.is_alpha or token.is_stop or token.lower_ in cue_words or len(token.text) < 2:
            continue
        if token.pos_ == "PROPN" and token.text[0].isupper():
            keys.append(name_key(token.text))
        elif action is not None and token.i == action.i:
            lemma = _lemma(token, lemmatize) or token.lower_
            if not is_light(lemma):
                keys.append(word_key("action", lemma))
        elif token.pos_ in ("NOUN", "PROPN") and token.lower_ not in GENERIC_NOUNS:
            keys.append(word_key("noun", token.text))
        elif token.pos_ == "VERB" and not is_light(_lemma(token, lemmatize) or ""):
            keys.append(word_key("verb", _lemma(token, lemmatize) or token.lower_))
        elif token.pos_ == "ADJ":
            keys.append(word_key("adj", token.text))
    unique: dict[frozenset[str], Key] = {}
    for key in keys:
        unique.setdefault(key.forms | frozenset().union(*key.parts), key)
    return tuple(unique.values())


_CODEISH = re.compile(r"[_./@#]\w|[a-z][A-Z]|[A-Za-z]\d|\d[A-Za-z]|-\w*\d")

_HEARSAY = ("i'd guess", "i guess", "i'm guessing", "i am guessing", "i think", "i suspect", "probably", "no idea",
            "someone said", "apparently", "presumably", "seems", "i believe", "my guess", "not sure", "i assume",
            "i reckon", "i bet", "i imagine", "i'd imagine", "surely")


#: What "must be" infers rather than orders: a cause ("must be why", "must be down to") or a
#: thing recognised once more ("must be the water heater again").
_INFERRED = re.compile(r"\s+be\s+(?:why|because|caused by|down to|(?:the|that|this)\b[^.;!?,]{0,40}\bagain\b)")
_HEARSAY_PATTERN = re.compile(r"\b(?:" + "|".join(re.escape(h) for h in _HEARSAY) + r")\b")


def _epistemic(doc: Any, low: str, cue: Cue, action: Any | None) -> bool:
    """A cue used to infer, not to order: "must have been removed", "must be why the counts are
    off", "must be the water heater again", "must be from the ORM, I'd guess", a habitual or past
    "never"/"always", or a sentence of hearsay or guesswork."""
    if _HEARSAY_PATTERN.search(low):
        return True
    if cue.text in ("must", "has to", "have to") and _INFERRED.match(low, cue.end):
        return True  # "that must be why the counts look off", "it must be the keychain migration again"
    after = low[cue.end:].split()
    if cue.text in ("must", "has to", "have to") and after[:1] == ["have"] and len(after) > 1 and (
            after[1] == "been" or action is not None and action.tag_ == "VBN" and after[1] == action.lower_):
        return True  # "must have been", "must have left": not "must have an itemised receipt"
    return bool(cue.text in ("never", "always") and action is not None and action.tag_ in ("VBD", "VBZ", "VBN"))
