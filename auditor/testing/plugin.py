"""The pytest plugin, the ``pytest11`` entry point ``auditor.testing.plugin`` (named as this module,
so ``-p auditor.testing.plugin`` loads it once, installed or not):

* the ``edge_audit`` fixture: ``edge_audit.assert_edges(trace_or_path, allow=[...])``;
* ``--edge-audit PATH`` (repeatable): audits PATH once at collection and adds one test per edge,
  ``<trace file>::<edge id>``, marked ``edge_audit``; it fails when the edge's findings fail the
  gate, with the verdicts and quotes. Each unreadable input is a failing test too, and so is
  finding no trace. ``--edge-audit-config FILE`` and ``--edge-audit-allow VERDICT`` tune both.

Importing this module is cheap: nothing heavy is imported before a fixture or option is used.
"""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import TYPE_CHECKING, Any

import pytest

if TYPE_CHECKING:
    from ..config import AuditConfig
    from ..report import EdgeModel, InputErrorModel, Report
    from ._assert import EdgeAuditor

MARKER = "edge_audit"


def pytest_addoption(parser: pytest.Parser) -> None:
    group = parser.getgroup("edge-audit", "edge-audit: one test per handoff of multi-agent traces")
    group.addoption("--edge-audit", action="append", default=[], metavar="PATH",
                    help="audit these trace files or folders and collect one test per edge (repeatable)")
    group.addoption("--edge-audit-config", metavar="FILE",
                    help="edge-audit YAML config (default: config/edge-audit.yaml found from the working "
                         "directory upwards, else the built-in defaults)")
    group.addoption("--edge-audit-allow", action="append", default=[], metavar="VERDICT",
                    help="a verdict that may fail without failing its edge's test (repeatable), e.g. softened")


def pytest_configure(config: pytest.Config) -> None:
    config.addinivalue_line("markers", f"{MARKER}: a test collected by --edge-audit for one edge of a trace")


def _config(pytestconfig: pytest.Config) -> AuditConfig:
    from ..config import load_config

    value = pytestconfig.getoption("edge_audit_config")
    return load_config(value)


@pytest.fixture
def edge_audit(pytestconfig: pytest.Config) -> EdgeAuditor:
    """``audit`` and ``assert_edges`` bound to the edge-audit config (``--edge-audit-config``)."""
    from ._assert import EdgeAuditor

    return EdgeAuditor(_config(pytestconfig))


class EdgeItem(pytest.Item):
    """One edge of an audited trace: fails when its findings fail the gate."""

    def __init__(self, *, report: Report, audit_config: AuditConfig, edge: EdgeModel, allow: tuple[str, ...],
                 **kwargs: Any) -> None:
        super().__init__(**kwargs)
        self.report = report
        self.audit_config = audit_config
        self.edge = edge
        self.allow = allow
        self.add_marker(MARKER)

    def runtest(self) -> None:
        from ._assert import check_report

        check_report(self.report, self.audit_config, allow=self.allow, edge_id=self.edge.id)

    def repr_failure(self, excinfo: pytest.ExceptionInfo[BaseException],
                     style: Any = None) -> str:
        from ..errors import EdgesFailed

        if isinstance(excinfo.value, EdgesFailed):
            return str(excinfo.value)
        return str(super().repr_failure(excinfo, style=style))

    def reportinfo(self) -> tuple[Path, int | None, str]:
        return self.path, None, f"edge {self.edge.id} ({self.edge.source} -> {self.edge.destination})"


class UnauditedItem(pytest.Item):
    """An input that could not be audited (or no trace at all): always fails, never a pass."""

    def __init__(self, *, problem: str, **kwargs: Any) -> None:
        super().__init__(**kwargs)
        self.problem = problem
        self.add_marker(MARKER)

    def runtest(self) -> None:
        raise _NotAudited(self.problem)

    def repr_failure(self, excinfo: pytest.ExceptionInfo[BaseException], style: Any = None) -> str:
        return f"not audited (never a pass): {excinfo.value}"

    def reportinfo(self) -> tuple[Path, int | None, str]:
        return self.path, None, "input not audited"


class _NotAudited(Exception):
    pass


class TraceFile(pytest.File):
    """One trace file named by an audited report: its edges, then its unreadable inputs."""

    def __init__(self, *, report: Report, audit_config: AuditConfig, edges: list[EdgeModel],
                 errors: list[InputErrorModel], allow: tuple[str, ...], **kwargs: Any) -> None:
        super().__init__(**kwargs)
        self.report = report
        self.audit_config = audit_config
        self.edges = edges
        self.errors = errors
        self.allow = allow

    def collect(self) -> Iterator[pytest.Item]:
        for edge in self.edges:
            yield EdgeItem.from_parent(self, name=edge.id, report=self.report, audit_config=self.audit_config,
                                       edge=edge, allow=self.allow)
        for i, error in enumerate(self.errors):
            where = f" at {error.where}" if error.where else ""
            line = f":{error.line}" if error.line is not None else ""
            yield UnauditedItem.from_parent(self, name=f"unaudited-{i}",
                                            problem=f"{error.kind}: {error.path}{line}{where}: {error.reason}")


def _audit(config: pytest.Config) -> tuple[Report, AuditConfig]:
    from .._audit import audit
    from ..errors import UserError

    audit_config = _config(config)
    try:
        return audit(config.getoption("edge_audit"), audit_config), audit_config
    except UserError as err:
        raise pytest.UsageError(f"--edge-audit: {err}") from None


@pytest.hookimpl(tryfirst=True)
def pytest_collection_modifyitems(session: pytest.Session, config: pytest.Config, items: list[pytest.Item]) -> None:
    """With ``--edge-audit``, audit once and add one item per edge (before ``-k``/``-m`` select)."""
    if not config.getoption("edge_audit"):
        return
    report, audit_config = _audit(config)
    allow = tuple(config.getoption("edge_audit_allow"))
    by_path: dict[str, tuple[list[EdgeModel], list[InputErrorModel]]] = {}
    for edge in report.edges:
        by_path.setdefault(edge.path, ([], []))[0].append(edge)
    for error in report.input_errors:
        by_path.setdefault(error.path, ([], []))[1].append(error)
    for path, (edges, errors) in by_path.items():
        node = TraceFile.from_parent(session, path=Path(path).absolute(), report=report, audit_config=audit_config,
                                     edges=edges, errors=errors, allow=allow)
        items.extend(node.collect())
    if not report.traces and not report.input_errors:
        for path in config.getoption("edge_audit"):
            node = TraceFile.from_parent(session, path=Path(path).absolute(), report=report,
                                         audit_config=audit_config, edges=[], errors=[], allow=allow)
            items.append(UnauditedItem.from_parent(node, name="no-trace", problem=f"no trace found under {path}"))
