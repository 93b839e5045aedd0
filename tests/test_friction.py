"""What a new or hostile user runs into: crashes exit 4, empty input, paths (missing folders,
FIFOs, folders), console markup in trace text, CI logs that are not terminals, and the config
found relative to the project rather than the working directory."""

from __future__ import annotations

import json
import os
import shutil
from pathlib import Path
from typing import Any

import pytest
from conftest import EXAMPLES

from auditor import EXIT_INPUT, EXIT_RUNTIME, audit
from auditor._cli.main import main
from auditor.trace import load_paths

GOOD = EXAMPLES / "incident-webhook.json"


def test_an_unforeseen_error_exits_4_never_1(monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str],
                                             tmp_path: Path) -> None:
    import auditor._audit

    def boom(*args: Any, **kwargs: Any) -> Any:
        raise KeyError("boom")

    monkeypatch.setattr(auditor._audit, "audit", boom)
    assert main(["run", str(GOOD)]) == EXIT_RUNTIME
    assert "internal error: KeyError" in capsys.readouterr().err


def test_a_check_that_crashes_on_one_trace_is_listed_and_the_rest_audited(monkeypatch: pytest.MonkeyPatch,
                                                                         tmp_path: Path) -> None:
    import auditor.passes._runner as runner_module

    real = runner_module.build_edges

    def flaky(trace: Any, capture: Any = None) -> Any:
        if trace.trace_id == "incident-webhook":
            raise ZeroDivisionError("division by zero")
        return real(trace, capture)

    monkeypatch.setattr(runner_module, "build_edges", flaky)
    report = audit([EXAMPLES])
    assert report.summary.exit_code == EXIT_RUNTIME
    [crash] = [e for e in report.input_errors if e.kind == "AuditFailure"]
    assert crash.path.endswith("incident-webhook.json") and crash.where == "trace incident-webhook"
    assert "ZeroDivisionError" in crash.reason
    assert len(report.traces) == len(load_paths([EXAMPLES]).traces) - 1


def test_empty_input_is_an_input_error(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    (tmp_path / "notes.txt").write_text("not a trace")
    assert main(["run", str(tmp_path), "--json", str(tmp_path / "r.json")]) == EXIT_INPUT
    report = json.loads((tmp_path / "r.json").read_text())
    assert "no trace files" in report["input_errors"][0]["reason"]


@pytest.mark.skipif(not hasattr(os, "mkfifo"), reason="no FIFOs here")
def test_fifos_are_refused_not_read(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    fifo = tmp_path / "pipe.json"
    os.mkfifo(fifo)
    assert main(["run", str(fifo)]) == 2
    assert "not a regular file" in capsys.readouterr().err
    assert main(["run", str(GOOD), "--json", str(fifo)]) == 2
    assert "not a regular file" in capsys.readouterr().err


def test_report_paths_missing_folders_are_created_and_folders_refused(tmp_path: Path,
                                                                       capsys: pytest.CaptureFixture[str]) -> None:
    deep = tmp_path / "a" / "b" / "report.json"
    assert main(["run", str(GOOD), "--json", str(deep), "--quiet"]) == 1
    assert json.loads(deep.read_text())["summary"]["traces"] == 1
    assert main(["run", str(GOOD), "--json", str(tmp_path)]) == 2
    assert "not a regular file" in capsys.readouterr().err
    assert main(["run", str(GOOD), "--json", str(deep), "--markdown", str(deep)]) == 2


def test_console_markup_in_trace_text_is_printed_as_it_is(tmp_path: Path,
                                                         capsys: pytest.CaptureFixture[str]) -> None:
    doc = json.loads(GOOD.read_text())
    doc["trace_id"] = "[bold]x[/] [/]"
    (tmp_path / "t.json").write_text(json.dumps(doc))
    assert main(["run", str(tmp_path), "--all-edges"]) == 1
    assert "[bold]x[/] [/]/plan->coder" in capsys.readouterr().out


def test_output_off_a_terminal_does_not_wrap_ids(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    doc = json.loads(GOOD.read_text())
    doc["trace_id"] = "a-very-long-trace-id-" + "x" * 150
    (tmp_path / "t.json").write_text(json.dumps(doc))
    main(["run", str(tmp_path)])
    out = capsys.readouterr().out
    assert f"{doc['trace_id']}/plan->coder" in out
    assert "1 trace, 2 edges" in out


def test_config_is_found_from_the_project_not_the_working_directory(tmp_path: Path,
                                                                    monkeypatch: pytest.MonkeyPatch) -> None:
    root = Path(__file__).resolve().parents[1]
    project = tmp_path / "project"
    shutil.copytree(root / "config", project / "config")
    (project / "traces").mkdir()
    trace = EXAMPLES / "billing-triage.json"
    monkeypatch.chdir(project / "traces")
    inside = audit([trace])
    assert inside.config == str(project / "config" / "edge-audit.yaml")
    verdicts = {v for e in inside.edges if e.kind == "handoff" for v in e.counts}
    assert verdicts - {"contract_unknown"}  # the project's contracts were read
    monkeypatch.chdir(tmp_path)
    outside = audit([trace])
    assert outside.config is None
    assert {v for e in outside.edges if e.kind == "handoff" for v in e.counts} == {"contract_unknown"}


def test_a_pass_that_crashes_midway_through_a_trace_adds_nothing_of_that_trace() -> None:
    import auditor.passes.checks as checks_pass

    real = checks_pass.Checks.edge

    def flaky(self: Any, item: Any, edge: Any, found: Any) -> None:
        real(self, item, edge, found)
        if item.trace.trace_id == "incident-webhook":
            raise ZeroDivisionError("division by zero")

    clean = audit([EXAMPLES])
    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(checks_pass.Checks, "edge", flaky)
        report = audit([EXAMPLES])
    assert report.summary.exit_code == EXIT_RUNTIME
    [crash] = [e for e in report.input_errors if e.kind == "AuditFailure"]
    assert crash.where == "trace incident-webhook" and "running the checks" in crash.reason
    assert all(e.trace_id != "incident-webhook" for e in report.edges)
    assert all(not f.edge_id.startswith("incident-webhook/") for f in report.deterministic.findings)
    kept = [e for e in clean.edges if e.trace_id != "incident-webhook"]
    assert [e.id for e in report.edges] == [e.id for e in kept]
