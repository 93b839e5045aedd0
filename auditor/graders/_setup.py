"""From ``SemanticConfig`` to a ready runner: graders with their rubrics, cache, cassettes."""

from __future__ import annotations

from pathlib import Path

from ..config import AuditConfig, SemanticConfig
from ..defaults import search_path
from ..errors import ConfigError
from ._budget import CallBudget
from ._grader import make_grader
from ._providers import ModelSettings
from ._rubric import Rubric, load_rubric
from ._run import GraderSpec, SemanticRunner
from ._store import Cache, Cassettes, default_cache_dir


def _resolve(value: str | None, default: Path, base: Path | None) -> Path:
    if value is None:
        return default
    path = Path(value)
    return path if path.is_absolute() or base is None else base / path


def _project(value: str | None, base: Path | None) -> Path | None:
    return None if value is None else _resolve(value, Path(value), base)


def rubric_dirs(config: AuditConfig) -> tuple[tuple[Path, ...], tuple[Path, ...]]:
    """The folders searched for rubrics and for prompts: the project's own first (the config's
    ``rubrics_dir``/``prompts_dir``, else ``rubrics/``/``prompts/`` in the working directory),
    then the packaged defaults."""
    s = config.semantic
    return (search_path("rubrics", _project(s.rubrics_dir, config.base_dir)),
            search_path("prompts", _project(s.prompts_dir, config.base_dir)))


def cassettes_dir(config: AuditConfig) -> Path:
    default = (config.project_dir or Path.cwd()) / "cassettes"
    return _resolve(config.semantic.cassettes_dir, default, config.base_dir)


def model_settings(s: SemanticConfig) -> ModelSettings:
    return ModelSettings(model=s.model, api_base=s.api_base, temperature=s.temperature, max_tokens=s.max_tokens,
                         mode=s.structured_mode, max_retries=s.max_retries, rate_limit_retries=s.rate_limit_retries,
                         backoff_seconds=s.backoff_seconds, timeout=s.timeout, api_key_env=s.api_key_env,
                         input_cost_per_mtok=s.input_cost_per_mtok, output_cost_per_mtok=s.output_cost_per_mtok)


def grader_specs(config: AuditConfig) -> list[GraderSpec]:
    rubrics_dir, prompts_dir = rubric_dirs(config)
    specs = []
    for g in config.semantic.graders:
        grader = make_grader(g.name, g.options)
        if config.semantic.mode == "off":
            specs.append(GraderSpec(grader, g.rubric, None))
            continue
        rubric: Rubric = load_rubric(g.rubric, rubrics_dir, prompts_dir, grader.output.model_json_schema())
        if rubric.spec.grader != g.name:
            raise ConfigError(f"rubric {rubric.name} is for grader {rubric.spec.grader}, not {g.name}")
        specs.append(GraderSpec(grader, g.rubric, rubric))
    return specs


def _check_price(s: SemanticConfig) -> None:
    if s.max_cost is None or s.mode in ("off", "replay"):
        return
    if s.input_cost_per_mtok is not None and s.output_cost_per_mtok is not None:
        return
    from ._providers import _litellm

    litellm = _litellm()
    bare = s.model.split("/", 1)[-1]
    if s.model not in litellm.model_cost and bare not in litellm.model_cost:
        raise ConfigError(f"--max-cost needs a price, and LiteLLM has none for {s.model}; set "
                          f"semantic.input_cost_per_mtok and semantic.output_cost_per_mtok")


def make_runner(config: AuditConfig) -> SemanticRunner:
    s = config.semantic
    _check_price(s)
    cache = None
    if s.cache and s.mode in ("live", "record"):
        cache = Cache(_resolve(s.cache_dir, default_cache_dir(), config.base_dir))
    cassettes = Cassettes(cassettes_dir(config)) if s.mode in ("record", "replay") else None
    return SemanticRunner(s.mode, model_settings(s), cache=cache, cassettes=cassettes, max_cost=s.max_cost,
                          concurrency=s.concurrency, budget=CallBudget(s.max_calls, s.route_quotas))
