"""``edge-audit contracts lint``: problems in contract files and their fixtures that would make
verdicts wrong or unprovable.

* a required key that is not permitted (the contract contradicts itself);
* two files for the same route and version;
* a migration with no test fixture, or one that does not exist;
* a fixture stage event with no ``contract_version``;
* a handoff id reused across unrelated cases (different traces), which makes joins ambiguous.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from pathlib import Path

from ..errors import ConfigError
from ..trace import HandoffStage, load_paths
from ._model import Contract, load_contract


@dataclass(frozen=True)
class LintProblem:
    path: str
    message: str

    def __str__(self) -> str:
        return f"{self.path}: {self.message}"


def lint(contract_paths: Iterable[Path], fixture_paths: Iterable[Path] = ()) -> list[LintProblem]:
    problems: list[LintProblem] = []
    contracts: list[Contract] = []
    for path in contract_paths:
        try:
            contracts.append(load_contract(path))
        except ConfigError as err:
            problems.append(LintProblem(str(path), str(err).removeprefix(f"{path}: ")))
    seen: dict[tuple[str, str], Path] = {}
    fixtures: list[Path] = list(fixture_paths)
    for c in contracts:
        spec = c.spec
        not_permitted = [k for k in spec.required if k not in spec.permitted]
        if not_permitted:
            problems.append(LintProblem(str(c.path), f"required keys not in permitted: {', '.join(not_permitted)}"))
        key = (spec.route, spec.version)
        if key in seen:
            problems.append(LintProblem(str(c.path), f"duplicate route {spec.route!r} version {spec.version} "
                                                     f"(also {seen[key]})"))
        else:
            seen[key] = c.path
        for m in spec.migrations:
            if m.fixture is None:
                problems.append(LintProblem(str(c.path), f"migration from v{m.from_version} has no test fixture"))
                continue
            fixture = (c.path.parent / m.fixture).resolve()
            if not fixture.is_file():
                problems.append(LintProblem(str(c.path), f"migration from v{m.from_version}: fixture {m.fixture} "
                                                         f"does not exist"))
            else:
                fixtures.append(fixture)
    problems += _lint_fixtures(fixtures)
    return problems


def _lint_fixtures(paths: list[Path]) -> list[LintProblem]:
    problems: list[LintProblem] = []
    loaded = load_paths(list(dict.fromkeys(paths)))
    problems += [LintProblem(e.path, f"unreadable fixture: {e.reason}") for e in loaded.errors]
    owners: dict[str, tuple[str, str]] = {}
    for item in loaded.traces:
        for event in item.trace.events:
            if not isinstance(event, HandoffStage):
                continue
            if event.contract_version is None:
                problems.append(LintProblem(item.path, f"event {event.id} (handoff {event.handoff_id}) has no "
                                                       f"contract_version"))
            first = owners.setdefault(event.handoff_id, (item.trace.trace_id, item.path))
            if first[0] != item.trace.trace_id:
                problems.append(LintProblem(item.path, f"handoff id {event.handoff_id!r} is reused in unrelated "
                                                       f"cases: trace {first[0]} ({first[1]}) and "
                                                       f"{item.trace.trace_id}"))
                owners[event.handoff_id] = (item.trace.trace_id, item.path)
    return problems
