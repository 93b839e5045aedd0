"""The fault-injection grid (``edge-audit schema faults``): edges down, mutations across, and in
each cell who caught the corrupted message (agents of the pipeline, checks of the audit) or
nobody, with the end-to-end score the continued run got.

A cell is ``caught``, ``missed``, ``not_applicable`` (the mutation has nothing to change in that
message) or ``error`` (the pipeline's replay failed, or the continued run could not be audited):
an error is never counted as caught or missed.
"""

from __future__ import annotations

from typing import Literal

from pydantic import BaseModel, ConfigDict, Field
from rich.console import Console
from rich.markup import escape
from rich.table import Table

CellStatus = Literal["caught", "missed", "not_applicable", "error"]


class _Model(BaseModel):
    model_config = ConfigDict(frozen=True, extra="forbid")


class Cell(_Model):
    mutation: str
    status: CellStatus
    agents: list[str] = Field(default_factory=list, description="Agents of the pipeline that flagged it downstream")
    checks: list[str] = Field(default_factory=list, description="Failing findings the original run did not have, "
                                                               "as <check> <verdict> @ <edge>")
    score: float | None = Field(default=None, description="The continued run's end-to-end score (trace metadata)")
    score_delta: float | None = Field(default=None, description="score minus the original run's score")
    mutated: str | None = Field(default=None, description="The corrupted message")
    error: str | None = None

    @property
    def caught_by(self) -> list[str]:
        return [*self.agents, *dict.fromkeys(c.split(" ", 1)[0] for c in self.checks)]


class Row(_Model):
    edge_id: str
    route: str = Field(description="source->destination")
    cells: list[Cell]


class MutationRate(_Model):
    applied: int = Field(description="Cells where it applied and the continued run was audited")
    caught: int
    rate: float | None


class FaultGrid(_Model):
    schema_: Literal["edge-audit.faults.v1"] = Field(default="edge-audit.faults.v1", alias="schema")
    trace_id: str
    score: float | None = Field(description="The original run's end-to-end score")
    mutations: list[str]
    rows: list[Row]
    rates: dict[str, MutationRate]
    silent: list[str] = Field(description="Cells nobody caught whose score did not drop: <edge> x <mutation>")

    model_config = ConfigDict(frozen=True, extra="forbid", populate_by_name=True)


def rates(rows: list[Row], mutations: list[str]) -> dict[str, MutationRate]:
    out = {}
    for name in mutations:
        cells = [c for r in rows for c in r.cells if c.mutation == name and c.status in ("caught", "missed")]
        caught = sum(c.status == "caught" for c in cells)
        out[name] = MutationRate(applied=len(cells), caught=caught, rate=round(caught / len(cells), 4) if cells else None)
    return out


def _cell_text(cell: Cell) -> str:
    if cell.status == "not_applicable":
        return "[dim]n/a[/]"
    if cell.status == "error":
        return "[yellow]error[/]"
    found = [c.split(" @ ", 1)[0].removeprefix("edge-audit.") for c in cell.checks]
    who = "\n".join(escape(c) for c in [*cell.agents, *found]) if cell.status == "caught" else "[red]nobody[/]"
    score = "" if cell.score is None else f"\nscore {cell.score:g}"
    return who + score


def print_grid(grid: FaultGrid, console: Console) -> None:
    table = Table(title=f"faults injected into {escape(grid.trace_id)} (original score "
                        f"{'n/a' if grid.score is None else f'{grid.score:g}'})")
    table.add_column("edge")
    for name in grid.mutations:
        table.add_column(name)
    for row in grid.rows:
        table.add_row(f"{escape(row.edge_id)}\n{escape(row.route)}", *(_cell_text(c) for c in row.cells))
    console.print(table)
    console.print("catch rate: " + ", ".join(
        f"{name} {'n/a' if r.rate is None else f'{r.caught}/{r.applied}'}" for name, r in grid.rates.items()))
    for silent in grid.silent:
        console.print(f"silent: {escape(silent)} (nobody caught it and the score held)")
