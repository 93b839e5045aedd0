"""Reading the project's YAML files (config, contracts, tool semantics, rubrics) with one set of
error messages: every failure is a ``ConfigError`` that names the file and, for a value that does
not validate, the key path."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from pydantic import ValidationError

from .errors import ConfigError


def read_yaml(path: str | Path, what: str) -> Any:
    """The parsed YAML of ``path``; ``what`` names the file's kind in the error ("contract")."""
    import yaml

    try:
        return yaml.safe_load(Path(path).read_text(encoding="utf-8"))
    except OSError as err:
        raise ConfigError(f"{path}: cannot read {what}: {err.strerror or err}") from None
    except yaml.YAMLError as err:
        raise ConfigError(f"{path}: invalid YAML: {err}") from None


def invalid(where: str | Path, err: ValidationError) -> ConfigError:
    """The error for a file (or part) ``where`` whose content does not validate: its first problem."""
    first = err.errors()[0]
    return ConfigError(f"{where}: {'.'.join(str(p) for p in first['loc'])}: {first['msg']}")
