"""Flips between two reports: only what changed, by item identity."""

from __future__ import annotations

from typing import Literal

from pydantic import BaseModel, ConfigDict

from ._items import Item, ItemKind

FlipKind = Literal["regressed", "unexpected_pass", "new", "removed"]
FLIP_KINDS: tuple[FlipKind, ...] = ("regressed", "unexpected_pass", "new", "removed")


class Flip(BaseModel):
    """One delta. ``old``/``new`` are ``status (verdict)`` on each side, or None where absent."""

    model_config = ConfigDict(frozen=True, extra="forbid")

    flip: FlipKind
    kind: ItemKind
    key: str
    label: str
    old: str | None
    new: str | None
    passed: bool = False


class FlipsResult(BaseModel):
    model_config = ConfigDict(frozen=True, extra="forbid")

    old: str
    new: str
    unchanged: int
    counts: dict[str, int]
    flips: list[Flip]

    @property
    def regressed(self) -> bool:
        return self.counts.get("regressed", 0) > 0


def _state(item: Item) -> str:
    return item.status if item.verdict == item.status else f"{item.status} ({item.verdict})"


def compare(old: list[Item], new: list[Item], *, old_name: str = "old", new_name: str = "new") -> FlipsResult:
    """The deltas from ``old`` to ``new``: an item whose pass bit went from true to false has
    ``regressed``, from false to true ``unexpected_pass`` (suspicious until explained); items on one
    side only are ``new`` or ``removed``. Items whose pass bit held are counted, not listed."""
    before = {i.key: i for i in old}
    after = {i.key: i for i in new}
    flips: list[Flip] = []
    unchanged = 0
    for key, item in after.items():
        prior = before.get(key)
        if prior is None:
            flips.append(Flip(flip="new", kind=item.kind, key=key, label=item.label, old=None, new=_state(item),
                              passed=item.passed))
        elif prior.passed and not item.passed:
            flips.append(Flip(flip="regressed", kind=item.kind, key=key, label=item.label, old=_state(prior),
                              new=_state(item)))
        elif item.passed and not prior.passed:
            flips.append(Flip(flip="unexpected_pass", kind=item.kind, key=key, label=item.label,
                              old=_state(prior), new=_state(item), passed=True))
        else:
            unchanged += 1
    flips += [Flip(flip="removed", kind=i.kind, key=k, label=i.label, old=_state(i), new=None, passed=i.passed)
              for k, i in before.items() if k not in after]
    order = {k: n for n, k in enumerate(FLIP_KINDS)}
    flips.sort(key=lambda f: (order[f.flip], f.kind, f.label, f.key))
    counts = {k: sum(1 for f in flips if f.flip == k) for k in FLIP_KINDS}
    return FlipsResult(old=old_name, new=new_name, unchanged=unchanged, counts=counts, flips=flips)


def flips_lines(result: FlipsResult) -> list[str]:
    """The deltas as plain lines (trace text is printed as text, never as markup)."""
    c = result.counts
    lines = [f"flips {result.old} -> {result.new}: {c['regressed']} regressed, {c['unexpected_pass']} unexpected "
             f"pass, {c['new']} new, {c['removed']} removed ({result.unchanged} unchanged, not listed)"]
    for f in result.flips:
        change = f"{f.old or '-'} -> {f.new or '-'}"
        lines.append(f"{f.flip:16} {f.kind:8} {f.key}  {' '.join(f.label.split())}  [{change}]")
    return lines
