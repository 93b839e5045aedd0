"""The HTML report (``--html``): one self-contained file, no external asset.

A summary, then per route and per edge each deterministic finding with its upstream and handoff
side by side, the quoted spans highlighted in their message (``quoted_texts``; a quote whose
message could not be read again is shown alone); the semantic findings in their own section;
filters by status and verdict in plain JavaScript.

Trace text is untrusted. The template is rendered by jinja2's sandbox with autoescape on, so
every value is escaped; and a Content-Security-Policy allows only the page's own script and
style (by hash) and no network at all, so even markup that slipped through could not run or
fetch. The page is deterministic: no clock, and everything in report order or sorted.
"""

from __future__ import annotations

import base64
import hashlib
from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from functools import lru_cache
from importlib import resources
from typing import Any

from ..checks import STATUSES, Finding
from ..config import AuditConfig
from ..edges import Quote
from ..trace import Limits
from ._model import EdgeModel, Report
from ._sources import TextKey, quoted_texts
from ._text import VERDICT_ORDER, findings_by_edge, plural, sufficiency_line, usage_line, where

#: A field shorter than this is shown whole; a longer one as windows around its quoted spans.
WHOLE_CHARS = 1600
#: Characters of context either side of a quoted span in a long field.
CONTEXT_CHARS = 300


@dataclass(frozen=True)
class Piece:
    text: str
    mark: str = ""  # "", "quote" (what the verdict rests on), "mention", or "gap" (text left out)


@dataclass(frozen=True)
class Panel:
    label: str
    pieces: tuple[Piece, ...]
    whole: bool  # False: the quote alone, its message could not be read again


def _pieces(text: str, spans: list[tuple[int, int, str]]) -> tuple[Piece, ...]:
    """``text`` cut at the spans' ends, each piece marked with the strongest span covering it
    (``quote`` over ``mention``); a long text keeps only windows around its spans."""
    if len(text) <= WHOLE_CHARS:
        windows = [(0, len(text))]
    else:
        windows = []
        for start, end, _ in sorted(spans):
            lo, hi = max(0, start - CONTEXT_CHARS), min(len(text), end + CONTEXT_CHARS)
            if windows and lo <= windows[-1][1]:
                windows[-1] = (windows[-1][0], max(hi, windows[-1][1]))
            else:
                windows.append((lo, hi))
    out: list[Piece] = []
    for i, (lo, hi) in enumerate(windows):
        if lo > 0 and (i == 0 or lo > windows[i - 1][1]):
            out.append(Piece("…", "gap"))
        cuts = sorted({lo, hi, *(max(lo, min(hi, p)) for s, e, _ in spans for p in (s, e))})
        for a, b in zip(cuts, cuts[1:], strict=False):
            covering = {m for s, e, m in spans if s <= a and b <= e}
            mark = "quote" if "quote" in covering else "mention" if covering else ""
            out.append(Piece(text[a:b], mark))
    if windows and windows[-1][1] < len(text):
        out.append(Piece("…", "gap"))
    return tuple(out)


def _panel(quotes: list[tuple[Quote, str]], text: str | None) -> Panel:
    label = ", ".join(where(q) for q, mark in quotes if mark == "quote") or where(quotes[0][0])
    if text is None:
        return Panel(label, tuple(Piece(q.text, mark) for q, mark in quotes), False)
    return Panel(label, _pieces(text, [(q.start, q.end, mark) for q, mark in quotes]), True)


def _side(quotes: list[tuple[Quote, str]], edge: EdgeModel, texts: Mapping[TextKey, str]) -> list[Panel]:
    """One panel per quoted field, in the order the quotes come."""
    fields: dict[tuple[str, str], list[tuple[Quote, str]]] = {}
    for q, mark in quotes:
        fields.setdefault((q.event_id, q.field), []).append((q, mark))
    return [_panel(found, texts.get((edge.path, edge.trace_id, event_id, field)))
            for (event_id, field), found in fields.items()]


def _finding(f: Finding, edge: EdgeModel, texts: Mapping[TextKey, str]) -> dict[str, Any]:
    handoff = [(q, "quote") for q in f.handoff] + [(q, "mention") for q in f.mentions]
    return {"id": f.id, "check": f.check, "verdict": f.verdict, "status": f.status, "summary": f.summary,
            "upstream": _side([(f.upstream, "quote")], edge, texts) if f.upstream else [],
            "handoff": _side(handoff, edge, texts)}


def _masked_like_quotes(report: Report, texts: Mapping[TextKey, str]) -> dict[TextKey, str]:
    """``texts`` with every character masked that a (redacted) quote of the report masks, so a
    field never shows what its quote hides."""
    edges = {e.id: e for e in report.edges}
    out = dict(texts)
    for f in report.deterministic.findings:
        edge = edges.get(f.edge_id)
        if edge is None:
            continue
        for q in (*([f.upstream] if f.upstream else []), *f.handoff, *f.mentions):
            key = (edge.path, edge.trace_id, q.event_id, q.field)
            text = out.get(key)
            if text is None or len(text[q.start:q.end]) != len(q.text) or "*" not in q.text:
                continue
            span = "".join(m if m == "*" else c for c, m in zip(text[q.start:q.end], q.text, strict=True))
            out[key] = text[:q.start] + span + text[q.end:]
    return out


def _ordered(verdicts: Iterable[str]) -> list[str]:
    rank = {v: i for i, v in enumerate(VERDICT_ORDER)}
    return sorted(set(verdicts), key=lambda v: (rank.get(v, len(rank)), v))


def _routes(report: Report, texts: Mapping[TextKey, str]) -> tuple[list[dict[str, Any]], list[tuple[str, int]]]:
    """The routes with findings, in report order, each with its edges that have findings; and
    per route, how many edges had none."""
    grouped = findings_by_edge(report)
    routes: dict[tuple[str, str], dict[str, Any]] = {}
    quiet: dict[str, int] = {}
    for edge in report.edges:
        found = grouped.get(edge.id, [])
        if not found:
            name = f"{edge.source} → {edge.destination}"
            quiet[name] = quiet.get(name, 0) + 1
            continue
        route = routes.setdefault((edge.source, edge.destination),
                                  {"source": edge.source, "destination": edge.destination, "edges": []})
        route["edges"].append({"edge": edge, "findings": [_finding(f, edge, texts) for f in found]})
    return list(routes.values()), list(quiet.items())


@lru_cache(maxsize=1)
def _assets() -> tuple[str, str, str]:
    """The template, stylesheet and script, packaged under ``auditor/report/html/``."""
    folder = resources.files(__name__.rpartition(".")[0]).joinpath("html")

    def read(name: str) -> str:
        return folder.joinpath(name).read_text(encoding="utf-8")

    return read("report.html.jinja"), read("report.css"), read("report.js")


def _sha256(text: str) -> str:
    return "sha256-" + base64.b64encode(hashlib.sha256(text.encode("utf-8")).digest()).decode("ascii")


def to_html(report: Report, texts: Mapping[TextKey, str] | None = None) -> str:
    """The report as one HTML page. ``texts`` (``quoted_texts``) are the quoted fields whole;
    without them each quote is shown alone."""
    from jinja2 import StrictUndefined
    from jinja2.sandbox import SandboxedEnvironment

    template, css, script = _assets()
    env = SandboxedEnvironment(autoescape=True, undefined=StrictUndefined, keep_trailing_newline=True,
                               trim_blocks=True, lstrip_blocks=True)
    s = report.summary
    semantic = report.semantic
    routes, quiet = _routes(report, _masked_like_quotes(report, texts or {}))
    csp = (f"default-src 'none'; style-src '{_sha256(css)}'; script-src '{_sha256(script)}'; "
           "img-src 'none'; form-action 'none'; base-uri 'none'")
    return env.from_string(template).render(
        report=report, s=s, csp=csp, css=css, script=script,
        headline=f"{plural(s.traces, 'trace')}, {plural(s.edges, 'edge')}, {plural(s.failed_edges, 'failing edge')}, "
                 f"{plural(s.input_errors, 'unreadable input')}; exit code {s.exit_code}",
        routes=routes, quiet=quiet,
        statuses=[st for st in STATUSES if st in s.deterministic_by_status or st in s.semantic_by_status],
        verdicts=_ordered(f.verdict for f in report.deterministic.findings),
        semantic_verdicts=_ordered(f.verdict for f in semantic.findings),
        usage=usage_line(semantic) if semantic.ran else "",
        sufficiency=[sufficiency_line(r) for r in semantic.sufficiency],
        by_check=[(check, verdict, n) for check, counts in s.deterministic_by_check.items()
                  for verdict, n in sorted(counts.items())],
    )


def html_report(report: Report, config: AuditConfig | None = None, *, format: str | None = None,
                redact: bool = False) -> str:
    """``to_html`` of ``report`` (as audited, not redacted) with its quoted fields read again
    from the trace files under ``config``'s limits; with ``redact``, the report and the fields
    are masked alike."""
    limits = Limits(**(config or AuditConfig()).limits.model_dump())
    texts = quoted_texts(report, format=format, limits=limits, redact=redact)
    if redact:
        from ..redact import redact_report

        report = redact_report(report)
    return to_html(report, texts)
