"""The pytest plugin and ``assert_edges``: one test per edge under ``--edge-audit``, failing on
the webhook incident's softened MUST NOT with its quotes; the fixture; the entry point."""

from __future__ import annotations

import tomllib
from pathlib import Path

import pytest
from conftest import EXAMPLES, ROOT

from auditor.errors import EdgesFailed
from auditor.testing import assert_edges, audit_target, failing_edges
from auditor.trace import load_paths

pytest_plugins = ("pytester",)

PLUGIN = "auditor.testing.plugin"
WEBHOOK = EXAMPLES / "incident-webhook.json"
KEPT = EXAMPLES / "all-kept-refunds.json"


def _run(pytester: pytest.Pytester, *args: str) -> pytest.RunResult:
    return pytester.runpytest("-p", PLUGIN, "-p", "no:cacheprovider", *args)


def test_collects_one_test_per_edge(pytester: pytest.Pytester) -> None:
    result = _run(pytester, "--edge-audit", str(WEBHOOK), "--collect-only", "-q")
    lines = [line for line in result.outlines if "::" in line]
    assert [line.rsplit("::", 1)[1] for line in lines] == [
        "incident-webhook/plan->coder", "incident-webhook/patch->reviewer"]


def test_fails_the_softened_constraint_with_its_quotes(pytester: pytest.Pytester) -> None:
    result = _run(pytester, "--edge-audit", str(WEBHOOK), "-k", "plan")
    result.assert_outcomes(failed=1, deselected=1)
    result.stdout.fnmatch_lines([
        "*edge incident-webhook/plan->coder failed the edge audit*",
        "incident-webhook/plan->coder  planner -> coder  (*incident-webhook.json)",
        "  softened [[]fail, edge-audit.constraints.v1[]]: softened: upstream absolute prohibition ('MUST NOT')*",
        "    upstream ticket.content[[]67:131[]]: You MUST NOT change the signature of handle_webhook(event, ctx).",
        "    handoff  plan.content[[]60:126[]]: Prefer keeping the handle_webhook signature stable where possible.",
        "FAILED *incident-webhook.json::incident-webhook/plan->coder*",
    ])


def test_allowed_verdicts_pass_and_only_edge_audit_tests_run_with_the_marker(pytester: pytest.Pytester) -> None:
    pytester.makepyfile(test_other="def test_other():\n    pass\n")
    result = _run(pytester, "--edge-audit", str(WEBHOOK), "--edge-audit-allow", "softened", "-m", "edge_audit",
                  "-rA")
    result.assert_outcomes(passed=1, failed=1, deselected=1)
    result.stdout.fnmatch_lines(["PASSED *incident-webhook/plan->coder*",
                                 "FAILED *incident-webhook/patch->reviewer*"])


def test_a_clean_trace_passes(pytester: pytest.Pytester) -> None:
    result = _run(pytester, "--edge-audit", str(KEPT))
    result.assert_outcomes(passed=len(audit_target(KEPT).edges))


def test_unreadable_inputs_and_empty_folders_fail(pytester: pytest.Pytester, tmp_path: Path) -> None:
    bad = tmp_path / "bad.json"
    bad.write_text("{not json", encoding="utf-8")
    empty = tmp_path / "empty"
    empty.mkdir()
    result = _run(pytester, "--edge-audit", str(bad))
    result.assert_outcomes(failed=1)
    result.stdout.fnmatch_lines(["*not audited (never a pass): *bad.json*"])
    result = _run(pytester, "--edge-audit", str(empty))
    result.assert_outcomes(failed=1)


def test_a_missing_path_is_a_usage_error(pytester: pytest.Pytester, tmp_path: Path) -> None:
    result = _run(pytester, "--edge-audit", str(tmp_path / "nowhere"))
    assert result.ret == pytest.ExitCode.USAGE_ERROR
    result.stderr.fnmatch_lines(["*--edge-audit: *nowhere*"])


def test_the_fixture_asserts_edges(pytester: pytest.Pytester) -> None:
    pytester.makepyfile(test_traces=f"""
        def test_webhook(edge_audit):
            edge_audit.assert_edges({str(WEBHOOK)!r}, allow=["invented"])

        def test_webhook_allowed(edge_audit):
            report = edge_audit.assert_edges({str(WEBHOOK)!r}, allow=["softened", "invented"])
            assert len(report.edges) == 2
    """)
    result = _run(pytester)
    result.assert_outcomes(passed=1, failed=1)
    result.stdout.fnmatch_lines(["*EdgesFailed: 1 of 2 edges failed the edge audit (allowed verdicts: invented)*",
                                 "*softened [[]fail, edge-audit.constraints.v1[]]*",
                                 "*upstream ticket.content[[]67:131[]]: You MUST NOT change*"])


def test_assert_edges_takes_a_trace_object() -> None:
    trace = load_paths([WEBHOOK]).traces[0].trace
    with pytest.raises(EdgesFailed) as caught:
        assert_edges(trace)
    assert isinstance(caught.value, AssertionError)
    message = str(caught.value)
    assert message.startswith("2 of 2 edges failed the edge audit")
    assert "incident-webhook/plan->coder  planner -> coder" in message
    assert "handoff  plan.content[60:126]: Prefer keeping the handle_webhook signature" in message
    assert [f.edge.id for f in caught.value.failures] == [
        "incident-webhook/plan->coder", "incident-webhook/patch->reviewer"]
    report = assert_edges(trace, allow=["softened", "invented"])
    assert failing_edges(report) and not failing_edges(report, allow=["softened", "invented"])


def test_the_entry_point_names_the_plugin() -> None:
    """Named as the module: ``-p auditor.testing.plugin`` then loads the entry point instead of
    registering the module a second time under another name (a pytest error)."""
    project = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))
    assert project["project"]["entry-points"]["pytest11"] == {PLUGIN: PLUGIN}
