"""Tool-output parsers, one module per tool family, registered by family name.

Each parser reads a tool's output text and, when it recognises its family's output, returns a
``Reading``: the outcome it states (``passed``), whether that outcome is *decisive* (a failure
count beats an exit code of 0; a bare marker only speaks when no exit code or status was
recorded), counts, and the span of the line that said so.

Families: ``tests`` (pytest, jest/vitest, unittest, go test, cargo test summaries), ``lint``
(ruff, mypy, eslint, tsc messages), ``execution`` (AG2/AutoGen ``exitcode: N`` lines, tracebacks,
build tool banners), ``ci`` (job logs: ``##[error]``, ``Process completed with exit code N``).
``http`` (status codes) is read separately by ``http_statuses``, since a status is a value a
claim can name, not a pass or a fail.
"""

from . import runners  # registers the tests and lint parsers
from ._registry import PARSERS, Reading, read, register
from .logs import http_statuses  # and the execution and ci parsers

__all__ = ["PARSERS", "Reading", "http_statuses", "read", "register", "runners"]
