"""The ``edge-audit`` command: a thin layer over ``auditor.audit``. Heavy modules are
imported inside the commands so that ``--help`` stays fast."""

from __future__ import annotations

import argparse
import json
import sys
from collections.abc import Sequence
from pathlib import Path

from ._semantic import add_semantic_commands, run_semantic_command, semantic_overrides

EXIT_CODES = """exit codes:
  0  every edge passed (nothing was lost)
  1  deterministic failures were found (statuses listed in gate.fail_on), or semantic
     failures with --fail-on semantic
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
    run.add_argument("--fail-on", action="append", choices=("fail", "warn", "unmeasured", "semantic"),
                     help="statuses that make the run exit 1 (repeatable; default: gate.fail_on). "
                          "'semantic' also gates on semantic findings with status fail")
    run.add_argument("--gate-routes", metavar="ROUTES", type=lambda v: [r for r in v.split(",") if r],
                     help="comma-separated handoff routes whose contract findings can fail the run "
                          "(default: every route); findings of other routes are still reported")
    llm = run.add_argument_group("semantic graders (env: EDGE_AUDIT_LLM, EDGE_AUDIT_MODEL, EDGE_AUDIT_API_BASE)")
    llm.add_argument("--llm", choices=("off", "live", "record", "replay"),
                     help="off: report semantic items as unmeasured (default); live: call the model; record: call "
                          "it and write cassettes; replay: answer only from cassettes (offline, for CI)")
    llm.add_argument("--model", help="LiteLLM model string, e.g. openai/gpt-4o-mini")
    llm.add_argument("--api-base", help="OpenAI-compatible server URL, e.g. http://127.0.0.1:8765/v1")
    llm.add_argument("--temperature", type=float)
    llm.add_argument("--concurrency", type=int, help="requests in flight at once")
    llm.add_argument("--timeout", type=float, help="seconds per request")
    llm.add_argument("--cassettes", metavar="DIR", help="cassette folder (default: ./cassettes)")
    llm.add_argument("--cache-dir", metavar="DIR", help="disk cache folder (default: user cache dir)")
    llm.add_argument("--no-cache", action="store_true", help="neither read nor write the disk cache")
    llm.add_argument("--max-cost", type=float, metavar="USD", help="stop new calls once this much is spent")
    llm.add_argument("--sufficiency", action="append", metavar="SELECT",
                     help="rerun receivers with the handoff alone: off (default), all, sample:N, or edge:ID "
                          "(repeatable); costs about two model calls per edge, estimated before running")
    llm.add_argument("--seed", type=int, help="seed for --sufficiency sample:N (default 0)")

    schema = commands.add_parser("schema", help="print a JSON Schema")
    schema.add_argument("what", choices=("trace", "report", "config", "contract", "agents"))
    commands.add_parser("formats", help="list the trace formats")
    commands.add_parser("checks", help="list the registered checks and graders")
    add_semantic_commands(commands)
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
        if args.command in ("rubrics", "cassettes", "contracts"):
            return run_semantic_command(args)
        from ..checks import registered_checks
        from ..graders import registered_graders

        print("\n".join(registered_checks() + registered_graders()))
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
    elif what == "contract":
        from ..contracts import ContractFile as model
    elif what == "agents":
        from ..sufficiency import AgentsFile as model
    elif what == "report":
        from ..report import Report as model
    else:
        from ..config import AuditConfig as model
    print(json.dumps(model.model_json_schema(by_alias=True), indent=2))
    return 0


def _run(args: argparse.Namespace) -> int:
    import os

    from rich.console import Console
    from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeElapsedColumn

    from .._audit import audit
    from ..config import load_config, with_overrides
    from ..report import print_terminal, to_json, to_junit, to_markdown

    config = with_overrides(load_config(args.config), os.environ, semantic_overrides(args), args.fail_on,
                            args.gate_routes, args.sufficiency, args.seed)
    err_console = Console(stderr=True)
    show = args.progress == "on" or (args.progress == "auto" and err_console.is_terminal)
    with Progress(TextColumn("{task.description}"), BarColumn(), MofNCompleteColumn(), TimeElapsedColumn(),
                  console=err_console, transient=True, disable=not show) as bar:
        task = bar.add_task("traces", total=None)
        graded = bar.add_task("grading", total=None, visible=False)
        report = audit(args.paths, config, format=args.format,
                       progress=lambda done, total: bar.update(task, completed=done, total=total),
                       semantic_progress=lambda done, total: bar.update(graded, completed=done, total=total,
                                                                        visible=True),
                       sufficiency_estimate=lambda calls, tokens: err_console.print(
                           f"sufficiency: up to {calls} model calls and about {tokens:,} tokens "
                           f"(cache and cassette hits cost nothing)", highlight=False))
    outputs = {args.json: to_json, args.markdown: to_markdown}
    for path, render in outputs.items():
        if path:
            Path(path).write_text(render(report), encoding="utf-8")
    if args.junit:
        Path(args.junit).write_text(to_junit(report, tuple(config.gate.fail_on), config.gate.semantic,
                                             config.gate.routes),
                                    encoding="utf-8")
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
