"""Run history (issue 16, item 2): every run appended to SQLite, read back per route."""

from __future__ import annotations

import json
import sqlite3
import subprocess
import sys
from pathlib import Path

import pytest
from conftest import EXAMPLES, ROOT

from auditor import audit
from auditor.config import TrendConfig
from auditor.errors import UsageError
from auditor.production import SCHEMA, alerts, record_run, route_history

GROUNDED = EXAMPLES / "claims-all-grounded.json"
RED = EXAMPLES / "claims-green-after-red.json"
ROUTE = "coder->reviewer"


def test_history_shows_a_route_trend_over_three_runs(tmp_path: Path) -> None:
    db = tmp_path / "h" / "history.sqlite"
    runs = [audit([GROUNDED]), audit([RED]), audit([GROUNDED, RED])]
    ids = [record_run(report, db, label=f"r{n}") for n, report in enumerate(runs, start=1)]
    assert ids == [1, 2, 3]
    points = route_history(db, [ROUTE])[ROUTE]
    assert [p.label for p in points] == ["r1", "r2", "r3"]
    failures = [sum(f.status == "fail" for f in r.deterministic.findings) for r in runs]
    assert [p.failures for p in points] == failures and failures[0] == 0 < failures[1]
    assert [p.edges for p in points] == [1, 1, 2]
    assert points[0].fidelity == 1.0 and points[1].fidelity is not None and points[1].fidelity < 1.0
    assert [p.fidelity for p in points] == [r.fidelity.routes[ROUTE].mean for r in runs]
    # the command reads it back, without auditing again
    out = subprocess.run([sys.executable, "-m", "auditor", "history", "--db", str(db), "--route", ROUTE],
                         capture_output=True, text=True, cwd=ROOT, check=True).stdout
    assert ROUTE in out and f"failures {' → '.join(map(str, failures))}: rising" in out
    last = route_history(db, [ROUTE], last=2)[ROUTE]
    assert [p.run_id for p in last] == [2, 3]


def test_rows_are_keyed_by_trace_edge_route_check_rubric_and_tool_version(tmp_path: Path) -> None:
    db = tmp_path / "history.sqlite"
    report = audit([RED])
    record_run(report, db)
    record_run(audit([EXAMPLES / "semantic-handoffs.json"]), db)  # graders off: their items unmeasured
    with sqlite3.connect(db) as conn:
        rows = conn.execute("SELECT trace_id, edge_id, route, check_name, rubric_version, tool_version, layer, verdict "
                            "FROM results WHERE layer = 'deterministic' AND run_id = 1").fetchall()
        semantic = conn.execute("SELECT check_name, rubric_version FROM results WHERE layer = 'semantic'").fetchall()
        mode = conn.execute("PRAGMA journal_mode").fetchone()[0]
    assert len(rows) == len(report.deterministic.findings)
    assert {r[5] for r in rows} == {report.tool_version} and all(r[2] == ROUTE for r in rows)
    assert ("contradicted" in {r[7] for r in rows}) and {r[4] for r in rows} == {""}
    assert semantic and all(name.startswith("edge-audit.") and version.endswith(".v1") for name, version in semantic)
    assert mode == "wal"


def test_a_missing_or_foreign_history_is_a_usage_error(tmp_path: Path) -> None:
    with pytest.raises(UsageError, match="no run history"):
        route_history(tmp_path / "none.sqlite")
    junk = tmp_path / "junk.sqlite"
    junk.write_text("not a database at all, just text" * 100)
    with pytest.raises(UsageError):
        route_history(junk)


def test_run_history_flag_appends_each_run(tmp_path: Path) -> None:
    for _ in range(2):
        subprocess.run([sys.executable, "-m", "auditor", "run", str(GROUNDED), "--quiet", "--history"],
                       cwd=tmp_path, capture_output=True, env={"PYTHONPATH": str(ROOT), "PATH": "/usr/bin:/bin"})
    assert [p.run_id for p in route_history(tmp_path / ".edge-audit" / "history.sqlite")[ROUTE]] == [1, 2]


def _scored(path: Path, into: Path, score: float) -> Path:
    data = json.loads(path.read_text(encoding="utf-8"))
    data.setdefault("metadata", {})["score"] = score
    into.write_text(json.dumps(data), encoding="utf-8")
    return into


def test_history_raises_the_divergence_alert_and_stays_quiet_on_a_parallel_drop(tmp_path: Path) -> None:
    """A route whose fidelity falls while the end-to-end score holds is the alert `trend` gives;
    the same fall with the score falling too is not (issue 15's divergence, read from the history)."""
    db = tmp_path / "history.sqlite"
    for n, (path, score) in enumerate([(GROUNDED, 0.9), (RED, 0.92), (GROUNDED, 0.9), (RED, 0.4)]):
        record_run(audit([_scored(path, tmp_path / f"t{n}.json", score)]), db, label=f"r{n + 1}")
    found = alerts(route_history(db, [ROUTE]), TrendConfig())
    assert [(a.old_run, a.new_run, a.verdict) for a in found] == [(1, 2, "divergence"), (3, 4, "parallel_drop")]
    done = subprocess.run([sys.executable, "-m", "auditor", "history", "--db", str(db), "--route", ROUTE],
                          capture_output=True, text=True, cwd=ROOT)
    assert done.returncode == 1 and "divergence: run 1 -> 2" in done.stdout and "parallel_drop: run 3 -> 4" in done.stdout


def test_a_history_written_before_scores_were_kept_is_upgraded_in_place(tmp_path: Path) -> None:
    db = tmp_path / "old.sqlite"
    with sqlite3.connect(db) as conn:
        conn.executescript(SCHEMA.replace("    score REAL,\n", ""))
    record_run(audit([GROUNDED]), db)
    (point,) = route_history(db, [ROUTE])[ROUTE]
    assert point.score is None and point.fidelity == 1.0
