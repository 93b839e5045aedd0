"""Run logs: code execution, CI jobs and HTTP responses.

Execution and builds: AG2/AutoGen ``exitcode: N (execution succeeded|failed)`` lines (the
code's own exit status, decisive), Python tracebacks, and build banners (``BUILD SUCCESSFUL``,
``BUILD FAILED``, ``npm ERR!``).

CI job logs (``gh run view --log``, GitHub Actions): ``##[error]`` lines and ``Process completed
with exit code N``. A log describes the job, not the command that printed it: ``gh run view``
exits 0 while the run it shows failed, so for a log viewer these lines decide, not its exit code.

HTTP status codes in tool output: ``HTTP/1.1 503``, ``"status": 504``, ``status code 403``,
``GET /healthz 503``, and the bare code a ``curl -w '%{http_code}'`` prints. A claim's "403
Forbidden" or "returns 200" is compared with these.
"""

from __future__ import annotations

import re

from ._registry import Reading, register

_EXITCODE = re.compile(r"exitcode:\s*(-?\d+)\s*\(execution (?:succeeded|failed)\)", re.IGNORECASE)
_EXEC_FAIL = re.compile(r"^(?:Traceback \(most recent call last\).*|BUILD FAILED.*|npm ERR!.*)$", re.MULTILINE)
_EXEC_OK = re.compile(r"^BUILD SUCCESSFUL.*$", re.MULTILINE)


@register("execution")
def parse_execution(text: str) -> Reading | None:
    exitcode = _EXITCODE.search(text)
    if exitcode is not None:
        code = int(exitcode.group(1))
        return Reading("execution", code == 0, False, (), (exitcode.start(), exitcode.end()), code)
    fail = _EXEC_FAIL.search(text)
    if fail is not None:
        return Reading("execution", False, False, (), (fail.start(), fail.end()))
    ok = _EXEC_OK.search(text)
    if ok is not None:
        return Reading("execution", True, False, (), (ok.start(), ok.end()))
    return None


_CI_FAIL = re.compile(r"^.*(?:##\[error\]|Process completed with exit code [1-9]|Conclusion:\s*failure).*$",
                   re.MULTILINE | re.IGNORECASE)
_CI_OK = re.compile(r"^.*(?:Conclusion:\s*success|completed successfully|\bsuccess$).*$", re.MULTILINE | re.IGNORECASE)


@register("ci")
def parse_ci(text: str) -> Reading | None:
    fail = _CI_FAIL.search(text)
    if fail is not None:
        return Reading("ci", False, False, (), (fail.start(), fail.end()))
    ok = _CI_OK.search(text)
    if ok is not None:
        return Reading("ci", True, False, (), (ok.start(), ok.end()))
    return None


_IN_TEXT = re.compile(
    r"(?:HTTP/\d(?:\.\d)?\s+|\"?(?:status|status_code|code|http_code|statusCode)\"?\s*[:=]\s*\"?|"
    r"status(?: code)?\s+|\b(?:GET|POST|PUT|PATCH|DELETE|HEAD)\s+\S+\s+)(?P<code>[1-5]\d\d)\b", re.IGNORECASE)
_BARE_LINE = re.compile(r"^(?P<code>[1-5]\d\d)\b", re.MULTILINE)


def http_statuses(text: str, command: str = "") -> list[tuple[int, int, int]]:
    """(code, start, end) of every status code the output states. Bare codes at the start of a
    line count only when the command asked curl for them (``%{http_code}``)."""
    out = [(int(m.group("code")), m.start("code"), m.end("code")) for m in _IN_TEXT.finditer(text)]
    if "http_code" in command:
        out.extend((int(m.group("code")), m.start("code"), m.end("code")) for m in _BARE_LINE.finditer(text))
    return sorted(set(out), key=lambda s: s[1])
