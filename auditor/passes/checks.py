"""The deterministic checks: each configured check on every edge (batched parsing first), and the
checks that grade whole traces (handoff records) on every trace."""

from __future__ import annotations

import contextlib
from collections.abc import Iterable, Sequence
from dataclasses import replace

from ..checks import ChecksTraces, Finding, Prepares, make_check
from ..edges import Edge
from ..trace import LoadedTrace
from ._base import Audit, BasePass, Graded, Numbered


def _numbered(where: str, findings: Iterable[Finding], start: int) -> list[Numbered]:
    """Each finding with its report id, ``<edge or unit id>#<n>``."""
    return [(f"{where}#{n}", replace(f, id=f"{where}#{n}")) for n, f in enumerate(findings, start=start)]


class Checks(BasePass):
    def __init__(self, audit: Audit) -> None:
        self.audit = audit
        self.checks = [make_check(c.name, audit.context, c.options) for c in audit.config.checks]

    def prepare(self, edges: Sequence[Edge]) -> None:
        for check in self.checks:
            if isinstance(check, Prepares):
                with contextlib.suppress(Exception):  # only a batch speed-up; each edge is checked on its own
                    check.prepare(edges)

    def edge(self, item: LoadedTrace, edge: Edge, found: list[Numbered]) -> None:
        numbered = _numbered(edge.id, (f for check in self.checks for f in check(edge)), len(found) + 1)
        found.extend(numbered)
        self.audit.findings.extend(numbered)

    def trace(self, item: LoadedTrace) -> None:
        for check in self.checks:
            if isinstance(check, ChecksTraces):
                for unit, unit_findings in check.check_trace(item.trace):
                    numbered = _numbered(unit.id, unit_findings, 1)
                    self.audit.findings.extend(numbered)
                    self.audit.graded.append(Graded.of_unit(item, unit, numbered))


def make(audit: Audit) -> Checks:
    return Checks(audit)
