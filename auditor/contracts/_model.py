"""Handoff contracts: reviewed files under ``config/contracts/*.yaml`` (schema
``edge-audit.contract.v1``, ``edge-audit schema contract``).

A contract names a route, its version, the source and destination agents, the keys the
destination requires, the keys it is permitted to receive, an owner per boundary, and the
migrations that make an older version's key names comparable with this one.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Literal

from pydantic import BaseModel, ConfigDict, Field, ValidationError

from .._files import invalid, read_yaml

CONTRACT_SCHEMA_ID = "edge-audit.contract.v1"
Boundary = Literal["routing", "source", "envelope", "destination"]
BOUNDARIES: tuple[Boundary, ...] = ("routing", "source", "envelope", "destination")


class _Strict(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True, populate_by_name=True)


class Owners(_Strict):
    """Who to notify when a boundary breaks."""

    routing: str = Field(description="Owner of the route selection (the orchestrator)")
    source: str = Field(description="Owner of the source agent's state")
    envelope: str = Field(description="Owner of the envelope builder")
    destination: str = Field(description="Owner of the destination's ingestion")


class Migration(_Strict):
    from_version: str = Field(alias="from", description="The older contract version")
    renames: dict[str, str] = Field(default_factory=dict, description="Old key name -> this version's key name")
    fixture: str | None = Field(default=None, description="A trace fixture exercising this migration "
                                                          "(relative to the contract file)")


class ContractFile(_Strict):
    """The schema of one contract file."""

    schema_: Literal["edge-audit.contract.v1"] = Field(default="edge-audit.contract.v1", alias="schema")
    route: str = Field(min_length=1)
    version: str = Field(min_length=1)
    source: str = Field(min_length=1, description="The source agent")
    destination: str = Field(min_length=1, description="The destination agent")
    required: list[str] = Field(min_length=1, description="Keys the destination needs")
    permitted: list[str] = Field(description="Keys the destination may receive (must include every required key)")
    owners: Owners
    migrations: list[Migration] = Field(default_factory=list)


@dataclass(frozen=True)
class Contract:
    spec: ContractFile
    path: Path

    @property
    def route(self) -> str:
        return self.spec.route

    @property
    def version(self) -> str:
        return self.spec.version

    def owner(self, boundary: Boundary) -> str:
        return str(getattr(self.spec.owners, boundary))

    def migration_from(self, version: str) -> Migration | None:
        return next((m for m in self.spec.migrations if m.from_version == version), None)


@dataclass(frozen=True)
class ContractBook:
    """All contracts of a folder, by (route, version)."""

    contracts: tuple[Contract, ...] = ()
    by_key: dict[tuple[str, str], Contract] = field(default_factory=dict)

    def get(self, route: str, version: str) -> Contract | None:
        return self.by_key.get((route, version))

    def versions(self, route: str) -> list[str]:
        return [c.version for c in self.contracts if c.route == route]


def load_contract(path: Path) -> Contract:
    raw = read_yaml(path, "contract")
    try:
        return Contract(ContractFile.model_validate(raw), path)
    except ValidationError as err:
        raise invalid(path, err) from None


def contract_files(folder: Path) -> list[Path]:
    return sorted(p for p in folder.glob("*.yaml") if p.is_file()) if folder.is_dir() else []


def load_contracts(paths: Iterable[Path]) -> ContractBook:
    """A book of the given contract files. The first file wins a duplicate (route, version);
    ``edge-audit contracts lint`` reports the duplicate."""
    contracts = tuple(load_contract(p) for p in paths)
    by_key: dict[tuple[str, str], Contract] = {}
    for c in contracts:
        by_key.setdefault((c.route, c.version), c)
    return ContractBook(contracts, by_key)
