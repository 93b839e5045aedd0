"""One source's evidence rows and texts, appended in trace order, with lookups that do not walk
them all: so grounding a claim costs about the same on the 10th edge of a chat as on the
10,000th.

* rows by key word (``rows_with_any``), by date and by clock time;
* the latest row stating a number (``supporting``): every number is filed under its magnitude
  (256 buckets per doubling, by its value and by its digits as written), and a claim looks only
  in the buckets that a supporting number could fall in, for each unit its family allows
  (``_quantity.reading_factors``); ``supports`` then decides, exactly as a full scan would;
* the latest text a pattern matches (``search``): a block of 64 texts joined is tested for a
  plain substring of the match first, and searched with the pattern (in C) only if it holds it;
  only a block that matches is read text by text. A string that appears nowhere still costs one
  substring test per block: the one cost here that grows with the upstream, at C speed.

Every lookup returns what a scan from the latest row or text backwards would return.
"""

from __future__ import annotations

import bisect
import heapq
import math
import re
from collections.abc import Callable, Iterable, Iterator

from ..edges import EvidenceText
from ._compare import reading_factors, stated_within, supports
from ._quantity import Quantity
from ._rows import Row

_PER_DOUBLING = 256
_ZERO = -(10**9)  # the bucket of 0 (and of numbers too small to tell from it)
_TINY = 1e-12
_JOIN = "\n\x00\n"
_BLOCK = 64  # texts searched at once


def _bucket(value: float) -> int:
    value = abs(value)
    return _ZERO if value < _TINY else math.floor(math.log2(value) * _PER_DOUBLING)


class EvidenceIndex:
    def __init__(self) -> None:
        self.rows: list[Row] = []
        self.texts: list[EvidenceText] = []
        self._by_key: dict[str, list[int]] = {}
        self._by_date: dict[tuple[int, int], list[int]] = {}
        self._by_clock: dict[str, list[int]] = {}
        self._numbers: dict[int, list[int]] = {}  # bucket -> positions of rows with a number in it
        self._buckets: list[int] = []  # the buckets in use, sorted
        self._blocks: list[str] = []  # every _BLOCK texts, joined (the last block may be open)
        self._folded: list[str] = []  # the same, case-folded

    def add_rows(self, rows: Iterable[Row]) -> None:
        for row in rows:
            at = len(self.rows)
            self.rows.append(row)
            for key in row.keys:
                self._by_key.setdefault(key, []).append(at)
            for month, day, _ in row.dates:
                self._by_date.setdefault((month, day), []).append(at)
            for clock in row.clocks:
                self._by_clock.setdefault(clock, []).append(at)
            for q in row.quantities:
                for bucket in {_bucket(q.value), _bucket(q.written)}:
                    found = self._numbers.get(bucket)
                    if found is None:
                        self._numbers[bucket] = found = []
                        bisect.insort(self._buckets, bucket)
                    if not found or found[-1] != at:
                        found.append(at)

    def add_text(self, text: EvidenceText) -> None:
        if len(self.texts) % _BLOCK == 0:
            self._blocks.append(text.text)
            self._folded.append(text.text.casefold())
        else:
            self._blocks[-1] += _JOIN + text.text
            self._folded[-1] += _JOIN + text.text.casefold()
        self.texts.append(text)

    def rows_with_any(self, keys: Iterable[str]) -> list[Row]:
        """Rows holding one of ``keys``, in trace order."""
        positions: set[int] = set()
        for key in keys:
            positions.update(self._by_key.get(key, ()))
        return [self.rows[at] for at in sorted(positions)]

    def latest_with_any(self, keys: Iterable[str]) -> Iterator[Row]:
        """Rows holding one of ``keys``, latest first, read lazily (a common word is in many rows)."""
        merged = heapq.merge(*(reversed(self._by_key.get(key, [])) for key in keys), reverse=True)
        last = -1
        for at in merged:
            if at != last:
                last = at
                yield self.rows[at]

    def rows_with_date(self, month: int, day: int) -> list[Row]:
        return [self.rows[at] for at in self._by_date.get((month, day), ())]

    def rows_with_clock(self, clock: str) -> list[Row]:
        return [self.rows[at] for at in self._by_clock.get(clock, ())]

    def supporting(self, claim: Quantity, where: Callable[[Row], bool] | None = None) -> tuple[Row, Quantity] | None:
        """The latest row (of those ``where`` accepts) with a number that ``supports`` the claim's,
        and the first such number of it."""
        low = abs(claim.value) - stated_within(claim)
        high = abs(claim.value) + stated_within(claim) + claim.step
        positions: set[int] = set()
        for factor in reading_factors(claim):
            first = _bucket(low / factor) - 1 if low > _TINY else _ZERO
            last = _bucket(high / factor) + 1
            for bucket in self._buckets[bisect.bisect_left(self._buckets, first):
                                        bisect.bisect_right(self._buckets, last)]:
                positions.update(self._numbers[bucket])
        for at in sorted(positions, reverse=True):
            if where is not None and not where(self.rows[at]):
                continue
            hit = next((e for e in self.rows[at].quantities if supports(claim, e)), None)
            if hit is not None:
                return self.rows[at], hit
        return None

    def texts_with(self, needle: str) -> Iterator[EvidenceText]:
        """The texts holding ``needle`` (any case), latest first; blocks without it are skipped whole."""
        folded = needle.casefold()
        for number in range(len(self._blocks) - 1, -1, -1):
            if folded in self._folded[number]:
                yield from (t for t in reversed(self.texts[number * _BLOCK:(number + 1) * _BLOCK])
                            if folded in t.text.casefold())

    def search(self, pattern: re.Pattern[str], needle: str = "") -> tuple[EvidenceText, re.Match[str]] | None:
        """The latest text ``pattern`` matches, and its first match there: each block of texts is
        searched at once (in C), from the latest, and only a block that matches is read text by
        text. ``needle``, a string every match contains (any case), skips blocks without it."""
        folded = needle.casefold() if needle.isascii() else ""
        for number in range(len(self._blocks) - 1, -1, -1):
            if folded not in self._folded[number] or pattern.search(self._blocks[number]) is None:
                continue
            for text in reversed(self.texts[number * _BLOCK:(number + 1) * _BLOCK]):
                m = pattern.search(text.text)
                if m is not None:
                    return text, m
        return None
