"""From ``SufficiencyConfig`` to a ready ``SufficiencyRunner`` and selector."""

from __future__ import annotations

from pathlib import Path

from pydantic import BaseModel, ConfigDict, ValidationError

from ..checks import CheckContext, claims, make_check
from ..config import AuditConfig
from ..errors import ConfigError
from ..graders import SemanticRunner, load_rubric, rubric_dirs
from ._case import AgentSpec, Selection, Selector
from ._run import Acceptance, SufficiencyReview, SufficiencyRunner


class _AgentEntry(BaseModel):
    model_config = ConfigDict(extra="forbid")
    model: str | None = None
    system_prompt: str | None = None


class AgentsFile(BaseModel):
    """The schema of ``config/agents.yaml``: receivers the traces do not describe."""

    model_config = ConfigDict(extra="forbid")
    agents: dict[str, _AgentEntry]


def load_agents(config: AuditConfig) -> dict[str, AgentSpec]:
    import yaml

    value = config.sufficiency.agents_file
    if value is None:
        if config.project_dir is None:
            return {}
        path = config.project_dir / "config" / "agents.yaml"
        if not path.exists():
            return {}
    else:
        path = Path(value)
        if not path.is_absolute() and config.base_dir is not None:
            path = config.base_dir / path
    try:
        parsed = AgentsFile.model_validate(yaml.safe_load(path.read_text(encoding="utf-8")) or {"agents": {}})
    except OSError as err:
        raise ConfigError(f"{path}: cannot read the agents file: {err.strerror or err}") from None
    except (yaml.YAMLError, ValidationError) as err:
        raise ConfigError(f"{path}: invalid agents file: {err}") from None
    return {name: AgentSpec(a.model, a.system_prompt) for name, a in parsed.agents.items()}


def make_selector(config: AuditConfig) -> Selector:
    return Selector(Selection.parse(config.sufficiency.select, config.sufficiency.seed))


def make_sufficiency(config: AuditConfig, runner: SemanticRunner, context: CheckContext) -> SufficiencyRunner:
    s = config.sufficiency
    rubric = None
    if config.semantic.mode != "off":
        rubrics, prompts = rubric_dirs(config)
        rubric = load_rubric(s.rubric, rubrics, prompts, SufficiencyReview.model_json_schema())
    claims_options = next((c.options for c in config.checks if c.name == claims.NAME), {})
    claim_check = make_check(claims.NAME, context, {**claims_options, "entry_points": "check"})
    acceptance = [Acceptance(a.route, a.kind, _resolve_target(a.kind, a.target, config.base_dir), a.timeout)
                  for a in s.acceptance]
    for a in acceptance:
        if a.kind != "judge" and not a.target:
            raise ConfigError(f"sufficiency.acceptance for route {a.route!r}: kind {a.kind} needs a target")
    return SufficiencyRunner(runner, rubric, acceptance, claim_check, s.rerun_max_tokens, s.max_output_chars)


def _resolve_target(kind: str, target: str | None, base: Path | None) -> str | None:
    """A ``file.py:function`` callable is found relative to the config file's folder."""
    if kind != "callable" or target is None or base is None:
        return target
    module, _, name = target.rpartition(":")
    if module.endswith(".py") and not Path(module).is_absolute():
        return f"{base / module}:{name}"
    return target
