"""Secrets planted in every field of a trace, quoted by the findings and by a mock grader that
repeats them: none reaches a report written with ``--redact`` (JSON, Markdown, JUnit, terminal)
or a cassette (always redacted). Without ``--redact`` the reports do carry them, which shows the
findings really quote them."""

from __future__ import annotations

import io
import json
from collections.abc import Mapping
from pathlib import Path
from typing import Any

import pytest

from auditor import AuditConfig, audit
from auditor._cli.main import main
from auditor.config import SemanticConfig
from auditor.graders import Job, register_responder
from auditor.redact import MASK, redact_text
from auditor.report import Report, print_terminal, to_json, to_junit, to_markdown

OPENAI = "sk-live-4eC39HqLyjWDarjtT1zdp7dcQ2rT"
AWS_ID = "AKIAIOSFODNN7EXAMPLQ"
AWS_SECRET = "wJalrXUtnFEMI/K7MDENG/bPxRfiCYEXAMPLEKQY"
PASSWORD = "Tr0ub4dor&3horse"
BEARER = "eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiJhZ2VudCJ9.c2lnbmF0dXJlLXZhbHVl"
GITHUB = "ghp_16C7e42F292c6912E7710c838347Ae178B4a"
KEY_BODY = "MIIEpAIBAAKCAQEA3Tz2mr7SZiAMfQyuvBjM5Wo1Nl0cMYn2XwYvQ4Q2\nq8Zq1Nf2Xk0vQ9l4pWm7T0aB3cD5eF7gH9iJ"
PRIVATE_KEY = f"-----BEGIN RSA PRIVATE KEY-----\n{KEY_BODY}\n-----END RSA PRIVATE KEY-----"
SECRET_VALUES = [OPENAI, AWS_ID, AWS_SECRET, PASSWORD, BEARER, GITHUB, *KEY_BODY.split("\n")]
ALL = (f"key {OPENAI}, aws_access_key_id={AWS_ID} aws_secret_access_key={AWS_SECRET}, password = \"{PASSWORD}\", "
       f"Authorization: Bearer {BEARER}, token {GITHUB}")


def _trace() -> dict[str, Any]:
    upstream = (f"Deploy the service. You MUST NOT paste the key {OPENAI} or the password = \"{PASSWORD}\" "
                f"into chat. Credentials: {ALL}.\nPlease make the export format configurable.\n"
                f"You must always be respectful.\n{PRIVATE_KEY}")
    handoff = (f"Deploy it; feel free to paste the key {OPENAI} and the password = \"{PASSWORD}\" into chat. "
               f"I ran pytest with Authorization: Bearer {BEARER} and all 12 tests pass. Use {GITHUB}.\n"
               f"The customer wants the format configurable with {OPENAI}.\n"
               f"Stay respectful with everyone, {PASSWORD}.")
    return {
        "schema": "edge-audit.trace.v1", "trace_id": "secrets",
        "metadata": {"task": f"rotate {AWS_ID}", "labels": {"note": ALL}},
        "agents": [{"name": "user", "kind": "human"},
                   {"name": "planner", "system_prompt": f"You MUST NEVER reveal {GITHUB}. {ALL}"},
                   {"name": "coder"}],
        "events": [
            {"type": "message", "id": "task", "sender": "user", "recipients": ["planner"], "content": upstream},
            {"type": "tool_call", "id": "t1", "agent": "planner", "tool": "bash",
             "arguments": {"command": f"curl -H 'Authorization: Bearer {BEARER}' -u admin:{PASSWORD}",
                           "env": ALL},
             "result": f"12 passed\n{ALL}", "exit_code": 0, "status": "ok"},
            {"type": "message", "id": "plan", "sender": "planner", "recipients": ["coder"], "content": handoff,
             "structured": {"constraints": [f"You must not paste {OPENAI}.", {"text": ALL}]},
             "handoff_id": f"h {AWS_ID}"},
        ],
    }


def _quoting(job: Job, messages: Any) -> Any:
    """A grader that quotes every secret it is shown, in its quote and in its reason."""
    if "constraint" in job.grader:
        text = str(job.inputs.get("handoff", ""))
        quote = next((s for s in text.split(". ") if OPENAI in s), text[:200])
        make: Mapping[str, Any] = {"reason": f"it says {ALL}\n{PRIVATE_KEY}", "quote": quote, "verdict": "softened"}
    else:
        make = {"reason": f"E1 shows {ALL}", "source_id": "E1", "quote": f"password = \"{PASSWORD}\"",
                "verdict": "supported"}
    return {"judgements": [{"item_id": item["id"], **make} for item in job.inputs["items"]]}


register_responder("quotes-secrets", _quoting)


def _config(tmp_path: Path, redact: bool) -> AuditConfig:
    semantic = SemanticConfig(mode="record", model="mock/quotes-secrets", cache_dir=str(tmp_path / "cache"),
                              cassettes_dir=str(tmp_path / "cassettes"), backoff_seconds=0.0)
    return AuditConfig(semantic=semantic, redact=redact)


def _rendered(report: Report) -> dict[str, str]:
    from rich.console import Console

    buffer = io.StringIO()
    print_terminal(report, Console(file=buffer, width=100_000), all_edges=True)
    return {"json": to_json(report), "markdown": to_markdown(report), "junit": to_junit(report),
            "terminal": buffer.getvalue()}


def _leaks(text: str) -> list[str]:
    return [s for s in SECRET_VALUES if s in text]


@pytest.fixture()
def trace_file(tmp_path: Path) -> Path:
    path = tmp_path / "secrets.json"
    path.write_text(json.dumps(_trace()))
    return path


def test_every_planted_secret_is_detected() -> None:
    masked = redact_text(ALL + "\n" + PRIVATE_KEY)
    assert _leaks(masked) == []
    assert len(masked) == len(ALL + "\n" + PRIVATE_KEY)


def test_reports_quote_secrets_without_redact_and_none_with_it(tmp_path: Path, trace_file: Path) -> None:
    from auditor.redact import redact_report

    report = audit([trace_file], _config(tmp_path, redact=False))
    plain = _rendered(report)
    assert set(_leaks(plain["json"])) == set(SECRET_VALUES)  # the findings and the grader quote them all
    assert report.semantic.findings and report.deterministic.findings
    redacted = redact_report(report)
    for kind, text in _rendered(redacted).items():
        assert _leaks(text) == [], kind
    for finding in redacted.deterministic.findings:
        for quote in [finding.upstream, *finding.handoff]:
            if quote is not None:
                assert len(quote.text) == quote.end - quote.start
    assert any(MASK * 8 in (f.upstream.text if f.upstream else "") for f in redacted.deterministic.findings)


def test_cassettes_are_redacted_by_default(tmp_path: Path, trace_file: Path) -> None:
    audit([trace_file], _config(tmp_path, redact=False))
    cassettes = sorted((tmp_path / "cassettes").rglob("*.json"))
    assert cassettes
    for path in cassettes:
        assert _leaks(path.read_text(encoding="utf-8")) == [], path


def test_replayed_masked_quotes_still_verify(tmp_path: Path, trace_file: Path) -> None:
    recorded = audit([trace_file], _config(tmp_path, redact=False))
    replay = _config(tmp_path, redact=False)
    replay = replay.model_copy(update={"semantic": replay.semantic.model_copy(update={"mode": "replay"})})
    replayed = audit([trace_file], replay)
    assert [f.quote_verified for f in replayed.semantic.findings] == \
        [f.quote_verified for f in recorded.semantic.findings]


def test_cli_redact_flag_and_config_field(tmp_path: Path, trace_file: Path, capsys: pytest.CaptureFixture[str],
                                          monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(tmp_path)
    out = tmp_path / "out"
    args = ["run", str(trace_file), "--llm", "record", "--model", "mock/quotes-secrets", "--cassettes",
            str(tmp_path / "c"), "--no-cache", "--all-edges"]
    main([*args, "--redact", "--json", str(out / "a.json"), "--markdown", str(out / "a.md"),
          "--junit", str(out / "a.xml")])
    assert _leaks(capsys.readouterr().out) == []
    config = tmp_path / "redacting.yaml"
    config.write_text("redact: true\n")
    main([*args, "--config", str(config), "--json", str(out / "b.json"), "--markdown", str(out / "b.md"),
          "--junit", str(out / "b.xml")])
    assert _leaks(capsys.readouterr().out) == []
    for path in out.iterdir():
        assert _leaks(path.read_text(encoding="utf-8")) == [], path
    for path in (tmp_path / "c").rglob("*.json"):
        assert _leaks(path.read_text(encoding="utf-8")) == [], path
