"""Run history: every run appended to one SQLite file, read back without auditing again.

SQLite (the standard library's ``sqlite3``) rather than DuckDB: no new dependency, one file to
copy or attach to a ticket, appends that are safe under concurrent writers (WAL journal, one
transaction per run, a busy timeout), and plain SQL for any question the ``history`` command does
not answer. A run is a handful of rows per edge; analytical scans of millions of rows are not
what history is for.

Tables (``edge-audit history --schema`` prints them):

* ``runs``: one row per run (when, tool version, config, totals, exit code, sample rate).
* ``edges``: one row per edge of a run: trace, edge, route, kind, status, fidelity.
* ``results``: one row per finding, keyed by run, trace, edge, route, check (a check or grader
  name), rubric version (empty for deterministic checks) and tool version, with verdict and
  status; ``layer`` says deterministic or semantic.
* ``route_runs``: per run and route: edges, failing edges, failing findings, and the mean edge
  fidelity (the report's ``fidelity`` section, whose weights are ``fidelity.weights``).
"""

from __future__ import annotations

import sqlite3
from collections.abc import Iterator
from contextlib import contextmanager
from datetime import UTC, datetime
from pathlib import Path

from ..errors import UsageError
from ..report import Report
from ..trend import route_scores

#: Where ``--history`` writes when given no path, relative to the working directory.
DEFAULT_HISTORY = Path(".edge-audit") / "history.sqlite"
SCHEMA_VERSION = 1

SCHEMA = """
CREATE TABLE IF NOT EXISTS meta (key TEXT PRIMARY KEY, value TEXT NOT NULL);
CREATE TABLE IF NOT EXISTS runs (
    run_id INTEGER PRIMARY KEY AUTOINCREMENT,
    recorded_at TEXT NOT NULL,
    label TEXT,
    tool_version TEXT NOT NULL,
    config TEXT,
    traces INTEGER NOT NULL,
    edges INTEGER NOT NULL,
    failed_edges INTEGER NOT NULL,
    input_errors INTEGER NOT NULL,
    exit_code INTEGER NOT NULL,
    sample_rate REAL
);
CREATE TABLE IF NOT EXISTS edges (
    run_id INTEGER NOT NULL REFERENCES runs(run_id),
    trace_id TEXT NOT NULL,
    edge_id TEXT NOT NULL,
    route TEXT NOT NULL,
    kind TEXT NOT NULL,
    status TEXT NOT NULL,
    fidelity REAL,
    PRIMARY KEY (run_id, edge_id)
);
CREATE TABLE IF NOT EXISTS results (
    run_id INTEGER NOT NULL REFERENCES runs(run_id),
    trace_id TEXT NOT NULL,
    edge_id TEXT NOT NULL,
    route TEXT NOT NULL,
    check_name TEXT NOT NULL,
    rubric_version TEXT NOT NULL,
    tool_version TEXT NOT NULL,
    finding_id TEXT NOT NULL,
    layer TEXT NOT NULL,
    verdict TEXT NOT NULL,
    status TEXT NOT NULL,
    PRIMARY KEY (run_id, finding_id, check_name)
);
CREATE TABLE IF NOT EXISTS route_runs (
    run_id INTEGER NOT NULL REFERENCES runs(run_id),
    route TEXT NOT NULL,
    edges INTEGER NOT NULL,
    failed_edges INTEGER NOT NULL,
    failures INTEGER NOT NULL,
    fidelity REAL,
    score REAL,
    PRIMARY KEY (run_id, route)
);
CREATE INDEX IF NOT EXISTS results_route ON results(route, run_id);
"""


@contextmanager
def connect(path: Path, *, create: bool) -> Iterator[sqlite3.Connection]:
    """A connection to the history file, in WAL mode, closed afterwards. Without ``create`` a
    missing file is a usage error (nothing was recorded there)."""
    if not create and not path.is_file():
        raise UsageError(f"{path}: no run history here (record runs with `edge-audit run ... --history {path}`)")
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
        db = sqlite3.connect(path, timeout=30.0)
    except (OSError, sqlite3.Error) as err:
        raise UsageError(f"{path}: cannot open the run history: {err}") from None
    try:
        db.execute("PRAGMA journal_mode=WAL")
        db.execute("PRAGMA busy_timeout=30000")
        _upgrade(db)
        yield db
    except sqlite3.DatabaseError as err:
        raise UsageError(f"{path}: not a run history, or a damaged one: {err}") from None
    finally:
        db.close()


def _upgrade(db: sqlite3.Connection) -> None:
    """A history written before ``route_runs.score`` existed gains the column (empty for old runs)."""
    columns = {row[1] for row in db.execute("PRAGMA table_info(route_runs)")}
    if columns and "score" not in columns:
        with db:
            db.execute("ALTER TABLE route_runs ADD COLUMN score REAL")


def _route(source: str, destination: str) -> str:
    return f"{source}->{destination}"


def record_run(report: Report, path: str | Path = DEFAULT_HISTORY, *, label: str | None = None,
               now: datetime | None = None) -> int:
    """Append one run's report to the history at ``path`` (created with its folders when
    missing); return the run's id. The whole run is one transaction."""
    path = Path(path)
    when = (now or datetime.now(UTC)).strftime("%Y-%m-%dT%H:%M:%SZ")
    s = report.summary
    edges = {e.id: e for e in report.edges}
    fidelity_of_edge = {e.edge_id: e.score for e in report.fidelity.edges}
    fidelity_of_route = {route: agg.mean for route, agg in report.fidelity.routes.items()}
    score_of_route = route_scores(report)
    with connect(path, create=True) as db, db:
        db.executescript(SCHEMA)
        db.execute("INSERT OR IGNORE INTO meta VALUES ('schema_version', ?)", (str(SCHEMA_VERSION),))
        cursor = db.execute(
            "INSERT INTO runs (recorded_at, label, tool_version, config, traces, edges, failed_edges, input_errors, "
            "exit_code, sample_rate) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
            (when, label, report.tool_version, report.config, s.traces, s.edges, s.failed_edges, s.input_errors,
             s.exit_code, report.sampling.rate if report.sampling else None))
        run_id = int(cursor.lastrowid or 0)
        db.executemany("INSERT INTO edges VALUES (?, ?, ?, ?, ?, ?, ?)", [
            (run_id, e.trace_id, e.id, _route(e.source, e.destination), e.kind, e.status, fidelity_of_edge.get(e.id))
            for e in report.edges])
        rows = []
        for f in report.deterministic.findings:
            edge = edges.get(f.edge_id)
            if edge is not None:
                rows.append((run_id, edge.trace_id, f.edge_id, _route(edge.source, edge.destination), f.check, "",
                             report.tool_version, f.id, "deterministic", f.verdict, f.status))
        for g in report.semantic.findings:
            edge = edges.get(g.edge_id)
            if edge is not None:
                rows.append((run_id, edge.trace_id, g.edge_id, _route(edge.source, edge.destination), g.grader,
                             f"{g.rubric.id}.v{g.rubric.version}", report.tool_version, g.finding_id, "semantic",
                             g.verdict, g.status))
        db.executemany("INSERT OR REPLACE INTO results VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)", rows)
        db.executemany("INSERT INTO route_runs VALUES (?, ?, ?, ?, ?, ?, ?)", [
            (run_id, route, edges_n, failed, failures, fidelity_of_route.get(route), score_of_route.get(route))
            for route, edges_n, failed, failures in _route_counts(report)])
    return run_id


def _route_counts(report: Report) -> list[tuple[str, int, int, int]]:
    """Per route: edges, failing edges and failing deterministic findings."""
    routes: dict[str, list[int]] = {}
    route_of_edge = {}
    for e in report.edges:
        route = _route(e.source, e.destination)
        route_of_edge[e.id] = route
        counts = routes.setdefault(route, [0, 0, 0])
        counts[0] += 1
        counts[1] += e.status == "fail"
    for f in report.deterministic.findings:
        if f.status == "fail" and f.edge_id in route_of_edge:
            routes[route_of_edge[f.edge_id]][2] += 1
    return [(route, c[0], c[1], c[2]) for route, c in sorted(routes.items())]
