"""The whole semantic path against a real model served over HTTP on loopback: LiteLLM,
instructor, the cache, ``record``, then ``replay`` with the server stopped.

Needs ``llama-cpp-python[server]`` and the SmolLM2-135M model file (``scripts/local-llm.sh
setup``); skipped with the reason otherwise. The model is far too small to judge well: this
test asserts plumbing and provenance, never verdict quality.
"""

from __future__ import annotations

import importlib.util
import os
import socket
import subprocess
import sys
import time
import urllib.request
from collections.abc import Iterator
from pathlib import Path

import pytest
from conftest import FIXTURES

from auditor import AuditConfig, audit
from auditor.config import SemanticConfig
from auditor.graders import allow_live_requests

MODEL_FILE = Path(os.environ.get("EDGE_AUDIT_GGUF", "")) if os.environ.get("EDGE_AUDIT_GGUF") else Path(
    os.environ.get("XDG_CACHE_HOME", str(Path.home() / ".cache"))) / "edge-audit" / "models" / \
    "SmolLM2-135M-Instruct.Q4_1.gguf"

pytestmark = [
    pytest.mark.local_llm,
    pytest.mark.skipif(importlib.util.find_spec("llama_cpp") is None,
                       reason="llama-cpp-python is not installed (scripts/local-llm.sh setup)"),
    pytest.mark.skipif(not MODEL_FILE.is_file(), reason=f"no model file at {MODEL_FILE} (scripts/local-llm.sh setup)"),
]


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


@pytest.fixture()
def server() -> Iterator[tuple[str, subprocess.Popen[bytes]]]:
    port = _free_port()
    proc = subprocess.Popen([sys.executable, "-m", "llama_cpp.server", "--model", str(MODEL_FILE),
                             "--model_alias", "smollm2-135m", "--host", "127.0.0.1", "--port", str(port),
                             "--n_ctx", "8192"], stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    base = f"http://127.0.0.1:{port}/v1"
    deadline = time.monotonic() + 120
    while time.monotonic() < deadline:
        try:
            urllib.request.urlopen(base + "/models", timeout=2)  # noqa: S310 - loopback only
            break
        except OSError:
            time.sleep(0.5)
    else:
        proc.kill()
        pytest.fail("the llama.cpp server did not come up within 120 s")
    allow_live_requests(True)
    try:
        yield base, proc
    finally:
        allow_live_requests(False)
        proc.terminate()
        proc.wait(timeout=30)


def _config(tmp_path: Path, mode: str, api_base: str | None) -> AuditConfig:
    return AuditConfig(semantic=SemanticConfig(
        mode=mode, model="openai/smollm2-135m", api_base=api_base, concurrency=1, timeout=300,  # type: ignore[arg-type]
        cache_dir=str(tmp_path / "cache"), cassettes_dir=str(tmp_path / "cassettes")))


def test_record_against_a_real_server_then_replay_without_it(tmp_path: Path,
                                                             server: tuple[str, subprocess.Popen[bytes]]) -> None:
    base, proc = server
    trace = FIXTURES / "semantic" / "only-semantic.json"
    recorded = audit([trace], _config(tmp_path, "record", base))
    for f in recorded.semantic.findings:
        print(f"record: {f.grader} {f.finding_id} -> {f.verdict} ({f.status}, {f.source}, "
              f"{f.unmeasured_reason}) quote={f.grader_quote!r}")
    print("record usage:", {k: v.model_dump() for k, v in recorded.semantic.usage.items()}, recorded.semantic.errors)
    assert len(recorded.semantic.findings) == 2
    answered = [f for f in recorded.semantic.findings if f.source == "live"]
    assert answered, f"the server answered nothing: {[f.reason for f in recorded.semantic.findings]}"
    assert recorded.semantic.usage["live"].prompt_tokens > 0
    cassettes = sorted((tmp_path / "cassettes").glob("*/*.json"))
    assert len(cassettes) == recorded.semantic.usage["live"].calls

    again = audit([trace], _config(tmp_path, "record", base))
    assert {f.source for f in again.semantic.findings if f.finding_id in {a.finding_id for a in answered}} == {"cache"}

    proc.terminate()
    proc.wait(timeout=30)
    replayed = audit([trace], _config(tmp_path, "replay", None))
    for f in replayed.semantic.findings:
        print(f"replay: {f.grader} {f.finding_id} -> {f.verdict} ({f.status}, {f.source}, {f.unmeasured_reason})")
    by_id = {f.finding_id: f for f in replayed.semantic.findings}
    for f in answered:
        assert (by_id[f.finding_id].verdict, by_id[f.finding_id].source) == (f.verdict, "cassette"), f.finding_id


def test_an_isolated_rerun_is_recorded_then_replayed_without_the_server(
        tmp_path: Path, server: tuple[str, subprocess.Popen[bytes]]) -> None:
    from conftest import EXAMPLES

    from auditor.config import AcceptanceConfig, SufficiencyConfig

    base, proc = server
    trace = EXAMPLES / "sufficiency-stands-alone.json"
    check = [AcceptanceConfig(kind="callable", target=f"{EXAMPLES.parent / 'acceptance.py'}:names_the_case_id")]

    def config(mode: str, api_base: str | None) -> AuditConfig:
        return _config(tmp_path, mode, api_base).model_copy(update={"sufficiency": SufficiencyConfig(
            select=["all"], acceptance=check, rerun_max_tokens=200)})

    [recorded] = audit([trace], config("record", base)).semantic.sufficiency
    print("record:", recorded.verdict, recorded.context_off.output_source, repr(recorded.context_off.output_excerpt))
    assert recorded.context_off.output_source == "live" and recorded.context_off.output_excerpt
    proc.terminate()
    proc.wait(timeout=30)
    [replayed] = audit([trace], config("replay", None)).semantic.sufficiency
    print("replay:", replayed.verdict, replayed.context_off.output_source)
    assert replayed.context_off.output_source == "cassette"
    assert (replayed.verdict, replayed.context_off.output_excerpt) == (recorded.verdict, recorded.context_off.output_excerpt)
