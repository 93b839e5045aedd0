"""``edge-audit golden check|replay``: a thin layer over ``auditor.goldens``."""

from __future__ import annotations

import argparse
from typing import Any


def add_golden_commands(commands: Any) -> None:
    golden = commands.add_parser("golden", help="grade golden cases: their own traces (check) or a model's answers "
                                                "to their observations (replay)")
    sub = golden.add_subparsers(dest="golden_command", required=True, metavar="ACTION")
    check = sub.add_parser("check", help="grade each case's trace: banned claims, required behaviours, and the "
                                         "audit of its edges; exit 1 when a case does not pass")
    replay = sub.add_parser("replay", help="send the pinned system prompt and each case's observations to a model "
                                           "(--llm record|replay|live) and grade its answers")
    for parser in (check, replay):
        parser.add_argument("goldens", help="the goldens file (YAML or JSON; `edge-audit schema goldens`)")
        parser.add_argument("--config", help="YAML config (checks, nlp pipeline; for replay also the model)")
        parser.add_argument("--case", action="append", metavar="ID", help="grade only this case (repeatable)")
        parser.add_argument("--json", metavar="PATH", help="write the JSON report here")
        parser.add_argument("--redact", action="store_true", help="mask secrets in the report and the terminal "
                                                                  "(config: redact)")
    replay.add_argument("--llm", choices=("live", "record", "replay"), default="replay",
                        help="live: call the model; record: call it and write cassettes; replay (default): answer "
                             "only from cassettes, offline")
    replay.add_argument("--model", help="LiteLLM model string, e.g. openai/gpt-4o-mini")
    replay.add_argument("--api-base", help="OpenAI-compatible server URL, e.g. http://127.0.0.1:8765/v1")
    replay.add_argument("--cassettes", metavar="DIR", help="cassette folder (default: the config's, else ./cassettes)")
    replay.add_argument("--max-tokens", type=int, help="longest answer, in tokens (default 256)")


def run_golden_command(args: argparse.Namespace) -> int:
    import os
    from pathlib import Path

    from rich.console import Console

    from ..config import load_config, with_overrides
    from ..goldens import check_goldens, load_goldens, print_golden, replay_goldens
    from ._io import write_text

    goldens = load_goldens(args.goldens)
    config = load_config(args.config)
    if args.golden_command == "check":
        report = check_goldens(goldens, config, cases=args.case)
    else:
        cassettes = str(Path(args.cassettes).resolve()) if args.cassettes else None  # from here, not the config
        config = with_overrides(config, os.environ, {"mode": args.llm, "model": args.model, "api_base": args.api_base,
                                                     "cassettes_dir": cassettes})
        report = replay_goldens(goldens, config, cases=args.case, max_tokens=args.max_tokens)
    if args.redact or config.redact:
        from ..redact import redact_report

        report = redact_report(report)
    if args.json:
        write_text(args.json, report.model_dump_json(indent=2, by_alias=True) + "\n")
    print_golden(report, Console(highlight=False, soft_wrap=True))
    return report.summary.exit_code
