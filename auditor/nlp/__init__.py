"""The NLP layer: masking, sentences, modal cues, directives and their content keys, behind one cached analyzer."""

from ._analyzer import DEFAULT_DISABLE, DEFAULT_PIPELINE, AnalyzerStats, Sentence, TextAnalyzer, load_pipeline
from ._directives import Directive
from ._lexicon import Polarity, Relation, Strength, verb_relation

__all__ = [
    "DEFAULT_DISABLE", "DEFAULT_PIPELINE", "AnalyzerStats", "Directive", "Polarity",
    "Relation", "Sentence", "Strength", "TextAnalyzer", "load_pipeline", "verb_relation",
]
