"""A rule restated across the clauses of one unit, no clause carrying it alone: softened when a
hedge or a weaker modal stands in a statement that names one of the rule's keys."""

from __future__ import annotations

import bisect
import re
from collections.abc import Sequence

from ..nlp import CUE_PATTERN, CUE_TABLE, HEDGE_PATTERN, Directive, Strength, key_positions
from ._clause_words import is_negated, other_value, own_numbers
from ._permissions import PERMISSION, WAIVERS, ok_phrases
from ._reading import Reading, Unit

#: A fenced code block: code states values, not strength.
FENCED = re.compile(r"```.*?(?:```|\Z)", re.DOTALL)
#: Where one statement of a unit ends: a sentence end, a semicolon, a line break, or the end of
#: a JSON item ("...", "..." or "key": 10, "...").
_STATEMENT_END = re.compile(r"[.!?](?=\s|$)|;|\n|\"\s*[,}\]]|,\s*(?=\")")


def _names_rule(c: Directive, whole: str, ends: Sequence[tuple[int, int]], at: int,
                seen: dict[tuple[int, int], bool]) -> bool:
    """Whether the statement of ``whole`` holding offset ``at`` names one of the rule's keys: a
    hedge in a sentence, clause or JSON item of its own is said of something else ("References in
    APA 7, please. Keep the background to about 600 words."). ``ends`` are the unit's statement
    ends (start, end), found once; ``seen`` keeps each statement's answer."""
    k = bisect.bisect_left(ends, (at, -1))
    span = (ends[k - 1][1] if k > 0 else 0, ends[k][0] if k < len(ends) else len(whole))
    if span not in seen:
        seen[span] = bool(key_positions(whole[span[0]:span[1]], c.keys))
    return seen[span]


def hedged_across(c: Directive, units: Sequence[Unit]) -> Reading | None:
    """A rule restated across the clauses of one unit, under a hedge or a weaker modal ("Each lesson
    should end with a few practice questions (3 is ideal)"): softened. Only for an obligation, a
    unit that carries half of the rule's keys, and no permission, waiver or negation in it, which
    could turn it the other way."""
    if c.polarity != "obligation" or c.strength < Strength.ABSOLUTE:
        return None
    total = sum(k.weight for k in c.keys) or 1.0
    rule_numbers = own_numbers(c)
    for n, unit in enumerate(units):
        whole = FENCED.sub(" ", unit.words).lower()
        if sum(k.weight for k in unit.hit) / total < 0.5 or is_negated(whole):
            continue
        cues = [m.group(0) for m in CUE_PATTERN.finditer(whole)]
        if any(q in PERMISSION or q in WAIVERS for q in cues) or ok_phrases(whole):
            continue
        ends = [(m.start(), m.end()) for m in _STATEMENT_END.finditer(whole)]
        seen: dict[tuple[int, int], bool] = {}
        weaker = next((m for m in CUE_PATTERN.finditer(whole) if CUE_TABLE[m.group(0)][0] == Strength.RECOMMENDED
                       and _names_rule(c, whole, ends, m.start(), seen)), None)
        hedge = next((m for m in HEDGE_PATTERN.finditer(whole) if not other_value(whole, m, rule_numbers)
                      and _names_rule(c, whole, ends, m.start(), seen)), None) if weaker is None else None
        if weaker or hedge:
            said = weaker.group(0) if weaker else hedge.group(0) if hedge else ""
            return Reading("softened", f"softened: upstream {c.strength.name.lower()} {c.polarity} ({c.cue!r}) -> "
                                       f"restated across clauses under {said!r}", units=(n,))
    return None
