"""CI job logs (``gh run view --log``, GitHub Actions): ``##[error]`` lines and ``Process completed
with exit code N``. A log describes the job, not the command that printed it: ``gh run view``
exits 0 while the run it shows failed, so for a log viewer these lines decide, not its exit code."""

from __future__ import annotations

import re

from . import Reading, register

_FAIL = re.compile(r"^.*(?:##\[error\]|Process completed with exit code [1-9]|Conclusion:\s*failure).*$",
                   re.MULTILINE | re.IGNORECASE)
_OK = re.compile(r"^.*(?:Conclusion:\s*success|completed successfully|\bsuccess$).*$", re.MULTILINE | re.IGNORECASE)


@register("ci")
def parse(text: str) -> Reading | None:
    fail = _FAIL.search(text)
    if fail is not None:
        return Reading("ci", False, False, (), (fail.start(), fail.end()))
    ok = _OK.search(text)
    if ok is not None:
        return Reading("ci", True, False, (), (ok.start(), ok.end()))
    return None
