"""Shared fixtures. Tests never reach the network: any connection to a non-loopback
address fails the test that made it."""

from __future__ import annotations

import socket
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from auditor.checks import CheckContext, CheckFn, make_check
from auditor.nlp import TextAnalyzer

ROOT = Path(__file__).resolve().parents[1]
EXAMPLES = ROOT / "examples" / "traces"
FIXTURES = Path(__file__).parent / "fixtures"
WHOWHEN = ROOT.parent / "shared" / "datasets" / "whowhen-algorithm-generated"

_real_connect = socket.socket.connect


def _guarded_connect(self: socket.socket, address: Any) -> Any:
    host = address[0] if isinstance(address, tuple) else str(address)
    if isinstance(host, str) and (host.startswith("127.") or host in ("::1", "localhost") or "/" in host):
        return _real_connect(self, address)
    raise RuntimeError(f"tests must not reach the network (tried {address!r})")


@pytest.fixture(autouse=True)
def _no_network(monkeypatch: pytest.MonkeyPatch) -> Iterator[None]:
    monkeypatch.setattr(socket.socket, "connect", _guarded_connect)
    yield


@pytest.fixture(scope="session")
def analyzer() -> TextAnalyzer:
    return TextAnalyzer()


@pytest.fixture(scope="session")
def constraint_check(analyzer: TextAnalyzer) -> CheckFn:
    return make_check("edge-audit.constraints.v1", CheckContext(analyzer), {})


@pytest.fixture(autouse=True, scope="session")
def _refuse_live_model_requests() -> Iterator[None]:
    """No test reaches a model provider: the live provider refuses, in every test. Mock and
    replay models are unaffected; the local-server integration test lifts this itself."""
    from auditor.graders import allow_live_requests

    allow_live_requests(False)
    yield
    allow_live_requests(True)
