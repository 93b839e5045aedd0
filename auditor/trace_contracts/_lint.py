"""``edge-audit trace-contracts lint``: contracts that are brittle, contradict themselves or can
never match, found before they give a wrong verdict.

Errors (the contract cannot be right):

* a tool both required (or ordered) and forbidden, or required but outside ``allowed``;
* order pairs that form a cycle (A before B and B before A), across ``required_order`` and
  ``order_rules``;
* a call budget below the number of tools the contract requires, or a zero budget for one;
* two ``equals`` checks of one pointer that want different values on every call;
* a run that must have finished but may only be ``running``, or an unknown status;
* a branch of ``alternatives.any_of`` that forbids a tool the base rules require: it can never
  be satisfied;
* a scope that can never match: an unknown metadata key, or (given traces) a scope that selects
  nothing in a trace the contract applies to.

Warnings (brittle): a tool required unconditionally although some alternative path does not use
it (a legitimate shortcut would fail the base rule; move it into the branches that need it); a
contract that applies to none of the given traces.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Literal

from ..errors import ConfigError
from ..trace import Trace
from ._facts import METADATA_KEYS, applies, select
from ._model import ArgumentCheck, ToolRules, TraceContract, load_trace_contract

_STATUSES = {"ok", "error", "running", "success", "failed"}


@dataclass(frozen=True)
class TraceContractProblem:
    where: str
    severity: Literal["error", "warning"]
    message: str

    def __str__(self) -> str:
        return f"{self.where}: {self.severity}: {self.message}"


def _required(tools: ToolRules) -> list[str]:
    return list(dict.fromkeys([*tools.required, *tools.required_order]))


def _tool_problems(tools: ToolRules, where: str) -> list[str]:
    out = []
    required = _required(tools)
    ordered = {n for r in tools.order_rules if r.require_endpoints for n in (r.before, r.after)}
    for name in required:
        if name in tools.forbidden:
            out.append(f"{where}: {name} is both required and forbidden")
        if tools.allowed is not None and name not in tools.allowed:
            out.append(f"{where}: {name} is required but not in the allowed set")
        if tools.max_calls_per_tool.get(name) == 0:
            out.append(f"{where}: {name} is required but may be called 0 times")
    for name in sorted(ordered - set(required)):
        if name in tools.forbidden:
            out.append(f"{where}: {name} is in an order rule that needs it, but forbidden")
    if tools.max_calls is not None and tools.max_calls < len(required):
        out.append(f"{where}: {len(required)} tools are required but at most {tools.max_calls} calls are allowed")
    pairs = list(zip(tools.required_order, tools.required_order[1:], strict=False))
    pairs += [(r.before, r.after) for r in tools.order_rules]
    cycle = _cycle(pairs)
    if cycle:
        out.append(f"{where}: the order rules form a cycle: {' before '.join(cycle)}")
    out += _argument_problems(tools.arguments, where)
    return out


def _cycle(pairs: list[tuple[str, str]]) -> list[str] | None:
    after: dict[str, list[str]] = {}
    for a, b in pairs:
        after.setdefault(a, []).append(b)

    def walk(node: str, path: list[str]) -> list[str] | None:
        if node in path:
            return [*path[path.index(node):], node]
        for nxt in after.get(node, []):
            found = walk(nxt, [*path, node])
            if found:
                return found
        return None

    for start in sorted(after):
        found = walk(start, [])
        if found:
            return found
    return None


def _argument_problems(checks: list[ArgumentCheck], where: str) -> list[str]:
    wanted: dict[tuple[str, str], list[object]] = {}
    for c in checks:
        if c.op == "equals" and c.occurrence == "all":
            wanted.setdefault((c.tool, c.path), []).append(c.value)
    return [f"{where}: {tool} {path or '(root)'} must equal different values on every call"
            for (tool, path), values in sorted(wanted.items()) if len({repr(v) for v in values}) > 1]


def lint_contract(contract: TraceContract, traces: Sequence[Trace] = ()) -> list[TraceContractProblem]:
    """Problems of one contract; with ``traces``, also its scope against the traces it applies to."""
    spec = contract.spec
    where = str(contract.path) if contract.path else contract.id
    errors: list[str] = []
    warnings: list[str] = []
    if spec.run is not None:
        unknown = [s for s in spec.run.allowed_statuses or [] if s not in _STATUSES]
        if unknown:
            errors.append(f"run: unknown status(es) {', '.join(unknown)} can never match")
        if spec.run.require_completed and spec.run.allowed_statuses == ["running"]:
            errors.append("run: must have finished but may only be running")
    if spec.tools is not None:
        errors += _tool_problems(spec.tools, "tools")
    base = _required(spec.tools) if spec.tools else []
    if spec.alternatives is not None:
        branches = spec.alternatives.any_of
        for b in branches:
            if b.tools is not None:
                errors += _tool_problems(b.tools, f"alternatives.{b.id}.tools")
                for name in base:
                    if name in b.tools.forbidden:
                        errors.append(f"alternatives.{b.id}: forbids {name}, which the base rules require: the "
                                      "branch can never be satisfied")
        for name in base:
            # a branch that lists the tool as required treats it as part of its own path (an order
            # pair naming it only orders it)
            users = [b.id for b in branches if b.tools is not None and name in b.tools.required]
            if users and len(users) < len(branches):
                others = [b.id for b in branches if b.id not in users]
                warnings.append(f"tools: {name} is required unconditionally, but only the path(s) "
                                f"{', '.join(users)} need it; the shortcut path(s) {', '.join(others)} would fail "
                                "it: require it in those branches instead")
    if spec.scope is not None and spec.scope.metadata is not None:
        for key, value in spec.scope.metadata.items():
            if key not in ("source", "task", "status", "score") and not key.startswith("labels."):
                errors.append(f"scope: metadata key {key!r} is not one of {', '.join(METADATA_KEYS)}: the scope "
                              "can never match")
            elif key == "status" and value not in ("ok", "error", "running"):
                errors.append(f"scope: metadata status {value!r} can never match")
    if traces:
        applying = [t for t in traces if applies(spec.applies_to, t)]
        if not applying:
            warnings.append("applies to none of the given traces")
        for t in applying:
            if not select(t, spec.scope).steps:
                errors.append(f"scope selects nothing in trace {t.trace_id}")
    return ([TraceContractProblem(where, "error", m) for m in errors]
            + [TraceContractProblem(where, "warning", m) for m in warnings])


def lint_trace_contracts(paths: Iterable[Path], traces: Sequence[Trace] = ()) -> list[TraceContractProblem]:
    """Every problem of the given contract files (an invalid file or a duplicate id is an error)."""
    problems: list[TraceContractProblem] = []
    seen: dict[str, Path] = {}
    for path in paths:
        try:
            contract = load_trace_contract(path)
        except ConfigError as err:
            problems.append(TraceContractProblem(str(path), "error", str(err).removeprefix(f"{path}: ")))
            continue
        if contract.id in seen:
            problems.append(TraceContractProblem(str(path), "error", f"id {contract.id!r} is also used by "
                                                                     f"{seen[contract.id]}"))
        seen.setdefault(contract.id, path)
        problems += lint_contract(contract, traces)
    return problems
