"""Production audits on the command line: the ``run`` flags for sampling, call budgets and the
run history, and the ``history`` command."""

from __future__ import annotations

import argparse
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from ..config import AuditConfig
    from ..report import Report

#: The history's default path (``auditor.production.DEFAULT_HISTORY``), here so that ``--help`` imports nothing.
_DEFAULT_HISTORY = ".edge-audit/history.sqlite"


def _route_number(value: str) -> tuple[str, int]:
    route, sep, number = value.rpartition("=")
    if not sep or "->" not in route or not number.isdigit():
        raise argparse.ArgumentTypeError(f"{value!r}: expected SOURCE->DESTINATION=N")
    return route, int(number)


def add_production_options(run: Any) -> None:
    group = run.add_argument_group("production audits")
    group.add_argument("--sample", type=float, metavar="RATE",
                       help="audit this share of the traces (0 < RATE <= 1), chosen by a hash of --seed and the "
                            "trace id: the same traces on every run and machine")
    group.add_argument("--min-per-route", action="append", type=_route_number, metavar="ROUTE=N", default=[],
                       help="with --sample: audit at least N traces having this route (SOURCE->DESTINATION), "
                            "counted in input order (repeatable)")
    group.add_argument("--max-calls", type=int, metavar="N",
                       help="at most N model requests (graders and sufficiency), counted in the run's order; "
                            "the rest stay unmeasured")
    group.add_argument("--route-quota", action="append", type=_route_number, metavar="ROUTE=N", default=[],
                       help="at most N model requests for this route (repeatable)")
    group.add_argument("--workers", type=int, default=1, metavar="N",
                       help="audit in N local processes (default 1); the report is the same, byte for byte")
    group.add_argument("--executor", choices=("local", "ray"), default="local",
                       help="ray: one task per shard of files on a Ray cluster (RAY_ADDRESS or --ray-address; "
                            "else a local Ray); needs pip install 'edge-audit[ray]'")
    group.add_argument("--ray-address", metavar="ADDRESS", help="the Ray cluster to use with --executor ray")
    group.add_argument("--otlp-out", metavar="FILE|URL",
                       help="each finding as an OTel gen_ai.evaluation.result event: OTLP/JSON logs written to FILE, "
                            "or POSTed to an OTLP/HTTP URL (e.g. http://localhost:4318/v1/logs)")
    group.add_argument("--history", nargs="?", const=_DEFAULT_HISTORY, metavar="PATH",
                       help=f"append this run to a SQLite run history (default: {_DEFAULT_HISTORY})")
    group.add_argument("--history-label", metavar="TEXT", help="a label for this run in the history (a commit, a date)")


def add_production_commands(commands: Any) -> None:
    history = commands.add_parser(
        "history", help="failures and fidelity per route over the recorded runs; exit 1 on a divergence (a "
                        "route's fidelity fell while its end-to-end score held, as `edge-audit trend` judges it)")
    history.add_argument("--db", default=_DEFAULT_HISTORY, metavar="PATH",
                         help=f"the run history (default: {_DEFAULT_HISTORY})")
    history.add_argument("--route", action="append", default=[], metavar="SOURCE->DESTINATION",
                         help="only this route (repeatable)")
    history.add_argument("--last", type=int, metavar="N", help="only the last N runs")
    history.add_argument("--json", action="store_true", help="print JSON instead of text")
    history.add_argument("--config", help="YAML config whose `trend` thresholds judge a divergence (default: built-in)")


def run_production_command(args: argparse.Namespace) -> int:
    import json

    from ..config import load_config
    from ..production import alerts, format_history, history_json, route_history

    settings = load_config(args.config).fidelity.trend
    found = route_history(args.db, args.route, args.last)
    print(json.dumps(history_json(found, settings), indent=2) if args.json else format_history(found, settings),
          end="")
    return 1 if any(a.verdict == "divergence" for a in alerts(found, settings)) else 0


def run_audit(args: argparse.Namespace, config: AuditConfig, **hooks: Any) -> Report:
    """``audit`` in this process, or over ``--workers`` processes or a Ray cluster. Glob patterns
    in the paths (quoted, so the shell left them) are expanded either way."""
    from .._audit import audit
    from ..production import audit_parallel, expand_globs

    paths = expand_globs(args.paths)
    if args.executor == "local" and args.workers == 1:
        return audit(paths, config, format=args.format, **hooks)
    return audit_parallel(paths, config, workers=args.workers, executor="ray" if args.executor == "ray" else "process",
                          format=args.format, ray_address=args.ray_address, **hooks)


def after_run(report: Report, args: argparse.Namespace) -> None:
    """What a finished run hands on: its findings as OTel events, its row in the history."""
    if args.otlp_out:
        from ..production import write_otlp

        write_otlp(report, args.otlp_out)
    if args.history:
        from ..production import record_run

        record_run(report, args.history, label=args.history_label)


def production_semantic_overrides(args: argparse.Namespace) -> dict[str, Any]:
    """The semantic settings the production flags change (None: left as configured)."""
    return {"max_calls": args.max_calls, "route_quotas": dict(args.route_quota) if args.route_quota else None}


def with_production_flags(config: Any, args: argparse.Namespace) -> Any:
    """``config`` with ``--sample``, ``--seed`` and ``--min-per-route``."""
    from ..config import with_sampling

    return with_sampling(config, args.sample, args.seed, dict(args.min_per_route))
