"""``edge-audit trend REPORTS...``: routes whose fidelity fell while the end-to-end score held."""

from __future__ import annotations

import argparse
from typing import Any


def add_trend_commands(commands: Any) -> None:
    trend = commands.add_parser(
        "trend", help="flag routes whose edge fidelity dropped while the end-to-end score held (reports oldest "
                      "first); exit 1 on a divergence")
    trend.add_argument("reports", nargs="+", help="run reports (JSON), oldest first")
    trend.add_argument("--config", help="YAML config (fidelity.weights, fidelity.trend)")
    trend.add_argument("--json", metavar="PATH", help="write the route points and changes as JSON here")


def run_trend_command(args: argparse.Namespace) -> int:
    from ..config import load_config
    from ..trend import trend, trend_lines
    from ._io import write_text

    config = load_config(args.config)
    result = trend(args.reports, config.fidelity.weights, config.fidelity.trend)
    if args.json:
        write_text(args.json, result.model_dump_json(indent=2) + "\n")
    print("\n".join(trend_lines(result)))
    return 1 if result.divergent else 0
