"""The maintenance commands: ``rubrics`` (list, check and update the lock), ``cassettes
unused`` and ``contracts lint``, plus the ``run`` flags that override the semantic config."""

from __future__ import annotations

import argparse
from typing import Any


def add_semantic_commands(commands: Any) -> None:
    rubrics = commands.add_parser("rubrics", help="list rubrics with versions and hashes; check or update the lock")
    rubrics.add_argument("--config", help="YAML config naming rubrics_dir / prompts_dir")
    action = rubrics.add_mutually_exclusive_group()
    action.add_argument("--check-lock", action="store_true",
                        help="exit 1 when a rubric or prompt changed without a version bump, or is not locked")
    action.add_argument("--update-lock", action="store_true",
                        help="lock rubrics not locked yet (a changed, locked rubric is refused: bump its version)")

    cassettes = commands.add_parser("cassettes", help="cassette maintenance")
    sub = cassettes.add_subparsers(dest="cassettes_command", required=True, metavar="ACTION")
    unused = sub.add_parser("unused", help="replay PATHS offline (graders, and sufficiency on every edge) and list "
                                           "the cassettes no audit of them used")
    unused.add_argument("paths", nargs="+", help="the traces whose cassettes are kept (examples, test fixtures)")
    unused.add_argument("--config", help="YAML config (model, graders, rubrics) the cassettes were recorded with")
    unused.add_argument("--cassettes", metavar="DIR", help="cassette folder (default: ./cassettes)")
    unused.add_argument("--delete", action="store_true", help="delete the unused cassettes")

    contracts = commands.add_parser("contracts", help="handoff contract maintenance")
    csub = contracts.add_subparsers(dest="contracts_command", required=True, metavar="ACTION")
    lint = csub.add_parser("lint", help="check contract files and their fixtures")
    lint.add_argument("folder", nargs="?", default=None,
                      help="contracts folder (default: config/contracts of the project, the nearest folder at or "
                           "above the working directory holding config/edge-audit.yaml)")
    lint.add_argument("--fixtures", nargs="*", default=[], metavar="PATH",
                      help="fixture traces to check too (migration fixtures are always checked)")


def semantic_overrides(args: argparse.Namespace) -> dict[str, Any]:
    return {"mode": args.llm, "model": args.model, "api_base": args.api_base, "temperature": args.temperature,
            "concurrency": args.concurrency, "timeout": args.timeout, "cassettes_dir": args.cassettes,
            "cache_dir": args.cache_dir, "cache": False if args.no_cache else None, "max_cost": args.max_cost}


def run_semantic_command(args: argparse.Namespace) -> int:
    from ..config import load_config

    if args.command == "contracts":
        return _lint_contracts(args.folder, args.fixtures)
    config = load_config(args.config)
    if args.command == "rubrics":
        return _rubrics(config, args.check_lock, args.update_lock)
    return _unused_cassettes(config, args)


def _rubrics(config: Any, check: bool, update: bool) -> int:
    from ..errors import UsageError
    from ..graders import (
        load_rubric,
        lock_problems,
        make_grader,
        read_lock,
        rubric_dirs,
        rubric_names,
        write_lock,
    )
    from ..sufficiency import SufficiencyReview

    rubrics_dirs, prompts_dirs = rubric_dirs(config)
    graders = {g.rubric: make_grader(g.name, g.options) for g in config.semantic.graders}
    schemas = {name.rsplit(".v", 1)[0]: g.output.model_json_schema() for name, g in graders.items()}
    schemas[config.sufficiency.rubric.rsplit(".v", 1)[0]] = SufficiencyReview.model_json_schema()
    in_use = {*graders, config.sufficiency.rubric}
    rubrics = []
    for name in rubric_names(rubrics_dirs):
        rid = name.rsplit(".v", 1)[0]
        if rid not in schemas:
            print(f"{name}: no configured grader uses rubric id {rid!r}; skipped")
            continue
        rubrics.append(load_rubric(name, rubrics_dirs, prompts_dirs, schemas[rid]))
    if update:
        project = rubrics_dirs[0]
        if not project.is_dir():
            raise UsageError(f"no rubrics folder at {project}: the packaged rubrics have their own lock")
        print(f"wrote {write_lock(project, [r for r in rubrics if r.path.parent == project])}")
        return 0
    # Each rubric is checked against the lock of the folder it came from.
    lock = {r.name: h for r in rubrics for name, h in read_lock(r.path.parent).items() if name == r.name}
    for r in rubrics:
        state = "locked" if lock.get(r.name) == r.hash else "CHANGED" if r.name in lock else "unlocked"
        used = " (in use)" if r.name in in_use else ""
        print(f"{r.name:28} {r.spec.grader:36} {r.hash}  {state}{used}  {r.ref.origin}")
    problems = lock_problems(rubrics, lock)
    if check and problems:
        for problem in problems:
            print(f"edge-audit: lock: {problem}")
        return 1
    return 0


def _unused_cassettes(config: Any, args: argparse.Namespace) -> int:
    from .._audit import audit
    from ..config import with_overrides
    from ..errors import UsageError
    from ..graders import Cassettes, cassettes_dir

    config = with_overrides(config, {}, {"mode": "replay", "cassettes_dir": args.cassettes}, sufficiency=["all"])
    used: set[str] = set()
    audit(args.paths, config, cassettes_used=used)
    every = Cassettes(cassettes_dir(config)).all_files()
    unused = [p for p in every if str(p) not in used]
    if args.delete and every and not used:
        raise UsageError("no cassette matched any request: the model, rubrics or config differ from the recording "
                         "(pass the --config they were recorded with); nothing was deleted")
    for path in unused:
        print(path)
        if args.delete:
            path.unlink()
    print(f"{len(unused)} unused cassettes" + (" deleted" if args.delete and unused else ""))
    return 1 if unused and not args.delete else 0


def _lint_contracts(folder: str | None, fixtures: list[str]) -> int:
    from pathlib import Path

    from ..config import find_project_config
    from ..contracts import contract_files, lint
    from ..errors import UsageError

    if folder is None:
        found = find_project_config()
        if found is None:
            raise UsageError("no project here (no config/edge-audit.yaml at or above the working directory): "
                             "name the contracts folder")
        folder = str(found.parent / "contracts")

    paths = contract_files(Path(folder))
    if not paths:
        raise UsageError(f"no contract files (*.yaml) in {folder}")
    problems = lint(paths, [Path(f) for f in fixtures])
    for problem in problems:
        print(problem)
    print(f"{len(paths)} contract{'s' if len(paths) != 1 else ''}, "
          f"{len(problems)} problem{'s' if len(problems) != 1 else ''}")
    return 1 if problems else 0
