"""Running the self-test: audit each trace as it is (the baseline), then once per (edge,
mutation) with that one message mutated, through the public ``audit`` on a native copy of the
trace, and read off which check caught each mutation.

The audit runs deterministic checks only (semantic grading and sufficiency off): a mutated
message has no cassette, and the self-test asks whether the checks themselves notice. One
analyzer is shared by every run, so each unchanged message is parsed once; the mutated message
has a new id and is parsed afresh.
"""

from __future__ import annotations

import random
import tempfile
from collections.abc import Callable, Iterable
from dataclasses import replace
from pathlib import Path

from .._audit import audit
from ..checks import Finding, Quote
from ..config import AuditConfig
from ..edges import Edge, build_edges
from ..nlp import TextAnalyzer
from ..trace import Limits, Trace, load_paths
from ._result import Cell, Rate, SelftestResult
from ._splice import Splice, apply, mutated_id, verify
from .mutations import CLAIMS, CONSTRAINTS, MUTATIONS, Plan, Target, disjoint

FLAGGED = ("fail", "warn")
#: Audits of one (edge, mutation) at most: the first, then one more each time the re-audit finds
#: the constraint still kept by a sentence the mutation had not touched yet.
MAX_ROUNDS = 3


def _deterministic(config: AuditConfig) -> AuditConfig:
    return config.model_copy(update={
        "semantic": config.semantic.model_copy(update={"mode": "off"}),
        "sufficiency": config.sufficiency.model_copy(update={"select": ["off"]})})


def _audit_one(trace: Trace, folder: Path, config: AuditConfig, analyzer: TextAnalyzer) -> list[Finding] | str:
    """The findings of one trace audited from a native file, or why it could not be audited."""
    path = folder / "trace.json"
    path.write_text(trace.model_dump_json(by_alias=True, exclude_none=True), encoding="utf-8")
    report = audit([path], config, format="native", analyzer=analyzer)
    if report.input_errors:
        return "; ".join(f"{e.kind}: {e.reason}" for e in report.input_errors)
    return report.deterministic.findings


def _same_span(a: Quote, b: Quote) -> bool:
    return (a.event_id, a.field, a.start, a.end) == (b.event_id, b.field, b.start, b.end)


def _label(finding: Finding) -> str:
    return f"{finding.check}:{finding.verdict}" + ("" if finding.status == "fail" else f" ({finding.status})")


def _judge(plan: Plan, found: list[Finding], new_id: str) -> tuple[str | None, str, list[Quote]]:
    """(what caught it, or None; the reason when nothing did; the mutant's sentences still
    keeping the constraint)."""
    kept: list[Quote] = []
    if plan.constraint is not None:
        constraint = plan.constraint
        about = [f for f in found if f.check.startswith(CONSTRAINTS) and f.upstream is not None
                 and _same_span(f.upstream, constraint)]
        reason = "; ".join(f"{f.verdict}: {f.summary}" for f in about) or "no finding on the constraint"
        kept = [q for f in about if f.verdict == "kept" for q in f.handoff if q.event_id == new_id]
    else:
        spans = [(s.field, s.start, s.start + len(s.text)) for s in plan.splices]
        about = [f for f in found if f.check.startswith(CLAIMS) and any(
            q.event_id == new_id and q.field == field and q.start < end and start < q.end
            for q in f.handoff for field, start, end in spans)]
        reason = "; ".join(f"{f.verdict}: {f.summary}" for f in about) or "no claim found in the mutated text"
    flagged = [f for f in about if f.status in FLAGGED]
    flagged.sort(key=lambda f: (f.status != "fail", f.check, f.verdict))
    return (_label(flagged[0]), "", []) if flagged else (None, reason, kept)


def _original(quote: Quote, splices: tuple[Splice, ...], message_id: str) -> Quote | None:
    """A quote of the mutant, placed in the original message; None when it touches a splice."""
    shift = 0
    for s in sorted((s for s in splices if s.field == quote.field), key=lambda s: s.start):
        start, end = s.start + shift, s.start + shift + len(s.text)
        if quote.start < max(end, start + 1) and start < quote.end:
            return None
        if end <= quote.start:
            shift += len(s.text) - (s.end - s.start)
    return Quote(message_id, quote.field, quote.start - shift, quote.end - shift, quote.text)


def _extended(plan: Plan, kept: list[Quote], message_id: str) -> Plan | None:
    """The plan with the sentences still keeping the constraint edited too, or None."""
    if plan.extend is None:
        return None
    more = disjoint([e for q in kept if (orig := _original(q, plan.splices, message_id)) is not None
                     for e in plan.extend(orig)], plan.splices)
    if not more:
        return None
    return replace(plan, splices=plan.splices + tuple(s for s, _ in more),
                   description=f"{plan.description}; then {', '.join(w for _, w in more)}")


def _carries(findings: list[Finding]) -> bool:
    return any(f.check.startswith((CONSTRAINTS, CLAIMS)) for f in findings)


def _test_edge(trace: Trace, edge: Edge, findings: list[Finding], seed: int, folder: Path, config: AuditConfig,
               analyzer: TextAnalyzer) -> list[Cell]:
    cells = []
    route = f"{edge.source}->{edge.destination}"
    for name, make_plan in MUTATIONS.items():
        target = Target(trace, edge, tuple(findings), random.Random(f"{seed}/{edge.id}/{name}"), analyzer)
        plan = make_plan(target)
        if isinstance(plan, str):
            cells.append(Cell(edge_id=edge.id, route=route, mutation=name, state="not_applicable", reason=plan))
            continue
        new_id = mutated_id(edge.message.id, name)
        mutant_edge = f"{trace.trace_id}/{new_id}->{edge.destination}"
        for _ in range(MAX_ROUNDS):
            mutant = apply(trace, edge.message.id, name, plan.splices)
            verify(trace, mutant, edge.message.id, name, plan.splices)
            result = _audit_one(mutant, folder, config, analyzer)
            if isinstance(result, str):
                caught, reason = None, f"the mutant could not be audited: {result}"
                break
            caught, reason, kept = _judge(plan, [f for f in result if f.edge_id == mutant_edge], new_id)
            bigger = None if caught else _extended(plan, kept, edge.message.id)
            if bigger is None:
                break
            plan = bigger
        if caught is None and edge.capture == "partial":
            reason += " (the source's capture is partial)"
        cells.append(Cell(edge_id=edge.id, route=route, mutation=name, state="caught" if caught else "missed",
                          caught_by=caught, mutant_edge_id=mutant_edge, description=plan.description,
                          reason=reason))
    return cells


def selftest(paths: Iterable[str | Path], config: AuditConfig, *, seed: int | None = None, format: str | None = None,
             analyzer: TextAnalyzer | None = None,
             progress: Callable[[int, int], None] | None = None) -> SelftestResult:
    """Mutate every edge that carries constraints or claims, one mutation at a time, re-audit,
    and say which check caught each mutation. Seeded: the same seed, traces and config give
    the same cells."""
    settings = config.selftest
    seed = settings.seed if seed is None else seed
    config = _deterministic(config)
    analyzer = analyzer or TextAnalyzer(config.nlp.pipeline, disable=config.nlp.disable)
    limits = Limits(max_file_bytes=config.limits.max_file_bytes, max_text_chars=config.limits.max_text_chars,
                    max_name_chars=config.limits.max_name_chars)
    loaded = load_paths(paths, format=format, limits=limits)
    errors = [f"{e.path}{':' + str(e.line) if e.line else ''}: {e.reason}" for e in loaded.errors]
    cells: list[Cell] = []
    edges = tested = 0
    with tempfile.TemporaryDirectory(prefix="edge-audit-selftest-") as tmp:
        folder = Path(tmp)
        for done, item in enumerate(loaded.traces, 1):
            trace = item.trace
            baseline = _audit_one(trace, folder, config, analyzer)
            if isinstance(baseline, str):
                errors.append(f"{item.path}: baseline audit failed: {baseline}")
                continue
            by_edge: dict[str, list[Finding]] = {}
            for finding in baseline:
                by_edge.setdefault(finding.edge_id, []).append(finding)
            for edge in build_edges(trace, config.evidence.capture).edges:
                edges += 1
                if _carries(by_edge.get(edge.id, [])):
                    tested += 1
                    cells += _test_edge(trace, edge, by_edge[edge.id], seed, folder, config, analyzer)
            if progress is not None:
                progress(done, len(loaded.traces))
    rates = {}
    for name in MUTATIONS:
        applied = [c for c in cells if c.mutation == name and c.state != "not_applicable"]
        caught = sum(1 for c in applied if c.state == "caught")
        rates[name] = Rate(applicable=len(applied), caught=caught, rate=caught / len(applied) if applied else None)
    return SelftestResult(seed=seed, floor=settings.floor, mutations=list(MUTATIONS), traces=len(loaded.traces),
                          edges=edges, edges_tested=tested, cells=cells, rates=rates, input_errors=errors)
