"""Fault injection with a user's pipeline: the mutations, the grid, and the shipped two-agent
LiteLLM pipeline replayed offline from its cassettes (recorded on the local SmolLM2 server)."""

from __future__ import annotations

import importlib.util
import random
from pathlib import Path
from types import ModuleType
from typing import Any

import pytest

from auditor import AuditConfig, Trace
from auditor.errors import UsageError
from auditor.faults import (
    INVENTED,
    FaultGrid,
    MutationInput,
    contradict,
    drop,
    inject_faults,
    invent,
    invert,
    print_grid,
    soften,
)

ROOT = Path(__file__).resolve().parents[1]
RULES = "Never share the code ESC-311. The writer must always reply in English. Order 4412 is 6 days late."


def _input(text: str, results: tuple[str, ...] = (), arguments: tuple[str, ...] = (), seed: int = 0) -> MutationInput:
    return MutationInput(text, results, arguments, random.Random(seed))


def test_each_mutation_changes_every_hard_rule_or_does_not_apply() -> None:
    assert soften(_input(RULES)) == ("Try not to share the code ESC-311. The writer should usually reply in "
                                     "English. Order 4412 is 6 days late.")
    assert invert(_input(RULES)) == ("Feel free to share the code ESC-311. The writer need not reply in "
                                     "English. Order 4412 is 6 days late.")
    assert invert(_input("You must keep it. Always log in.")) == "You need not keep it. Never log in."
    assert drop(_input(RULES)) == "Order 4412 is 6 days late."
    for mutation in (soften, invert, drop):
        assert mutation(_input("Order 4412 is 6 days late.")) is None


def test_invent_is_seeded_and_contradict_changes_an_observed_value_not_a_looked_up_id() -> None:
    assert invent(_input("Done.", seed=3)) == invent(_input("Done.", seed=3))
    assert {invent(_input("Done.", seed=s)).split("\n\n")[1] for s in range(30)} == set(INVENTED)
    results, arguments = ('{"order_id": "4412", "days_late": 6, "total_usd": 59.0}',), ('{"order_id": "4412"}',)
    assert contradict(_input("Order 4412 is 6 days late; $59.00 due.", results, arguments)) == (
        "Order 4412 is 13 days late; $59.00 due.")
    assert contradict(_input("Order 4412 costs $59.00.", results, arguments)) == "Order 4412 costs $119.00."
    assert contradict(_input("Order 4412 is late.", results, arguments)) is None


def _pipeline_module() -> ModuleType:
    spec = importlib.util.spec_from_file_location("example_pipeline", ROOT / "examples" / "pipeline" / "pipeline.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def test_the_example_pipelines_grid_replays_offline_from_its_cassettes() -> None:
    """The recorded run: SmolLM2 echoes its handoff, so the original reply leaks the internal code
    (score 0.5). Every fault is caught at the edge by the audit, no agent flags any, and dropping the
    rule *raises* the score to 1.0 (the leaked code went with it): the end-to-end score rewards the
    lost constraint, which only the edge shows."""
    example = _pipeline_module()
    pipeline = example.Pipeline("replay")
    original = pipeline.run()
    assert original.metadata.score == 0.5
    assert original == Trace.model_validate_json((ROOT / "examples" / "pipeline" / "support-4412.json").read_text())
    grid = inject_faults(original, pipeline.continue_from)
    assert [r.edge_id for r in grid.rows] == ["support-4412/handoff->writer"]
    cells = {c.mutation: c for c in grid.rows[0].cells}
    assert {name: (c.status, c.agents, c.checks, c.score) for name, c in cells.items()} == {
        "soften": ("caught", [], ["edge-audit.constraints.v1 softened @ handoff->writer"], 0.5),
        "drop": ("caught", [], ["edge-audit.constraints.v1 dropped @ handoff->writer"], 1.0),
        "invert": ("caught", [], ["edge-audit.constraints.v1 inverted @ handoff->writer"], 0.5),
        "invent": ("caught", [], ["edge-audit.claims.v1 invented @ handoff->writer"], 0.5),
        "contradict": ("caught", [], ["edge-audit.claims.v1 contradicted @ handoff->writer"], 0.5),
    }
    assert cells["drop"].score_delta == 0.5 and "ESC-311" not in (cells["drop"].mutated or "")
    assert {name: (r.applied, r.caught) for name, r in grid.rates.items()} == {
        name: (1, 1) for name in ("soften", "drop", "invert", "invent", "contradict")}
    assert grid.silent == []
    again = inject_faults(pipeline.run(), pipeline.continue_from)
    assert again.model_dump_json() == grid.model_dump_json()


def _fake_pipeline(example: ModuleType, writer: Any) -> Any:
    class Fake(example.Pipeline):  # type: ignore[name-defined,misc]
        def _agent(self, name: str, system: str, user: str) -> str:
            return "The customer wants news of order 4412." if name == "triage" else writer(user)

    return Fake("replay")


def test_agents_that_flag_a_fault_are_in_the_grid_and_silent_cells_are_listed(capsys: pytest.CaptureFixture[str]) -> None:
    example = _pipeline_module()

    def writer(handoff: str) -> str:
        return "FLAG: the handoff lets me share an internal code." if "Feel free" in handoff else "Your order is late."

    pipeline = _fake_pipeline(example, writer)
    grid = inject_faults(pipeline.run(), pipeline.continue_from, AuditConfig(checks=[]))
    cells = {c.mutation: c for c in grid.rows[0].cells}
    assert (cells["invert"].status, cells["invert"].agents, cells["invert"].checks) == ("caught", ["writer"], [])
    assert [c.status for n, c in cells.items() if n != "invert"] == ["missed"] * 4
    assert grid.silent == [f"support-4412/handoff->writer x {n}" for n in ("soften", "drop", "invent", "contradict")]
    from rich.console import Console

    print_grid(grid, Console(width=200))
    out = capsys.readouterr().out
    assert "nobody" in out and "catch rate: soften 0/1, drop 0/1, invert 1/1" in out


def test_a_failing_replay_is_an_error_cell_and_a_mutation_with_nothing_to_change_is_not_applicable() -> None:
    example = _pipeline_module()
    pipeline = _fake_pipeline(example, lambda handoff: "Your order is late.")
    original = pipeline.run()

    def broken(trace: Trace, edge_id: str, message: str) -> Any:
        if "Try not" in message:
            raise TimeoutError("the writer did not answer")
        if "Feel free" in message:
            return {"trace_id": "not a Trace"}
        return pipeline.continue_from(trace, edge_id, message)

    plain = original.model_copy(update={"events": [
        e.model_copy(update={"content": "Order 4412 is 6 days late."}) if e.id == "handoff" else e
        for e in original.events]})
    grid: FaultGrid = inject_faults(original, broken, mutations=["soften", "invert", "invent"])
    cells = {c.mutation: c for c in grid.rows[0].cells}
    assert cells["soften"].status == "error" and "TimeoutError" in (cells["soften"].error or "")
    assert cells["invert"].error == "continue_from returned a dict, not a Trace"
    assert grid.rates["soften"].applied == 0 and grid.rates["soften"].rate is None
    assert cells["invent"].status == "caught"
    na = inject_faults(plain, pipeline.continue_from, mutations=["soften", "drop", "invert"])
    assert [c.status for c in na.rows[0].cells] == ["not_applicable"] * 3
    with pytest.raises(UsageError, match="unknown mutations"):
        inject_faults(original, pipeline.continue_from, mutations=["shout"])


def test_the_grid_and_golden_schemas_are_published(capsys: pytest.CaptureFixture[str]) -> None:
    import json

    from auditor._cli.main import main
    from auditor.goldens import GoldenReport

    for what, model in (("faults", FaultGrid), ("golden-report", GoldenReport)):
        assert main(["schema", what]) == 0
        assert json.loads(capsys.readouterr().out) == model.model_json_schema(by_alias=True)


def test_a_semantic_graders_failure_counts_as_caught() -> None:
    """A dropped rule with no specific key is left to the constraint grader: with the grader on (a
    mock model that finds every constraint dropped), the grid credits it."""
    from auditor.config import SemanticConfig

    example = _pipeline_module()
    pipeline = _fake_pipeline(example, lambda handoff: "Your order is late.")
    original = pipeline.run()
    vague = original.model_copy(update={"events": [
        e.model_copy(update={"content": e.content.replace("the internal case code ESC-311", "internal codes")})
        if e.id in ("request", "handoff") else e for e in original.events]})
    off = inject_faults(vague, pipeline.continue_from, mutations=["drop"])
    assert off.rows[0].cells[0].status == "missed"
    on = inject_faults(vague, pipeline.continue_from, AuditConfig(semantic=SemanticConfig(
        mode="live", model="mock/absent", cache=False)), mutations=["drop"])
    cell = on.rows[0].cells[0]
    assert (cell.status, cell.checks) == ("caught", ["edge-audit.constraint-grader.v1 dropped @ handoff->writer"])


def test_faults_command_runs_the_example_pipeline_offline(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    from auditor._cli.main import main

    pipeline = ROOT / "examples" / "pipeline"
    out = tmp_path / "grid.json"
    args = ["faults", str(pipeline / "support-4412.json"), "--continue-from", f"{pipeline / 'pipeline.py'}:continue_from"]
    assert main([*args, "--json", str(out), "--fail-on-silent"]) == 0
    grid = FaultGrid.model_validate_json(out.read_text(encoding="utf-8"))
    assert grid == _pipeline_grid()
    assert "catch rate: soften 1/1, drop 1/1, invert 1/1, invent 1/1, contradict 1/1" in capsys.readouterr().out
    assert main([*args, "--mutation", "drop", "--config", str(tmp_path / "none.yaml")]) == 2
    assert main(["faults", str(pipeline / "support-4412.json"), "--continue-from", "no_such_module:f"]) == 2
    assert "--continue-from no_such_module:f" in capsys.readouterr().err


def _pipeline_grid() -> FaultGrid:
    example = _pipeline_module()
    pipeline = example.Pipeline("replay")
    return inject_faults(pipeline.run(), pipeline.continue_from)
