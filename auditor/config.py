"""Audit configuration: which checks run (by versioned registry name), the NLP pipeline,
input limits and the exit-code gate. Defaults live here; ``config/edge-audit.yaml`` is
the same defaults written out for users to copy and edit."""

from __future__ import annotations

from pathlib import Path
from typing import Any, Literal

from pydantic import BaseModel, ConfigDict, Field, ValidationError

from .errors import ConfigError
from .nlp import DEFAULT_DISABLE, DEFAULT_PIPELINE


class _Strict(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True)


class CheckConfig(_Strict):
    name: str = Field(description="Versioned registry name, e.g. edge-audit.constraints.v1")
    options: dict[str, Any] = Field(default_factory=dict)


class NlpConfig(_Strict):
    pipeline: str = Field(default=DEFAULT_PIPELINE, description="An installed spaCy pipeline package name.")
    disable: list[str] = Field(default_factory=lambda: list(DEFAULT_DISABLE))


class LimitsConfig(_Strict):
    max_file_bytes: int = Field(default=256 * 1024 * 1024, gt=0)
    max_text_chars: int = Field(default=2_000_000, gt=0)


GateStatus = Literal["fail", "warn", "unmeasured"]


def _fail_only() -> list[GateStatus]:
    return ["fail"]


class GateConfig(_Strict):
    fail_on: list[GateStatus] = Field(
        default_factory=_fail_only, description="Finding statuses that make `run` exit 1."
    )


def _default_checks() -> list[CheckConfig]:
    return [
        CheckConfig(name="edge-audit.constraints.v1", options={
            "min_strength": "absolute", "sources": ["message"], "dropped_if_receiver_saw": "warn",
        }),
        CheckConfig(name="edge-audit.claims.v1", options={
            "tools": None, "kinds": ["result", "execution", "action", "path", "identifier", "number", "fuzzy"],
            "invented": "fail", "entry_points": "skip",
        }),
    ]


class AuditConfig(_Strict):
    checks: list[CheckConfig] = Field(default_factory=_default_checks)
    nlp: NlpConfig = Field(default_factory=NlpConfig)
    limits: LimitsConfig = Field(default_factory=LimitsConfig)
    gate: GateConfig = Field(default_factory=GateConfig)
    base_dir: Path | None = Field(default=None, exclude=True,
                                  description="Set by load_config: the config file's folder, for relative paths.")


def load_config(path: str | Path | None) -> AuditConfig:
    """The built-in defaults, or a YAML file validated against ``AuditConfig``."""
    if path is None:
        return AuditConfig()
    import yaml

    try:
        raw = yaml.safe_load(Path(path).read_text(encoding="utf-8"))
    except OSError as err:
        raise ConfigError(f"{path}: cannot read config: {err.strerror or err}") from None
    except yaml.YAMLError as err:
        raise ConfigError(f"{path}: invalid YAML: {err}") from None
    try:
        return AuditConfig.model_validate(raw or {}).model_copy(update={"base_dir": Path(path).resolve().parent})
    except ValidationError as err:
        first = err.errors()[0]
        where = ".".join(str(p) for p in first["loc"])
        raise ConfigError(f"{path}: {where}: {first['msg']}") from None
