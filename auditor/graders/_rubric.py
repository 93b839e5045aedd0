"""Versioned rubrics and their prompts.

A rubric is ``rubrics/<name>.v<N>.yaml``; its prompt is ``prompts/<name>.v<N>.jinja``. The
prompt is rendered in a sandboxed jinja environment with ``StrictUndefined``, so a misspelt
variable is an error, not an empty string. Trace text reaches the template only through the
``untrusted`` filter, which keeps it inside its ``<data>`` delimiters.

A rubric's **hash** covers the rubric file's content, the prompt's text and the JSON Schema
of the grader's output model. It goes into every cache key and every semantic finding, and
``rubrics/rubrics.lock.json`` pins it per file, so an edit without a version bump is caught.
"""

from __future__ import annotations

import hashlib
import json
import re
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from pydantic import BaseModel, ConfigDict, Field, ValidationError

from .._files import invalid
from ..defaults import origin
from ..errors import ConfigError
from ._types import RubricRef

LOCK_FILE = "rubrics.lock.json"
_NAME = re.compile(r"^(?P<id>[a-z0-9_]+)\.v(?P<version>[1-9][0-9]*)$")


class RubricExample(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True)
    input: dict[str, str] = Field(description="The example's inputs, as the prompt shows them")
    reason: str
    quote: str = Field(description="The quote the grader should give, or NONE")
    verdict: str


class RubricFile(BaseModel):
    """The schema of ``rubrics/<name>.v<N>.yaml``."""

    model_config = ConfigDict(extra="forbid", frozen=True)
    id: str = Field(description="Equals the file name's stem before .v<N>")
    version: int = Field(ge=1, description="Equals the N of the file name")
    grader: str = Field(description="The versioned grader registry name this rubric is for")
    description: str
    system: str = Field(description="The system message")
    verdicts: dict[str, str] = Field(description="Each verdict the grader may give, with its definition")
    examples: list[RubricExample] = Field(default_factory=list)


@dataclass(frozen=True)
class Rubric:
    """A loaded rubric with its prompt and content hash."""

    id: str
    version: int
    hash: str
    spec: RubricFile
    prompt: str
    path: Path
    prompt_path: Path

    @property
    def name(self) -> str:
        return f"{self.id}.v{self.version}"

    @property
    def ref(self) -> RubricRef:
        """What a finding graded with this rubric names: id, version, hash and the files used."""
        return RubricRef(self.id, self.version, self.hash, str(self.path), str(self.prompt_path), origin(self.path))

    def render(self, variables: Mapping[str, Any]) -> list[dict[str, str]]:
        """The chat messages for one request: the rubric's system message and the rendered prompt."""
        from jinja2 import StrictUndefined, TemplateError
        from jinja2.sandbox import SandboxedEnvironment

        env = SandboxedEnvironment(undefined=StrictUndefined, autoescape=False, keep_trailing_newline=True)
        env.filters["untrusted"] = untrusted
        try:
            user = env.from_string(self.prompt).render(rubric=self.spec.model_dump(), **variables)
        except TemplateError as err:
            raise ConfigError(f"prompts/{self.name}.jinja: {err}") from None
        return [{"role": "system", "content": self.spec.system.strip()}, {"role": "user", "content": user.strip()}]


_DELIMITER = re.compile(r"</?\s*data\b", re.IGNORECASE)


def untrusted(text: object) -> str:
    """Trace text as inert data: any ``<data`` or ``</data`` inside it is defused, so the text
    cannot close its own delimiter and pose as instructions."""
    return _DELIMITER.sub(lambda m: m.group(0).replace("<", "&lt;"), str(text))


def content_hash(spec: RubricFile, prompt: str, output_schema: Mapping[str, Any]) -> str:
    parts = [json.dumps(spec.model_dump(), sort_keys=True, ensure_ascii=False), prompt,
             json.dumps(output_schema, sort_keys=True)]
    return hashlib.sha256("\0".join(parts).encode("utf-8")).hexdigest()[:16]


Dirs = Path | Sequence[Path]


def find_file(dirs: Dirs, filename: str) -> Path:
    """``filename`` in the first of ``dirs`` that has it (else in the first: the error names it)."""
    folders = [dirs] if isinstance(dirs, Path) else list(dirs)
    return next((d / filename for d in folders if (d / filename).is_file()), folders[0] / filename)


def load_rubric(name: str, rubrics_dirs: Dirs, prompts_dirs: Dirs, output_schema: Mapping[str, Any]) -> Rubric:
    """Load ``<name>.yaml`` and ``<name>.jinja`` (name: ``id.vN``), each from the first of its
    folders that has it (a project's own, then the packaged defaults)."""
    import yaml

    match = _NAME.match(name)
    if not match:
        raise ConfigError(f"rubric name {name!r} must look like <id>.v<N>, e.g. constraint_grader.v1")
    path = find_file(rubrics_dirs, f"{name}.yaml")
    prompt_path = find_file(prompts_dirs, f"{name}.jinja")
    try:
        raw = yaml.safe_load(path.read_text(encoding="utf-8"))
        prompt = prompt_path.read_text(encoding="utf-8")
    except OSError as err:
        raise ConfigError(f"rubric {name}: cannot read {err.filename}: {err.strerror}") from None
    except yaml.YAMLError as err:
        raise ConfigError(f"{path}: invalid YAML: {err}") from None
    try:
        spec = RubricFile.model_validate(raw)
    except ValidationError as err:
        raise invalid(path, err) from None
    if spec.id != match["id"] or spec.version != int(match["version"]):
        raise ConfigError(f"{path}: id/version ({spec.id} v{spec.version}) do not match the file name")
    return Rubric(spec.id, spec.version, content_hash(spec, prompt, output_schema), spec, prompt, path, prompt_path)


def rubric_names(rubrics_dirs: Dirs) -> list[str]:
    folders = [rubrics_dirs] if isinstance(rubrics_dirs, Path) else list(rubrics_dirs)
    return sorted({p.stem for d in folders for p in d.glob("*.yaml") if _NAME.match(p.stem)})


def read_lock(rubrics_dir: Path) -> dict[str, str]:
    path = rubrics_dir / LOCK_FILE
    if not path.exists():
        return {}
    try:
        data = json.loads(path.read_text(encoding="utf-8"))
    except (OSError, ValueError) as err:
        raise ConfigError(f"{path}: unreadable lock file: {err}") from None
    if not isinstance(data, dict) or not all(isinstance(v, str) for v in data.values()):
        raise ConfigError(f"{path}: the lock file must map '<id>.v<N>' to a hash")
    return data


def lock_problems(rubrics: list[Rubric], lock: Mapping[str, str]) -> list[str]:
    """Why the lock does not match the rubrics: an edit without a version bump, or a rubric
    that was never locked. Empty when everything matches."""
    problems = []
    for r in rubrics:
        locked = lock.get(r.name)
        if locked is None:
            problems.append(f"{r.name}: not in {LOCK_FILE}; run `edge-audit rubrics --update-lock`")
        elif locked != r.hash:
            problems.append(f"{r.name}: content changed (hash {locked} -> {r.hash}) but the version did not; "
                            f"copy it to {r.id}.v{r.version + 1} and edit that, then update the lock")
    return problems


def write_lock(rubrics_dir: Path, rubrics: list[Rubric]) -> Path:
    """Add the rubrics that are not locked yet. A locked rubric whose content changed is
    refused: that edit needs a new version, not a new lock entry."""
    path = rubrics_dir / LOCK_FILE
    lock = read_lock(rubrics_dir)
    changed = [r for r in rubrics if lock.get(r.name, r.hash) != r.hash]
    if changed:
        raise ConfigError("; ".join(lock_problems(changed, lock)))
    lock.update({r.name: r.hash for r in rubrics})
    path.write_text(json.dumps(dict(sorted(lock.items())), indent=2) + "\n", encoding="utf-8")
    return path
