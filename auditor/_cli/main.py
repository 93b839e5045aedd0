"""The ``edge-audit`` command: a thin layer over ``auditor.audit``. Heavy modules are
imported inside the commands so that ``--help`` stays fast."""

from __future__ import annotations

import argparse
import json
import sys
from collections.abc import Sequence
from pathlib import Path

EXIT_CODES = """exit codes:
  0  every edge passed (nothing was lost)
  1  deterministic failures were found (statuses listed in gate.fail_on)
  2  usage or configuration error
  3  some inputs were unreadable (they are listed; the rest were still audited)
  4  runtime failure (e.g. the spaCy pipeline is not installed)"""


def _parser() -> argparse.ArgumentParser:
    from .. import __version__

    parser = argparse.ArgumentParser(
        prog="edge-audit", description="Audit every handoff (edge) of multi-agent LLM traces.",
        epilog=EXIT_CODES, formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    parser.add_argument("--version", action="version", version=f"edge-audit {__version__}")
    commands = parser.add_subparsers(dest="command", required=True, metavar="COMMAND")

    run = commands.add_parser("run", help="audit trace files or folders", epilog=EXIT_CODES,
                              formatter_class=argparse.RawDescriptionHelpFormatter)
    run.add_argument("paths", nargs="+", help="trace files (.json, .jsonl) or folders searched recursively")
    run.add_argument("--format", help="force a trace format instead of detecting it (see `edge-audit formats`)")
    run.add_argument("--config", help="YAML config (default: built-in, same as config/edge-audit.yaml)")
    run.add_argument("--json", metavar="PATH", help="write the JSON report here")
    run.add_argument("--junit", metavar="PATH", help="write JUnit XML here")
    run.add_argument("--markdown", metavar="PATH", help="write a Markdown summary here")
    run.add_argument("--all-edges", action="store_true", help="list passing edges in the terminal table too")
    run.add_argument("--quiet", action="store_true", help="print only the one-line summary")
    run.add_argument("--progress", choices=("auto", "on", "off"), default="auto",
                     help="progress bar on stderr (auto: when stderr is a terminal)")

    schema = commands.add_parser("schema", help="print a JSON Schema")
    schema.add_argument("what", choices=("trace", "report", "config"))
    commands.add_parser("formats", help="list the trace formats")
    commands.add_parser("checks", help="list the registered checks")
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    args = _parser().parse_args(argv)
    from .._audit import EXIT_RUNTIME, EXIT_USAGE
    from ..errors import RuntimeFailure, UserError

    try:
        if args.command == "run":
            return _run(args)
        if args.command == "schema":
            return _schema(args.what)
        if args.command == "formats":
            from ..trace import all_formats

            for fmt in all_formats():
                print(f"{fmt.name:14} {fmt.registry_name:36} {fmt.description}")
            return 0
        from ..checks import registered_checks

        print("\n".join(registered_checks()))
        return 0
    except UserError as err:
        print(f"edge-audit: error: {err}", file=sys.stderr)
        return EXIT_USAGE
    except RuntimeFailure as err:
        print(f"edge-audit: runtime failure: {err}", file=sys.stderr)
        return EXIT_RUNTIME


def _schema(what: str) -> int:
    from pydantic import BaseModel

    model: type[BaseModel]
    if what == "trace":
        from ..trace import Trace as model
    elif what == "report":
        from ..report import Report as model
    else:
        from ..config import AuditConfig as model
    print(json.dumps(model.model_json_schema(by_alias=True), indent=2))
    return 0


def _run(args: argparse.Namespace) -> int:
    from rich.console import Console
    from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeElapsedColumn

    from .._audit import audit
    from ..config import load_config
    from ..report import print_terminal, to_json, to_junit, to_markdown

    config = load_config(args.config)
    err_console = Console(stderr=True)
    show = args.progress == "on" or (args.progress == "auto" and err_console.is_terminal)
    with Progress(TextColumn("auditing"), BarColumn(), MofNCompleteColumn(), TimeElapsedColumn(),
                  console=err_console, transient=True, disable=not show) as bar:
        task = bar.add_task("traces", total=None)
        report = audit(args.paths, config, format=args.format,
                       progress=lambda done, total: bar.update(task, completed=done, total=total))
    outputs = {args.json: to_json, args.markdown: to_markdown}
    for path, render in outputs.items():
        if path:
            Path(path).write_text(render(report), encoding="utf-8")
    if args.junit:
        Path(args.junit).write_text(to_junit(report, tuple(config.gate.fail_on)), encoding="utf-8")
    console = Console()
    if args.quiet:
        s = report.summary
        print(f"{s.traces} traces, {s.edges} edges, {s.failed_edges} failing edges, "
              f"{s.input_errors} unreadable inputs; exit code {s.exit_code}")
    else:
        print_terminal(report, console, all_edges=args.all_edges)
    return report.summary.exit_code


if __name__ == "__main__":
    sys.exit(main())
