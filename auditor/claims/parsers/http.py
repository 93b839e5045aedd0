"""HTTP status codes in tool output: ``HTTP/1.1 503``, ``"status": 504``, ``status code 403``,
``GET /healthz 503``, and the bare code a ``curl -w '%{http_code}'`` prints. A claim's "403
Forbidden" or "returns 200" is compared with these."""

from __future__ import annotations

import re

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
