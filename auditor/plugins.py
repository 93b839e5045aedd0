"""Plugins: other packages add checks, graders, trace formats and model providers through entry
points (as simonw/llm's plugins do), one group each:

====================  =========================================================
``edge_audit.checks``     a module that calls ``auditor.checks.register_check``
``edge_audit.graders``    a module that calls ``auditor.graders.register_grader``
``edge_audit.formats``    a module that calls ``auditor.trace.formats.register_format``
``edge_audit.providers``  a module that calls ``auditor.graders.register_provider``
====================  =========================================================

A plugin's ``pyproject.toml``::

    [project.entry-points."edge_audit.checks"]
    shouting = "edge_audit_example"

Each registry loads its group the first time it is asked for a name or a list, so a plugin
costs nothing until then. A plugin that fails to load is a configuration error naming it.
"""

from __future__ import annotations

from importlib.metadata import entry_points
from typing import Literal

from .errors import ConfigError

Group = Literal["edge_audit.checks", "edge_audit.graders", "edge_audit.formats", "edge_audit.providers"]
GROUPS: tuple[Group, ...] = ("edge_audit.checks", "edge_audit.graders", "edge_audit.formats", "edge_audit.providers")
_loaded: set[str] = set()


def load_plugins(group: Group) -> list[str]:
    """Import every entry point of ``group`` (once per process); the names of those loaded now."""
    if group in _loaded:
        return []
    _loaded.add(group)
    names = []
    for point in entry_points(group=group):
        try:
            point.load()
        except Exception as err:  # a plugin's own failure, whatever it is, names the plugin
            raise ConfigError(f"plugin {point.name!r} ({point.value}, entry point group {group}) failed to "
                              f"load: {type(err).__name__}: {err}") from err
        names.append(point.name)
    return names


def reset() -> None:
    """Forget which groups were loaded (for tests that add a distribution)."""
    _loaded.clear()
