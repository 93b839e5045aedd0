"""``edge-audit selftest TRACES...``: mutate one message at a time, re-audit, print the caught-by
grid and the catch rate per mutation; exit 1 when a mutation's rate is under the floor."""

from __future__ import annotations

import argparse
import sys
from typing import Any


def add_selftest_commands(commands: Any) -> None:
    selftest = commands.add_parser(
        "selftest", help="mutate each edge carrying constraints or claims (soften, drop, invert, invent, "
                         "contradict), re-audit, and print which check caught each mutation")
    selftest.add_argument("paths", nargs="+", help="trace files or folders")
    selftest.add_argument("--config", help="YAML config (checks, and selftest.floor / selftest.seed)")
    selftest.add_argument("--format", help="force a trace format instead of detecting it")
    selftest.add_argument("--seed", type=int, help="seed of the mutations' choices (default: selftest.seed)")
    selftest.add_argument("--json", metavar="PATH", help="write every cell as JSON here")
    selftest.add_argument("--markdown", metavar="PATH", help="write the grid as Markdown here")
    selftest.add_argument("--redact", action="store_true", help="mask secrets in every output (config: redact)")


def run_selftest_command(args: argparse.Namespace) -> int:
    from ..config import load_config
    from ..selftest import grid_lines, percent, selftest
    from ._io import write_text

    config = load_config(args.config)
    show = sys.stderr.isatty()
    result = selftest(args.paths, config, seed=args.seed, format=args.format,
                      progress=(lambda done, total: print(f"\rselftest: {done}/{total} traces", end="",
                                                          file=sys.stderr)) if show else None)
    if show:
        print(file=sys.stderr)
    if args.redact or config.redact:
        from ..redact import redact_report

        result = redact_report(result)
    if args.json:
        write_text(args.json, result.model_dump_json(indent=2) + "\n")
    if args.markdown:
        write_text(args.markdown, "# edge-audit selftest\n\n" + "\n".join(grid_lines(result, markdown=True)) + "\n")
    print("\n".join(grid_lines(result)))
    print(f"{result.traces} traces, {result.edges} edges, {result.edges_tested} carrying constraints or claims; "
          f"seed {result.seed}")
    for error in result.input_errors:
        print(f"unreadable: {error}")
    below = result.below_floor
    if below:
        print(f"below the floor ({percent(result.floor)}): {', '.join(below)}")
    return 3 if result.input_errors else 1 if below else 0
