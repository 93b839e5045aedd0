"""Two runs on the same input and cassettes write byte-identical JSON, Markdown, JUnit and HTML, in
separate processes with different hash seeds. The report holds no wall-clock figure."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

from conftest import EXAMPLES, FIXTURES, ROOT


def _start(out: Path, seed: str) -> subprocess.Popen[str]:
    out.mkdir()
    env = {**os.environ, "PYTHONHASHSEED": seed}
    return subprocess.Popen(
        [sys.executable, "-m", "auditor", "run", str(EXAMPLES), str(FIXTURES / "whowhen"), str(FIXTURES / "formats"),
         "--config", str(ROOT / "examples" / "edge-audit.local.yaml"), "--llm", "replay", "--sufficiency", "all",
         "--json", str(out / "r.json"), "--markdown", str(out / "r.md"), "--junit", str(out / "r.xml"),
         "--html", str(out / "r.html"), "--quiet"],
        cwd=ROOT, env=env, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)


def test_two_runs_write_identical_reports(tmp_path: Path) -> None:
    runs = [_start(tmp_path / "a", "1"), _start(tmp_path / "b", "2")]  # side by side, with different hash seeds
    for run in runs:
        _, err = run.communicate(timeout=600)
        assert run.returncode in (0, 1, 3), err[-2000:]
    for name in ("r.json", "r.md", "r.xml", "r.html"):
        assert (tmp_path / "a" / name).read_bytes() == (tmp_path / "b" / name).read_bytes(), name


def test_the_report_schema_has_no_clock_field() -> None:
    from auditor.report import Report

    def names(node: object) -> set[str]:
        if isinstance(node, dict):
            found = set(node.get("properties", {})) if isinstance(node.get("properties"), dict) else set()
            return found.union(*(names(v) for v in node.values()))
        if isinstance(node, list):
            return set().union(*(names(v) for v in node))
        return set()

    fields = names(Report.model_json_schema())
    assert not {f for f in fields if any(w in f for w in ("time", "elapsed", "duration", "date", "seconds"))}
