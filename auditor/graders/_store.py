"""Request keys, the disk cache and cassettes.

The **request key** is a SHA-256 over listed parts, and nothing else: the grader's versioned
name, the rubric's id, version and content hash, the model, the sampling parameters that
change the output (temperature, max_tokens, structured-output mode) and the canonical inputs.
Retries, timeouts, concurrency and the API base do not change what a model answers, so they
are not in it.

The **cache** (diskcache) serves ``live`` and ``record`` runs. **Cassettes** are committed
files, one JSON file per request key under ``<cassettes>/<grader>/``; ``replay`` reads only
them. A cassette holds the key's parts (inputs as a hash), the validated output and the usage:
no prompt text, no API key, no header. Its output and item ids are redacted (``auditor.redact``):
every secret detected in them, and every secret detected in the request's inputs wherever the
answer quotes it, is masked; replayed quotes are verified against the evidence masked alike.
"""

from __future__ import annotations

import hashlib
import json
import threading
from collections.abc import Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from ..errors import ConfigError
from ..redact import redact_value, secrets_in, strings_in
from ._types import Usage

CASSETTE_SCHEMA = "edge-audit.cassette.v1"


def canonical(value: object) -> str:
    return json.dumps(value, sort_keys=True, ensure_ascii=False, separators=(",", ":"), default=str)


@dataclass(frozen=True)
class KeyParts:
    grader: str
    rubric_id: str
    rubric_version: int
    rubric_hash: str
    model: str
    sampling: Mapping[str, object]
    inputs: Mapping[str, object]

    @property
    def inputs_hash(self) -> str:
        return hashlib.sha256(canonical(self.inputs).encode("utf-8")).hexdigest()

    def described(self) -> dict[str, object]:
        return {"grader": self.grader, "rubric": {"id": self.rubric_id, "version": self.rubric_version,
                                                  "hash": self.rubric_hash},
                "model": self.model, "sampling": dict(self.sampling), "inputs_sha256": self.inputs_hash}

    @property
    def key(self) -> str:
        return hashlib.sha256(canonical(self.described()).encode("utf-8")).hexdigest()


@dataclass(frozen=True)
class Stored:
    output: dict[str, Any]
    usage: Usage


def _stored(data: Mapping[str, Any]) -> Stored:
    usage = data.get("usage") or {}
    return Stored(dict(data["output"]), Usage(int(usage.get("prompt_tokens", 0)),
                                              int(usage.get("completion_tokens", 0)), usage.get("cost_usd")))


def _usage_dict(usage: Usage) -> dict[str, object]:
    return {"prompt_tokens": usage.prompt_tokens, "completion_tokens": usage.completion_tokens,
            "cost_usd": usage.cost_usd}


def default_cache_dir() -> Path:
    import os

    base = os.environ.get("XDG_CACHE_HOME") or str(Path.home() / ".cache")
    return Path(base) / "edge-audit" / "llm"


class Cache:
    """The validated outputs of earlier live calls, on disk, by request key."""

    def __init__(self, directory: Path) -> None:
        import diskcache

        try:
            self._cache = diskcache.Cache(str(directory))
        except OSError as err:
            raise ConfigError(f"cache directory {directory}: {err.strerror or err}") from None

    def get(self, parts: KeyParts) -> Stored | None:
        data = self._cache.get(parts.key)
        return _stored(data) if isinstance(data, dict) else None

    def put(self, parts: KeyParts, stored: Stored) -> None:
        self._cache.set(parts.key, {"output": stored.output, "usage": _usage_dict(stored.usage)})

    def close(self) -> None:
        self._cache.close()


class Cassettes:
    """Committed request/response records: one human-diffable JSON file per request key."""

    def __init__(self, directory: Path) -> None:
        self.directory = directory
        self.used: set[Path] = set()
        self._lock = threading.Lock()

    def path(self, parts: KeyParts) -> Path:
        return self.directory / parts.grader / f"{parts.key[:32]}.json"

    def get(self, parts: KeyParts) -> Stored | None:
        path = self.path(parts)
        try:
            data = json.loads(path.read_text(encoding="utf-8"))
        except FileNotFoundError:
            return None
        except (OSError, ValueError) as err:
            raise ConfigError(f"{path}: unreadable cassette: {err}") from None
        if not isinstance(data, dict) or data.get("key") != parts.key or "output" not in data:
            return None
        with self._lock:
            self.used.add(path)
        return _stored(data)

    def put(self, parts: KeyParts, stored: Stored, items: list[str]) -> Path:
        path = self.path(parts)
        path.parent.mkdir(parents=True, exist_ok=True)
        known = secrets_in(strings_in(parts.inputs))
        record = {"schema": CASSETTE_SCHEMA, "key": parts.key, **parts.described(),
                  "items": redact_value(items, known), "output": redact_value(stored.output, known),
                  "usage": _usage_dict(stored.usage)}
        path.write_text(json.dumps(record, indent=2, ensure_ascii=False, sort_keys=False) + "\n", encoding="utf-8")
        with self._lock:
            self.used.add(path)
        return path

    def all_files(self) -> list[Path]:
        return sorted(self.directory.glob("*/*.json")) if self.directory.is_dir() else []
