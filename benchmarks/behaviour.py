"""Behaviour digest: the findings of the examples (and, when given, other trace folders), with the
volatile fields removed, hashed so that a refactor can show it changed no verdict.

    python3 benchmarks/behaviour.py                    # compare the examples with benchmarks/behaviour.json
    python3 benchmarks/behaviour.py --write            # write that file anew (after a deliberate change)
    python3 benchmarks/behaviour.py --extra ../shared/datasets --save before.json   # then --against before.json

The examples run twice: deterministic only, and with the semantic graders and sufficiency replayed
from the committed cassettes (``examples/edge-audit.local.yaml``). The digest keeps each finding's
check, edge, verdict, status, summary, quotes and details, and each semantic finding's verdict,
quote and rubric hash; it drops the tool version, paths (of traces and of the rubric files
used, with their origin) and usage figures.
"""

from __future__ import annotations

import argparse
import hashlib
import json
import sys
from collections.abc import Iterable
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))  # this checkout's auditor, not whichever one is installed
DIGEST = ROOT / "benchmarks" / "behaviour.json"
EXAMPLES = ROOT / "examples" / "traces"
LOCAL = ROOT / "examples" / "edge-audit.local.yaml"
VOLATILE = {"tool_version", "path", "usage", "file", "prompt_file", "origin"}


def _strip(value: Any) -> Any:
    if isinstance(value, dict):
        return {k: _strip(v) for k, v in sorted(value.items()) if k not in VOLATILE}
    if isinstance(value, list):
        return [_strip(v) for v in value]
    if isinstance(value, str):
        return value.replace(str(ROOT), "<checkout>")  # e.g. a cassette's path in a miss's reason
    return value


def _digest(report: Any) -> str:
    data = _strip(report.model_dump(mode="json"))
    return hashlib.sha256(json.dumps(data, sort_keys=True).encode("utf-8")).hexdigest()[:16]


def digests(extra: Iterable[Path] = ()) -> dict[str, str]:
    from auditor import audit, load_config
    from auditor.config import with_overrides

    out = {"examples/deterministic": _digest(audit([EXAMPLES]))}
    replay = with_overrides(load_config(LOCAL), {}, {"mode": "replay"}, sufficiency=["all"])
    out["examples/replay"] = _digest(audit([EXAMPLES], replay))
    for folder in extra:
        out[f"extra/{folder.name}"] = _digest(audit([folder]))
    return out


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--write", action="store_true", help=f"write {DIGEST.relative_to(ROOT)} anew")
    parser.add_argument("--extra", type=Path, action="append", default=[], help="another trace folder")
    parser.add_argument("--save", type=Path, help="write every digest (examples and extras) to this file")
    parser.add_argument("--against", type=Path, help="compare every digest with this file instead")
    args = parser.parse_args(argv)
    now = digests([p for p in args.extra if p.exists()])
    if args.save:
        args.save.write_text(json.dumps(now, indent=2) + "\n", encoding="utf-8")
    if args.write:
        examples = {k: v for k, v in now.items() if k.startswith("examples/")}
        DIGEST.write_text(json.dumps(examples, indent=2) + "\n", encoding="utf-8")
        return 0
    expected = json.loads((args.against or DIGEST).read_text(encoding="utf-8"))
    changed = sorted(k for k in expected if now.get(k) != expected[k])
    for key in changed:
        print(f"changed: {key}: {expected[key]} -> {now.get(key)}", file=sys.stderr)
    print("behaviour unchanged" if not changed else f"{len(changed)} digest(s) changed")
    return 1 if changed else 0


if __name__ == "__main__":
    sys.exit(main())
