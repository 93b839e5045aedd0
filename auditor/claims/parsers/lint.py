"""Linters and type checkers: ruff (``All checks passed!`` means 0 errors, ``Found N errors.``),
mypy (``Success: no issues found``, ``Found N errors in M files``), eslint (``✖ N problems``) and
tsc (``error TS2322``)."""

from __future__ import annotations

import re

from . import Reading, register

_CLEAN = re.compile(r"^(?:All checks passed!?|Success: no issues found.*)$", re.MULTILINE)
_ERRORS = re.compile(r"^(?:Found (\d+) errors?.*|✖ (\d+) problems? \((\d+) errors?.*|.*\berror TS\d+.*)$",
                    re.MULTILINE)


@register("lint")
def parse(text: str) -> Reading | None:
    bad = _ERRORS.search(text)
    if bad is not None:
        found = bad.group(1) or bad.group(3)
        counts = (("error", int(found)),) if found is not None else ()
        return Reading("lint", found == "0", False, counts, (bad.start(), bad.end()))
    clean = _CLEAN.search(text)
    if clean is not None:
        return Reading("lint", True, False, (("error", 0),), (clean.start(), clean.end()))
    return None
