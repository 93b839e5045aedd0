"""Audit configuration: which checks run (by versioned registry name), the NLP pipeline,
input limits, the exit-code gate and the semantic graders. Defaults live here, and a check's or
grader's options in its options model; ``config/edge-audit.yaml`` is all of them written out for
users to copy and edit (a test keeps it equal)."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Any, Literal

from pydantic import BaseModel, ConfigDict, Field, ValidationError

from ._files import read_yaml
from .errors import ConfigError
from .nlp import DEFAULT_DISABLE, DEFAULT_PIPELINE


class _Strict(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True)


class CheckConfig(_Strict):
    name: str = Field(description="Versioned registry name, e.g. edge-audit.constraints.v1")
    options: dict[str, Any] = Field(default_factory=dict, description="Validated by the check's options model "
                                    "(`edge-audit schema options`); what is left out takes its default")


class NlpConfig(_Strict):
    pipeline: str = Field(default=DEFAULT_PIPELINE, description="An installed spaCy pipeline package name.")
    disable: list[str] = Field(default_factory=lambda: list(DEFAULT_DISABLE))


class LimitsConfig(_Strict):
    max_file_bytes: int = Field(default=256 * 1024 * 1024, gt=0)
    max_text_chars: int = Field(default=2_000_000, gt=0)
    max_name_chars: int = Field(default=4_096, gt=0, description="Longest id or agent name")


GateStatus = Literal["fail", "warn", "unmeasured"]


def _fail_only() -> list[GateStatus]:
    return ["fail"]


class GateConfig(_Strict):
    fail_on: list[GateStatus] = Field(
        default_factory=_fail_only, description="Deterministic finding statuses that make `run` exit 1."
    )
    semantic: bool = Field(default=False, description="Also exit 1 on semantic findings with status fail "
                                                      "(`--fail-on semantic`).")
    routes: list[str] | None = Field(default=None, description="Handoff routes whose contract findings can fail "
                                     "the run (`--gate-routes`); null = every route. Other findings always gate.")


LlmMode = Literal["off", "live", "record", "replay"]


class GraderConfig(_Strict):
    name: str = Field(description="Versioned grader registry name, e.g. edge-audit.constraint-grader.v1")
    rubric: str = Field(description="Rubric file stem under rubrics_dir, e.g. constraint_grader.v1")
    options: dict[str, Any] = Field(default_factory=dict, description="Validated by the grader's options model "
                                    "(`edge-audit schema options`); what is left out takes its default")


def _default_graders() -> list[GraderConfig]:
    return [GraderConfig(name="edge-audit.constraint-grader.v1", rubric="constraint_grader.v1"),
            GraderConfig(name="edge-audit.claim-grader.v1", rubric="claim_grader.v1")]


class SemanticConfig(_Strict):
    """The LLM graders. Relative paths in a config file resolve against its folder."""

    mode: LlmMode = Field(default="off", description="off | live | record | replay (`--llm`)")
    model: str = Field(default="openai/gpt-4o-mini", description="A LiteLLM model string, or mock/<responder>")
    api_base: str | None = Field(default=None, description="An OpenAI-compatible server, e.g. http://127.0.0.1:8080/v1")
    api_key_env: str | None = Field(default=None, description="Name of the environment variable holding the API "
                                    "key (never the key itself); default: LiteLLM's per-provider variables")
    temperature: float = Field(default=0.0, ge=0.0, le=2.0)
    max_tokens: int = Field(default=1024, gt=0)
    structured_mode: Literal["tools", "json"] = Field(default="tools", description="instructor mode")
    max_retries: int = Field(default=2, ge=0, description="Re-asks when the output does not validate")
    rate_limit_retries: int = Field(default=3, ge=0)
    backoff_seconds: float = Field(default=2.0, ge=0.0, description="First wait after a rate limit; doubles")
    timeout: float = Field(default=60.0, gt=0.0, description="Seconds per request")
    concurrency: int = Field(default=4, ge=1, description="Requests in flight at once")
    cache: bool = Field(default=True, description="Use the disk cache in live and record modes")
    cache_dir: str | None = Field(default=None, description="Default: $XDG_CACHE_HOME/edge-audit/llm")
    cassettes_dir: str | None = Field(default=None, description="Default: cassettes/ in the working directory")
    rubrics_dir: str | None = Field(default=None, description="Default: rubrics/ in the working directory; "
                                   "a rubric it lacks comes from the packaged defaults")
    prompts_dir: str | None = Field(default=None, description="Default: prompts/ in the working directory; "
                                   "a prompt it lacks comes from the packaged defaults")
    max_cost: float | None = Field(default=None, gt=0.0, description="USD; once spent, no new calls are made")
    max_calls: int | None = Field(default=None, ge=0, description="Most grader and sufficiency requests in one run "
                                  "(`--max-calls`), live, cached or replayed alike; null = no limit")
    route_quotas: dict[str, int] = Field(default_factory=dict, description="Most grader requests per route "
                                         "(source->destination, `--route-quota ROUTE=N`); other routes: no limit")
    input_cost_per_mtok: float | None = Field(default=None, ge=0.0, description="USD per million input tokens, "
                                              "for models LiteLLM has no price for")
    output_cost_per_mtok: float | None = Field(default=None, ge=0.0)
    graders: list[GraderConfig] = Field(default_factory=_default_graders)


def _default_checks() -> list[CheckConfig]:
    return [CheckConfig(name=name) for name in ("edge-audit.constraints.v1", "edge-audit.claims.v1",
                                                 "edge-audit.contracts.v1", "edge-audit.trace_contracts.v1")]


class AcceptanceConfig(_Strict):
    route: str = Field(default="*", description="source->destination, with * wildcards")
    kind: Literal["judge", "callable", "command"] = Field(
        default="judge", description="judge: the sufficiency rubric's judgement; callable: module:function; "
                                     "command: a shell command reading JSON on stdin, exit code 0 accepts")
    target: str | None = Field(default=None, description="module:function, or the shell command")
    timeout: float = Field(default=60.0, gt=0.0, description="Seconds, for command checks")


def _judge_everywhere() -> list[AcceptanceConfig]:
    return [AcceptanceConfig()]


class SufficiencyConfig(_Strict):
    """The isolated-rerun check (``--sufficiency``). It uses the semantic settings (mode, model,
    cache, cassettes, budget)."""

    select: list[str] = Field(default_factory=lambda: ["off"],
                              description="off | all | sample:N | edge:ID (repeatable)")
    seed: int = Field(default=0, description="Seed of sample:N; the same seed picks the same edges")
    rubric: str = Field(default="sufficiency.v1", description="Rubric of the review call")
    agents_file: str | None = Field(default=None, description="YAML {agents: {name: {model, system_prompt}}} for "
                                    "receivers the trace does not describe; null = config/agents.yaml in the working "
                                    "directory, if it exists")
    acceptance: list[AcceptanceConfig] = Field(default_factory=_judge_everywhere,
                                               description="The first entry whose route matches decides")
    rerun_max_tokens: int = Field(default=1024, gt=0)
    max_output_chars: int = Field(default=8000, gt=0, description="Output shown to the judge, per leg")


class SamplingConfig(_Strict):
    """Sampled audits (`--sample`): a trace is audited when a hash of the seed and its trace id
    falls under ``rate``, so the same trace gets the same decision on every run and machine."""

    rate: float = Field(default=1.0, gt=0.0, le=1.0, description="Share of traces audited (`--sample`)")
    seed: int = Field(default=0, description="Seed of the decision (`--seed`); another seed samples other traces")
    min_per_route: dict[str, int] = Field(
        default_factory=dict, description="Route (source->destination) -> traces audited at least, counted in input "
                                          "order: a trace the hash leaves out is audited while a route it has is short")

    @property
    def active(self) -> bool:
        return self.rate < 1.0


class EvidenceConfig(_Strict):
    capture: dict[str, Literal["complete", "partial"]] = Field(
        default_factory=dict,
        description="Observation capture per agent name, overriding the trace format's default: partial for an "
                    "agent that saw things the trace does not log (its unsupported claims become unverifiable).")


class FidelityWeights(_Strict):
    """Points an edge loses per finding of each verdict (constraint pass: dropped, softened,
    inverted; claims pass: invented, contradicted), whatever the finding's status."""

    dropped: float = Field(default=0.3, ge=0.0, le=1.0)
    softened: float = Field(default=0.2, ge=0.0, le=1.0)
    inverted: float = Field(default=0.4, ge=0.0, le=1.0)
    invented: float = Field(default=0.2, ge=0.0, le=1.0)
    contradicted: float = Field(default=0.4, ge=0.0, le=1.0)


class TrendConfig(_Strict):
    """``edge-audit trend``: when a route's fidelity drop is worth an alert."""

    fidelity_drop: float = Field(default=0.1, gt=0.0, le=1.0, description="Flag a route whose mean fidelity fell "
                                 "by more than this from one report to the next ...")
    score_tolerance: float = Field(default=0.05, ge=0.0, le=1.0, description="... while the end-to-end score "
                                   "(traces' metadata.score) of its traces moved by no more than this")


class FidelityConfig(_Strict):
    weights: FidelityWeights = Field(default_factory=FidelityWeights)
    trend: TrendConfig = Field(default_factory=TrendConfig)


class SelftestConfig(_Strict):
    """The mutation self-test (``edge-audit selftest``)."""

    floor: float = Field(default=0.95, ge=0.0, le=1.0, description="Lowest catch rate each mutation may have "
                         "(on the edges where it applies) before `selftest` exits 1")
    seed: int = Field(default=0, description="Seed of the mutations' choices (--seed): the same seed, traces and "
                                             "config give the same grid")


class AuditConfig(_Strict):
    redact: bool = Field(default=False, description="Mask secrets (API keys, tokens, passwords, private keys) in "
                                                    "every report (`--redact`). Cassettes are always redacted.")
    checks: list[CheckConfig] = Field(default_factory=_default_checks)
    evidence: EvidenceConfig = Field(default_factory=EvidenceConfig)
    nlp: NlpConfig = Field(default_factory=NlpConfig)
    limits: LimitsConfig = Field(default_factory=LimitsConfig)
    gate: GateConfig = Field(default_factory=GateConfig)
    semantic: SemanticConfig = Field(default_factory=SemanticConfig)
    sufficiency: SufficiencyConfig = Field(default_factory=SufficiencyConfig)
    fidelity: FidelityConfig = Field(default_factory=FidelityConfig)
    selftest: SelftestConfig = Field(default_factory=SelftestConfig)
    sampling: SamplingConfig = Field(default_factory=SamplingConfig)
    base_dir: Path | None = Field(default=None, exclude=True,
                                  description="Set by load_config: the config file's folder, for relative paths.")
    source: Path | None = Field(default=None, exclude=True,
                                description="Set by load_config: the config file used; None for the built-in defaults.")
    project_dir: Path | None = Field(default=None, exclude=True,
                                     description="Set by load_config: the project root, the nearest folder holding "
                                                 "config/edge-audit.yaml, for config/contracts, config/agents.yaml "
                                                 "and cassettes/ when the config leaves them null.")


#: Environment variables that override the config file (command-line flags override both).
SEMANTIC_ENV = {"EDGE_AUDIT_LLM": "mode", "EDGE_AUDIT_MODEL": "model", "EDGE_AUDIT_API_BASE": "api_base"}


def with_overrides(config: AuditConfig, environ: Mapping[str, str], semantic: Mapping[str, Any],
                   fail_on: Sequence[str] | None = None, gate_routes: Sequence[str] | None = None,
                   sufficiency: Sequence[str] | None = None, seed: int | None = None) -> AuditConfig:
    """``config`` with semantic settings from the environment, then from ``semantic`` (flags;
    None values are left out), and the gate from ``fail_on`` (statuses, and ``semantic``) and
    ``gate_routes``."""
    changes = {field: environ[var] for var, field in SEMANTIC_ENV.items() if environ.get(var)}
    changes.update({k: v for k, v in semantic.items() if v is not None})
    try:
        updated = SemanticConfig.model_validate({**config.semantic.model_dump(), **changes})
    except ValidationError as err:
        first = err.errors()[0]
        raise ConfigError(f"semantic.{'.'.join(str(p) for p in first['loc'])}: {first['msg']}") from None
    gate = config.gate
    if fail_on:
        statuses = [s for s in fail_on if s != "semantic"]
        gate = GateConfig(fail_on=statuses or list(gate.fail_on), semantic="semantic" in fail_on, routes=gate.routes)
    if gate_routes is not None:
        gate = gate.model_copy(update={"routes": list(gate_routes)})
    checked = config.sufficiency
    if sufficiency:
        checked = checked.model_copy(update={"select": list(sufficiency)})
    if seed is not None:
        checked = checked.model_copy(update={"seed": seed})
    return config.model_copy(update={"semantic": updated, "gate": gate, "sufficiency": checked})


def with_sampling(config: AuditConfig, rate: float | None = None, seed: int | None = None,
                  min_per_route: Mapping[str, int] | None = None) -> AuditConfig:
    """``config`` with the sampling settings given (flags; None leaves the config's)."""
    changes: dict[str, Any] = {k: v for k, v in (("rate", rate), ("seed", seed)) if v is not None}
    if min_per_route:
        changes["min_per_route"] = {**config.sampling.min_per_route, **min_per_route}
    try:
        sampling = SamplingConfig.model_validate({**config.sampling.model_dump(), **changes})
    except ValidationError as err:
        first = err.errors()[0]
        raise ConfigError(f"sampling.{'.'.join(str(p) for p in first['loc'])}: {first['msg']}") from None
    return config.model_copy(update={"sampling": sampling})


#: Where a project keeps its config, relative to the project root.
PROJECT_CONFIG = Path("config") / "edge-audit.yaml"


def find_project_config(start: Path | None = None) -> Path | None:
    """The nearest ``config/edge-audit.yaml`` in ``start`` (default: the working directory) or a
    folder above it."""
    here = (start or Path.cwd()).resolve()
    for folder in (here, *here.parents):
        candidate = folder / PROJECT_CONFIG
        if candidate.is_file():
            return candidate
    return None


def project_root(config_file: Path) -> Path:
    """The project a config file belongs to: the nearest folder at or above the file's own that
    holds ``config/edge-audit.yaml``, else the file's folder."""
    folder = config_file.resolve().parent
    found = find_project_config(folder)
    return found.parent.parent if found is not None else folder


def load_config(path: str | Path | None, *, discover: bool = True) -> AuditConfig:
    """A YAML file validated against ``AuditConfig``. With no ``path``, the project's
    ``config/edge-audit.yaml`` found from the working directory upwards, if ``discover``;
    else (or when there is none) the built-in defaults. The result records the file used
    (``source``) and the project root (``project_dir``)."""
    if path is None:
        found = find_project_config() if discover else None
        if found is None:
            return AuditConfig()
        path = found
    raw = read_yaml(path, "config")
    if raw is not None and not isinstance(raw, dict):
        raise ConfigError(f"{path}: a config is a mapping of settings, not a {type(raw).__name__}")
    resolved = Path(path).resolve()
    try:
        return AuditConfig.model_validate(raw or {}).model_copy(update={
            "base_dir": resolved.parent, "source": resolved, "project_dir": project_root(resolved)})
    except ValidationError as err:
        first = err.errors()[0]
        where = ".".join(str(p) for p in first["loc"])
        raise ConfigError(f"{path}: {where}: {first['msg']}") from None
