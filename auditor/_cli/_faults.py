"""``edge-audit faults TRACE --continue-from FILE.py:FUNCTION``: a thin layer over ``auditor.faults``."""

from __future__ import annotations

import argparse
from typing import Any


def add_faults_commands(commands: Any) -> None:
    faults = commands.add_parser("faults", help="corrupt each handoff of a trace, let your pipeline continue from it "
                                                "(--continue-from), and print who caught it")
    faults.add_argument("trace", help="a trace file holding one trace: the run to corrupt")
    faults.add_argument("--continue-from", required=True, metavar="TARGET",
                        help="your pipeline's replay, continue_from(trace, edge_id, mutated_message) -> Trace, as "
                             "path/to/file.py:function or package.module:function")
    faults.add_argument("--mutation", action="append", metavar="NAME",
                        help="soften, drop, invert, invent or contradict (repeatable; default: all)")
    faults.add_argument("--edge", action="append", metavar="ID", help="only this edge (repeatable)")
    faults.add_argument("--seed", type=int, default=0, help="seed of the invented claims (default 0)")
    faults.add_argument("--config", help="YAML config of the audit of the continued runs")
    faults.add_argument("--json", metavar="PATH", help="write the grid as JSON here (`edge-audit schema faults`)")
    faults.add_argument("--redact", action="store_true", help="mask secrets in the grid (config: redact)")
    faults.add_argument("--fail-on-silent", action="store_true",
                        help="exit 1 when a fault was caught by nobody and the end-to-end score held")


def run_faults_command(args: argparse.Namespace) -> int:
    from rich.console import Console

    from ..config import load_config
    from ..errors import UsageError
    from ..faults import inject_faults, print_grid
    from ..sufficiency import load_callable
    from ..trace import load_paths
    from ._io import write_text

    loaded = load_paths([args.trace])
    if loaded.errors:
        raise loaded.errors[0]
    if len(loaded.traces) != 1:
        raise UsageError(f"{args.trace}: holds {len(loaded.traces)} traces; give a file with one")
    try:
        continue_from = load_callable(args.continue_from)
    except (ValueError, OSError, ImportError, AttributeError) as err:
        raise UsageError(f"--continue-from {args.continue_from}: {err}") from None
    config = load_config(args.config)
    grid = inject_faults(loaded.traces[0].trace, continue_from, config, mutations=args.mutation, edges=args.edge,
                         seed=args.seed)
    if args.redact or config.redact:
        from ..redact import redact_report

        grid = redact_report(grid)
    if args.json:
        write_text(args.json, grid.model_dump_json(indent=2, by_alias=True) + "\n")
    import sys

    print_grid(grid, Console(highlight=False) if sys.stdout.isatty() else Console(highlight=False, width=240))
    return 1 if args.fail_on_silent and grid.silent else 0
