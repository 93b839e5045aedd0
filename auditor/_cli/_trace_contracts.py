"""``edge-audit trace-contracts lint|explain``: thin commands over ``auditor.trace_contracts``."""

from __future__ import annotations

import argparse
from pathlib import Path
from typing import Any


def add_trace_contracts_commands(commands: Any) -> None:
    parser = commands.add_parser("trace-contracts", help="trace contract maintenance (lint, explain)")
    sub = parser.add_subparsers(dest="trace_contracts_command", required=True, metavar="ACTION")
    lint = sub.add_parser("lint", help="flag brittle, contradictory or never-matching trace contracts "
                                       "(exit 1 on an error; warnings alone exit 0)")
    lint.add_argument("contracts", nargs="*", help="contract files or folders (default: config/trace-contracts "
                                                   "of the project)")
    lint.add_argument("--traces", nargs="*", default=[], metavar="PATH",
                      help="traces to check each contract's scope against (a scope that selects nothing in a trace "
                           "the contract applies to is an error)")
    explain = sub.add_parser("explain", help="print one line of intent per rule")
    explain.add_argument("contracts", nargs="*", help="contract files or folders (default: config/trace-contracts "
                                                      "of the project)")


def _contract_paths(given: list[str]) -> list[Path]:
    from ..config import find_project_config
    from ..errors import UsageError
    from ..trace_contracts import trace_contract_files

    if not given:
        found = find_project_config()
        if found is None:
            raise UsageError("no project here (no config/edge-audit.yaml at or above the working directory): "
                             "name the trace contracts")
        given = [str(found.parent / "trace-contracts")]
    paths: list[Path] = []
    for raw in given:
        path = Path(raw)
        paths += trace_contract_files(path) if path.is_dir() else [path]
    if not paths:
        raise UsageError(f"no trace contract files (*.yaml) in {', '.join(given)}")
    return paths


def run_trace_contracts_command(args: argparse.Namespace) -> int:
    from ..trace import load_paths
    from ..trace_contracts import explain_contract, lint_trace_contracts, load_trace_contract

    paths = _contract_paths(args.contracts)
    if args.trace_contracts_command == "explain":
        for path in paths:
            print("\n".join(explain_contract(load_trace_contract(path))))
        return 0
    traces = [item.trace for item in load_paths(args.traces).traces] if args.traces else []
    problems = lint_trace_contracts(paths, traces)
    for problem in problems:
        print(problem)
    errors = sum(1 for p in problems if p.severity == "error")
    print(f"{len(paths)} trace contract{'s' if len(paths) != 1 else ''}, {errors} error{'s' if errors != 1 else ''}, "
          f"{len(problems) - errors} warning{'s' if len(problems) - errors != 1 else ''}")
    return 1 if errors else 0
