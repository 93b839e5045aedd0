"""The ``edge-audit`` command: a thin layer over ``auditor.audit``. Heavy modules are
imported inside the commands so that ``--help`` stays fast."""

from __future__ import annotations

import argparse
import json
import sys
from collections.abc import Sequence
from pathlib import Path

from ._faults import add_faults_commands, run_faults_command
from ._flips import add_flips_commands, run_flips_command
from ._golden import add_golden_commands, run_golden_command
from ._io import write_text as _write
from ._production import (
    add_production_commands,
    add_production_options,
    after_run,
    production_semantic_overrides,
    run_audit,
    run_production_command,
    with_production_flags,
)
from ._selftest import add_selftest_commands, run_selftest_command
from ._semantic import add_semantic_commands, run_semantic_command, semantic_overrides
from ._trace_contracts import add_trace_contracts_commands, run_trace_contracts_command
from ._trend import add_trend_commands, run_trend_command

EXIT_CODES = """exit codes:
  0  every edge passed (nothing was lost)
  1  deterministic failures were found (statuses listed in gate.fail_on), or semantic
     failures with --fail-on semantic
  2  usage or configuration error
  3  some inputs were unreadable, or no trace file was found (they are listed; the
     rest were still audited)
  4  runtime failure: the spaCy pipeline is not installed, an internal error on one
     trace (listed; the others were audited), or any error edge-audit did not foresee"""


def _parser() -> argparse.ArgumentParser:
    from .._version import __version__

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
    run.add_argument("--html", metavar="PATH", help="write a self-contained HTML report here")
    run.add_argument("--redact", action="store_true",
                     help="mask secrets (API keys, tokens, passwords, private keys) in every report (config: redact)")
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
    llm.add_argument("--seed", type=int, help="seed for --sample and --sufficiency sample:N (default 0)")
    add_production_options(run)

    schema = commands.add_parser("schema", help="print a JSON Schema")
    schema.add_argument("what", choices=("trace", "report", "config", "options", "contract", "trace-contract",
                                         "agents", "goldens", "golden-report", "faults", "cases", "flips",
                                         "selftest", "trend"),
                        help="options: the options of every registered check and grader")
    commands.add_parser("formats", help="list the trace formats")
    commands.add_parser("checks", help="list the registered checks and graders")
    add_semantic_commands(commands)
    add_golden_commands(commands)
    add_faults_commands(commands)
    add_trace_contracts_commands(commands)
    add_flips_commands(commands)
    add_selftest_commands(commands)
    add_trend_commands(commands)
    add_production_commands(commands)
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
        if args.command == "golden":
            return run_golden_command(args)
        if args.command == "faults":
            return run_faults_command(args)
        if args.command == "trace-contracts":
            return run_trace_contracts_command(args)
        if args.command == "flips":
            return run_flips_command(args)
        if args.command == "selftest":
            return run_selftest_command(args)
        if args.command == "trend":
            return run_trend_command(args)
        if args.command == "history":
            return run_production_command(args)
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
    except KeyboardInterrupt:
        print("edge-audit: interrupted", file=sys.stderr)
        return 130
    except Exception as err:  # noqa: BLE001 - a crash is a runtime failure (4), never a finding (1)
        import os
        import traceback

        text = str(err)
        print(f"edge-audit: internal error: {type(err).__name__}: {text[:500]}"
              + ("" if os.environ.get("EDGE_AUDIT_DEBUG") else " (set EDGE_AUDIT_DEBUG=1 for the traceback)"),
              file=sys.stderr)
        if os.environ.get("EDGE_AUDIT_DEBUG"):
            traceback.print_exc()
        return EXIT_RUNTIME


def _schema(what: str) -> int:
    from pydantic import BaseModel

    if what == "options":
        from ..checks import check_options, registered_checks
        from ..graders import grader_options, registered_graders

        print(json.dumps({"checks": {n: check_options(n).model_json_schema() for n in registered_checks()},
                          "graders": {n: grader_options(n).model_json_schema() for n in registered_graders()}},
                         indent=2))
        return 0
    model: type[BaseModel]
    if what == "trace":
        from ..trace import Trace as model
    elif what == "contract":
        from ..contracts import ContractFile as model
    elif what == "trace-contract":
        from ..trace_contracts import TraceContractFile as model
    elif what == "agents":
        from ..sufficiency import AgentsFile as model
    elif what == "report":
        from ..report import Report as model
    elif what in ("goldens", "golden-report"):
        from ..goldens import GoldenReport, GoldensFile

        model = GoldensFile if what == "goldens" else GoldenReport
    elif what == "faults":
        from ..faults import FaultGrid as model
    elif what == "cases":
        from ..flips import CasesReport as model
    elif what == "flips":
        from ..flips import FlipsResult as model
    elif what == "selftest":
        from ..selftest import SelftestResult as model
    elif what == "trend":
        from ..trend import TrendResult as model
    else:
        from ..config import AuditConfig as model
    print(json.dumps(model.model_json_schema(by_alias=True), indent=2))
    return 0


def _run(args: argparse.Namespace) -> int:
    import os

    from rich.console import Console
    from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeElapsedColumn

    from ..config import load_config, with_overrides
    from ..report import html_report, print_terminal, to_json, to_junit, to_markdown

    outputs = _output_paths(args)
    config = with_production_flags(with_overrides(
        load_config(args.config), os.environ, {**semantic_overrides(args), **production_semantic_overrides(args)},
        args.fail_on, args.gate_routes, args.sufficiency, args.seed), args)
    err_console = Console(stderr=True) if sys.stderr.isatty() else Console(stderr=True, width=_WIDE, soft_wrap=True)
    show = args.progress == "on" or (args.progress == "auto" and err_console.is_terminal)
    with Progress(TextColumn("{task.description}"), BarColumn(), MofNCompleteColumn(), TimeElapsedColumn(),
                  console=err_console, transient=True, disable=not show) as bar:
        task = bar.add_task("traces", total=None)
        graded = bar.add_task("grading", total=None, visible=False)
        report = run_audit(args, config,
                       progress=lambda done, total: bar.update(task, completed=done, total=total),
                       semantic_progress=lambda done, total: bar.update(graded, completed=done, total=total,
                                                                        visible=True),
                       sufficiency_estimate=lambda calls, tokens: err_console.print(
                           f"sufficiency: up to {calls} model calls and about {tokens:,} tokens "
                           f"(cache and cassette hits cost nothing)", highlight=False))
    audited, redact = report, args.redact or config.redact
    if redact:
        from ..redact import redact_report

        report = redact_report(report)
    renders = {"json": lambda: to_json(report), "markdown": lambda: to_markdown(report),
               "html": lambda: html_report(audited, config, format=args.format, redact=redact),
               "junit": lambda: to_junit(report, tuple(config.gate.fail_on), config.gate.semantic, config.gate.routes)}
    for kind, path in outputs.items():
        _write(path, renders[kind]())
    after_run(report, args)
    console = Console() if sys.stdout.isatty() else Console(width=_WIDE, soft_wrap=True)
    if args.quiet:
        from ..report import plural

        s = report.summary
        print(f"{plural(s.traces, 'trace')}, {plural(s.edges, 'edge')}, {plural(s.failed_edges, 'failing edge')}, "
              f"{plural(s.input_errors, 'unreadable input')}; exit code {s.exit_code}")
    else:
        print_terminal(report, console, all_edges=args.all_edges)
    return report.summary.exit_code


#: Console width when stdout is not a terminal (a CI log): wide enough that ids never wrap.
_WIDE = 100_000


def _output_paths(args: argparse.Namespace) -> dict[str, Path]:
    """The report paths asked for, checked before any trace is read: a missing folder is created
    on writing; a folder, a FIFO or a device in the way is a usage error (a FIFO would hang)."""
    from ..errors import UsageError

    chosen = {kind: Path(value) for kind, value in (("json", args.json), ("markdown", args.markdown),
                                                     ("junit", args.junit), ("html", args.html)) if value}
    for kind, path in chosen.items():
        if path.exists() and not path.is_file():
            raise UsageError(f"--{kind} {path}: not a regular file (a folder, FIFO or device); give a file path")
        parent = path.parent
        while not parent.exists() and parent != parent.parent:
            parent = parent.parent
        if parent.exists() and not parent.is_dir():
            raise UsageError(f"--{kind} {path}: {parent} is not a folder")
    if len(set(chosen.values())) < len(chosen):
        raise UsageError("--json, --markdown, --junit and --html must name different files")
    return chosen


if __name__ == "__main__":
    sys.exit(main())
