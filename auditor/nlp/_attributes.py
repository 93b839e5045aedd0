"""The pipeline's own attribute rules (tag map and exceptions), applied by table lookup.

spaCy's ``attribute_ruler`` runs a general ``Matcher`` over every token of every doc; for the
small pipelines that is a third of the parse. Its rules here are all one or two tokens long,
tested on ``TAG``, ``LOWER``, ``DEP`` and ``IS_SPACE`` with plain, ``IN``, ``NOT_IN`` and
``REGEX`` values, so they compile into dictionaries keyed by tag and by lower-cased form.
The compiled rules are applied in the component's own order, later rules winning, with the
component's own ``set_token_attrs``: the result is the same annotation. A pipeline with a
rule outside that subset gets ``None`` and keeps its component.
"""

from __future__ import annotations

import re
from collections import defaultdict
from collections.abc import Callable, Iterable
from dataclasses import dataclass
from typing import Any

_ATTRS = frozenset({"TAG", "LOWER", "DEP", "IS_SPACE"})
_OPERATORS = frozenset({"IN", "NOT_IN", "REGEX"})

Test = Callable[[Any], bool]


@dataclass(frozen=True)
class _Rule:
    order: int
    tests: tuple[tuple[Test, ...], ...]  # one tuple of tests per token of the pattern
    index: int
    attrs: dict[Any, Any]

    def target(self, doc: Any, start: int) -> int | None:
        """The token the rule annotates when its pattern matches at ``start``, else None."""
        if start + len(self.tests) > len(doc):
            return None
        for offset, tests in enumerate(self.tests):
            token = doc[start + offset]
            if not all(test(token) for test in tests):
                return None
        return start + self.index % len(self.tests)


def _value_test(getter: Callable[[Any], Any], value: Any) -> Test | None:
    if not isinstance(value, dict):
        return lambda token: bool(getter(token) == value)
    if not set(value) <= _OPERATORS or len(value) != 1:
        return None
    (operator, operand), = value.items()
    if operator == "IN":
        allowed = frozenset(operand)
        return lambda token: getter(token) in allowed
    if operator == "NOT_IN":
        banned = frozenset(operand)
        return lambda token: getter(token) not in banned
    pattern = re.compile(operand)
    return lambda token: bool(pattern.search(str(getter(token))))


_GETTERS: dict[str, Callable[[Any], Any]] = {
    "TAG": lambda token: token.tag_, "LOWER": lambda token: token.lower_,
    "DEP": lambda token: token.dep_, "IS_SPACE": lambda token: token.is_space,
}


def _compile_token(spec: dict[str, Any]) -> tuple[Test, ...] | None:
    if not spec or not set(spec) <= _ATTRS:
        return None
    tests = [_value_test(_GETTERS[name], value) for name, value in spec.items()]
    return None if any(t is None for t in tests) else tuple(t for t in tests if t is not None)


class CompiledAttributes:
    """``attribute_ruler`` rules indexed by an exact value (or ``IN`` list) of their first token."""

    def __init__(self, rules: Iterable[_Rule], first: Iterable[dict[str, Any]], set_attrs: Any) -> None:
        self._index: dict[str, dict[Any, list[_Rule]]] = {name: defaultdict(list) for name in _GETTERS}
        self._long: dict[str, dict[Any, list[_Rule]]] = {name: defaultdict(list) for name in _GETTERS}
        self._general: list[_Rule] = []
        self._general_long: list[_Rule] = []
        self._attrs: dict[int, dict[Any, Any]] = {}
        self._single: dict[tuple[str, str, str, bool], tuple[int, ...]] = {}
        for rule, spec in zip(rules, first, strict=True):
            self._attrs[rule.order] = rule.attrs
            index, general = (self._index, self._general) if len(rule.tests) == 1 else (self._long, self._general_long)
            for name in _GETTERS:
                value = spec.get(name)
                if isinstance(value, (str, bool)) or (isinstance(value, dict) and "IN" in value):
                    for each in value["IN"] if isinstance(value, dict) else (value,):
                        index[name][each].append(rule)
                    break
            else:
                general.append(rule)
        self._set_attrs = set_attrs

    def __call__(self, doc: Any) -> Any:
        hits: list[tuple[int, int, int]] = []
        seen = self._single
        for start, token in enumerate(doc):
            key = (token.tag_, token.lower_, token.dep_, token.is_space)
            if key not in seen:  # one-token rules read only these four values
                seen[key] = tuple(rule.order for rule in self._candidates(token) if rule.target(doc, start) is not None)
            hits.extend((order, start, start) for order in seen[key])
            for rule in self._candidates(token, longer=True):
                target = rule.target(doc, start)
                if target is not None:
                    hits.append((rule.order, start, target))
        hits.sort()
        for order, _, target in hits:
            self._set_attrs(doc[target], self._attrs[order])
        return doc

    def _candidates(self, token: Any, longer: bool = False) -> list[_Rule]:
        general, index = (self._general_long, self._long) if longer else (self._general, self._index)
        out = list(general)
        for name, table in index.items():
            out.extend(table.get(_GETTERS[name](token), ()))
        return out


def compile_attribute_ruler(component: Any) -> CompiledAttributes | None:
    """The component's rules as lookup tables, or None when a rule is outside the compiled subset."""
    try:
        from spacy.tokens._retokenize import set_token_attrs
    except ImportError:
        return None
    rules: list[_Rule] = []
    firsts: list[dict[str, Any]] = []
    attrs, indices = getattr(component, "attrs", None), getattr(component, "indices", None)
    matcher = getattr(component, "matcher", None)
    if attrs is None or indices is None or matcher is None:
        return None
    for order in range(len(attrs)):
        entry = matcher.get(str(order))
        if entry is None:
            return None
        for pattern in entry[1]:
            tests = [_compile_token(spec) for spec in pattern]
            if not pattern or len(pattern) > 2 or any(t is None for t in tests):
                return None
            rules.append(_Rule(order, tuple(t for t in tests if t is not None), indices[order], attrs[order]))
            firsts.append(pattern[0])
    return CompiledAttributes(rules, firsts, set_token_attrs)
