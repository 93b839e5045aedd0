"""The deterministic run against spaCy's full pipeline on the same text, measured in one run.

    python benchmarks/bench_speed.py [--whowhen PATH] [--repeat 3]

Baseline: every unique message text of the Who&When AG2 traces through the full pipeline
(tagger, parser, lemmatizer, NER: nothing excluded), once each. Ours: the whole deterministic
audit of the same traces (every default check: constraints, claims, contracts). Both models are
loaded before the clock starts. Prints each timing (minimum of ``--repeat`` runs) and the ratio;
asserts nothing.
"""

from __future__ import annotations

import argparse
import json
import time
from pathlib import Path

import spacy

from auditor import AuditConfig, audit
from auditor.nlp import DEFAULT_PIPELINE, TextAnalyzer

ROOT = Path(__file__).resolve().parents[1]


def unique_texts(folder: Path) -> list[str]:
    texts: dict[str, None] = {}
    for path in sorted(folder.glob("*.json")):
        for item in json.loads(path.read_text(encoding="utf-8")).get("history", []):
            content = item.get("content") if isinstance(item, dict) else None
            if isinstance(content, str) and content.strip():
                texts.setdefault(content)
    return list(texts)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--whowhen", type=Path, default=ROOT.parent / "shared/datasets/whowhen-algorithm-generated")
    parser.add_argument("--repeat", type=int, default=3)
    args = parser.parse_args()
    texts = unique_texts(args.whowhen)
    words = sum(len(t.split()) for t in texts)
    full = spacy.load(DEFAULT_PIPELINE)
    full.max_length = max(full.max_length, max(len(t) for t in texts) + 1)
    config = AuditConfig()

    ours, baseline = [], []
    for _ in range(args.repeat):
        analyzer = TextAnalyzer()
        _ = analyzer.nlp
        start = time.perf_counter()
        report = audit([args.whowhen], config, analyzer=analyzer)
        ours.append(time.perf_counter() - start)
        start = time.perf_counter()
        for _doc in full.pipe(texts, batch_size=64):
            pass
        baseline.append(time.perf_counter() - start)
    print(f"who&when AG2: {len(texts)} unique messages, {words} words; {report.summary.edges} edges, "
          f"{len(report.deterministic.findings)} findings")
    print(f"full spaCy pipeline ({DEFAULT_PIPELINE}, nothing excluded): {min(baseline):.2f}s "
          f"({words / min(baseline):.0f} words/s)")
    print(f"edge-audit deterministic run (all default checks): {min(ours):.2f}s "
          f"({words / min(ours):.0f} words/s, {analyzer.stats.words_parsed} words parsed)")
    print(f"ratio: {min(baseline) / min(ours):.1f}x faster (target 15x)")


if __name__ == "__main__":
    main()
