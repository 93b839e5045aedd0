"""Production audits on the command line: the ``run`` flags for sampling and call budgets, and
their config overrides."""

from __future__ import annotations

import argparse
from typing import Any


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


def production_semantic_overrides(args: argparse.Namespace) -> dict[str, Any]:
    """The semantic settings the production flags change (None: left as configured)."""
    return {"max_calls": args.max_calls, "route_quotas": dict(args.route_quota) if args.route_quota else None}


def with_production_flags(config: Any, args: argparse.Namespace) -> Any:
    """``config`` with ``--sample``, ``--seed`` and ``--min-per-route``."""
    from ..config import with_sampling

    return with_sampling(config, args.sample, args.seed, dict(args.min_per_route))
