"""Masking secrets in what edge-audit writes: reports (``--redact``, ``redact: true``) and
cassettes (always).

Detection is detect-secrets' (Yelp), offline and with no file of its own to fetch: the
deny-list patterns of its token plugins (AWS access keys, GitHub, GitLab, Slack, Stripe,
OpenAI, JWTs, private key headers and more) and its keyword plugin (``password = "…"``).
A few patterns of ours cover what it has no plugin for: ``sk-…`` keys of any provider
(``sk-live-…``, ``sk-proj-…``, ``sk-ant-…``), AWS secret keys after their name, ``Bearer``
tokens, unquoted ``password: …`` style assignments and whole private key blocks. The entropy
plugins are left out: they would mask every hash and id in a report.

A secret is replaced by as many ``*`` as it has characters (line breaks kept), so every quote
keeps its span: ``text[start:end]`` of the masked field is the masked quote.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterable, Sequence
from functools import lru_cache
from typing import Any, TypeVar

MASK = "*"

_OWN = (
    re.compile(r"\bsk-[A-Za-z0-9][A-Za-z0-9_\-]{19,}"),
    re.compile(r"(?i)aws.{0,24}?secret.{0,24}?[=:]\s*[\"']?(?P<s>[A-Za-z0-9/+]{40})(?![A-Za-z0-9/+])"),
    re.compile(r"(?i)\bbearer\s+(?P<s>[A-Za-z0-9\-._~+/]{8,}=*)"),
    re.compile(r"(?i)\b(?:password|passwd|pwd|passphrase|secret|client_secret|api[_-]?key|access[_-]?token|"
               r"auth[_-]?token|private[_-]?key)\b[\"']?\s*(?:=|:|=>)\s*[\"']?(?P<s>[^\s\"',;]{4,})"),
    re.compile(r"-----BEGIN[A-Z ]*PRIVATE KEY( BLOCK)?-----(?P<s>.*?)(?:-----END[A-Z ]*PRIVATE KEY( BLOCK)?-----|\Z)",
               re.DOTALL),
    re.compile(r"\b(?:ghp|gho|ghu|ghs|ghr|github_pat)_[A-Za-z0-9_]{20,}"),
)
#: detect-secrets plugins whose deny-lists are used (their patterns match the secret itself).
_LIBRARY_SKIP = frozenset({"Base64 High Entropy String", "Hex High Entropy String", "Public IP (ipv4)",
                           "Secret Keyword"})


#: The words detect-secrets' keyword detector looks for (its analysis runs only where one occurs).
_KEYWORDS = re.compile(r"(?i)(?:api|auth|service|account|db|database|priv|private|client)_?key|(?:db|database|key)_?pass"
                       r"|password|passwd|pwd|secret|contrase")


@lru_cache(maxsize=1)
def _any_secret() -> re.Pattern[str]:
    """One alternation of every pattern: a text it does not match anywhere holds no secret, and
    most report strings (ids, names, verdicts) are ruled out in one pass instead of forty."""
    library, _ = _library()
    parts = []
    for pattern in (*library, *_OWN, _BASE64_40):
        flags = "".join(letter for flag, letter in ((re.IGNORECASE, "i"), (re.DOTALL, "s"), (re.MULTILINE, "m"))
                        if pattern.flags & flag)
        source = re.sub(r"^\(\?[aiLmsux]+\)", "", pattern.pattern).replace("(?P<s>", "(?:")
        parts.append(f"(?{flags}:{source})" if flags else f"(?:{source})")
    return re.compile("|".join(parts))


@lru_cache(maxsize=1)
def _library() -> tuple[tuple[re.Pattern[str], ...], Any]:
    from detect_secrets.core.plugins.util import get_mapping_from_secret_type_to_class
    from detect_secrets.plugins.keyword import KeywordDetector

    patterns: list[re.Pattern[str]] = []
    mapping: dict[str, Any] = get_mapping_from_secret_type_to_class()
    for secret_type in sorted(mapping):
        if secret_type not in _LIBRARY_SKIP:
            patterns.extend(getattr(mapping[secret_type], "denylist", ()))
    return tuple(patterns), KeywordDetector()


#: A 40-character base64 run with upper and lower case letters and a digit: an AWS secret access
#: key even where its name is not beside it (a quote that starts after "aws_secret_access_key=").
_BASE64_40 = re.compile(r"(?<![A-Za-z0-9/+])[A-Za-z0-9/+]{40}(?![A-Za-z0-9/+=])")


def _looks_like_aws_secret(value: str) -> bool:
    return (any(c.isupper() for c in value) and any(c.islower() for c in value) and any(c.isdigit() for c in value)
            and ("/" in value or "+" in value or sum(c.isdigit() for c in value) >= 4))


def secret_spans(text: str) -> list[tuple[int, int]]:
    """Character spans of the secrets in ``text``, merged and sorted."""
    if not text or len(text) < 8:
        return []
    if _any_secret().search(text) is None and _KEYWORDS.search(text) is None:
        return []
    spans: list[tuple[int, int]] = []
    library, keyword = _library()
    for pattern in (*library, *_OWN):
        for match in pattern.finditer(text):
            group = "s" if "s" in pattern.groupindex and match.group("s") is not None else 0
            start, end = match.span(group)
            if end > start:
                spans.append((start, end))
    spans.extend(m.span() for m in _BASE64_40.finditer(text) if _looks_like_aws_secret(m.group()))
    offset = 0
    for line in text.splitlines(keepends=True):
        if "=" in line or ":" in line:
            for found in keyword.analyze_line(filename="trace.txt", line=line, line_number=0):
                value = found.secret_value
                if value and len(value) >= 4:
                    at = line.find(value)
                    while at >= 0:
                        spans.append((offset + at, offset + at + len(value)))
                        at = line.find(value, at + 1)
        offset += len(line)
    return _merge(spans)


def _merge(spans: Iterable[tuple[int, int]]) -> list[tuple[int, int]]:
    merged: list[tuple[int, int]] = []
    for start, end in sorted(spans):
        if merged and start <= merged[-1][1]:
            merged[-1] = (merged[-1][0], max(end, merged[-1][1]))
        else:
            merged.append((start, end))
    return merged


def _mask(text: str, spans: list[tuple[int, int]]) -> str:
    if not spans:
        return text
    parts, last = [], 0
    for start, end in spans:
        parts.append(text[last:start])
        parts.append(re.sub(r"[^\r\n]", MASK, text[start:end]))
        last = end
    parts.append(text[last:])
    return "".join(parts)


def redact_text(text: str, known: Iterable[str] = ()) -> str:
    """``text`` with every detected secret, and every occurrence of a ``known`` secret value,
    masked character for character."""
    return _mask(text, _merge(secret_spans(text) + _occurrences(text, known)))


def secrets_in(texts: Iterable[str]) -> set[str]:
    """The secret values found in ``texts`` (to mask them wherever else they are quoted)."""
    found: set[str] = set()
    for text in texts:
        found.update(text[s:e] for s, e in secret_spans(text) if e - s >= 6)
    return found


def redact_together(texts: Sequence[str], also: Iterable[str] = ()) -> list[str]:
    """``texts`` redacted as one body: a secret detected in any of them, or in ``also`` (strings
    whose secrets must be masked here too, such as a report's), is masked in all of them.
    Each text is scanned once."""
    spans = [secret_spans(text) for text in texts]
    known = {text[a:b] for text, found in zip(texts, spans, strict=True) for a, b in found if b - a >= 6}
    values = sorted(known | secrets_in(set(also)), key=len, reverse=True)
    out = []
    for text, found in zip(texts, spans, strict=True):
        out.append(_mask(text, _merge(found + _occurrences(text, values))))
    return out


def _occurrences(text: str, values: Iterable[str]) -> list[tuple[int, int]]:
    """The spans of every occurrence of each of ``values`` in ``text``."""
    spans = []
    for value in values:
        at = text.find(value)
        while at >= 0:
            spans.append((at, at + len(value)))
            at = text.find(value, at + 1)
    return spans


T = TypeVar("T")


def redact_value(value: T, known: Iterable[str] = ()) -> T:
    """Every string in a JSON-like value (dict keys included) redacted."""
    values = tuple(sorted(set(known), key=len, reverse=True))
    memo: dict[str, str] = {}

    def text(item: str) -> str:
        if item not in memo:
            memo[item] = redact_text(item, values)
        return memo[item]

    redacted: T = _walk(value, text)
    return redacted


def _walk(value: Any, text: Callable[[str], str]) -> Any:
    if isinstance(value, str):
        return text(value)
    if isinstance(value, dict):
        return {_walk(k, text): _walk(v, text) for k, v in value.items()}
    if isinstance(value, (list, tuple)):
        return [_walk(v, text) for v in value]
    return value


def strings_in(value: Any) -> list[str]:
    """Every string in a JSON-like value."""
    out: list[str] = []
    stack = [value]
    while stack:
        item = stack.pop()
        if isinstance(item, str):
            out.append(item)
        elif isinstance(item, dict):
            stack.extend(item.keys())
            stack.extend(item.values())
        elif isinstance(item, (list, tuple)):
            stack.extend(item)
    return out


def redact_report(report: Any) -> Any:
    """A copy of a ``Report`` with every string redacted (quotes keep their spans). A secret
    detected anywhere in the report is masked everywhere, also where a quote or an anchor cut
    it from the words that made it recognisable."""
    data = report.model_dump(mode="json")
    spans = {text: secret_spans(text) for text in set(strings_in(data))}
    known = tuple(sorted({text[a:b] for text, found in spans.items() for a, b in found if b - a >= 6},
                         key=len, reverse=True))

    def masked(text: str) -> str:
        found = list(spans[text]) if text in spans else secret_spans(text)
        for value in known:
            at = text.find(value)
            while at >= 0:
                found.append((at, at + len(value)))
                at = text.find(value, at + 1)
        return _mask(text, _merge(found))

    memo: dict[str, str] = {}
    return type(report).model_validate(_walk(data, lambda t: memo[t] if t in memo else memo.setdefault(t, masked(t))))
