"""Run fuzz cases through ``auditor.audit`` and every report writer, and classify each case.

Cases are audited in batches: one folder holds a known-good trace and a batch of case files.
A batch that raises is rerun case by case to find the culprit. Outcomes per case:

* ``audited``: the file loaded (some mutations leave a valid trace) and no error names it;
* ``audited_with_errors``: some traces loaded and placed errors name the rest;
* ``error``: the file was refused with errors that all name the file and a place (a line, a
  record, span or field) or are about the whole file (empty, binary, not UTF-8, too large);
* ``internal_error``: placed, but only by a safety net (an importer or check failed in a way
  it did not foresee): reported and the run went on, but a bug to fix;
* ``unplaced_error``: an error names the file but no place;
* ``uncaught``: an exception escaped ``audit`` or a writer;
* ``no_report``: the good trace beside it was not audited.
"""

from __future__ import annotations

import io
import json
import shutil
import traceback
import xml.etree.ElementTree as ET
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path

from auditor import AuditConfig, audit
from auditor.nlp import TextAnalyzer
from auditor.report import InputErrorModel, Report, print_terminal, to_json, to_junit, to_markdown

from .generator import ROOT, Case

GOOD = ROOT / "examples" / "traces" / "incident-webhook.json"
GOOD_TRACE_ID = "incident-webhook"
FAILING = ("unplaced_error", "uncaught", "no_report")


@dataclass(frozen=True)
class Outcome:
    case: Case
    outcome: str
    detail: str = ""


def render_all(report: Report) -> None:
    """Every writer, each output parsed back where it has a syntax; the terminal one into a buffer
    as on a CI log (no terminal)."""
    from rich.console import Console

    json.loads(to_json(report).encode("utf-8"))
    to_markdown(report).encode("utf-8")
    ET.fromstring(to_junit(report).encode("utf-8"))  # well-formed XML, whatever the trace held
    print_terminal(report, Console(file=io.StringIO(), width=100_000, soft_wrap=True), all_edges=True)


def _placed(error: InputErrorModel) -> bool:
    return error.line is not None or bool(error.where) or error.kind == "UnreadableTraceError"


def _classify(case: Case, path: Path, report: Report) -> Outcome:
    mine = [e for e in report.input_errors if e.path == str(path)]
    traces = [t for t in report.traces if t.path == str(path)]
    if not any(t.trace_id == GOOD_TRACE_ID and t.path.endswith("good.json") for t in report.traces):
        return Outcome(case, "no_report", "the good trace beside it was not audited")
    unplaced = [e for e in mine if not _placed(e)]
    if unplaced:
        return Outcome(case, "unplaced_error", f"{unplaced[0].kind}: {unplaced[0].reason[:200]}")
    internal = [e for e in mine if e.kind == "AuditFailure" or "failed on this input" in e.reason]
    if internal:
        return Outcome(case, "internal_error", f"{internal[0].where}: {internal[0].reason[:300]}")
    if not mine and traces:
        return Outcome(case, "audited")
    if not mine:
        return Outcome(case, "unplaced_error", "no trace and no error for this file")
    return Outcome(case, "audited_with_errors" if traces else "error", f"{mine[0].kind}: {mine[0].reason[:120]}")


def _audit_folder(folder: Path, analyzer: TextAnalyzer, config: AuditConfig) -> Report:
    report = audit([folder], config, analyzer=analyzer)
    render_all(report)
    return report


def run_batch(batch: Sequence[Case], workdir: Path, analyzer: TextAnalyzer,
              config: AuditConfig | None = None) -> list[Outcome]:
    """Audit ``batch`` beside a good trace in one folder and classify every case."""
    config = config or AuditConfig()
    folder = workdir / f"batch-{batch[0].number:05d}"
    shutil.rmtree(folder, ignore_errors=True)
    folder.mkdir(parents=True)
    shutil.copy(GOOD, folder / "good.json")
    paths = []
    for case in batch:
        path = folder / case.name
        path.write_bytes(case.data)
        paths.append(path)
    try:
        report = _audit_folder(folder, analyzer, config)
        outcomes = [_classify(case, path, report) for case, path in zip(batch, paths, strict=True)]
    except Exception:  # noqa: BLE001 - find which case escaped
        if len(batch) == 1:
            shutil.rmtree(folder, ignore_errors=True)
            return [Outcome(batch[0], "uncaught", traceback.format_exc(limit=-3))]
        outcomes = [o for case in batch for o in run_batch([case], workdir, analyzer, config)]
    shutil.rmtree(folder, ignore_errors=True)
    return outcomes
