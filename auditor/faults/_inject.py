"""Fault injection with the user's own pipeline: corrupt one handoff, let the pipeline carry on
from it, and record who noticed.

For every edge of a trace (or those chosen) and every mutation that applies to its message,
``continue_from(trace, edge_id, mutated_message)`` (the user's replay of their pipeline from that
handoff) returns the continued run. All continued runs are then audited together, and each cell
records the run's end-to-end score (``metadata.score``), the agents that flagged something
(``flagged_by(trace)``; default: the list ``metadata.labels["flagged_by"]``) and the failing
findings the original run did not have (deterministic ones by the gate's ``fail_on``, and semantic
graders' failures when ``config.semantic`` runs them). The original trace is the baseline.
"""

from __future__ import annotations

import random
from collections import Counter
from collections.abc import Callable, Sequence

from .._audit import audit_traces
from ..config import AuditConfig
from ..edges import Edge, build_edges
from ..nlp import TextAnalyzer
from ..report import Report
from ..trace import Trace
from ._grid import Cell, FaultGrid, Row, rates
from ._mutations import MUTATIONS, MutationInput

ContinueFrom = Callable[[Trace, str, str], Trace]
FlaggedBy = Callable[[Trace], Sequence[str]]


def flagged_by_label(trace: Trace) -> list[str]:
    """The agents a run says flagged a problem: ``metadata.labels["flagged_by"]``, a list of names."""
    value = trace.metadata.labels.get("flagged_by")
    return sorted({str(v) for v in value}) if isinstance(value, list) else []


def _seen(edge: Edge, field: str) -> list[str]:
    """One field (``result`` or ``arguments``) of every tool call the edge's source saw."""
    return [text for item in edge.upstream if item.tool_call is not None for _, name, text in item.fields()
            if name == field]


def _failing(report: Report, trace_id: str, fail_on: set[str]) -> Counter[str]:
    """Failing findings of one trace, keyed without the trace id (so two runs compare): the
    deterministic ones with a status the gate fails on, and the semantic graders' failures."""
    prefix = trace_id + "/"
    found = [(f.check, f.verdict, f.edge_id) for f in report.deterministic.findings if f.status in fail_on]
    found += [(f.grader, f.verdict, f.edge_id) for f in report.semantic.findings if f.status == "fail"]
    return Counter(f"{name} {verdict} @ {edge.removeprefix(prefix)}" for name, verdict, edge in found
                   if edge.startswith(prefix))


def inject_faults(trace: Trace, continue_from: ContinueFrom, config: AuditConfig | None = None, *,
                  mutations: Sequence[str] | None = None, edges: Sequence[str] | None = None, seed: int = 0,
                  flagged_by: FlaggedBy = flagged_by_label, analyzer: TextAnalyzer | None = None) -> FaultGrid:
    """The grid of ``trace``'s edges by ``mutations`` (default: all of ``MUTATIONS``)."""
    config = config or AuditConfig()
    names = list(mutations or MUTATIONS)
    unknown = [n for n in names if n not in MUTATIONS]
    if unknown:
        from ..errors import UsageError

        raise UsageError(f"unknown mutations {unknown}; known: {sorted(MUTATIONS)}")
    chosen = [e for e in build_edges(trace, config.evidence.capture).edges if edges is None or e.id in edges]
    pending: dict[tuple[str, str], tuple[str, Trace | None, str | None]] = {}
    for edge in chosen:
        for name in names:
            rng = random.Random(f"{seed}:{edge.id}:{name}")
            mutated = MUTATIONS[name](MutationInput(edge.message.content, _seen(edge, "result"), _seen(edge, "arguments"), rng))
            if mutated is None or mutated == edge.message.content:
                continue
            try:
                continued: object = continue_from(trace, edge.id, mutated)
            except Exception as err:  # noqa: BLE001 - the user's pipeline failing is a cell's error, not ours
                pending[(edge.id, name)] = (mutated, None, f"continue_from raised {type(err).__name__}: {err}")
                continue
            pending[(edge.id, name)] = (mutated, continued, None) if isinstance(continued, Trace) else (
                mutated, None, f"continue_from returned a {type(continued).__name__}, not a Trace")
    runs = {key: run.model_copy(update={"trace_id": f"{trace.trace_id}~{key[0]}~{key[1]}"})
            for key, (_, run, _) in pending.items() if run is not None}
    report = audit_traces([trace, *runs.values()], config, origin=f"<faults of {trace.trace_id}>", analyzer=analyzer)
    fail_on: set[str] = set(config.gate.fail_on)
    audited = {t.trace_id for t in report.traces}
    baseline = _failing(report, trace.trace_id, fail_on) if trace.trace_id in audited else None
    score = trace.metadata.score
    rows = []
    for edge in chosen:
        cells = []
        for name in names:
            if (edge.id, name) not in pending:
                cells.append(Cell(mutation=name, status="not_applicable"))
                continue
            mutated, _, error = pending[(edge.id, name)]
            run = runs.get((edge.id, name))
            if run is None or baseline is None or run.trace_id not in audited:
                why = error or ("the original trace could not be audited" if baseline is None
                                else "the continued run could not be audited")
                cells.append(Cell(mutation=name, status="error", mutated=mutated, error=why))
                continue
            found = sorted((_failing(report, run.trace_id, fail_on) - baseline).elements())
            agents = sorted(flagged_by(run))
            new_score = run.metadata.score
            delta = None if new_score is None or score is None else round(new_score - score, 6)
            cells.append(Cell(mutation=name, status="caught" if agents or found else "missed", agents=agents,
                              checks=list(dict.fromkeys(found)), score=new_score, score_delta=delta, mutated=mutated))
        rows.append(Row(edge_id=edge.id, route=f"{edge.source}->{edge.destination}", cells=cells))
    silent = [f"{r.edge_id} x {c.mutation}" for r in rows for c in r.cells
              if c.status == "missed" and (c.score_delta is None or c.score_delta >= 0)]
    return FaultGrid(trace_id=trace.trace_id, score=score, mutations=names, rows=rows, rates=rates(rows, names),
                     silent=silent)
