"""Findings: what a check says about one edge, always with quoted evidence."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Annotated, Literal

from pydantic import Field

from ..edges import Quote

Status = Literal["pass", "fail", "warn", "unmeasured"]
STATUSES: tuple[Status, ...] = ("pass", "fail", "warn", "unmeasured")
#: The status an option may give a kind of finding that can be softened.
FailOrWarn = Literal["fail", "warn"]


@dataclass(frozen=True)
class Finding:
    """One verdict of a check, as the report shows it (the report reads this type itself)."""

    check: Annotated[str, Field(description="Versioned registry name of the check")]
    edge_id: str
    verdict: str
    status: Status
    summary: str
    upstream: Quote | None
    handoff: Annotated[tuple[Quote, ...], Field(description="Handoff sentences the verdict rests on")] = ()
    mentions: Annotated[tuple[Quote, ...], Field(description="Other handoff sentences naming one of its keys")] = ()
    details: Mapping[str, object] = field(default_factory=dict)
    id: Annotated[str, Field(description="<edge id>#<n>: stable while the checks and the trace are unchanged; "
                                        "given by the runner")] = ""
