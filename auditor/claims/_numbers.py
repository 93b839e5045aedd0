"""Grounding a number, a date or a clock time against the evidence rows.

In order, the first that applies decides:

1. **aligned**: evidence rows that name the claim's subject (an identifier of the claim's
   segment, such as ``INV-90418``, ``m3v2``, ``gamma.example``) and give a number of the same
   family: one of them states the claim's number -> ``grounded``; none does -> ``contradicted``;
2. **stated**: some evidence states the number (units, rounding and hedges understood) ->
   ``grounded``;
3. **derived**: simple arithmetic on visible numbers gives it (sum, difference, product, ratio,
   percentage, percentage change, mean, a column total) -> ``grounded``, operands quoted;
4. **miscomputed**: the sentence computes it ("= ", "in total", "average", "12x faster") from
   numbers the evidence states, and the arithmetic does not give it -> ``contradicted``;
   Counts: "N <things>" is grounded by a visible table or JSON list of N records, and
   "N of M are <state>" by a table of M records of which N carry the state word (another
   number of them -> ``contradicted``);
5. **aligned on a word**: a structured row of tool output (a ``"key": value`` pair, a short
   ``key: value`` or table line) that shares a plain word with the claim ("disk", "total") gives
   another number of the same family -> ``contradicted``;
6. **not followed**: an amount, a count or a span when the evidence has two or more numbers of
   its kind (or the figure is rounded): they may give it by steps the search does not follow
   -> ``needs_semantic``;
7. otherwise ``invented`` (``unverifiable`` when the source's observations are only partly
   captured).

Dates match as (month, day[, year]); a date nothing states is ``needs_semantic`` (deadlines
are often computed from a policy). A clock time nothing states is ``invented``.
"""

from __future__ import annotations

import itertools
import re
from collections.abc import Iterable, Sequence
from dataclasses import dataclass

from ._claim import Claim
from ._compare import compatible, currencies, supports
from ._counting import lines_naming, list_items, records_with
from ._derive import close, columns, derive, far_apart
from ._index import EvidenceIndex
from ._limits import BOUND_STATED, RULE_STATED, ground_limit
from ._moments import clock_after, clock_minutes, days_between, timelines
from ._quantity import Quantity
from ._reach import span_between
from ._rows import Row, strong
from ._totals import named_total
from ._unstated import id_part, picked_sum, share_of_total
from ._verdicts import Verdict
from ._zones import zone_moved

_MAX_WEAK_ROWS = 32
_SHORT_VERSION = re.compile(r"\d+\.\d+")
_CONDITION = re.compile(r"\b(?:if|when|unless|once|whenever|until)\b", re.IGNORECASE)


@dataclass(frozen=True)
class NumberVerdict:
    verdict: Verdict
    reason: str
    row: Row | None = None
    span: tuple[int, int] | None = None
    operands: tuple[str, ...] = ()


def ground_number(claim: Claim, index: EvidenceIndex, tables: Sequence[Sequence[frozenset[str]]] = ()) -> NumberVerdict:
    rows = index.rows
    if claim.total is not None:
        return _ground_share(claim, tables)
    if claim.date is not None:
        return _ground_date(claim, index)
    if claim.subkind == "time":
        timed = index.rows_with_clock(claim.value or "")
        if timed:
            return NumberVerdict("grounded", "the same time appears", timed[-1])
        hours, minutes = (claim.value or "00:00").split(":")
        offset = index.search(re.compile(rf"(?<![\d:])0{{1,2}}:{hours}:{minutes}(?![\d:])"), f":{minutes}")
        if offset is not None:  # "22:05" into a recording is 00:22:05
            text, m = offset
            return NumberVerdict("grounded", f"{m.group(0)!r} in {text.event_id} gives it as minutes and seconds")
        later = clock_after(claim, index)
        if later is not None:
            return NumberVerdict("needs_semantic", f"the time {claim.text!r} appears nowhere, but it is {later}: it "
                                                   f"may have been worked out")
        moved = zone_moved(clock_minutes(claim.value or "00:00"), ((r.text, r.dates) for r in index.rows if r.clocks))
        if moved is not None:
            return NumberVerdict("needs_semantic", f"the time {claim.text!r} appears nowhere, but it is {moved}: it "
                                                   f"may be a visible time in another zone")
        return NumberVerdict("invented", f"the time {claim.text!r} appears nowhere")
    q = claim.quantity
    assert q is not None
    if claim.limit:
        limited = ground_limit(q.value, claim.keys, claim.items, rows)
        return NumberVerdict(*limited)
    if claim.fraction is not None:
        part, whole = claim.fraction
        if not close(q, part / whole * 100.0):
            return NumberVerdict("contradicted", f"its own fraction {part:g}/{whole:g} is "
                                                 f"{part / whole * 100.0:.1f}%, not {q.text}")
    strong_keys = {k for k in claim.keys if strong(k)}
    aligned = [r for r in index.rows_with_any(strong_keys) if _candidates(q, r)]
    if aligned:
        for row in reversed(aligned):
            hit = next((e for e in row.quantities if supports(q, e)), None)
            if hit is not None:
                return NumberVerdict("grounded", f"the row for {_names(strong_keys & row.keys)} states it", row,
                                     (hit.start, hit.end))
        single = [r for r in aligned if len(_candidates(q, r)) == 1 and (not q.bare or len(r.text) <= 120)
                  and (r.output or _reading(r)) and not r.request
                  and not far_apart(q.value, _candidates(q, r)[0].value)]
        if single:
            row = single[-1]
            other = _candidates(q, row)[0]
            if other.bare and not q.bare and not (q.currency and currencies(row.text) == {q.currency}):
                # a claim with a unit against a record's number without one: which of the record's
                # quantities it means is unknown (9 of 20 were right); an amount on a row whose one
                # currency is the claim's ("EUR      185.60") is an amount
                return NumberVerdict("needs_semantic", f"the row for {_names(strong_keys & row.keys)} gives "
                                                       f"{other.text!r}, a number without a unit, which may "
                                                       f"measure something else", row, (other.start, other.end))
            if claim.summed:  # "€518.6k of cost between them": the row's number may be one of the terms
                return NumberVerdict("needs_semantic", f"the row for {_names(strong_keys & row.keys)} gives "
                                                       f"{other.text!r}, which the sentence's total may include",
                                     row, (other.start, other.end))
            return NumberVerdict("contradicted", f"the row for {_names(strong_keys & row.keys)} gives {other.text!r}",
                                 row, (other.start, other.end))
    stated_here = index.supporting(q, _states)
    loose = stated_here is not None and _loose(claim, stated_here[0])
    if stated_here is None or loose:
        ruled = index.supporting(q)
        if ruled is not None and not _states(ruled[0]) and not _loose(claim, ruled[0]):
            return NumberVerdict("needs_semantic", "the number appears only in a message's rule, condition or "
                                                   "bound, or in a sentence too long to read as one value", ruled[0],
                                 (ruled[1].start, ruled[1].end))
    if stated_here is not None and not loose:
        row, hit = stated_here
        if claim.universal:
            return NumberVerdict("needs_semantic", "the count appears, but not that every one of them is as "
                                                   "the sentence says", row, (hit.start, hit.end))
        return NumberVerdict("grounded", "the same number appears", row, (hit.start, hit.end))
    if q.family == "count" or q.bare:
        counted = next((t for t in reversed(tables) if len(t) == q.value), None)
        if counted is not None:
            return NumberVerdict("grounded", f"a visible table or list has {len(counted)} records")
    by_counting = _counted(claim, q, index, tables)
    if by_counting is not None:
        return NumberVerdict("grounded", by_counting)
    between = days_between(q, claim.near_dates)
    if between is not None:
        return NumberVerdict("grounded", between)
    arithmetic = claim.computed or q.family in ("percent", "ratio")  # derive looks at nothing else
    stated = [e for r in rows for e in r.quantities] if arithmetic else []
    derived = derive(q, claim.operands, stated, columns(rows), claim.computed, claim.relation) if arithmetic else None
    if derived is not None and not derived.sure:
        return NumberVerdict("needs_semantic", f"two nearby numbers give it ({derived.text}), but the sentence "
                                               f"names neither; which it means needs the semantic grader")
    if derived is not None:
        return NumberVerdict("grounded", f"derived: {derived.text}", None, None, (derived.text,))
    total = named_total(q, claim.names, index.rows_with_any(claim.names), close, claim.computed) \
        if claim.names else None
    if total is not None:
        return NumberVerdict(total.verdict, total.reason, total.rows[-1])
    visible = [o for o in claim.operands if o.family == q.family and not _year(o)
               and any(supports(o, e) for e in stated)]
    rated = any(o.family == "percent" for o in claim.operands)  # "~$66 after the 50% discount": steps not followed
    if claim.summed and len(visible) >= 2 and not rated:
        names = tuple(o.text for o in visible)
        return NumberVerdict("needs_semantic", f"computed from {', '.join(names)}, but no arithmetic on them gives "
                                               f"it: the sum may hold terms the sentence does not show", None, None,
                             names)
    measuring = (r for r in index.latest_with_any(claim.keys) if not r.request and _measures(r, q, claim.keys)
                 and len(_same_measure(q, r)) == 1 and not _several_columns(r))
    # the row naming most of what the claim names, then the shortest ("total_eur": 472 over its whole
    # record), then the latest
    rows_measuring = list(itertools.islice(measuring, _MAX_WEAK_ROWS))
    rows_measuring = [r for r in rows_measuring if not far_apart(q.value, _same_measure(q, r)[0].value)]
    weak = max(rows_measuring, key=lambda r: (len(claim.keys & r.keys), -len(r.text)), default=None)
    if weak is not None:
        row = weak
        other = _same_measure(q, row)[0]
        named = _names(claim.keys & row.keys)
        # each number once: a "key": value pair and the object holding it are two rows with one number
        values = list({(r.field_index, m.start): m.value for r in rows_measuring
                       if claim.keys & r.keys == claim.keys & row.keys for m in _same_measure(q, r)[:1]}.values())
        if len(values) > 1 and close(q, sum(values)):  # "£40.00 in replacement costs" over three "replacement" rows
            return NumberVerdict("grounded", f"the {len(values)} values of {named} in the evidence sum to it", row)
        if other.bare and other.written == q.written:  # "5 years" and a bare 5: the same number, the unit unsaid
            return NumberVerdict("needs_semantic", f"{named} is {other.text!r} in the evidence, the same number in "
                                                   f"another unit or none", row, (other.start, other.end))
        return NumberVerdict("contradicted", f"{named} is {other.text!r} in the evidence", row, (other.start, other.end))
    if loose:
        return NumberVerdict("needs_semantic", "the number appears, but not with what the sentence counts")
    if claim.threshold:
        return NumberVerdict("needs_semantic", f"{claim.text!r} names a threshold no evidence states; the rule may "
                                               f"come from outside the trace")
    if q.bare and _SHORT_VERSION.fullmatch(q.text):
        found = index.search(re.compile(rf"(?<![\w.])v?{re.escape(q.text)}\.\d+\b"), q.text)
        if found is not None:  # "toolchain 1.79" is rustc 1.79.0
            return NumberVerdict("grounded", f"the version {found[1].group(0)} in {found[0].event_id} begins with it")
    if claim.fraction is not None:  # "331/397 (83.4%)": the work is shown; whether 397 is the right whole is not
        return NumberVerdict("needs_semantic", f"{claim.text!r} is its own fraction, which no evidence states; "
                                               f"whether the fraction counts the right things needs the grader")
    id_named = id_part(q, index)
    if id_named is not None:
        return NumberVerdict("needs_semantic", f"{q.text!r} appears nowhere as a number, but it ends the identifier "
                                               f"{id_named!r}, which it may name (\"store 77\" for STORE-077)")
    table_columns = columns(rows)
    picked = picked_sum(q, table_columns)
    if picked is not None:
        return NumberVerdict("needs_semantic", f"{q.text!r} appears nowhere, but it is the sum of {picked}: whether "
                                               f"those are the rows the sentence means needs the grader")
    share = share_of_total(q, table_columns, [r.quantities for r in rows if r.structured])
    if share is not None:
        return NumberVerdict("needs_semantic", f"{q.text!r} appears nowhere, but it is the share of {share}: whether "
                                               f"that is the share the sentence means needs the grader")
    own = _from_own_sentence(claim, q, arithmetic, index)
    if own is not None:
        return NumberVerdict("needs_semantic", f"{q.text!r} appears nowhere, but {own}, which no evidence states as "
                                               f"such: whether they hold is for their own findings")
    unfollowed = _unfollowed(claim, q, index, stated or (e for r in rows for e in r.quantities))
    if unfollowed is not None:
        return NumberVerdict("needs_semantic", unfollowed)
    if span_between(q, timelines(index, claim)):
        return NumberVerdict("needs_semantic", f"{claim.text!r} appears nowhere, but it is the time between two "
                                               f"visible dates or times: it may have been worked out from them")
    return NumberVerdict("invented", f"{claim.text!r} appears in no tool call and no upstream message, and no "
                                     f"arithmetic on visible numbers gives it")


def _from_own_sentence(claim: Claim, q: Quantity, arithmetic: bool, index: EvidenceIndex) -> str | None:
    """How the claim's number follows from the other numbers of its own sentence, if it does: the
    same amount in another unit as the evidence states it ("2,610 lb or about 1,180 kg", 2610 in a
    manifest: two numbers nothing states do not excuse each other) or simple arithmetic on them
    ("320.7 MWh, up about 1.9% on ... (314.7 MWh)"). Then the claim stands or falls with them."""
    converted = next((o for o in claim.operands if o.family == q.family and not o.bare and o.written
                      and abs(o.value / o.written - q.value / q.written) > 1e-9 * abs(q.value / q.written)
                      and supports(q, o) and index.supporting(o) is not None), None) \
        if q.written and not q.bare else None
    if converted is not None:
        return f"it is {converted.text!r} of its own sentence in another unit"
    derived = derive(q, (), claim.operands, [], claim.computed, claim.relation) if arithmetic else None
    # the sentence's own numbers: both operands are named, so any derivation is sure
    return f"it follows from its own sentence's numbers ({derived.text})" if derived is not None else None


def _counted(claim: Claim, q: Quantity, index: EvidenceIndex,
             tables: Sequence[Sequence[frozenset[str]]]) -> str | None:
    """How counting the evidence gives the claim's count (``_counting``), if it does."""
    if q.family != "count" or q.noun is None or q.step != 1 or q.approx or q.value < 1:
        return None
    n = int(q.value)
    names = [k for k in claim.keys if strong(k) and any(ch.isalpha() for ch in k)]
    lines = lines_naming(n, names, index.texts_with)
    if lines is not None:
        return f"{n} lines of {lines[1].event_id} name {lines[0]}"
    size = records_with(n, q.noun, tables)
    if size is not None:
        return f"{n} of the {size} records of a visible table say {q.noun}"
    listed = list_items(n, q.noun, index.texts_with(q.noun.rstrip("s")))
    if listed is not None:
        return f"{listed.event_id} lists {n} {q.noun}s"
    return None


def _unfollowed(claim: Claim, q: Quantity, index: EvidenceIndex, stated: Iterable[Quantity]) -> str | None:
    """Why a number no evidence states may still come from the evidence, by steps this pass does
    not follow (then it is no sign of invention). Not for a percentage or a ratio: one division or
    one change gives those, and ``derive`` tried them. For an amount, a count or a span: the
    evidence has two or more numbers of its kind, which a sum, a count or a conversion the search
    does not try may give it from ("£11,280.00 inc VAT"; not "$20.00" where no price is visible;
    on the labelled sets two in three of the numbers so routed were grounded or miscomputed, not
    invented), or it is a rounded figure; for an amount also, the evidence gives other amounts for
    what it is about (a total of its records)."""
    if q.family in ("percent", "ratio"):
        return None
    kin = _kin(q, stated)
    if kin >= 2:
        how = "the sentence computes it" if claim.computed else "the evidence has numbers of its kind"
        return f"{claim.text!r} appears nowhere, but {how}: it may come from them by steps the arithmetic " \
               f"search does not reproduce"
    if q.approx and (kin >= 1 or any(r.quantities or r.clocks for r in index.rows if not r.request)):
        return f"{claim.text!r} is a rounded figure no evidence states; it may round a computed one"
    if q.family != "money":
        return None
    about = next((r for r in itertools.islice(index.latest_with_any(k for k in claim.keys if len(k) >= 4 or strong(k)),
                                              _MAX_WEAK_ROWS) if [e for e in _candidates(q, r) if e.family == q.family]),
                 None)
    if about is not None:
        return (f"the evidence gives other numbers for {_names(claim.keys & about.keys)}; {claim.text!r} may be "
                f"computed from them")
    return None


def _kin(q: Quantity, stated: Iterable[Quantity]) -> int:
    """How many distinct evidence numbers (0, 1 or 2: read only as far as needed) are of the
    claim's kind; for an amount, none unless one of them is an amount ("5 × 4 visits" is no price);
    for a count, only whole numbers ("31.4" counts nothing)."""
    seen: set[float] = set()
    money = False
    for e in stated:
        if q.family == "count" and not float(e.value).is_integer():
            continue
        if e.family == q.family or e.bare and q.family in ("money", "count", None):
            seen.add(e.value)
            money = money or e.family == "money"
            if len(seen) == 2 and (money or q.family != "money"):
                break
    return 0 if q.family == "money" and not money else min(len(seen), 2)


def _year(q: Quantity) -> bool:
    return q.bare and q.step == 1 and 1900 <= q.value <= 2100


def _names(keys: Iterable[str]) -> str:
    return ", ".join(sorted(keys))


def _candidates(q: Quantity, row: Row) -> list[Quantity]:
    """The row's numbers that could measure what the claim measures: the same unit family, or a
    bare number of a structured row of tool output (a table or JSON row); never a file's line number."""
    named = currencies(row.text) if q.currency else frozenset()
    other = bool(named) and q.currency not in named  # "SUS-4452 ... GBP 185.60" is no amount in euros
    return [e for e in row.quantities if compatible(q, e) and not e.locator and not (e.bare and q.bare and abs(e.value) < 2)
            and (e.family == q.family or e.bare and row.structured and not other) and (_year(q) or not _year(e))]


def _ground_share(claim: Claim, tables: Sequence[Sequence[frozenset[str]]]) -> NumberVerdict:
    """"5 of 6 are Running": a table of 6 records, 5 of which carry the state word."""
    assert claim.quantity is not None and claim.total is not None
    n, total, state = int(claim.quantity.value), claim.total, claim.keys
    for table in reversed(tables):
        having = sum(1 for record in table if record & state)
        if len(table) == total and having == n:
            return NumberVerdict("grounded", f"{n} of the {total} records say {_names(state)}")
        if len(table) == total and state and having:
            return NumberVerdict("contradicted", f"{having} of the {total} records say {_names(state)}, not {n}")
    return NumberVerdict("needs_semantic", f"no visible table of {total} records to count {_names(state)} in")


def _measures(row: Row, q: Quantity, keys: frozenset[str]) -> bool:
    """A row that can give the claim's subject another value: a record of tool output (any line
    of it for a count; only a JSON pair for a bare number), or one
    short sentence sharing a word of four letters or more (or an identifier) with the claim that
    states no rule or condition ("If disk passes 95%, page me" is a threshold, not a reading)."""
    if q.bare:  # a bare number ("3.8/5") only against the value of a '"key": value' pair
        return row.text.startswith('"')
    if row.structured or row.output and q.family == "count":
        return True
    return any(len(k) >= 4 or strong(k) for k in keys & row.keys) and _reading(row)


def _loose(claim: Claim, row: Row) -> bool:
    """A row that states the claim's number but names none of what the claim counts."""
    return claim.keyed and not claim.keys & row.keys


def _states(row: Row) -> bool:
    """A row whose numbers can ground a claim's: tool output, a call's arguments, or a message's
    sentence that reads a value (``_reading``; a sentence over 200 characters reads none: without
    the limit, two verdicts on the read sets moved away from their labels and none towards)."""
    return row.output or row.request or _reading(row)


def _reading(row: Row) -> bool:
    """A row of prose that can give a subject's value: one short sentence that states no rule, no
    condition and no bound ("If disk passes 95%, page me", "post updates every 30 min", "p95 under
    300 ms", "Nothing above €40 per head" are no readings)."""
    return len(row.text) <= 200 and RULE_STATED.search(row.text) is None and _CONDITION.search(row.text) is None \
        and BOUND_STATED.search(row.text) is None


def _several_columns(row: Row) -> bool:
    """A table row of several numbers: which column a word-aligned claim means is not known."""
    return row.structured and not row.text.startswith(('"', "{")) and len(row.quantities) > 1


def _same_measure(q: Quantity, row: Row) -> list[Quantity]:
    """Numbers of the row in the claim's own unit family, the value of a ``"key": value`` pair,
    or for a count ("661 restocked") the bare cell of a table row that names the counted noun;
    a year measures only a year."""
    pair = row.text.startswith('"')
    named = q.family == "count" and row.structured and q.noun is not None and any(
        k.startswith(q.noun) for k in row.keys)
    return [e for e in row.quantities if compatible(q, e) and (e.family == q.family or (pair or named) and e.bare)
            and (q.family != "count" or e.noun == q.noun or named and e.bare) and (_year(q) or not _year(e))]


def _ground_date(claim: Claim, index: EvidenceIndex) -> NumberVerdict:
    assert claim.date is not None
    month, day, year = claim.date
    for row in reversed(index.rows_with_date(month, day)):
        for m, d, y in row.dates:
            if (m, d) == (month, day) and (year is None or y is None or y == year):
                return NumberVerdict("grounded", "the same date appears", row)
    return NumberVerdict("needs_semantic", f"no evidence states {claim.text!r}; it may be computed from a rule")
