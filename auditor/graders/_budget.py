"""The call budget of a run: at most ``max_calls`` model requests, and at most a quota of
requests per route (``source->destination``), beside ``--max-cost``.

Unlike the cost, which is only known once a call returns, requests are counted when they are
asked for, in the run's order (grader jobs in trace order, before any is sent; then
sufficiency legs, one after another), live, cached or replayed alike. So the same items are
graded in a record run and in its replay, whatever the concurrency, and a request the budget
refuses leaves its items unmeasured (``budget_exhausted``), never passed.
"""

from __future__ import annotations

import threading
from collections import Counter
from collections.abc import Mapping


class CallBudget:
    def __init__(self, max_calls: int | None = None, route_quotas: Mapping[str, int] | None = None) -> None:
        self.max_calls = max_calls
        self.route_quotas = dict(route_quotas or {})
        self.used = 0
        self.by_route: Counter[str] = Counter()
        self.refused: Counter[str] = Counter()
        self._lock = threading.Lock()

    @property
    def active(self) -> bool:
        return self.max_calls is not None or bool(self.route_quotas)

    def allot(self, route: str | None) -> str | None:
        """Take one request for ``route``: None when granted, else why it is refused."""
        with self._lock:
            quota = self.route_quotas.get(route) if route is not None else None
            if self.max_calls is not None and self.used >= self.max_calls:
                self.refused["max_calls"] += 1
                return f"--max-calls {self.max_calls}: every request was used before this one"
            if quota is not None and self.by_route[route or ""] >= quota:
                self.refused[f"route:{route}"] += 1
                return f"--route-quota {route}={quota}: the route's requests were used before this one"
            self.used += 1
            if route is not None:
                self.by_route[route] += 1
            return None
