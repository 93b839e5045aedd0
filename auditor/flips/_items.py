"""What ``flips`` compares: items with a stable identity and a pass bit, read from a run report
(its deterministic findings) or from a cases report (``edge-audit.cases.v1``: golden checks and
anything else that grades named cases).

A finding's identity is a hash of what it is about, never of where it sits: the trace id, the
route (source -> destination, not the edge id, whose event ids shift when a message is inserted),
the check, and the finding's subject as normalised text (case, whitespace and surrounding
punctuation folded). The subject is the upstream constraint for the constraint check, the claim's
kind and text for the claim check, the handoff attempt for the contract check, and otherwise the
first quote. Offsets, finding numbers and the order of edges play no part, so reordering traces or
shifting lines does not change an identity. Findings with the same identity (one claim stated twice
on one route) are told apart by their rank after sorting by pass bit and verdict.
"""

from __future__ import annotations

import hashlib
import json
import re
from collections.abc import Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Literal

from pydantic import BaseModel, ConfigDict, Field, ValidationError

from ..checks import Finding
from ..errors import UsageError
from ..report import REPORT_SCHEMA_VERSION, Report

CASES_SCHEMA = "edge-audit.cases.v1"
ItemKind = Literal["case", "finding"]


class CaseOutcome(BaseModel):
    """One graded case. Other fields are allowed and ignored."""

    model_config = ConfigDict(extra="allow", frozen=True)

    id: str = Field(min_length=1, description="Stable case id, e.g. a golden case's id")
    passed: bool = Field(description="The case's pass bit")
    summary: str = Field(default="", description="One line shown beside a flip")


class CasesReport(BaseModel):
    """The shape ``flips`` reads besides run reports: any JSON object with a ``cases`` list of
    ``{id, passed}`` (a golden report, or one written by hand). Other top-level fields are ignored."""

    model_config = ConfigDict(extra="allow", frozen=True, populate_by_name=True)

    schema_: str | None = Field(default=CASES_SCHEMA, alias="schema", description=f"{CASES_SCHEMA} (optional)")
    cases: list[CaseOutcome]


@dataclass(frozen=True)
class Item:
    """One comparable item: its identity, the words a reader needs, and its pass bit."""

    kind: ItemKind
    key: str
    label: str
    passed: bool
    status: str
    verdict: str


_EDGE_PUNCT = re.compile(r"^[\s\"'`.,;:!?()\[\]{}<>*-]+|[\s\"'`.,;:!?()\[\]{}<>*-]+$")


def normalise(text: str) -> str:
    """Text as it enters an identity: lower case, whitespace collapsed, punctuation at the ends cut."""
    return _EDGE_PUNCT.sub("", " ".join(text.lower().split()))


def subject(finding: Finding) -> str:
    """What a finding is about, independent of its verdict and of offsets."""
    check = finding.check
    if check.startswith("edge-audit.constraints.") and finding.upstream is not None:
        return normalise(finding.upstream.text)
    if check.startswith("edge-audit.claims.") and finding.handoff:
        return f"{finding.details.get('kind', '')}:{normalise(finding.handoff[0].text)}"
    if check.startswith("edge-audit.contracts."):
        unit = finding.edge_id.rpartition("/")[2]
        return f"{unit}:{'unpermitted' if finding.verdict == 'unpermitted_key' else 'keys'}"
    quote = finding.handoff[0] if finding.handoff else finding.upstream
    return normalise(quote.text) if quote is not None else finding.edge_id.rpartition("/")[2]


def _digest(*parts: str) -> str:
    return hashlib.sha256("\x1f".join(parts).encode("utf-8")).hexdigest()[:16]


def finding_items(report: Report) -> list[Item]:
    """The run report's deterministic findings as items (pass bit: status ``pass``; ``warn``,
    ``fail`` and ``unmeasured`` are not passes)."""
    edges = {e.id: e for e in report.edges}
    grouped: dict[tuple[str, str, str, str], list[Finding]] = {}
    for finding in report.deterministic.findings:
        edge = edges.get(finding.edge_id)
        trace = edge.trace_id if edge else finding.edge_id.partition("/")[0]
        route = f"{edge.source}->{edge.destination}" if edge else "?"
        grouped.setdefault((trace, route, finding.check, subject(finding)), []).append(finding)
    items = []
    for (trace, route, check, about), found in grouped.items():
        for rank, finding in enumerate(sorted(found, key=lambda f: (f.status != "pass", f.verdict))):
            label = f"{trace} {route.replace('->', ' → ')} {check.removeprefix('edge-audit.')}: {about[:160]}"
            items.append(Item("finding", _digest(trace, route, check, about, str(rank)), label,
                              finding.status == "pass", finding.status, finding.verdict))
    return items


def case_items(cases: CasesReport) -> list[Item]:
    items = []
    seen: set[str] = set()
    for case in cases.cases:
        if case.id in seen:
            raise UsageError(f"case id {case.id!r} appears twice")
        seen.add(case.id)
        label = case.id + (f": {case.summary}" if case.summary else "")
        status = "pass" if case.passed else "fail"
        items.append(Item("case", _digest("case", case.id), label, case.passed, status, status))
    return items


def read_items(path: str | Path) -> list[Item]:
    """The items of a run report or of a cases report, told apart by their fields."""
    try:
        data: Any = json.loads(Path(path).read_text(encoding="utf-8"))
    except OSError as err:
        raise UsageError(f"{path}: cannot read: {err.strerror or err}") from None
    except ValueError as err:
        raise UsageError(f"{path}: not JSON: {err}") from None
    if not isinstance(data, Mapping):
        raise UsageError(f"{path}: a report is a JSON object")
    try:
        if data.get("schema_version") == REPORT_SCHEMA_VERSION:
            return finding_items(Report.model_validate(data))
        if "cases" in data:
            return case_items(CasesReport.model_validate(data))
    except ValidationError as err:
        first = err.errors()[0]
        where = ".".join(str(p) for p in first["loc"])
        raise UsageError(f"{path}: {where}: {first['msg']}") from None
    raise UsageError(f"{path}: neither a run report ({REPORT_SCHEMA_VERSION}) nor a cases report "
                     f"(an object with a 'cases' list of {{id, passed}}, {CASES_SCHEMA})")
