"""The package boundaries, read from the code (ast): no import circle between the modules of
``auditor`` (imports inside functions count too), and no module importing a private module or
name (``_x``) of another package; each package re-exports what others may use from its
``__init__``."""

from __future__ import annotations

import ast
from collections.abc import Iterator
from pathlib import Path

PACKAGE = Path(__file__).resolve().parents[1] / "auditor"


def _module(path: Path) -> str:
    parts = list(path.relative_to(PACKAGE.parent).with_suffix("").parts)
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


MODULES = {_module(p): p for p in PACKAGE.rglob("*.py")}


def _imports(name: str) -> Iterator[tuple[str, list[str]]]:
    """(imported module, names taken from it) for every import of ``auditor`` in module ``name``."""
    path = MODULES[name]
    package = name if path.name == "__init__.py" else name.rpartition(".")[0]
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.Import):
            yield from ((a.name, []) for a in node.names if a.name.split(".")[0] == "auditor")
        elif isinstance(node, ast.ImportFrom):
            if node.level:
                base = package.split(".")[: len(package.split(".")) - node.level + 1]
                target = ".".join(base + ([node.module] if node.module else []))
            else:
                target = node.module or ""
            if target.split(".")[0] == "auditor":
                yield target, [a.name for a in node.names]


def _edges(name: str) -> set[str]:
    out = set()
    for target, names in _imports(name):
        submodules = [f"{target}.{n}" for n in names if f"{target}.{n}" in MODULES]
        out.update(submodules)
        if len(submodules) < len(names) or not names:
            out.add(target)
    return {t for t in out if t in MODULES and t != name}


def _circles() -> list[list[str]]:
    """The strongly connected components of more than one module (Tarjan)."""
    graph = {m: _edges(m) for m in MODULES}
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    found: list[list[str]] = []

    def visit(v: str) -> None:
        index[v] = low[v] = len(index)
        stack.append(v)
        for w in graph[v]:
            if w not in index:
                visit(w)
                low[v] = min(low[v], low[w])
            elif w in stack:
                low[v] = min(low[v], index[w])
        if low[v] == index[v]:
            component = []
            while True:
                w = stack.pop()
                component.append(w)
                if w == v:
                    break
            if len(component) > 1:
                found.append(sorted(component))

    for m in sorted(graph):
        if m not in index:
            visit(m)
    return found


def _owner(target: str) -> str | None:
    """The package that owns the first private part of ``target`` (None: nothing private)."""
    parts = target.split(".")
    for i, part in enumerate(parts):
        if part.startswith("_") and not part.startswith("__"):
            return ".".join(parts[:i])
    return None


def test_no_import_circles() -> None:
    assert _circles() == []


def test_no_module_imports_another_packages_private_modules_or_names() -> None:
    leaks = []
    for name in sorted(MODULES):
        for target, names in _imports(name):
            for full in [target, *(f"{target}.{n}" for n in names)]:
                owner = _owner(full)
                if owner is not None and not (name == owner or name.startswith(owner + ".")):
                    leaks.append(f"{name} -> {full}")
    assert leaks == []


def test_the_walker_sees_a_circle_and_a_leak() -> None:
    """The walker itself: the moved OTLP exporter imports the edges, which import the traces."""
    assert "auditor.edges" in _edges("auditor.integrations.otlp_export")
    assert _owner("auditor.nlp._text.words") == "auditor.nlp"
    assert _owner("auditor.nlp.words") is None
