"""Code execution and builds: AG2/AutoGen ``exitcode: N (execution succeeded|failed)`` lines (the
code's own exit status, decisive), Python tracebacks, and build banners (``BUILD SUCCESSFUL``,
``BUILD FAILED``, ``npm ERR!``)."""

from __future__ import annotations

import re

from . import Reading, register

_EXITCODE = re.compile(r"exitcode:\s*(-?\d+)\s*\(execution (?:succeeded|failed)\)", re.IGNORECASE)
_FAIL = re.compile(r"^(?:Traceback \(most recent call last\).*|BUILD FAILED.*|npm ERR!.*)$", re.MULTILINE)
_OK = re.compile(r"^BUILD SUCCESSFUL.*$", re.MULTILINE)


@register("execution")
def parse(text: str) -> Reading | None:
    exitcode = _EXITCODE.search(text)
    if exitcode is not None:
        code = int(exitcode.group(1))
        return Reading("execution", code == 0, False, (), (exitcode.start(), exitcode.end()), code)
    fail = _FAIL.search(text)
    if fail is not None:
        return Reading("execution", False, False, (), (fail.start(), fail.end()))
    ok = _OK.search(text)
    if ok is not None:
        return Reading("execution", True, False, (), (ok.start(), ok.end()))
    return None
