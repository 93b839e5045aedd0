"""Plugins through entry points: the example plugin in tests/plugins/edge-audit-example adds a
check from outside the package. Here a stand-in distribution (a ``.dist-info`` folder with its
``entry_points.txt``) makes importlib.metadata find it; tests/test_wheel.py pip-installs it."""

from __future__ import annotations

import json
import sys
from collections.abc import Iterator
from pathlib import Path

import pytest
from conftest import ROOT

from auditor import AuditConfig, audit, plugins
from auditor.config import CheckConfig
from auditor.errors import ConfigError

EXAMPLE = ROOT / "tests" / "plugins" / "edge-audit-example"
SHOUTING = {"schema": "edge-audit.trace.v1", "trace_id": "loud", "agents": [{"name": "planner"}, {"name": "coder"}],
            "events": [{"type": "message", "id": "m1", "sender": "user", "recipients": ["planner"],
                        "content": "Fix the login bug."},
                       {"type": "message", "id": "m2", "sender": "planner", "recipients": ["coder"],
                        "content": "FIX THE LOGIN BUG NOW, DO NOT TOUCH ANYTHING ELSE."}]}


def _distribution(where: Path, entry_points: str) -> None:
    info = where / "edge_audit_example-0.1.0.dist-info"
    info.mkdir(parents=True)
    (info / "METADATA").write_text("Metadata-Version: 2.1\nName: edge-audit-example\nVersion: 0.1.0\n")
    (info / "entry_points.txt").write_text(entry_points)


@pytest.fixture
def installed(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Iterator[Path]:
    _distribution(tmp_path / "site", '[edge_audit.checks]\nshouting = edge_audit_example\n')
    monkeypatch.syspath_prepend(str(tmp_path / "site"))
    monkeypatch.syspath_prepend(str(EXAMPLE))
    plugins.reset()
    yield tmp_path
    plugins.reset()
    sys.modules.pop("edge_audit_example", None)


def test_a_plugin_check_is_found_through_its_entry_point_and_runs(installed: Path) -> None:
    from auditor.checks import check_options, registered_checks

    assert "example.shouting.v1" in registered_checks()
    assert check_options("example.shouting.v1")().model_dump() == {"max_capitals": 0.6}
    trace = installed / "loud.json"
    trace.write_text(json.dumps(SHOUTING))
    config = AuditConfig(checks=[CheckConfig(name="example.shouting.v1", options={"max_capitals": 0.5})])
    [finding] = audit([trace], config).deterministic.findings
    assert (finding.check, finding.verdict, finding.status, finding.edge_id) == (
        "example.shouting.v1", "shouting", "warn", "loud/m2->coder")


def test_a_plugin_that_fails_to_load_is_a_config_error_naming_it(tmp_path: Path,
                                                                 monkeypatch: pytest.MonkeyPatch) -> None:
    _distribution(tmp_path, "[edge_audit.graders]\nbroken = edge_audit_no_such_module\n")
    monkeypatch.syspath_prepend(str(tmp_path))
    plugins.reset()
    try:
        with pytest.raises(ConfigError, match="plugin 'broken'.*edge_audit.graders"):
            plugins.load_plugins("edge_audit.graders")
    finally:
        plugins.reset()
