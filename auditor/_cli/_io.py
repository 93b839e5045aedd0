"""Writing report files: whole or not at all."""

from __future__ import annotations

from pathlib import Path


def write_text(path: str | Path, text: str) -> None:
    """Write a report whole or not at all: a temporary file beside it, then renamed over it."""
    import os
    import tempfile

    from ..errors import UsageError

    path = Path(path)
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
        handle, temp = tempfile.mkstemp(dir=path.parent, prefix=f".{path.name}.", suffix=".tmp")
        try:
            with os.fdopen(handle, "w", encoding="utf-8", newline="") as out:
                out.write(text)
            mask = os.umask(0)
            os.umask(mask)
            os.chmod(temp, 0o666 & ~mask)
            os.replace(temp, path)
        except BaseException:
            Path(temp).unlink(missing_ok=True)
            raise
    except OSError as err:
        raise UsageError(f"cannot write {path}: {err.strerror or err}") from None
