"""Malformed and adversarial trace files for every format the loader knows, from a seed.

Independent of ``auditor``: it mutates the good seed files under ``examples/traces`` and
``tests/fixtures`` (one or more per format) as bytes or as parsed JSON. ``cases(seed, n)``
gives the same files for the same arguments. Each case names its mutation (``kind``), the
format of its seed and the file name to write it under (the suffix decides JSON vs JSONL).
"""

from __future__ import annotations

import json
import random
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[2]
SEEDS = {
    "native": [ROOT / "examples/traces/incident-webhook.json", ROOT / "examples/traces/travel-and-ops.jsonl",
               ROOT / "examples/traces/billing-triage.json"],
    "ag2": [ROOT / "tests/fixtures/whowhen/1.json"],
    "magentic-one": [ROOT / "tests/fixtures/magentic_one.json"],
    "otlp": [ROOT / "tests/fixtures/formats/otlp-genai-incident.jsonl",
             ROOT / "tests/fixtures/formats/otlp-openinference-edge-cases.json"],
    "openai-agents": [ROOT / "tests/fixtures/formats/openai-agents-incident.jsonl"],
    "langsmith": [ROOT / "tests/fixtures/formats/langsmith-incident.jsonl",
                  ROOT / "tests/fixtures/formats/langsmith-edge-cases.json"],
    "langfuse": [ROOT / "tests/fixtures/formats/langfuse-incident.json"],
    "agentchat": [ROOT / "tests/fixtures/formats/agentchat-swarm-incident.json",
                  ROOT / "tests/fixtures/formats/agentchat-edge-cases.jsonl"],
}
MARKUP = ["[/]", "[bold]", "[/bold]", "[red]x[/red]", "[link=http://e.invalid]x[/link]", "[", "]", "[[/]]", "\\[b]"]
GARBAGE = ["\u202e", "\u200b", "\ufeff", "\U0001f600", "\u0301\u0301\u0301", "\x1b[31m", "\r", "\x7f", "𝕏", "ı", "ß"]


@dataclass(frozen=True)
class Case:
    number: int
    kind: str
    format: str
    name: str
    data: bytes


def _documents(path: Path) -> list[Any]:
    text = path.read_text(encoding="utf-8")
    if path.suffix == ".jsonl":
        return [json.loads(line) for line in text.splitlines() if line.strip()]
    return [json.loads(text)]


DEEP = "__DEEP_NEST__"
HUGE = "__HUGE_NUMBER__"


def _dump(docs: list[Any], jsonl: bool, ascii_only: bool, depth: int) -> bytes:
    text = "\n".join(json.dumps(d, ensure_ascii=ascii_only) for d in (docs if jsonl else docs[:1]))
    if depth:
        opener, closer = ('[', ']') if depth % 2 else ('{"a":', '}')
        text = text.replace(f'"{DEEP}"', opener * depth + '"deep"' + closer * depth)
    text = text.replace(f'"{HUGE}"', "9" * 5000)
    return (text + ("\n" if jsonl else "")).encode("utf-8", "surrogatepass")


def _paths(value: Any, prefix: tuple[Any, ...] = ()) -> Iterator[tuple[Any, ...]]:
    yield prefix
    if isinstance(value, dict):
        for key, item in value.items():
            yield from _paths(item, (*prefix, key))
    elif isinstance(value, list):
        for index, item in enumerate(value):
            yield from _paths(item, (*prefix, index))


def _get(value: Any, path: tuple[Any, ...]) -> Any:
    for part in path:
        value = value[part]
    return value


def _set(root: Any, path: tuple[Any, ...], new: Any) -> Any:
    if not path:
        return new
    _get(root, path[:-1])[path[-1]] = new
    return root


def _strings(value: Any) -> list[tuple[Any, ...]]:
    return [p for p in _paths(value) if p and isinstance(_get(value, p), str)]


def _wrong_value(rng: random.Random) -> Any:
    return rng.choice([None, True, 0, -1, 3.5, 10 ** 30, "", "x", [], [1, "a"], {}, {"k": [None]},
                       float("1e308"), "null", ["*"], {"stringValue": 5}, [[[]]]])


def _mutate_json(rng: random.Random, docs: list[Any], kind: str, fmt: str) -> list[Any]:
    doc_index = rng.randrange(len(docs))
    doc = docs[doc_index]
    paths = [p for p in _paths(doc) if p]
    if kind == "wrong_type":
        for _ in range(rng.randint(1, 3)):
            paths = [p for p in _paths(doc) if p]
            if paths:
                doc = _set(doc, rng.choice(paths), _wrong_value(rng))
    elif kind == "deep_nesting":
        doc = _set(doc, rng.choice(paths), DEEP) if paths else DEEP
    elif kind == "huge_string":
        size = rng.choice([100_000, 1_100_000, 2_100_000])
        text = rng.choice(["x", "word ", "a. ", "MUST NOT "]) * (size // 4)
        strings = _strings(doc)
        if strings:
            doc = _set(doc, rng.choice(strings), text)
    elif kind == "huge_number":
        number: Any = rng.choice([HUGE, -(10 ** 400), 1e308, 2 ** 64, -1, "1e999999"])
        doc = _set(doc, rng.choice(paths), number) if paths else number
    elif kind in ("unicode_garbage", "lone_surrogate", "nul_in_string", "console_markup"):
        for path in rng.sample(_strings(doc), min(len(_strings(doc)), rng.randint(1, 6))):
            old = _get(doc, path)
            piece = {"unicode_garbage": lambda: "".join(rng.choice(GARBAGE) for _ in range(5)),
                     "lone_surrogate": lambda: rng.choice(["\ud800", "\udfff", "a\udc80b", "\ud83d"]),
                     "nul_in_string": lambda: "\x00",
                     "console_markup": lambda: rng.choice(MARKUP)}[kind]()
            at = rng.randint(0, len(old))
            doc = _set(doc, path, old[:at] + piece + old[at:])
    elif kind == "missing_field":
        for _ in range(rng.randint(1, 3)):
            keyed = [p for p in _paths(doc) if p and isinstance(p[-1], str)]
            if keyed:
                path = rng.choice(keyed)
                del _get(doc, path[:-1])[path[-1]]
    elif kind == "duplicate_ids":
        lists = [p for p in _paths(doc) if isinstance(_get(doc, p), list) and _get(doc, p)]
        if lists:
            items = _get(doc, rng.choice(lists))
            items.insert(rng.randrange(len(items) + 1), json.loads(json.dumps(rng.choice(items))))
    elif kind == "unknown_agents":
        for path in _strings(doc):
            named = path[-1] in ("sender", "agent", "name", "source", "target", "recipients", "role", "from_agent",
                                 "to_agent", "key") or (len(path) > 1 and path[-2] == "recipients")
            if named and rng.random() < 0.5:
                doc = _set(doc, path, rng.choice(["ghost", "", " ", "*", "user", "👻", "a" * 300, "[/]"]))
    elif kind == "otlp_ids":
        spans = [p for p in _paths(doc) if p and p[-1] in ("spanId", "parentSpanId", "traceId", "id",
                                                           "parent_id", "trace_id", "parent_run_id",
                                                           "parentObservationId")]
        ids = [_get(doc, p) for p in spans]
        for path in rng.sample(spans, min(len(spans), rng.randint(1, 4))):
            choice = rng.random()
            if choice < 0.3:
                del _get(doc, path[:-1])[path[-1]]
            elif choice < 0.7 and ids:
                doc = _set(doc, path, rng.choice(ids))  # parent cycles, self-parents, shared ids
            else:
                doc = _set(doc, path, _wrong_value(rng))
    docs[doc_index] = doc
    return docs


_BYTE_KINDS: dict[str, Callable[[random.Random, bytes], bytes]] = {
    "truncated": lambda rng, data: data[: rng.randrange(max(1, len(data)))],
    "empty": lambda rng, data: rng.choice([b"", b"\n", b"   \n\n", b"\xef\xbb\xbf"]),
    "binary": lambda rng, data: bytes(rng.randrange(256) for _ in range(rng.randint(1, 4096))),
    "bom": lambda rng, data: rng.choice([b"\xef\xbb\xbf", b"\xff\xfe", b"\xfe\xff", b"\xef\xbb\xbf\xef\xbb\xbf"])
    + data,
    "nul_bytes": lambda rng, data: data[: (at := rng.randrange(len(data) + 1))] + b"\x00" * rng.randint(1, 3)
    + data[at:],
    "invalid_utf8": lambda rng, data: data[: (at := rng.randrange(len(data) + 1))]
    + rng.choice([b"\xff", b"\xc3\x28", b"\xed\xa0\x80", b"\xf8\x88\x80\x80\x80"]) + data[at:],
    "bit_flips": lambda rng, data: bytes(b ^ (1 << rng.randrange(8)) if rng.random() < 0.01 else b for b in data),
}
_JSONL_BAD_LINES = [b"{not json", b"[]", b"null", b"42", b'"text"', b"{}", b'{"resourceSpans": 5}', b"\xff\xfe",
                    b"[" * 3000 + b"]" * 3000, b'{"a": ' + b"9" * 5000 + b"}", b"\x00\x00", b'{"object": "trace.span"}']
JSON_KINDS = ["wrong_type", "deep_nesting", "huge_string", "huge_number", "unicode_garbage", "lone_surrogate",
              "nul_in_string", "console_markup", "missing_field", "duplicate_ids", "unknown_agents", "otlp_ids"]
KINDS = [*JSON_KINDS, *_BYTE_KINDS, "jsonl_bad_lines"]


def make_case(number: int, seed: int = 0) -> Case:
    """Case ``number`` of the corpus of ``seed``: always the same bytes for the same pair."""
    rng = random.Random(f"{seed}:{number}")
    kind = KINDS[number % len(KINDS)]
    fmt = rng.choice(sorted(SEEDS))
    path = rng.choice(SEEDS[fmt])
    jsonl = path.suffix == ".jsonl"
    data = path.read_bytes()
    if kind in JSON_KINDS:
        depth = rng.choice([70, 501, 5000, 50_001]) if kind == "deep_nesting" else 0
        ascii_only = kind == "lone_surrogate" or rng.random() < 0.3
        data = _dump(_mutate_json(rng, _documents(path), kind, fmt), jsonl, ascii_only, depth)
    elif kind == "jsonl_bad_lines":
        lines = [line for line in data.splitlines() if line.strip()] or [b"{}"]
        docs = [json.loads(line) for line in lines] if jsonl else [json.loads(data)]
        lines = [json.dumps(d).encode() for d in docs]
        for _ in range(rng.randint(1, 4)):
            lines.insert(rng.randrange(len(lines) + 1), rng.choice(_JSONL_BAD_LINES))
        data, jsonl = b"\n".join(lines) + b"\n", True
    else:
        data = _BYTE_KINDS[kind](rng, data)
    name = f"case-{number:05d}-{kind}-{fmt}{'.jsonl' if jsonl else '.json'}"
    return Case(number, kind, fmt, name, data)


def cases(seed: int = 0, count: int = 100, start: int = 0) -> Iterator[Case]:
    for number in range(start, start + count):
        yield make_case(number, seed)
