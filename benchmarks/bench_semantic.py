"""LLM calls and tokens of the semantic graders, against an all-LLM baseline. Prints its
figures; asserts nothing, calls no model.

    python benchmarks/bench_semantic.py [--whowhen PATH]

* **edge-audit**: the deterministic passes run first; only the items they leave
  ``needs_semantic`` go to a grader, batched one call per (edge, grader).
* **all-LLM baseline, batched**: every constraint and every claim the passes found goes to a
  grader, with the same per-edge batching.
* **all-LLM baseline, per item**: the same items, one call each.

Prompt tokens are LiteLLM's tokenizer estimate of the rendered prompt (rubric, system message
and trace data). Completion tokens come from the committed cassettes where one exists for the
request, and otherwise are estimated as the tokens of one typical judgement per item.
"""

from __future__ import annotations

import argparse
import json
import os
import sys
from collections.abc import Sequence
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]

from auditor import AuditConfig  # noqa: E402
from auditor.checks import CheckContext, Finding, make_check  # noqa: E402
from auditor.config import load_config, with_overrides  # noqa: E402
from auditor.edges import Edge, build_edges  # noqa: E402
from auditor.graders import Cassettes, GraderSpec, Job, SemanticRunner, grader_specs, model_settings  # noqa: E402
from auditor.nlp import TextAnalyzer  # noqa: E402
from auditor.trace import load_paths  # noqa: E402

_TYPICAL = {"item_id": "c1", "reason": "The handoff states the rule in other words, as firmly as the original.",
            "quote": "Do not reveal the card number to anyone.", "source_id": "E2", "verdict": "preserved"}


def _jobs(paths: Sequence[Path], specs: list[GraderSpec]) -> tuple[list[tuple[GraderSpec, Job]], ...]:
    config = AuditConfig()
    context = CheckContext(TextAnalyzer())
    checks = [make_check(c.name, context, c.options) for c in config.checks]
    ours: list[tuple[GraderSpec, Job]] = []
    batched: list[tuple[GraderSpec, Job]] = []
    per_item: list[tuple[GraderSpec, Job]] = []
    for loaded in load_paths(paths).traces:
        edges: list[Edge] = build_edges(loaded.trace).edges
        for check in checks:
            prepare = getattr(check, "prepare", None)
            if prepare is not None:
                prepare(edges)
        for edge in edges:
            numbered: list[tuple[str, Finding]] = [(f"{edge.id}#{n}", f) for n, f in
                                                   enumerate((f for c in checks for f in c(edge)), start=1)]
            for spec in specs:
                check_name = spec.grader.selects.check
                mine = [(fid, f) for fid, f in numbered if spec.grader.selects(f)]
                every = [(fid, f) for fid, f in numbered if f.check == check_name]
                if mine:
                    ours.append((spec, spec.grader.job(edge, mine)))
                if every:
                    batched.append((spec, spec.grader.job(edge, every)))
                    per_item += [(spec, spec.grader.job(edge, [one])) for one in every]
    return ours, batched, per_item


def _tokens(jobs: list[tuple[GraderSpec, Job]], runner: SemanticRunner, cassettes: Cassettes) -> tuple[int, int, int]:
    import litellm

    typical = litellm.token_counter(model="gpt-4o-mini", text=json.dumps(_TYPICAL))
    prompt = completion = from_cassettes = 0
    for spec, job in jobs:
        assert spec.rubric is not None
        prompt += litellm.token_counter(model="gpt-4o-mini", messages=spec.rubric.render(job.inputs))
        stored = cassettes.get(runner.parts(spec, job))
        if stored is not None and stored.usage.completion_tokens:
            completion += stored.usage.completion_tokens
            from_cassettes += 1
        else:
            completion += typical * len(job.items) + 8
    return prompt, completion, from_cassettes


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--whowhen", type=Path, default=ROOT.parent / "shared" / "datasets" /
                        "whowhen-algorithm-generated")
    args = parser.parse_args()
    os.environ.setdefault("LITELLM_LOCAL_MODEL_COST_MAP", "True")
    config = with_overrides(load_config(ROOT / "examples" / "edge-audit.local.yaml"), {}, {"mode": "replay"})
    specs = grader_specs(config)
    cassettes = Cassettes(ROOT / "cassettes")
    runner = SemanticRunner("replay", model_settings(config.semantic), cassettes=cassettes)
    paths = [p for p in (args.whowhen, ROOT / "examples" / "traces") if p.exists()]
    print(f"inputs: {', '.join(str(p) for p in paths)}")
    ours, batched, per_item = _jobs(paths, specs)
    edges = sum(len(build_edges(t.trace).edges) for t in load_paths(paths).traces)
    rows = []
    for name, jobs in (("edge-audit", ours), ("all-LLM, batched per edge", batched), ("all-LLM, per item", per_item)):
        prompt, completion, recorded = _tokens(jobs, runner, cassettes)
        items = sum(len(j.items) for _, j in jobs)
        rows.append((name, len(jobs), items, prompt, completion, recorded))
    print(f"edges: {edges}")
    print(f"{'run':28} {'calls':>7} {'items':>7} {'calls/edge':>10} {'prompt tok':>11} {'compl tok':>10} "
          f"{'tok/edge':>9} {'from cassettes':>15}")
    for name, calls, items, prompt, completion, recorded in rows:
        print(f"{name:28} {calls:7d} {items:7d} {calls / edges:10.3f} {prompt:11d} {completion:10d} "
              f"{(prompt + completion) / edges:9.1f} {recorded:15d}")
    ours_calls = rows[0][1]
    for name, calls, _, prompt, completion, _ in rows[1:]:
        print(f"edge-audit / {name}: calls {ours_calls / calls:.3f}, tokens "
              f"{(rows[0][3] + rows[0][4]) / (prompt + completion):.3f}")
    sys.stdout.flush()


if __name__ == "__main__":
    main()
