"""``golden check``: grade each case's own trace, and audit it.

The answer of a case is every message its answer agents sent (default: every agent that is not a
human or a tool), each graded by its event id. The case's trace is audited with the normal
passes, under the case id as its trace id (so two cases may share a trace file); its edges pass
when none has status ``fail`` after the gate.
"""

from __future__ import annotations

from collections.abc import Sequence

from .._audit import audit_traces
from ..config import AuditConfig
from ..errors import TraceError, UsageError
from ..nlp import TextAnalyzer
from ..report import Report
from ..trace import Limits, Message, Trace, load_paths
from ._grade import AnswerText, behaviours, containment
from ._model import GoldenCase, Goldens
from ._report import CaseResult, EdgeResult, GoldenReport, case_status, summarise
from ._stance import StanceReader


def case_trace(goldens: Goldens, case: GoldenCase, config: AuditConfig) -> Trace:
    """The case's trace: inline, or the one trace in its file, read within ``config.limits``.
    Raises ``TraceError`` (or ``UsageError`` for a missing file)."""
    if isinstance(case.trace, Trace):
        return case.trace
    path = goldens.resolve(case.trace)
    limits = Limits(max_file_bytes=config.limits.max_file_bytes, max_text_chars=config.limits.max_text_chars,
                    max_name_chars=config.limits.max_name_chars)
    loaded = load_paths([path], limits=limits)
    if loaded.errors:
        raise loaded.errors[0]
    if len(loaded.traces) != 1:
        raise TraceError(str(path), f"a golden case needs exactly one trace; the file holds {len(loaded.traces)}")
    return loaded.traces[0].trace


def answer_texts(case: GoldenCase, trace: Trace) -> list[AnswerText]:
    kinds = {a.name: a.kind for a in trace.agents}
    chosen = set(case.answer_from) if case.answer_from is not None else None
    return [AnswerText(e.id, e.content) for e in trace.events if isinstance(e, Message) and e.content.strip()
            and (e.sender in chosen if chosen is not None else kinds.get(e.sender, "agent") == "agent")]


def edge_result(report: Report, trace_id: str) -> EdgeResult:
    if trace_id not in {t.trace_id for t in report.traces}:
        why = next((e.reason for e in report.input_errors if e.where and trace_id in e.where), "it was not audited")
        return EdgeResult(passed=None, error=why)
    edges = [e for e in report.edges if e.trace_id == trace_id]
    failing = [e.id for e in edges if e.status == "fail"]
    failing_set = set(failing)
    findings = [f"{f.edge_id}: {f.check} {f.verdict}" for f in report.deterministic.findings
                if f.edge_id in failing_set and f.status == "fail"]
    return EdgeResult(passed=not failing, edges=len(edges), failing=failing, findings=findings)


def check_goldens(goldens: Goldens, config: AuditConfig, *, cases: Sequence[str] | None = None,
                  analyzer: TextAnalyzer | None = None) -> GoldenReport:
    """Grade every case (or the ``cases`` named) of ``goldens`` on its own trace."""
    reader = StanceReader(config.nlp.pipeline)
    chosen = [c for c in goldens.cases if cases is None or c.id in cases]
    traces: dict[str, Trace] = {}
    problems: dict[str, str] = {}
    for case in chosen:
        try:
            traces[case.id] = case_trace(goldens, case, config).model_copy(update={"trace_id": case.id})
        except (TraceError, UsageError) as err:
            problems[case.id] = f"the case's trace cannot be read: {err}"
    report = audit_traces(list(traces.values()), config, origin=str(goldens.path or "goldens"), analyzer=analyzer)
    results = []
    for case in chosen:
        if case.id in problems:
            results.append(CaseResult(id=case.id, status="unmeasured", passed=False, containment=None, behaviours=[],
                                      edges=None, unmeasured=problems[case.id]))
            continue
        trace = traces[case.id]
        answer = answer_texts(case, trace)
        edges = edge_result(report, case.id)
        why = None if answer else "the trace has no message from the answer agents"
        kept = containment(case, answer, reader) if answer else None
        done = behaviours(case, answer, reader) if answer else []
        parts = [kept.passed if kept else None, *(b.passed for b in done), edges.passed]
        status = case_status(parts, why)
        results.append(CaseResult(id=case.id, status=status, passed=status == "pass", containment=kept,
                                  behaviours=done, edges=edges, unmeasured=why))
    return GoldenReport(mode="check", goldens=str(goldens.path) if goldens.path else None,
                        summary=summarise(results), cases=results)
