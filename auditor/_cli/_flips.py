"""``edge-audit flips OLD NEW``: only what changed between two reports; exit 1 on a regression."""

from __future__ import annotations

import argparse
from typing import Any


def add_flips_commands(commands: Any) -> None:
    flips = commands.add_parser(
        "flips", help="print only the deltas between two reports (run reports, or cases reports such as golden "
                      "checks); exit 1 on any regression")
    flips.add_argument("old", help="the earlier report (JSON)")
    flips.add_argument("new", help="the later report (JSON)")
    flips.add_argument("--json", metavar="PATH", help="write the deltas as JSON here")
    flips.add_argument("--redact", action="store_true", help="mask secrets in the labels (quoted trace text)")


def run_flips_command(args: argparse.Namespace) -> int:
    from ..flips import flips, flips_lines
    from ._io import write_text

    result = flips(args.old, args.new)
    if args.redact:
        from ..redact import redact_report

        result = redact_report(result)
    if args.json:
        write_text(args.json, result.model_dump_json(indent=2) + "\n")
    print("\n".join(flips_lines(result)))
    return 1 if result.regressed else 0
