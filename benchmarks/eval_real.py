"""Score edge-audit's deterministic findings against the hand-judged real-trace labels
(tests/real_labelled, Who&When AG2 and Magentic-One logs; policy in tests/real_labelled/POLICY.md).

For each subset it runs the public API (``auditor.audit``) over every trace of the subset and prints:

* fail-finding precision: of the findings with status ``fail`` on labelled, non-uncertain steps,
  the share that match a labelled defect of that step (a claim finding matches an invented /
  contradicted defect when one of its handoff quotes and the defect text contain one another after
  whitespace/case normalisation; a constraint finding matches a dropped / softened / inverted defect
  the same way through its upstream quote);
* edge precision: of the labelled steps with at least one fail finding, the share with a labelled
  defect (and edge recall: of the steps with a defect, the share with a fail finding);
* defect recall: labelled defects matched by a fail finding, over all labelled defects (also without
  the ``background`` ones: unsupported world-knowledge facts);
* fail findings per edge and ``unverifiable`` findings per edge over all edges of all traces;
* the counts behind every rate. A labelled step with no edge in the report counts as missed.

    python benchmarks/eval_real.py [--datasets ../shared/datasets] [--config edge-audit.yaml] [--show]
"""

from __future__ import annotations

import argparse
import json
import re
from collections import Counter
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from auditor import audit, load_config

ROOT = Path(__file__).resolve().parents[1]
LABELS = ROOT / "tests" / "real_labelled"
SUBSETS = {
    "ag2": ("whowhen-ag2.json", "whowhen-algorithm-generated"),
    "magentic": ("whowhen-magentic.json", "whowhen-hand-crafted-sample"),
}
CLAIM_KINDS = frozenset({"invented", "contradicted"})
CONSTRAINT_KINDS = frozenset({"dropped", "softened", "inverted"})
CLAIMS_CHECK = "edge-audit.claims"
CONSTRAINTS_CHECK = "edge-audit.constraints"
_SPACE = re.compile(r"\s+")


def norm(text: str) -> str:
    return _SPACE.sub(" ", text).strip().lower()


def overlaps(a: str, b: str) -> bool:
    x, y = norm(a), norm(b)
    return bool(x) and bool(y) and (x in y or y in x)


@dataclass
class Defect:
    step_key: tuple[str, int]
    kind: str
    text: str
    background: bool
    matched: bool = False


@dataclass
class Step:
    file: str
    step: int
    uncertain: bool
    defects: list[Defect] = field(default_factory=list)
    findings: list[dict[str, Any]] = field(default_factory=list)
    has_edge: bool = False


def finding_matches(finding: dict[str, Any], defect: Defect) -> bool:
    check = str(finding.get("check", ""))
    if check.startswith(CLAIMS_CHECK) and defect.kind in CLAIM_KINDS:
        return any(overlaps(q.get("text", ""), defect.text) for q in finding.get("handoff") or [])
    if check.startswith(CONSTRAINTS_CHECK) and defect.kind in CONSTRAINT_KINDS:
        upstream = finding.get("upstream") or {}
        return overlaps(upstream.get("text", ""), defect.text)
    return False


def load_steps(label_file: Path) -> dict[tuple[str, int], Step]:
    steps: dict[tuple[str, int], Step] = {}
    for rec in json.loads(label_file.read_text(encoding="utf-8")):
        key = (rec["file"], int(rec["step"]))
        step = Step(file=rec["file"], step=key[1], uncertain=bool(rec.get("uncertain")))
        step.defects = [Defect(key, d["kind"], d["text"], bool(d.get("background"))) for d in rec.get("defects", [])]
        steps[key] = step
    return steps


def rate(num: int, den: int) -> str:
    return f"{num / den:.3f} ({num}/{den})" if den else f"n/a (0/{den})"


def evaluate(name: str, datasets: Path, config_path: str | None, show: bool) -> None:
    label_name, folder = SUBSETS[name]
    steps = load_steps(LABELS / label_name)
    trace_files = sorted((datasets / folder).glob("*.json"), key=lambda p: (len(p.stem), p.stem))
    report = audit([str(p) for p in trace_files], load_config(config_path)).model_dump(mode="json")

    # trace id -> label file name ("<folder>/<file>.json"), through the report's trace paths
    file_of: dict[str, str] = {}
    for trace in report["traces"]:
        if trace["trace_id"] in file_of:
            print(f"  warning: trace id {trace['trace_id']} appears twice; its edges and findings may mix")
        file_of[trace["trace_id"]] = f"{folder}/{Path(trace['path']).name}"
    edge_step: dict[str, tuple[str, int] | None] = {}
    for edge in report["edges"]:
        match = re.fullmatch(r"step-(\d+)", str(edge["event_id"]))
        label_file = f"{folder}/{Path(edge['path']).name}" if edge.get("path") else file_of.get(edge["trace_id"])
        edge_step[edge["id"]] = (label_file, int(match.group(1))) if match and label_file else None
        key = edge_step[edge["id"]]
        if key in steps:
            steps[key].has_edge = True

    findings = report["deterministic"]["findings"]
    fails = [f for f in findings if f["status"] == "fail"]
    unverifiable = [f for f in findings if f["verdict"] == "unverifiable"]
    for f in fails:
        key = edge_step.get(f["edge_id"])
        if key in steps:
            steps[key].findings.append(f)

    scored = [s for s in steps.values() if not s.uncertain]
    false_positives: list[tuple[Step, dict[str, Any]]] = []
    matched_findings = 0
    for step in scored:
        for f in step.findings:
            hits = [d for d in step.defects if finding_matches(f, d)]
            for d in hits:
                d.matched = True
            if hits:
                matched_findings += 1
            else:
                false_positives.append((step, f))
    labelled_fails = sum(len(s.findings) for s in scored)
    flagged = [s for s in scored if s.findings]
    defective = [s for s in scored if s.defects]
    defects = [d for s in scored for d in s.defects]
    foreground = [d for d in defects if not d.background]
    no_edge = [s for s in scored if not s.has_edge]
    edges = len(report["edges"])

    print(f"== {name}: {len(trace_files)} trace files, {len(report['traces'])} traces, {edges} edges, "
          f"{len(report['input_errors'])} input errors")
    print(f"  labelled edges: {len(scored)} scored + {len(steps) - len(scored)} uncertain; "
          f"defects {len(defects)} {dict(Counter(d.kind for d in defects))} "
          f"({len(defects) - len(foreground)} background); edges with a defect {len(defective)}")
    print(f"  fail findings on labelled edges: {labelled_fails} "
          f"{dict(Counter(f['check'] for s in scored for f in s.findings))}")
    print(f"  fail-finding precision:  {rate(matched_findings, labelled_fails)}")
    print(f"  edge precision:          {rate(sum(1 for s in flagged if s.defects), len(flagged))}")
    print(f"  edge recall:             {rate(sum(1 for s in defective if s.findings), len(defective))}")
    print(f"  defect recall:           {rate(sum(d.matched for d in defects), len(defects))}")
    print(f"  defect recall (no bg):   {rate(sum(d.matched for d in foreground), len(foreground))}")
    print(f"  labelled steps with no edge in the report (counted as missed): {len(no_edge)}")
    per_edge = f"{len(fails) / edges:.3f}" if edges else "n/a"
    unv_edge = f"{len(unverifiable) / edges:.3f}" if edges else "n/a"
    print(f"  all edges: fail findings/edge {per_edge} ({len(fails)} fail: "
          f"{dict(Counter(f['verdict'] for f in fails))}); unverifiable/edge {unv_edge} ({len(unverifiable)})")
    if not show:
        return
    print("  -- false positives (fail findings matching no labelled defect)")
    for step, f in false_positives:
        quotes = [q["text"] for q in f.get("handoff") or []]
        upstream = (f.get("upstream") or {}).get("text")
        print(f"   {step.file}#{step.step} {f['id']} {f['check']} {f['verdict']}: "
              f"handoff={[q[:120] for q in quotes]} upstream={upstream[:120] if upstream else None!r}")
    print("  -- labelled steps with no edge in the report")
    for step in no_edge:
        print(f"   {step.file}#{step.step} ({len(step.defects)} defects)")
    print("  -- missed defects")
    for step in scored:
        for d in step.defects:
            if not d.matched:
                where = "no edge" if not step.has_edge else f"{len(step.findings)} fail findings on step"
                print(f"   {step.file}#{step.step} {d.kind}{' (bg)' if d.background else ''} [{where}]: {d.text[:140]!r}")


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--datasets", type=Path, default=ROOT.parent / "shared" / "datasets",
                        help="folder holding the Who&When subsets (default: ../shared/datasets)")
    parser.add_argument("--config", default=None, help="edge-audit YAML config (default: built-in defaults)")
    parser.add_argument("--subset", choices=sorted(SUBSETS), action="append", help="only this subset (repeatable)")
    parser.add_argument("--show", action="store_true", help="list every false positive and missed defect")
    args = parser.parse_args(argv)
    for name in args.subset or list(SUBSETS):
        evaluate(name, args.datasets, args.config, args.show)


if __name__ == "__main__":
    main()
