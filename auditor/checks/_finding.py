"""Findings: what a check says about one edge, always with quoted evidence."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Literal

from ..edges import Quote

Status = Literal["pass", "fail", "warn", "unmeasured"]
STATUSES: tuple[Status, ...] = ("pass", "fail", "warn", "unmeasured")


@dataclass(frozen=True)
class Finding:
    check: str
    edge_id: str
    verdict: str
    status: Status
    summary: str
    upstream: Quote | None
    handoff: tuple[Quote, ...] = ()
    mentions: tuple[Quote, ...] = ()
    details: Mapping[str, object] = field(default_factory=dict)
