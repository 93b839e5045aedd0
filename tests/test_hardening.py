"""Input hardening at each boundary: bounded JSON, importer type checks naming the place, and
texts longer than spaCy's limit."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from conftest import FIXTURES

from auditor.nlp import TextAnalyzer
from auditor.trace import load_paths
from auditor.trace._json import MAX_DEPTH, JsonLimitError, loads
from auditor.trace.formats.agentchat import AGENTCHAT


@pytest.mark.parametrize("text", ["[" * 100_000 + "]" * 100_000, "[" * (MAX_DEPTH + 1) + "]" * (MAX_DEPTH + 1),
                                  '{"a": ' + "9" * 5000 + "}"])
def test_deep_or_huge_json_is_a_limit_error(text: str) -> None:
    with pytest.raises(JsonLimitError):
        loads(text)


def test_lone_surrogates_become_replacement_characters() -> None:
    assert loads('{"\\udc00k": ["a\\ud800", "\\ud83d\\ude00"]}') == {"\ufffdk": ["a\ufffd", "\U0001f600"]}


def test_a_deep_line_in_jsonl_names_the_line(tmp_path: Path) -> None:
    good = (FIXTURES / "formats" / "otlp-genai-incident.jsonl").read_text().splitlines()
    path = tmp_path / "deep.jsonl"
    path.write_text("\n".join([good[0], "[" * 5000 + "]" * 5000, *good[1:]]) + "\n")
    loaded = load_paths([path])
    assert len(loaded.traces) == 1
    [error] = loaded.errors
    assert error.line == 2 and "nest deeper" in error.reason


def test_wrong_types_at_the_otlp_boundary_name_the_span(tmp_path: Path) -> None:
    lines = (FIXTURES / "formats" / "otlp-genai-incident.jsonl").read_text().splitlines()
    first = json.loads(lines[0])
    first["resourceSpans"][0]["scopeSpans"][0]["spans"][0]["parentSpanId"] = {"x": 1}
    first["resourceSpans"][0]["scopeSpans"][0]["spans"][1]["attributes"] = [{"key": ["k"], "value": 5}]
    path = tmp_path / "t.jsonl"
    path.write_text("\n".join([json.dumps(first), *lines[1:]]) + "\n")
    loaded = load_paths([path])
    assert loaded.errors
    assert all(e.line is not None or e.where for e in loaded.errors)
    assert any("parentSpanId must be a string" in e.reason for e in loaded.errors)


def test_agentchat_detection_survives_unhashable_types() -> None:
    assert not AGENTCHAT.detect({"type": ["TextMessage"], "source": "a"})
    assert not AGENTCHAT.detect({"messages": [{"type": {"a": 1}, "source": "a"}]})


def test_openai_agents_parent_cycles_and_wrong_ids(tmp_path: Path) -> None:
    records = [json.loads(line) for line in
               (FIXTURES / "formats" / "openai-agents-incident.jsonl").read_text().splitlines()]
    spans = [r for r in records if r.get("object") == "trace.span"]
    spans[0]["parent_id"], spans[1]["parent_id"] = spans[1]["id"], spans[0]["id"]
    spans[2]["span_data"]["name"] = ["not", "a", "name"]
    spans[3]["parent_id"] = 42
    path = tmp_path / "t.jsonl"
    path.write_text("\n".join(json.dumps(r) for r in records) + "\n")
    loaded = load_paths([path])
    assert all(e.line is not None or e.where for e in loaded.errors)
    assert any("parent_id must be a string" in e.reason for e in loaded.errors)


def test_a_sentence_longer_than_spacys_limit_is_cut_not_fatal(analyzer: TextAnalyzer) -> None:
    text = "word " * 300_000 + "You MUST NOT change handle_webhook(event, ctx)"
    sentences = analyzer.sentences("long/1/content", text)
    assert max(len(s.text) for s in sentences) <= 100_000
    assert "".join(s.text for s in sentences) == text
    found = analyzer.directives(analyzer.candidates(sentences))
    assert any(d.cue == "MUST NOT" for ds in found for d in ds)
