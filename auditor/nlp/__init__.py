"""The NLP layer: masking, sentences, modal cues, directives and their content keys, behind one cached analyzer."""

from ._align import (
    Forms,
    Key,
    clauses,
    content_forms,
    coverage,
    is_light,
    key_positions,
    stem,
    text_forms,
    word_forms,
)
from ._analyzer import DEFAULT_DISABLE, DEFAULT_PIPELINE, AnalyzerStats, Sentence, TextAnalyzer, load_pipeline
from ._directives import Directive
from ._lexicon import (
    CUE_PATTERN,
    CUE_TABLE,
    HEDGE_PATTERN,
    INSTRUCTION_VERBS,
    NEGATION_PATTERN,
    PERMISSION_CUES,
    RESTRICTIVE_PATTERN,
    SPELLED_NUMBER,
    SPELLED_NUMBERS,
    VERB_GROUPS,
    WAIVER_CUES,
    WHOLE_RULE_HEDGE,
    Polarity,
    Relation,
    Strength,
    spelled_value,
    verb_relation,
)
from ._text import PLACEHOLDER_LEAD, mask, may_restored, months_apart, split_sentences, squash

__all__ = [
    "CUE_PATTERN", "CUE_TABLE", "DEFAULT_DISABLE", "DEFAULT_PIPELINE", "HEDGE_PATTERN", "INSTRUCTION_VERBS", "is_light", "NEGATION_PATTERN", "PERMISSION_CUES", "PLACEHOLDER_LEAD",
    "RESTRICTIVE_PATTERN", "SPELLED_NUMBER", "SPELLED_NUMBERS", "VERB_GROUPS", "WAIVER_CUES", "WHOLE_RULE_HEDGE", "AnalyzerStats", "Directive", "Forms", "Key", "Polarity", "Relation",
    "Sentence", "Strength", "TextAnalyzer", "clauses", "content_forms", "coverage", "key_positions", "months_apart",
    "load_pipeline", "mask", "may_restored", "split_sentences", "spelled_value", "squash", "stem", "text_forms", "verb_relation", "word_forms",
]
