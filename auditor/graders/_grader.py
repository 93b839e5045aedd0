"""The grader registry. A grader is registered under a versioned name
(``edge-audit.constraint-grader.v1``) as a factory taking its options. It picks the
deterministic findings it decides, builds one job per edge from them, and turns the model's
structured output into per-item judgements, verifying every quote on the way."""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any, Literal, Protocol

from pydantic import BaseModel, create_model

from ..checks import Finding, Status
from ..edges import Edge, EventText, Quote
from ..errors import ConfigError
from ..options import Options, OptionsT, validate_options
from ..plugins import load_plugins
from ._types import Item, Job, UnmeasuredReason
from ._verify import is_none, verify_quote


@dataclass(frozen=True)
class Judged:
    """A grader's answer on one item, after verification (no rubric or provenance yet)."""

    item: Item
    verdict: str
    status: Status
    reason: str
    quote: Quote | None = None
    quote_verified: bool | None = None
    grader_quote: str | None = None
    unmeasured_reason: UnmeasuredReason | None = None
    problem: str | None = None


@dataclass(frozen=True)
class Selection:
    """The deterministic findings a grader decides: those of one check (its registry name, from
    the check's module) with one of some verdicts."""

    check: str
    verdicts: frozenset[str] = frozenset({"needs_semantic"})

    def __call__(self, finding: Finding) -> bool:
        return finding.check == self.check and finding.verdict in self.verdicts


class Grader(Protocol):
    name: str
    output: type[BaseModel]
    selects: Selection

    def output_for(self, job: Job) -> type[BaseModel]: ...

    def job(self, edge: Edge, findings: Sequence[tuple[str, Finding]]) -> Job: ...

    def judge(self, job: Job, output: BaseModel) -> list[Judged]: ...


@dataclass(frozen=True)
class GraderEntry:
    factory: Callable[[Any], Grader]
    options: type[Options]


_GRADERS: dict[str, GraderEntry] = {}


def register_grader(name: str, options: type[OptionsT]) -> Callable[
        [Callable[[OptionsT], Grader]], Callable[[OptionsT], Grader]]:
    """Register ``factory(options)`` under ``name``, its options validated by ``options``."""

    def decorate(factory: Callable[[OptionsT], Grader]) -> Callable[[OptionsT], Grader]:
        _GRADERS[name] = GraderEntry(factory, options)
        return factory

    return decorate


def registered_graders() -> list[str]:
    load_plugins("edge_audit.graders")
    return sorted(_GRADERS)


def _entry(name: str) -> GraderEntry:
    load_plugins("edge_audit.graders")
    try:
        return _GRADERS[name]
    except KeyError:
        raise ConfigError(f"unknown grader {name!r}; registered: {', '.join(registered_graders())}") from None


def grader_options(name: str) -> type[Options]:
    """The options model of the grader ``name``."""
    return _entry(name).options


def make_grader(name: str, options: Mapping[str, Any]) -> Grader:
    entry = _entry(name)
    return entry.factory(validate_options("grader", name, entry.options, options))


def for_items(grades: type[BaseModel], judgement: type[BaseModel], job: Job) -> type[BaseModel]:
    """``grades`` with ``item_id`` narrowed to the job's item ids, so that a structured-output
    grammar (or the validator, with a re-ask) holds the model to ids that exist. The field
    names, descriptions and model names are unchanged."""
    ids = tuple(item.item_id for item in job.items)
    one_of: Any = Literal[ids]  # a type built at run time: typed as Any for every checker
    narrowed: Any = create_model(judgement.__name__, __base__=judgement, __doc__=judgement.__doc__,
                                 item_id=(one_of, judgement.model_fields["item_id"]))
    model: type[BaseModel] = create_model(grades.__name__, __base__=grades, __doc__=grades.__doc__,
                                          judgements=(list[narrowed], grades.model_fields["judgements"]))
    return model


def cap(text: str, limit: int) -> str:
    """At most ``limit`` characters: the head and the tail, with the cut marked."""
    if len(text) <= limit:
        return text
    half = max(limit // 2 - 10, 1)
    return f"{text[:half]}\n[... {len(text) - 2 * half} characters cut ...]\n{text[-half:]}"


def judge_items(job: Job, judgements: Sequence[Any], *, status_of: Mapping[str, Status],
                needs_quote: frozenset[str], blocks_for: Callable[[Any], tuple[EventText, ...] | None]) -> list[Judged]:
    """Map one structured output onto the job's items.

    A verdict in ``needs_quote`` stands only with a verified quote; any other verdict stands
    with no quote, and with a quote only if it verifies. An item the output does not answer
    is a grader error; an unverified verdict keeps the grader's text for review."""
    by_id: dict[str, Any] = {}
    for j in judgements:
        by_id.setdefault(j.item_id, j)
    out = []
    for item in job.items:
        j = by_id.get(item.item_id)
        if j is None:
            out.append(Judged(item, "unmeasured", "unmeasured", "the grader's output has no judgement for this item",
                              unmeasured_reason="grader_error"))
            continue
        quote_text = str(j.quote)
        check = None
        if is_none(quote_text):
            if j.verdict not in needs_quote:
                out.append(Judged(item, j.verdict, status_of[j.verdict], j.reason, None, None, None))
                continue
            problem = "no quote given"
        elif (blocks := blocks_for(j)) is None:
            problem = "the quote names no evidence block shown to the grader"
        else:
            check = verify_quote(quote_text, blocks, item.text)
            if check.verified:
                out.append(Judged(item, j.verdict, status_of[j.verdict], j.reason, check.quote, True, quote_text))
                continue
            problem = check.problem or "not verified"
        out.append(Judged(item, "unverified", "unmeasured", j.reason, check.quote if check else None, False,
                          quote_text, "unverified", f"grader said {j.verdict!r}; {problem}"))
    return out
