"""The self-test's result: one cell per (edge, mutation), the catch rate per mutation, and the
caught-by grid as text and Markdown."""

from __future__ import annotations

import math
from typing import Literal

from pydantic import BaseModel, ConfigDict, Field

CellState = Literal["caught", "missed", "not_applicable"]


class _Model(BaseModel):
    model_config = ConfigDict(frozen=True, extra="forbid")


class Cell(_Model):
    edge_id: str
    route: str
    mutation: str
    state: CellState
    caught_by: str | None = Field(default=None, description="check:verdict (status) of the finding that caught it")
    mutant_edge_id: str | None = Field(default=None, description="The mutated edge's id (its message id ends in ~<mutation>)")
    description: str = Field(default="", description="What the mutation did, in words")
    reason: str = Field(default="", description="Why it does not apply, or why nothing caught it")


class Rate(_Model):
    applicable: int
    caught: int
    rate: float | None = Field(description="caught / applicable; null when it applied nowhere")


class SelftestResult(_Model):
    schema_version: Literal["edge-audit.selftest.v1"] = "edge-audit.selftest.v1"
    seed: int
    floor: float
    mutations: list[str]
    traces: int
    edges: int = Field(description="Edges audited in the baseline")
    edges_tested: int = Field(description="Edges carrying constraints or claims: the grid's rows")
    cells: list[Cell]
    rates: dict[str, Rate]
    input_errors: list[str] = Field(default_factory=list)

    @property
    def below_floor(self) -> list[str]:
        return [m for m, r in self.rates.items() if r.rate is not None and r.rate < self.floor]


def _short(caught_by: str | None) -> str:
    return (caught_by or "").removeprefix("edge-audit.")


def cell_text(cell: Cell) -> str:
    return {"caught": _short(cell.caught_by), "missed": "nobody", "not_applicable": "-"}[cell.state]


def percent(rate: float) -> str:
    """A rate as a percentage rounded down to 0.1 (a single miss in 462 never shows as 100%)."""
    return f"{math.floor(rate * 1000) / 10:g}%"


def rate_text(name: str, rate: Rate) -> str:
    share = percent(rate.rate) if rate.rate is not None else "n/a"
    return f"{name} {rate.caught}/{rate.applicable} ({share})"


def grid_lines(result: SelftestResult, *, markdown: bool = False) -> list[str]:
    """The caught-by grid (edges down, mutations across), the catch rates, then every missed cell
    with its reason."""
    rows: dict[str, dict[str, Cell]] = {}
    for cell in result.cells:
        rows.setdefault(cell.edge_id, {})[cell.mutation] = cell
    header = ["edge", *result.mutations]
    table = [[edge, *(cell_text(cells[m]) if m in cells else "-" for m in result.mutations)]
             for edge, cells in rows.items()]
    if markdown:
        def esc(text: str) -> str:
            return text.replace("|", "\\|").replace("\n", " ").replace("`", "'")

        out = ["| " + " | ".join(header) + " |", "|" + "---|" * len(header)]
        out += ["| " + " | ".join(esc(c) for c in row) + " |" for row in table]
    else:
        widths = [max(len(r[i]) for r in [header, *table]) for i in range(len(header))]
        out = ["  ".join(c.ljust(w) for c, w in zip(row, widths, strict=True)).rstrip() for row in [header, *table]]
    out += ["", "catch rate: " + ", ".join(rate_text(m, result.rates[m]) for m in result.mutations)
            + f"; floor {percent(result.floor)}"]
    missed = [c for c in result.cells if c.state == "missed"]
    if missed:
        out += ["", "missed:"]
        out += [f"{'- ' if markdown else '  '}{c.edge_id} {c.mutation} ({c.description}): {c.reason}" for c in missed]
    return out
