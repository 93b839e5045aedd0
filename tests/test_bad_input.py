"""Bad input: every kind gets a clear error naming the file (and line), and the rest is audited."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import pytest
from conftest import EXAMPLES

from auditor import EXIT_INPUT, AuditConfig, audit
from auditor._cli.main import main
from auditor.config import LimitsConfig

GOOD = EXAMPLES / "incident-webhook.json"


def _folder(tmp_path: Path, name: str, content: bytes) -> Path:
    shutil.copy(GOOD, tmp_path / "good.json")
    (tmp_path / name).write_bytes(content)
    return tmp_path


CASES = {
    "truncated": ("bad.json", GOOD.read_bytes()[:200], "invalid JSON"),
    "empty": ("bad.json", b"", "file is empty"),
    "binary": ("bad.json", b"\x89PNG\r\n\x1a\n\x00\x00\x00", "binary content"),
    "not-utf8": ("bad.json", b'{"a": "\xff\xfe"}', "not UTF-8"),
    "unknown-format": ("bad.json", b'{"spans": []}', "unknown trace format"),
    "wrong-types": ("bad.json", json.dumps({"schema": "edge-audit.trace.v1", "trace_id": "x", "events": [
        {"type": "message", "sender": "a", "recipients": 7, "content": "hi"}]}).encode(), "events[0]"),
    "array": ("bad.json", b"[1, 2]", "expected a JSON object"),
}


@pytest.mark.parametrize("case", list(CASES), ids=list(CASES))
def test_bad_file_is_reported_and_the_rest_audited(tmp_path: Path, case: str) -> None:
    name, content, expected = CASES[case]
    report = audit([_folder(tmp_path, name, content)])
    assert report.summary.traces == 1, case
    (error,) = report.input_errors
    assert error.path.endswith(name) and expected in f"{error.reason} {error.where}", (case, error)
    assert report.summary.exit_code == EXIT_INPUT


def test_jsonl_errors_name_the_line_and_keep_good_lines(tmp_path: Path) -> None:
    good = json.loads(GOOD.read_text())
    lines = [json.dumps(good), "{not json", json.dumps({**good, "trace_id": "second"}), '{"history": 5}']
    path = tmp_path / "mixed.jsonl"
    path.write_text("\n".join(lines))
    report = audit([path])
    assert [t.trace_id for t in report.traces] == ["incident-webhook", "second"]
    assert [(e.line, e.kind) for e in report.input_errors] == [(2, "TraceFormatError"), (4, "TraceFormatError")]


def test_huge_message_is_refused_by_the_text_limit(tmp_path: Path) -> None:
    doc = json.loads(GOOD.read_text())
    doc["events"][1]["content"] = "x" * (50 * 1024 * 1024)
    (tmp_path / "huge.json").write_text(json.dumps(doc))
    report = audit([tmp_path], AuditConfig(limits=LimitsConfig(max_text_chars=2_000_000)))
    (error,) = report.input_errors
    assert error.where == "events[1].content" and "exceeds the limit" in error.reason


def test_cli_exit_code_and_message_for_unreadable_input(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    folder = _folder(tmp_path, "bad.json", b"{")
    assert main(["run", str(folder), "--quiet"]) == EXIT_INPUT
    assert "1 unreadable input;" in capsys.readouterr().out


def test_missing_path_is_a_usage_error(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["run", str(tmp_path / "nope")]) == 2
    assert "no such file or directory" in capsys.readouterr().err


def test_a_jsonl_line_over_the_size_limit_is_refused_and_the_rest_still_load(tmp_path: Path) -> None:
    from auditor.trace import Limits, load_paths

    lines = (EXAMPLES / "travel-and-ops.jsonl").read_text().splitlines()
    big = json.loads(lines[0])
    big.setdefault("metadata", {})["labels"] = {"padding": "x" * 5000}
    path = tmp_path / "mixed.jsonl"
    path.write_text("\n".join([json.dumps(big), lines[1]]) + "\n")
    loaded = load_paths([path], limits=Limits(max_file_bytes=4000))
    assert [t.line for t in loaded.traces] == [2]
    [error] = loaded.errors
    assert (error.path, error.line) == (str(path), 1) and "over the limit of 4,000" in error.reason
