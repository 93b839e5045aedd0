"""The base of every check's and grader's options model (pydantic_evals' evaluators are
dataclasses of their options in the same way): validation, defaults, descriptions and the JSON
Schema of a check's options live in its model and nowhere else."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar

from pydantic import BaseModel, ConfigDict, ValidationError

from .errors import ConfigError


class Options(BaseModel):
    """Unknown keys are errors; values are frozen."""

    model_config = ConfigDict(extra="forbid", frozen=True)


OptionsT = TypeVar("OptionsT", bound=Options)


def validate_options(kind: str, name: str, model: type[OptionsT], options: Mapping[str, Any]) -> OptionsT:
    """``options`` as ``model``, or a ConfigError naming the first bad option."""
    try:
        return model.model_validate(dict(options))
    except ValidationError as err:
        first = err.errors()[0]
        where = ".".join(str(p) for p in first["loc"]) or "options"
        raise ConfigError(f"{kind} {name!r}: {where}: {first['msg']}") from None
