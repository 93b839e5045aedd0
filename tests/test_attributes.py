"""The compiled attribute rules annotate exactly as the pipeline's own ``attribute_ruler``."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from auditor.nlp import TextAnalyzer
from auditor.nlp._attributes import compile_attribute_ruler

ROOT = Path(__file__).resolve().parent
#: Texts with every kind of rule: tag map, word exceptions, two-token lemmas, spaces.
SPECIAL = [
    "I ain't gonna wait, y'all gotta let's go — c'mon, it gets done.",
    "You must not deploy on Fridays; it got reverted twice.\n\n  Do it    now.",
    "There is a bug and there are two more: but we do have a fix, don't we?",
    "Keep the cron at 02:00 UTC, and don't touch `db/migrations/0042.sql`.",
]


def _texts() -> list[str]:
    texts = list(SPECIAL)
    for path in sorted((ROOT / "labelled" / "independent").glob("*.json")):
        for case in json.loads(path.read_text(encoding="utf-8")):
            texts.extend(m["content"] for m in case.get("upstream", []))
            texts.append(case["handoff"]["content"])
    return texts


def _annotations(doc: object) -> list[tuple[str, str, str, str]]:
    return [(t.tag_, t.pos_, str(t.morph), t.lemma_) for t in doc]  # type: ignore[attr-defined]


def test_compiled_rules_equal_the_component(analyzer: TextAnalyzer) -> None:
    nlp = analyzer.nlp
    compiled = compile_attribute_ruler(nlp.get_pipe("attribute_ruler"))
    assert compiled is not None
    texts = _texts()
    assert len(texts) > 100
    reference = [_annotations(d) for d in nlp.pipe(texts, disable=["lemmatizer"])]
    ours = [_annotations(compiled(d)) for d in nlp.pipe(texts, disable=["lemmatizer", "attribute_ruler"])]
    assert ours == reference


@pytest.mark.parametrize("pattern", [
    [{"POS": "VERB"}],  # an attribute the tables do not index
    [{"LOWER": "a"}, {"LOWER": "b"}, {"LOWER": "c"}],  # three tokens
    [{"LOWER": {"FUZZY": "colour"}}],  # an operator they do not know
])
def test_rules_outside_the_subset_keep_the_component(pattern: list[dict[str | int, Any]]) -> None:
    import spacy
    from spacy.pipeline import AttributeRuler

    ruler = spacy.blank("en").add_pipe("attribute_ruler")
    assert isinstance(ruler, AttributeRuler)
    ruler.add([pattern], {"LEMMA": "x"})
    assert compile_attribute_ruler(ruler) is None
    plain = spacy.blank("en").add_pipe("attribute_ruler")
    assert isinstance(plain, AttributeRuler)
    plain.add([[{"LOWER": "colour"}]], {"LEMMA": "color"})
    assert compile_attribute_ruler(plain) is not None
