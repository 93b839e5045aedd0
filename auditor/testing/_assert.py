"""``assert_edges``: audit a trace (an object, a file or a folder) and fail with a message that
names each failing edge, its route, each failing verdict and the quotes it rests on.

What fails is what would make ``edge-audit run`` exit 1 under the same config: findings whose
status is in ``gate.fail_on`` (default ``fail``) on a gated route, and semantic findings with
status ``fail`` when ``gate.semantic`` is set. ``allow`` names verdicts that may fail anyway.
Inputs that could not be audited (unreadable files, internal errors, no trace at all) always
fail: an audit that did not run is never a pass.
"""

from __future__ import annotations

import os
import tempfile
from collections.abc import Iterable
from dataclasses import dataclass
from pathlib import Path

from .._audit import audit
from ..checks import Finding
from ..config import AuditConfig, load_config
from ..errors import EdgesFailed
from ..graders import SemanticFinding
from ..report import EdgeModel, Report, finding_lines, route_gated
from ..trace import Trace

#: What ``assert_edges`` audits: a trace object, a trace file or folder, or a finished report.
Target = Trace | Report | str | os.PathLike[str]


def audit_target(target: Target, config: AuditConfig | None = None, *, format: str | None = None) -> Report:
    """The report for ``target``: a ``Report`` as it is; a ``Trace`` written to a temporary
    native file and audited; a path audited like ``edge-audit run PATH``."""
    if isinstance(target, Report):
        return target
    config = config or load_config(None)
    if isinstance(target, Trace):
        with tempfile.TemporaryDirectory(prefix="edge-audit-") as folder:
            path = Path(folder) / "trace.json"
            path.write_text(target.model_dump_json(by_alias=True), encoding="utf-8")
            return audit([path], config, format="native")
    return audit([Path(target)], config, format=format)


@dataclass(frozen=True)
class EdgeFailure:
    """One failing edge: its deterministic and semantic findings that fail the gate."""

    edge: EdgeModel
    findings: tuple[Finding, ...]
    semantic: tuple[SemanticFinding, ...] = ()


def failing_edges(report: Report, config: AuditConfig | None = None, *, allow: Iterable[str] = (),
                  edge_id: str | None = None) -> list[EdgeFailure]:
    """The edges of ``report`` (or the one ``edge_id``) with findings that fail the gate of
    ``config`` (default: the built-in gate), leaving out the verdicts in ``allow``."""
    gate = (config or AuditConfig()).gate
    allowed = frozenset(allow)
    found: dict[str, list[Finding]] = {}
    for f in report.deterministic.findings:
        if f.status in gate.fail_on and f.verdict not in allowed and route_gated(f.details, gate.routes):
            found.setdefault(f.edge_id, []).append(f)
    graded: dict[str, list[SemanticFinding]] = {}
    if gate.semantic:
        for s in report.semantic.findings:
            if s.status == "fail" and s.verdict not in allowed:
                graded.setdefault(s.edge_id, []).append(s)
    return [EdgeFailure(e, tuple(found.get(e.id, ())), tuple(graded.get(e.id, ())))
            for e in report.edges
            if (edge_id is None or e.id == edge_id) and (e.id in found or e.id in graded)]


def describe_failure(failure: EdgeFailure) -> str:
    """One failing edge as readable lines: id and route, then each verdict with its quotes."""
    edge = failure.edge
    lines = [f"{edge.id}  {edge.source} -> {edge.destination}  ({edge.path})"]
    for f in failure.findings:
        lines.append(f"  {f.verdict} [{f.status}, {f.check}]: {f.summary}")
        lines += [f"    {line}" for line in finding_lines(f)]
    for s in failure.semantic:
        lines.append(f"  {s.verdict} [semantic {s.status}, {s.grader}] on {s.finding_id}: {s.reason}")
        if s.quote is not None and s.quote_verified:
            lines.append(f"    quote {s.quote.event_id}.{s.quote.field}[{s.quote.start}:{s.quote.end}]: "
                         f"{s.quote.text}")
    return "\n".join(lines)


def unaudited(report: Report) -> list[str]:
    """Why parts of ``report`` were not audited: unreadable inputs, internal errors, no trace."""
    problems = [f"{e.kind}: {e.path}{'' if e.line is None else f':{e.line}'}"
                f"{f' at {e.where}' if e.where else ''}: {e.reason}" for e in report.input_errors]
    if not report.traces and not problems:
        problems.append("no trace was audited")
    return problems


def check_report(report: Report, config: AuditConfig | None = None, *, allow: Iterable[str] = (),
                 edge_id: str | None = None) -> None:
    """Raise ``EdgesFailed`` when ``report`` has failing edges or inputs it could not audit."""
    allow = tuple(allow)
    failures = failing_edges(report, config, allow=allow, edge_id=edge_id)
    problems = unaudited(report) if edge_id is None else []
    if not failures and not problems:
        return
    scope = f"edge {edge_id}" if edge_id is not None else f"{len(failures)} of {len(report.edges)} edges"
    parts = [f"{scope} failed the edge audit" + (f" (allowed verdicts: {', '.join(allow)})" if allow else "")]
    parts += [describe_failure(f) for f in failures]
    if problems:
        parts.append("not audited (never a pass):\n" + "\n".join(f"  {p}" for p in problems))
    raise EdgesFailed("\n\n".join(parts), tuple(failures), report)


def assert_edges(trace_or_path: Target, allow: Iterable[str] = (), *, config: AuditConfig | None = None,
                 format: str | None = None) -> Report:
    """Audit ``trace_or_path`` and raise ``EdgesFailed`` (an ``AssertionError``) naming every edge
    that fails, or every input that could not be audited; return the report otherwise.
    ``allow``: verdicts that may fail (``["softened"]``). ``config`` defaults to the project's
    ``config/edge-audit.yaml`` found from the working directory, else the built-in defaults."""
    config = config or load_config(None)
    report = audit_target(trace_or_path, config, format=format)
    check_report(report, config, allow=allow)
    return report


class EdgeAuditor:
    """``audit`` and ``assert_edges`` bound to one config (the pytest fixture ``edge_audit``)."""

    def __init__(self, config: AuditConfig | None = None) -> None:
        self.config = config or load_config(None)

    def audit(self, target: Target, *, format: str | None = None) -> Report:
        return audit_target(target, self.config, format=format)

    def assert_edges(self, trace_or_path: Target, allow: Iterable[str] = (), *,
                     format: str | None = None) -> Report:
        return assert_edges(trace_or_path, allow, config=self.config, format=format)
