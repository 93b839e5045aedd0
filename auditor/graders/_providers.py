"""Model providers, in one registry: ``litellm`` (every live model), ``mock`` and ``replay``.

* ``litellm``: any LiteLLM model string (``openai/gpt-4o-mini``, ``anthropic/...``,
  ``ollama/...``, or an OpenAI-compatible server through ``api_base``), with structured
  output through instructor.
* ``mock``: model strings ``mock/<responder>``. A responder is a registered function that
  answers a job with an output dict, raw text (which may be malformed), or a failure
  (``"timeout"``, ``"rate_limit"``). The answer still goes through LiteLLM (its
  ``mock_response``) and instructor, so parsing, retries and error mapping are the live ones.
  Its token usage is LiteLLM's tokenizer estimate of the prompt and the answer.
* ``replay``: answers only from cassettes, by request key; a miss is a ``cassette_miss``
  failure. It never calls a model.

litellm is imported lazily, with ``LITELLM_LOCAL_MODEL_COST_MAP=True`` so that importing
it makes no network request. Live requests can be refused process-wide (tests do).
"""

from __future__ import annotations

import json
import os
import time
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import Any, Literal, Protocol

from pydantic import BaseModel, ValidationError

from ..errors import GraderError, LiveRequestRefused
from ._store import Cassettes, KeyParts
from ._types import Job, Usage

StructuredMode = Literal["tools", "json"]


class TextOutput(BaseModel):
    """A free-form answer (an agent rerun), not a structured one: asked for as plain text."""

    text: str


@dataclass(frozen=True)
class ModelSettings:
    model: str
    api_base: str | None = None
    temperature: float = 0.0
    max_tokens: int = 1024
    mode: StructuredMode = "tools"
    max_retries: int = 2
    rate_limit_retries: int = 3
    backoff_seconds: float = 2.0
    timeout: float = 60.0
    api_key_env: str | None = None
    input_cost_per_mtok: float | None = None
    output_cost_per_mtok: float | None = None

    def sampling(self) -> dict[str, object]:
        """The parameters that change a model's answer (and so belong in the request key)."""
        return {"temperature": self.temperature, "max_tokens": self.max_tokens, "mode": self.mode}


@dataclass(frozen=True)
class Request:
    job: Job
    messages: list[dict[str, str]]
    output: type[BaseModel]
    settings: ModelSettings
    parts: KeyParts


class Provider(Protocol):
    def complete(self, request: Request) -> tuple[BaseModel, Usage]: ...


ProviderFactory = Callable[[Cassettes | None], Provider]
_PROVIDERS: dict[str, ProviderFactory] = {}
_live_allowed = True


def register_provider(name: str) -> Callable[[ProviderFactory], ProviderFactory]:
    def decorate(factory: ProviderFactory) -> ProviderFactory:
        _PROVIDERS[name] = factory
        return factory

    return decorate


def provider_for(model: str, cassettes: Cassettes | None = None, replay: bool = False) -> Provider:
    """replay in replay mode; else the provider a model string's prefix names (``mock/...``, or a
    plugin's); else LiteLLM."""
    from ..plugins import load_plugins

    load_plugins("edge_audit.providers")
    prefix = model.split("/", 1)[0]
    name = "replay" if replay else prefix if prefix in _PROVIDERS and prefix != "replay" else "litellm"
    return _PROVIDERS[name](cassettes)


def allow_live_requests(allowed: bool) -> None:
    """Refuse (or allow again) every live model request in this process."""
    global _live_allowed
    _live_allowed = allowed


def _litellm() -> Any:
    os.environ.setdefault("LITELLM_LOCAL_MODEL_COST_MAP", "True")
    import litellm

    litellm.suppress_debug_info = True
    import logging

    # instructor logs every failed attempt at ERROR; each failure is reported in the findings instead.
    logging.getLogger("instructor").setLevel(logging.CRITICAL)
    return litellm


def count_tokens(model: str, content: str | list[dict[str, str]]) -> int:
    """The tokens of a text, or of chat messages, with ``model``'s tokenizer as LiteLLM knows it
    (its default tokenizer for a model it does not know)."""
    if isinstance(content, str):
        return int(_litellm().token_counter(model=model, text=content))
    return int(_litellm().token_counter(model=model, messages=content))


def _classify(err: BaseException) -> GraderError:
    litellm = _litellm()
    seen: BaseException | None = err
    while seen is not None:
        if isinstance(seen, litellm.Timeout):
            return GraderError("timeout", str(seen))
        if isinstance(seen, litellm.RateLimitError):
            return GraderError("rate_limit", str(seen))
        if isinstance(seen, (litellm.AuthenticationError, litellm.NotFoundError, litellm.BadRequestError,
                             litellm.APIConnectionError)):
            return GraderError("provider", f"{type(seen).__name__}: {seen}")
        seen = seen.__cause__ or seen.__context__
    attempts = getattr(err, "failed_attempts", None)
    if attempts:
        last = " ".join(str(attempts[-1].exception).split())
        return GraderError("malformed", f"output did not validate after {len(attempts)} attempts: {last[:300]}")
    return GraderError("provider", f"{type(err).__name__}: {str(err)[:300]}")


def _cost(litellm: Any, raw: Any, settings: ModelSettings, usage: Usage) -> float | None:
    if settings.input_cost_per_mtok is not None and settings.output_cost_per_mtok is not None:
        return (usage.prompt_tokens * settings.input_cost_per_mtok
                + usage.completion_tokens * settings.output_cost_per_mtok) / 1e6
    try:
        return float(litellm.completion_cost(completion_response=raw, model=settings.model))
    except Exception:  # noqa: BLE001 - a model without a known price has no cost, not an error
        return None


def _structured_call(messages: list[dict[str, str]], output: type[BaseModel], settings: ModelSettings,
                     **extra: Any) -> tuple[BaseModel, Usage]:
    """One structured request through instructor and LiteLLM, retried with backoff on rate limits."""
    import instructor

    litellm = _litellm()
    mode = instructor.Mode.TOOLS if settings.mode == "tools" else instructor.Mode.JSON
    client = instructor.from_litellm(litellm.completion, mode=mode)
    kwargs: dict[str, Any] = {"temperature": settings.temperature, "max_tokens": settings.max_tokens,
                              "timeout": settings.timeout, **extra}
    if settings.api_base:
        kwargs["api_base"] = settings.api_base
    if settings.api_key_env:
        key = os.environ.get(settings.api_key_env)
        if not key:
            raise GraderError("provider", f"the API key variable {settings.api_key_env} is not set")
        kwargs["api_key"] = key
    elif settings.api_base:
        kwargs["api_key"] = "not-needed"  # a local OpenAI-compatible server; the client insists on some key
    attempt = 0
    while True:
        try:
            if output is TextOutput:
                raw = litellm.completion(model=settings.model, messages=messages, num_retries=0, **kwargs)
                result: BaseModel = TextOutput(text=str(raw.choices[0].message.content or ""))
                break
            result, raw = client.chat.completions.create_with_completion(
                model=settings.model, messages=messages, response_model=output,  # type: ignore[arg-type]
                max_retries=settings.max_retries, **kwargs)
            break
        except Exception as err:  # noqa: BLE001 - every failure is classified; none passes silently
            failure = _classify(err)
            if failure.kind != "rate_limit" or attempt >= settings.rate_limit_retries:
                raise failure from None
            time.sleep(settings.backoff_seconds * (2 ** attempt))
            attempt += 1
    raw_usage = getattr(raw, "usage", None)
    usage = Usage(int(getattr(raw_usage, "prompt_tokens", 0) or 0), int(getattr(raw_usage, "completion_tokens", 0) or 0))
    return result, Usage(usage.prompt_tokens, usage.completion_tokens, _cost(litellm, raw, settings, usage))


class LiteLLMProvider:
    def __init__(self, cassettes: Cassettes | None = None) -> None:
        del cassettes

    def complete(self, request: Request) -> tuple[BaseModel, Usage]:
        if not _live_allowed:
            raise LiveRequestRefused(f"live model requests are refused in this process "
                                     f"(model {request.settings.model})")
        return _structured_call(request.messages, request.output, request.settings)


Responder = Callable[[Job, list[dict[str, str]]], "Mapping[str, Any] | str"]
_RESPONDERS: dict[str, Responder] = {}


def register_responder(name: str, responder: Responder) -> None:
    """Make ``mock/<name>`` answer with ``responder(job, messages)``."""
    _RESPONDERS[name] = responder


def _absent(job: Job, messages: list[dict[str, str]]) -> Mapping[str, Any]:
    verdict = "dropped" if job.grader.startswith("edge-audit.constraint") else "unsupported"
    return {"judgements": [{"item_id": i.item_id, "reason": "mock model: no evidence considered",
                            "quote": "NONE", "source_id": "NONE", "verdict": verdict} for i in job.items]}


register_responder("absent", _absent)


class MockProvider:
    def __init__(self, cassettes: Cassettes | None = None) -> None:
        del cassettes

    def complete(self, request: Request) -> tuple[BaseModel, Usage]:
        messages, output, settings = request.messages, request.output, request.settings
        name = settings.model.removeprefix("mock/")
        try:
            responder = _RESPONDERS[name]
        except KeyError:
            raise GraderError("provider", f"no mock responder {name!r}; registered: {sorted(_RESPONDERS)}") from None
        answer = responder(request.job, messages)
        model = "openai/" + settings.model
        local = ModelSettings(**{**settings.__dict__, "model": model, "api_base": None, "api_key_env": None})
        if answer == "timeout":
            return _structured_call(messages, output, local, mock_response="", mock_timeout=True,
                                    timeout=0.001)
        if answer == "rate_limit":
            return _structured_call(messages, output, local, mock_response="litellm.RateLimitError")
        text = answer if isinstance(answer, str) else json.dumps(answer)
        if settings.mode == "json" or isinstance(answer, str) or output is TextOutput:
            return _structured_call(messages, output, local, mock_response=text)
        litellm = _litellm()
        prompt_tokens = int(litellm.token_counter(model="gpt-4o-mini", messages=messages))
        completion_tokens = int(litellm.token_counter(model="gpt-4o-mini", text=text))
        reply = {"model": model, "usage": {"prompt_tokens": prompt_tokens, "completion_tokens": completion_tokens,
                                           "total_tokens": prompt_tokens + completion_tokens},
                 "choices": [{"index": 0, "finish_reason": "tool_calls", "message": {
                     "role": "assistant", "content": None,
                     "tool_calls": [{"id": "call_mock", "type": "function",
                                     "function": {"name": output.__name__, "arguments": text}}]}}]}
        return _structured_call(messages, output, local, mock_response=reply)


class ReplayProvider:
    def __init__(self, cassettes: Cassettes | None) -> None:
        if cassettes is None:
            raise GraderError("provider", "replay needs a cassettes folder")
        self.cassettes = cassettes

    def complete(self, request: Request) -> tuple[BaseModel, Usage]:
        stored = self.cassettes.get(request.parts)
        if stored is None:
            raise GraderError("cassette_miss", f"no cassette {self.cassettes.path(request.parts)}")
        try:
            return request.output.model_validate(stored.output), stored.usage
        except ValidationError as err:
            raise GraderError("malformed", f"cassette output does not validate: {err.errors()[0]['msg']}") from None


register_provider("litellm")(LiteLLMProvider)
register_provider("mock")(MockProvider)
register_provider("replay")(ReplayProvider)
