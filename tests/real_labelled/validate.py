"""Validate the real-trace label files against the Who&When logs.

Usage: python3 tests/real_labelled/validate.py [--datasets ../shared/datasets] [FILE.json ...]

Checks, for every record: the trace file and step exist; the step is an agent's handoff
(not the first AG2 message, which is the framework's task prompt, not a ``Computer_terminal`` /
``ComputerTerminal`` output, not an ``Orchestrator (thought)`` / ``(termination condition)`` /
``(final answer)`` note, not ``human``); every defect has a known kind and its ``text`` is an exact
substring of the right message (the step itself for invented / contradicted / unverifiable, the
``upstream_step`` for dropped / softened / inverted and for ``constraint_notes``, which must
come earlier); no step is labelled twice. Exits 1 and lists the problems if any.
"""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path
from typing import Any

HERE = Path(__file__).resolve().parent
DEFAULT_DATASETS = HERE.parent.parent.parent / "shared" / "datasets"
CLAIM_KINDS = frozenset({"invented", "contradicted"})
CONSTRAINT_KINDS = frozenset({"dropped", "softened", "inverted"})
SUBSETS = {"whowhen-ag2.json": "whowhen-algorithm-generated",
           "whowhen-magentic.json": "whowhen-hand-crafted-sample"}
AG2_TOOL_NAMES = frozenset({"Computer_terminal", "computer_terminal"})
MAGENTIC_NOT_EDGES = ("(thought)", "(termination condition)", "(final answer)")


def sender_of(item: dict[str, Any], magentic: bool) -> str:
    if magentic:
        return str(item.get("role") or "")
    return str(item.get("name") or item.get("role") or "")


def not_an_edge(history: list[dict[str, Any]], step: int, magentic: bool) -> str | None:
    """Why history[step] is not an agent's handoff, or None when it is one."""
    item = history[step]
    if magentic:
        role = str(item.get("role") or "")
        if role.lower() in {"human", "user"}:
            return "human task message"
        if role == "ComputerTerminal":
            return "terminal output"
        if role.endswith(MAGENTIC_NOT_EDGES):
            return f"orchestrator note ({role})"
        return None
    if step == 0:
        return "first message (the framework's task prompt)"
    if sender_of(item, False) in AG2_TOOL_NAMES:
        return "terminal output"
    return None


def content(item: dict[str, Any]) -> str:
    value = item.get("content")
    return value if isinstance(value, str) else ""


def validate_records(records: list[dict[str, Any]], folder: Path) -> list[str]:
    problems: list[str] = []
    seen: set[tuple[str, int]] = set()
    cache: dict[str, dict[str, Any]] = {}
    for n, rec in enumerate(records):
        where = f"record {n} ({rec.get('file')} step {rec.get('step')})"
        file, step = rec.get("file"), rec.get("step")
        if not isinstance(file, str) or not isinstance(step, int):
            problems.append(f"{where}: needs a string file and an integer step")
            continue
        if (file, step) in seen:
            problems.append(f"{where}: labelled twice")
        seen.add((file, step))
        if not file.startswith(folder.name + "/"):
            problems.append(f"{where}: file must be under {folder.name}/")
        path = folder.parent / file
        if not path.is_file():
            problems.append(f"{where}: no such trace file {path}")
            continue
        doc = cache.setdefault(file, json.loads(path.read_text(encoding="utf-8")))
        history = doc["history"]
        magentic = folder.name == SUBSETS["whowhen-magentic.json"]
        if not 0 <= step < len(history):
            problems.append(f"{where}: step out of range (history has {len(history)})")
            continue
        reason = not_an_edge(history, step, magentic)
        if reason:
            problems.append(f"{where}: not an edge: {reason}")
        if rec.get("sender") != sender_of(history[step], magentic):
            problems.append(f"{where}: sender {rec.get('sender')!r} != logged {sender_of(history[step], magentic)!r}")
        if not isinstance(rec.get("uncertain"), bool):
            problems.append(f"{where}: uncertain must be true or false")
        defects = rec.get("defects")
        if not isinstance(defects, list):
            problems.append(f"{where}: defects must be a list")
            defects = []
        for d in defects:
            kind, text = d.get("kind"), d.get("text")
            if not isinstance(text, str) or not text.strip():
                problems.append(f"{where}: defect without text")
                continue
            if not d.get("why"):
                problems.append(f"{where}: defect {text[:40]!r} has no why")
            if kind in CLAIM_KINDS:
                if text not in content(history[step]):
                    problems.append(f"{where}: {kind} text not in step {step}: {text[:60]!r}")
            elif kind in CONSTRAINT_KINDS:
                up = d.get("upstream_step")
                if not isinstance(up, int) or not 0 <= up < step:
                    problems.append(f"{where}: {kind} needs an upstream_step before {step}")
                elif text not in content(history[up]):
                    problems.append(f"{where}: {kind} text not in upstream step {up}: {text[:60]!r}")
            else:
                problems.append(f"{where}: unknown defect kind {kind!r}")
        for c in rec.get("constraint_notes") or []:
            up, text = c.get("upstream_step"), c.get("text")
            if c.get("kind") not in CONSTRAINT_KINDS:
                problems.append(f"{where}: constraint note with unknown kind {c.get('kind')!r}")
            if not isinstance(up, int) or not 0 <= up < step or not isinstance(text, str) \
                    or text not in content(history[up]):
                problems.append(f"{where}: constraint note text not in upstream step {up}: {str(text)[:60]!r}")
        for u in rec.get("unverifiable") or []:
            text = u.get("text")
            if not isinstance(text, str) or text not in content(history[step]):
                problems.append(f"{where}: unverifiable text not in step {step}: {str(text)[:60]!r}")
    return problems


def validate_file(path: Path, datasets: Path) -> list[str]:
    subset = SUBSETS.get(path.name)
    if subset is None:
        return [f"{path}: unknown label file (expected one of {sorted(SUBSETS)})"]
    records = json.loads(path.read_text(encoding="utf-8"))
    if not isinstance(records, list):
        return [f"{path}: must hold a JSON list"]
    return [f"{path.name}: {p}" for p in validate_records(records, datasets / subset)]


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("files", nargs="*", type=Path)
    parser.add_argument("--datasets", type=Path, default=DEFAULT_DATASETS)
    args = parser.parse_args(argv)
    files = args.files or [HERE / name for name in SUBSETS]
    problems: list[str] = []
    for path in files:
        problems.extend(validate_file(path, args.datasets))
        if path.is_file():
            records = json.loads(path.read_text(encoding="utf-8"))
            kinds: dict[str, int] = {}
            for rec in records:
                for d in rec.get("defects", []):
                    kinds[d.get("kind")] = kinds.get(d.get("kind"), 0) + 1
            files_covered = len({r.get("file") for r in records})
            uncertain = sum(1 for r in records if r.get("uncertain"))
            print(f"{path.name}: {len(records)} edges ({uncertain} uncertain) in {files_covered} files; defects {kinds}")
    for p in problems:
        print(p, file=sys.stderr)
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main())
