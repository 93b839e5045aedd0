"""JUnit XML: one testsuite per trace, one testcase per (edge, check). A testcase fails
when any of its findings has a failing status; the message carries verdicts and quotes."""

from __future__ import annotations

import re
import xml.etree.ElementTree as ET

from ._model import Report
from ._text import finding_lines, findings_by_edge, route_gated, semantic_line, sufficiency_line


def to_junit(report: Report, fail_on: tuple[str, ...] = ("fail",), semantic_gate: bool = False,
             gate_routes: list[str] | None = None) -> str:
    """``semantic_gate``: semantic findings with status fail are JUnit failures (else they are
    reported as passing cases with their verdict in system-out, so CI shows them without
    failing on them). ``gate_routes``: only those routes' handoff findings are failures.
    A handoff (kind ``handoff``) is one testcase carrying its verdict and missing keys; a trace
    contract's rule (kind ``trace_rule``) is one testcase carrying its verdict."""
    root = ET.Element("testsuites", name="edge-audit")
    grouped = findings_by_edge(report)
    suites: dict[str, ET.Element] = {}
    totals = {"tests": 0, "failures": 0, "errors": 0, "skipped": 0}
    for edge in report.edges:
        suite = suites.get(edge.trace_id)
        if suite is None:
            suite = ET.SubElement(root, "testsuite", name=edge.trace_id, file=edge.path)
            suites[edge.trace_id] = suite
        checks = report.checks if edge.kind == "message" else list(
            dict.fromkeys(f.check for f in grouped.get(edge.id, [])))
        for check in checks:
            findings = [f for f in grouped.get(edge.id, []) if f.check == check]
            name = f"{edge.id} [{check}]"
            if edge.kind == "handoff" and findings:
                boundary = next((f for f in findings if f.verdict != "unpermitted_key"), findings[0])
                missing = boundary.details.get("missing_keys") or []
                listed = ", ".join(str(k) for k in missing) if isinstance(missing, list) else ""
                name = f"{edge.id} [{boundary.verdict}" + (f": {listed}]" if listed else "]")
            elif edge.kind == "trace_rule" and findings:
                name = f"{edge.id} [{findings[0].verdict}]"
            case = ET.SubElement(suite, "testcase", classname=f"{edge.trace_id}.{edge.source}->{edge.destination}",
                                 name=name)
            totals["tests"] += 1
            failed = [f for f in findings if f.status in fail_on and route_gated(f.details, gate_routes)]
            if failed:
                totals["failures"] += 1
                message = "; ".join(f"{f.verdict}: {f.summary}" for f in failed)
                body = "\n\n".join("\n".join([f"[{f.verdict}] {f.summary}", *finding_lines(f)]) for f in failed)
                ET.SubElement(case, "failure", message=message, type="edge-audit").text = body
            elif findings and all(f.status == "unmeasured" for f in findings):
                totals["skipped"] += 1
                reason = (f"{findings[0].verdict}: {findings[0].summary}" if edge.kind == "trace_rule"
                          else "needs the semantic grader")
                ET.SubElement(case, "skipped", message=f"unmeasured: {reason}"[:500])
            elif findings:
                ET.SubElement(case, "system-out").text = "\n".join(f"[{f.verdict}] {f.summary}" for f in findings)
    if report.semantic.findings:
        suite = ET.SubElement(root, "testsuite", name="edge-audit.semantic")
        for f in report.semantic.findings:
            case = ET.SubElement(suite, "testcase", classname=f"semantic.{f.grader}", name=f.finding_id)
            totals["tests"] += 1
            text = semantic_line(f)
            if f.status == "fail" and semantic_gate:
                totals["failures"] += 1
                ET.SubElement(case, "failure", message=f"{f.verdict}: {f.reason}"[:500], type="edge-audit.semantic").text = text
            elif f.status == "unmeasured":
                totals["skipped"] += 1
                ET.SubElement(case, "skipped", message=f"unmeasured: {f.unmeasured_reason}")
            else:
                ET.SubElement(case, "system-out").text = text
    if report.semantic.sufficiency:
        suite = ET.SubElement(root, "testsuite", name="edge-audit.sufficiency")
        for r in report.semantic.sufficiency:
            case = ET.SubElement(suite, "testcase", classname=f"sufficiency.{r.route}", name=f"{r.edge_id} [{r.verdict}]")
            totals["tests"] += 1
            if r.verdict in ("leaked_context", "broken") and semantic_gate:
                totals["failures"] += 1
                ET.SubElement(case, "failure", message=f"{r.verdict}: {r.reason}"[:500],
                              type="edge-audit.sufficiency").text = sufficiency_line(r)
            elif r.verdict == "inconclusive":
                totals["skipped"] += 1
                ET.SubElement(case, "skipped", message=f"inconclusive: {r.reason}"[:500])
            else:
                ET.SubElement(case, "system-out").text = sufficiency_line(r)
    for error in report.input_errors:
        suite = ET.SubElement(root, "testsuite", name=error.path, file=error.path)
        case = ET.SubElement(suite, "testcase", classname="edge-audit.input", name=f"load {error.path}")
        ET.SubElement(case, "error", message=error.reason, type=error.kind).text = (
            f"{error.path}{':' + str(error.line) if error.line else ''}: {error.reason}")
        totals["tests"] += 1
        totals["errors"] += 1
    for key, value in totals.items():
        root.set(key, str(value))
    for suite in root.iter("testsuite"):
        cases = list(suite.iter("testcase"))
        suite.set("tests", str(len(cases)))
        suite.set("failures", str(sum(1 for c in cases if c.find("failure") is not None)))
        suite.set("errors", str(sum(1 for c in cases if c.find("error") is not None)))
        suite.set("skipped", str(sum(1 for c in cases if c.find("skipped") is not None)))
    _xml_safe(root)
    ET.indent(root)
    return '<?xml version="1.0" encoding="utf-8"?>\n' + ET.tostring(root, encoding="unicode") + "\n"


#: Characters XML 1.0 cannot hold at all (NUL, most C0 controls, lone surrogates, U+FFFE/FFFF).
_NOT_XML = re.compile("[^\t\n\r\x20-\ud7ff\ue000-\ufffd\U00010000-\U0010ffff]")


def _xml_safe(root: ET.Element) -> None:
    """Replace what XML cannot hold by U+FFFD in every text and attribute (trace text may have it)."""
    for element in root.iter():
        if element.text:
            element.text = _NOT_XML.sub("\ufffd", element.text)
        for key, value in element.attrib.items():
            element.set(key, _NOT_XML.sub("\ufffd", value))
