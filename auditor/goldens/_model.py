"""The goldens file (``edge-audit schema goldens``): frozen cases of what a run may and may not say.

A case holds a trace (inline, or a path relative to the goldens file), the facts its observations
license, the claims no answer may assert (each with several surface forms) and the behaviours an
answer must show. ``golden check`` grades the case's own trace; ``golden replay`` sends the pinned
system prompt and the case's observations to a model and grades its answer.
"""

from __future__ import annotations

import json
import re
from pathlib import Path
from typing import Annotated, Any, Literal

from pydantic import BaseModel, ConfigDict, Field, ValidationError, model_validator

from ..errors import ConfigError
from ..nlp import squash
from ..trace import Trace

GOLDENS_SCHEMA = "edge-audit.goldens.v1"
_ID = r"^[A-Za-z0-9][A-Za-z0-9._:-]*$"


class _Strict(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True)


class BannedClaim(_Strict):
    """A claim no answer may assert. Each form is matched as whole words, case and whitespace
    folded; a form quoted or stated only to deny it ("I cannot confirm that a refund was issued")
    does not count."""

    id: str = Field(pattern=_ID)
    forms: list[str] = Field(min_length=1, description="Surface forms of the claim, e.g. 'refund was issued', "
                                                       "'refund has been issued', 'issued the refund'")


class Mentions(_Strict):
    """The answer contains one of these phrases (in any stance: "not found" counts)."""

    id: str = Field(pattern=_ID)
    kind: Literal["mentions"] = "mentions"
    any: list[str] = Field(min_length=1)


class StatesFact(_Strict):
    """The answer asserts one of these facts, not denied; empty ``facts``: any allowed fact."""

    id: str = Field(pattern=_ID)
    kind: Literal["states_fact"] = "states_fact"
    facts: list[str] = Field(default_factory=list, description="Default: the case's allowed_facts")


class AsksQuestion(_Strict):
    """The answer asks something back: a sentence ending in a question mark."""

    id: str = Field(pattern=_ID)
    kind: Literal["asks_question"] = "asks_question"


Behaviour = Annotated[Mentions | StatesFact | AsksQuestion, Field(discriminator="kind")]


class GoldenCase(_Strict):
    id: str = Field(pattern=_ID)
    description: str | None = None
    trace: str | Trace = Field(description="A native trace inline, or the path of a trace file (any format "
                                           "edge-audit reads) relative to the goldens file")
    observations: list[str] | None = Field(
        default=None, description="What a replayed model is shown, one line each; default: the trace's human "
                                  "messages and tool results, in order")
    answer_from: list[str] | None = Field(
        default=None, description="The agents whose messages are the answer; default: every agent that is not "
                                  "a human or a tool")
    allowed_facts: list[str] = Field(default_factory=list, description="Facts the observations license")
    banned_claims: list[BannedClaim] = Field(default_factory=list)
    required_behaviours: list[Behaviour] = Field(default_factory=list)

    @model_validator(mode="after")
    def _consistent(self) -> GoldenCase:
        ids = [b.id for b in self.banned_claims] + [b.id for b in self.required_behaviours]
        if len(ids) != len(set(ids)):
            raise ValueError("banned claim and behaviour ids must be unique within a case")
        for claim in self.banned_claims:
            for form in claim.forms:
                if not squash(form):
                    raise ValueError(f"banned claim {claim.id}: an empty form")
                for fact in self.allowed_facts:
                    if re.search(r"\b" + re.escape(squash(form)) + r"\b", squash(fact)):
                        raise ValueError(f"banned claim {claim.id}: form {form!r} is part of the allowed fact "
                                         f"{fact!r}")
        for b in self.required_behaviours:
            if isinstance(b, StatesFact) and not (b.facts or self.allowed_facts):
                raise ValueError(f"behaviour {b.id}: states_fact needs facts, or allowed_facts on the case")
        return self


class GoldensFile(_Strict):
    """A goldens file. Relative paths resolve against the file's folder."""

    model_config = ConfigDict(extra="forbid", frozen=True, populate_by_name=True)
    json_schema: str | None = Field(default=None, alias="$schema",
                                    description="Where editors find this schema (`edge-audit schema goldens`)")
    schema_: Literal["edge-audit.goldens.v1"] = Field(default="edge-audit.goldens.v1", alias="schema")
    system_prompt: str | None = Field(default=None, description="The pinned system prompt file for `golden "
                                      "replay`, relative to the goldens file; its text is in every request key")
    cases: list[GoldenCase] = Field(min_length=1)

    @model_validator(mode="after")
    def _unique_ids(self) -> GoldensFile:
        ids = [c.id for c in self.cases]
        duplicated = sorted({i for i in ids if ids.count(i) > 1})
        if duplicated:
            raise ValueError(f"case ids used twice: {', '.join(duplicated)}")
        return self


class Goldens:
    """A loaded goldens file and its folder."""

    def __init__(self, spec: GoldensFile, base_dir: Path, path: Path | None = None) -> None:
        self.spec = spec
        self.base_dir = base_dir
        self.path = path

    @property
    def cases(self) -> list[GoldenCase]:
        return self.spec.cases

    def resolve(self, relative: str) -> Path:
        path = Path(relative)
        return path if path.is_absolute() else self.base_dir / path

    def system_prompt(self) -> str:
        if self.spec.system_prompt is None:
            raise ConfigError(f"{self.path or 'goldens'}: `golden replay` needs system_prompt (a file path)")
        path = self.resolve(self.spec.system_prompt)
        try:
            return path.read_text(encoding="utf-8")
        except OSError as err:
            raise ConfigError(f"system prompt {path}: {err.strerror or err}") from None


def load_goldens(path: str | Path) -> Goldens:
    """A goldens file (YAML or JSON) validated against ``GoldensFile``; errors name the place."""
    import yaml

    file = Path(path)
    try:
        text = file.read_text(encoding="utf-8")
        raw: Any = json.loads(text) if file.suffix == ".json" else yaml.safe_load(text)
    except OSError as err:
        raise ConfigError(f"{file}: cannot read goldens: {err.strerror or err}") from None
    except (ValueError, yaml.YAMLError) as err:
        raise ConfigError(f"{file}: invalid {'JSON' if file.suffix == '.json' else 'YAML'}: {err}") from None
    if not isinstance(raw, dict):
        raise ConfigError(f"{file}: a goldens file is a mapping with `cases`")
    try:
        spec = GoldensFile.model_validate(raw)
    except ValidationError as err:
        first = err.errors()[0]
        where = ".".join(str(p) for p in first["loc"])
        raise ConfigError(f"{file}: {where}: {first['msg']}") from None
    return Goldens(spec, file.resolve().parent, file)
