"""Sampled audits: which traces a run audits when ``sampling.rate`` is under 1.

The decision is a hash of the seed and the trace id (SHA-256, not Python's ``hash``, which is
salted per process), so a trace gets the same decision on every run, process and machine, and
the share of traces kept tends to ``rate``. A route (``source->destination``) may have a
minimum: a trace the hash leaves out is audited anyway while one of its routes has fewer
audited traces than its minimum, counted in input order (files sorted, traces in file order).
"""

from __future__ import annotations

import hashlib
from collections import Counter
from collections.abc import Iterable
from dataclasses import dataclass, field

from .config import SamplingConfig

__all__ = ["SampleStats", "Sampler", "route_of", "sample_point", "sampled"]


def route_of(source: str, destination: str) -> str:
    """The route name an edge belongs to: ``source->destination``."""
    return f"{source}->{destination}"


def sample_point(seed: int, trace_id: str) -> float:
    """Where a trace falls in [0, 1) for a seed: the first 8 bytes of a SHA-256."""
    digest = hashlib.sha256(f"edge-audit.sample.v1:{seed}:{trace_id}".encode()).digest()
    return int.from_bytes(digest[:8], "big") / 2**64


def sampled(trace_id: str, rate: float, seed: int) -> bool:
    """Whether the hash keeps a trace at ``rate``; every trace at rate 1."""
    return rate >= 1.0 or sample_point(seed, trace_id) < rate


@dataclass
class SampleStats:
    """What the sampling did in one run."""

    audited: int = 0
    by_minimum: int = 0
    skipped: int = 0
    route_traces: Counter[str] = field(default_factory=Counter)


class Sampler:
    """Decides, trace after trace, whether it is audited; keeps the counts the minimums need."""

    def __init__(self, config: SamplingConfig) -> None:
        self.config = config
        self.stats = SampleStats()

    @property
    def active(self) -> bool:
        return self.config.active

    def keep(self, trace_id: str, routes: Iterable[str]) -> bool:
        """Whether to audit this trace, whose edges have ``routes``; counts it either way."""
        names = set(routes)
        minimums = self.config.min_per_route
        if not sampled(trace_id, self.config.rate, self.config.seed):
            if not any(self.stats.route_traces[r] < minimums[r] for r in names if r in minimums):
                self.stats.skipped += 1
                return False
            self.stats.by_minimum += 1
        self.stats.audited += 1
        self.stats.route_traces.update(r for r in names if r in minimums)
        return True
