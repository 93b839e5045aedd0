"""The evidence index answers exactly what a scan of the rows or texts from the latest backwards
answers, on random evidence: numbers in every unit family, keys, dates, clock times and strings."""

from __future__ import annotations

import random
import re

import pytest

from auditor.claims import EvidenceIndex, EvidenceText, rows
from auditor.claims._compare import supports
from auditor.claims._quantity import quantities

_NUMBERS = ["{n} s", "{n} ms", "{n}%", "0.{n}", "{n}", "${n}.50", "{n} rows", "{n} MB", "{n}k", "~{n} min", "-{n}"]
_WORDS = ["disk", "total", "latency", "INV-{n}", "m{n}v2", "db.internal:{n}", "v1.{n}.0", "3 March", "09:{n}"]


def _text(rng: random.Random) -> str:
    parts = []
    for _ in range(rng.randint(1, 4)):
        n = rng.choice([rng.randint(0, 60), rng.randint(100, 5000)])
        parts.append(rng.choice(_WORDS).format(n=n % 60) + ": " + rng.choice(_NUMBERS).format(n=n))
    return "\n".join(parts)


@pytest.mark.parametrize("seed", range(20))
def test_the_index_answers_what_a_backward_scan_answers(seed: int) -> None:
    rng = random.Random(seed)
    index, all_rows, texts = EvidenceIndex(), [], []
    for i in range(rng.randint(1, 200)):
        text = EvidenceText(f"e{i}", "result", _text(rng))
        found = rows(i, text.text, output=True)
        index.add_rows(found)
        index.add_text(text)
        all_rows.extend(found)
        texts.append(text)
    for _ in range(30):
        (claim, *_) = quantities(_text(rng)) or quantities("12 s")
        naive = next(((r, e) for r in reversed(all_rows) for e in r.quantities if supports(claim, e)), None)
        assert index.supporting(claim) == naive, claim
        word = rng.choice(["disk", "total", f"INV-{rng.randint(0, 60)}", "nowhere", f"v1.{rng.randint(0, 60)}.0"])
        for flags, needle in ((0, word), (re.IGNORECASE, word.upper()), (0, "")):
            pattern = re.compile(rf"(?<![\w]){re.escape(word)}(?![\w])", flags)
            expected = next(((t, m) for t in reversed(texts) if (m := pattern.search(t.text))), None)
            got = index.search(pattern, needle)
            assert (got and (got[0], got[1].span())) == (expected and (expected[0], expected[1].span()))
        keys = {word.lower(), rng.choice(["disk", "total", "latency"])}
        assert index.rows_with_any(keys) == [r for r in all_rows if keys & r.keys]
        assert list(index.latest_with_any(keys)) == [r for r in reversed(all_rows) if keys & r.keys]
