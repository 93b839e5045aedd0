"""The defaults that ship with edge-audit: the rubrics, the prompts and the config written out.

One copy lives in git, in the project's top-level ``rubrics/``, ``prompts/`` and ``config/``
folders. ``setup.py`` maps those folders into the wheel as ``auditor/_data/<kind>/``, so an
installed edge-audit carries them; a source checkout has no ``auditor/_data`` and reads the
top-level folders themselves.

A project's own folders come first: ``semantic.rubrics_dir`` / ``prompts_dir`` when set, else
``rubrics/`` and ``prompts/`` in the working directory. A file the project lacks is taken from
the packaged defaults, and every semantic finding names the file it used (``rubric.file``,
``rubric.prompt_file``, ``rubric.origin``).
"""

from __future__ import annotations

from pathlib import Path
from typing import Literal

Kind = Literal["rubrics", "prompts", "config"]
KINDS: tuple[Kind, ...] = ("rubrics", "prompts", "config")
#: Where the wheel puts the defaults (``setup.py``: ``auditor._data.<kind>``).
PACKAGED = Path(__file__).resolve().parent / "_data"
#: The source checkout, for a checkout or an editable install.
CHECKOUT = Path(__file__).resolve().parents[1]


def packaged_dir(kind: Kind) -> Path:
    """The shipped folder of ``kind``: inside the installed package, else the checkout's own."""
    inside = PACKAGED / kind
    return inside if inside.is_dir() else CHECKOUT / kind


def search_path(kind: Kind, project: Path | None) -> tuple[Path, ...]:
    """The folders searched for a file of ``kind``, first match wins: the project's (``project``,
    else ``<cwd>/<kind>``), then the packaged defaults."""
    first = project if project is not None else Path.cwd() / kind
    shipped = packaged_dir(kind)
    return (first,) if first.resolve() == shipped.resolve() else (first, shipped)


def origin(path: Path) -> Literal["project", "packaged"]:
    """Whether ``path`` is one of the packaged defaults or a project's own file."""
    resolved = path.resolve()
    return "packaged" if any(resolved.is_relative_to(packaged_dir(k).resolve()) for k in KINDS) else "project"
