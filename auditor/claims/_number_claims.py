"""The number claims of a sentence: numbers with their units, dates, clock times, versions,
hashes, ticket ids, tallies, scores and parts, and the ``"key": number`` pairs of a JSON block the
handoff hands over; each with what the grounding needs (its subject words, operands, whether the
sentence computes it, a share or a change, a threshold, the records it names)."""

from __future__ import annotations

import re
from dataclasses import replace

from ..nlp import may_restored
from ._claim import Claim
from ._limits import RULE_STATED, UPPER_BOUND, counted_items
from ._pairs import handed_pairs
from ._parts import parts, scores
from ._quantity import MONTH, Quantity, clocks, dates, named_unit, quantities, typed
from ._relation import fraction, relation
from ._rows import KEY_STOP, key_words, strong
from ._tally import TALLY

_ABSENT = re.compile(r"\b(?:no|without|zero)\s+$", re.IGNORECASE)
_COMPUTED = re.compile(r"=|\s\+\s|\b(?:in total|total(?:ling|ing)?|together|sum|average|avg|mean|gives|works out|comes? to|"
                       r"minus|less|difference|variance|faster|slower|per|each|a head|/night|/head|rose|fell|"
                       r"increase[ds]?|decrease[ds]?|up by|down by|remain(?:s|ing)?|left|overcharge[ds]?|undercharge[ds]?|"
                       r"shortfall|surplus|saving|savings|altogether|combined|all told|in all|adds? up to|gap|between them|"
                       r"hourly|daily|weekly|monthly|annually|an hour|a day|a week|a month|a year|apiece)\b|\d\s*x\b",
                       re.IGNORECASE)
#: The computations whose result the sentence's own numbers must give (a sum, a mean, a difference):
#: a rate ("per", "each") or a change names others, which need operands the sentence may not show.
_TOTALLED = re.compile(r"=|\b(?:in total|total(?:ling|ing|s)?|together|sum|altogether|combined|all told|in all|between them|"
                       r"adds? up to|comes? to|averag\w*|avg|mean|difference|minus|less(?! than)|works out)\b", re.IGNORECASE)
_OPERAND_BEFORE = re.compile(r"[+×*]\s*$")  # "active + 5%": 5% is an operand, not what the sentence computes
_OPERAND_AFTER = re.compile(r"\s*[+×*]\s")
_DATES_BACK = 400  # how far before a span of days its two dates may be written ("16 Jul ... 25 Jul. That's 9 days")
_DAY_RANGE = re.compile(r"\b[0-3]?\d\s?[–-]\s?[0-3]?\d\b")
_FRACTION = re.compile(r"/\d")
_FRACTION_END = re.compile(r"\d/$")
_HASH = re.compile(r"\b(?=[0-9a-f]*\d)(?=[0-9a-f]*[a-f])[0-9a-f]{7,40}\b")
_HTTP_AFTER = re.compile(r"\s*(?:OK|Created|Accepted|No Content|Bad Request|Unauthori[sz]ed|Forbidden|Not Found|"
                         r"Conflict|Too Many Requests|Internal Server Error|Bad Gateway|Service Unavailable|"
                         r"Gateway Timeout|errors?|responses?|status)\b")
_HTTP_BEFORE = re.compile(r"\b(?:returns?|returned|status(?: code)?|HTTP(?:/[\d.]+)?|came back(?: with| as)?|"
                          r"responded(?: with)?|response|got(?: an?)?|gives?|gave)\s+(?:an?\s+)?$", re.IGNORECASE)
_MONTH_WORD = re.compile(rf"\b{MONTH}\b", re.IGNORECASE)
_OF = re.compile(r"(?<![\w.,/-])(\d+)\s+(?:of|out of)\s+(\d+)(?![\w.,/-])")
_ENUMERATION_BEFORE = re.compile(r"(?:^|[.:;!?\n]\s*)$")
_OWNER = re.compile(r"([^\s,;(|]+)\s*\($")
_PER_ID = re.compile(r"\s*\)")
_SEGMENT = re.compile(r"[,;\n]|\s[—–]\s|:\s")
_THRESHOLD = re.compile(r"(?:-[a-z]+)?\s+(?:line|limit|threshold|cap|minimum|maximum|floor|ceiling|cut-?off|"
                        r"requirement|bar|target|quota|allowance|rule|mark)\b", re.IGNORECASE)
_TICKET = re.compile(r"\b[A-Z][A-Z0-9]{1,9}-\d+\b|(?<![\w&])#\d{2,}\b")
_TOKEN = re.compile(r"[^\s|()\[\]]+")
_UNIVERSAL = re.compile(r"\b(?:all|every|each|both)\s+(?:of\s+)?(?:the\s+|these\s+|those\s+)?$", re.IGNORECASE)
_VERSION = re.compile(r"(?<![\w.])v?\d+\.\d+(?:\.\d+)+(?:[-+][\w.]+)?\b|\bv\d+(?:\.\d+)?\b")
_YEAR = re.compile(r"(?:19|20)\d\d")
_YEAR_BEFORE = re.compile(rf"\b(?:{MONTH}|in|since|from|until|by|before|after|of|the)\s+$", re.IGNORECASE)


def pair_claims(text: str) -> list[Claim]:
    """A number claim for each ``"key": number`` pair of a JSON block handed over (``_pairs``)."""
    out: list[Claim] = []
    for p in handed_pairs(text):
        written = float(p.value.replace("_", ""))
        step = 10.0 ** -len(p.value.split(".")[1]) if "." in p.value else 1.0
        q = Quantity(written, "percent" if p.percent else None, step, False, p.value_start - p.start,
                     p.value_start - p.start + len(p.value), p.value, written=written)
        if q.bare and abs(written) < 10 and step >= 1:
            continue  # small counts and flags: too common to ground or refute
        unit = named_unit(p.key) if q.bare else None
        q = typed(q, unit) if unit else q  # "diff_eur": 14586.03 is an amount of euros
        out.append(Claim("number", text[p.start:p.end], p.start, p.end, (p.start, p.end), subkind=_subkind(q),
                         value=p.value, quantity=q, keys=key_words(p.key.replace("_", " ")), computed=p.computed,
                         relation=p.relation))
    return out


_ROUNDING = re.compile(r"\b(?:rounded|rounding|round(?:ed)? (?:to|up|down|off)|to the nearest|whole (?:dollars?|"
                       r"euros?|pounds?|numbers?|units?))\b(?!-)", re.IGNORECASE)  # not "round-trip", "round 2"
_RANGE = re.compile(r"\b(\d+)\s*[-–]\s*(\d+)\s*(h|hours?|min|minutes?)\b")


def number_claims(text: str, masked: str, s: int, e: int, previous: int) -> list[Claim]:
    """The numbers, dates, times, versions, hashes and ticket ids of one sentence. A computed
    number ("Together that's £5.6m") takes its operands from this sentence and the one before."""
    out: list[Claim] = []
    sentence = (s, e)
    taken: list[tuple[int, int]] = []
    for pattern, subkind in ((_VERSION, "version"), (_TICKET, "ticket"), (_HASH, "hash")):
        for r in pattern.finditer(masked, s, e):
            taken.append((r.start(), r.end()))
            raw = text[r.start():r.end()]
            names = _package_names(masked[s:r.start()]) if subkind == "version" else frozenset()
            out.append(Claim("number", raw, r.start(), r.end(), sentence, subkind=subkind, value=raw, keys=names))
    piece = masked[s:e]
    for a, b, date in dates(may_restored(piece, text[s:e])):
        taken.append((a + s, b + s))
        out.append(Claim("number", text[a + s:b + s], a + s, b + s, sentence, subkind="date", date=date))
    times = clocks(piece)
    # what a time may be worked out with: "6 h after the run end"; both ends of a range ("the 18-24h window")
    spans = tuple(q for q in quantities(_RANGE.sub(r"\g<1>\g<3> \g<2>\g<3>", piece)) if q.family == "duration") \
        if times else ()
    for a, b, clock in times:
        taken.append((a + s, b + s))
        out.append(Claim("number", text[a + s:b + s], a + s, b + s, sentence, subkind="time", value=clock,
                         operands=spans))
    for m in _OF.finditer(masked, s, e):
        taken.append((m.start(), m.end()))
        n = int(m.group(1))
        q = Quantity(float(n), None, 1.0, False, m.start(1) - s, m.end(1) - s, m.group(1), written=float(n))
        state = " ".join(_TOKEN.findall(re.split(r"[.;,:!?]\s", masked[m.end():e] + " ")[0])[:3])
        out.append(Claim("number", text[m.start():m.end()], m.start(), m.end(), sentence, subkind="count",
                         value=m.group(0), quantity=q, keys=key_words(state), total=int(m.group(2))))
    for tally in TALLY.finditer(masked, s, e):  # "Plan: 4 to add, 0 to change, 0 to destroy"
        lead = masked[max(s, tally.start() - 60):tally.start()].rsplit("\n", 1)[-1]
        out.append(Claim("number", text[tally.start():tally.end()], tally.start(), tally.end(), sentence,
                         subkind="tally", value=tally.group(0), keys=key_words(lead)))
    for part in scores(masked, s, e):  # "average 3.8/5"
        taken.append((part.start, part.end))
        q = Quantity(part.value, None, part.step, False, part.start - s, part.end - s, text[part.start:part.end],
                     written=part.value)
        out.append(Claim("number", text[part.start:part.end], part.start, part.end, sentence, subkind="quantity",
                         value=q.text, quantity=q, keys=key_words(part.subject)))
    for part in parts(masked, s, e):  # "Six of them are open access"
        taken.append((part.start, part.end))
        q = Quantity(part.value, "count", 1.0, False, part.start - s, part.end - s, text[part.start:part.end],
                     written=part.value)
        out.append(Claim("number", text[part.start:part.end], part.start, part.end, sentence, subkind="count",
                         value=q.text, quantity=q, keys=key_words(part.subject), keyed=True))
    back = max(0, s - _DATES_BACK)
    found = [q for q in quantities(piece) if not any(x <= q.start + s < y for x, y in taken)]
    if _ROUNDING.search(piece):  # "Rounded to the dollar: NA $309,773"
        found = [replace(q, rounded=True) for q in found]
    sentence_computes = _COMPUTED.search(masked, s, e) is not None
    in_month = _MONTH_WORD.search(masked, s, e) is not None
    before_sentence = quantities(masked[previous:s]) if sentence_computes and previous < s else []
    for q in found:
        start, end = q.start + s, q.end + s
        in_parens = _PER_ID.match(masked, end) is not None and masked[start - 1:start] == "("
        counted = q.bare and in_parens
        if q.bare and (abs(q.value) < 10 and q.step >= 1 and not counted or _YEAR.fullmatch(q.text)):
            continue
        if _YEAR.fullmatch(q.text.split()[0]) and _YEAR_BEFORE.search(masked, max(s, start - 12), start):
            continue  # "the May 2025 exam", "since 2019 releases": a year, not a count
        if q.bare and _is_list_marker(masked, start, end) or _FRACTION.match(masked, end) \
                or _FRACTION_END.search(masked, max(s, start - 12), start):
            continue
        if _ABSENT.search(masked, max(s, start - 9), start):
            continue
        if q.bare and q.value <= 31 and in_month and _DAY_RANGE.search(masked, max(s, start - 4), min(e, end + 4)):
            continue  # "Kyoto 5–9, Osaka 9–11" after "1–5 April": days of the month, read as dates or not at all
        seg_start = max([m.end() for m in _SEGMENT.finditer(masked, max(s, start - 200), start)] or [max(s, start - 200)])
        nxt = _SEGMENT.search(masked, end, e)
        seg_end = nxt.start() if nxt else e
        operand = _OPERAND_BEFORE.search(masked, max(s, start - 3), start) or _OPERAND_AFTER.match(masked, end)
        computed = (sentence_computes and not operand) or masked[start:start + 1] in "+-−"
        summed = computed and _TOTALLED.search(masked, *(_table_row(masked, start) or (s, e))) is not None
        before = before_sentence if computed else []
        operands = tuple(o for o in found if o is not q) + tuple(before)
        http = q.bare and q.step == 1 and 100 <= q.value <= 599 and (
            _HTTP_BEFORE.search(masked, max(s, start - 30), start) is not None
            or _HTTP_AFTER.match(masked, end) is not None)
        bound = UPPER_BOUND.search(masked, max(seg_start, start - 40), start)
        if bound is not None and not RULE_STATED.search(masked, seg_start, bound.start()):
            subject = text[seg_start:bound.start()]
            out.append(Claim("number", text[start:end], start, end, sentence, subkind=_subkind(q), value=q.text,
                             quantity=q, keys=key_words(subject), limit=True, items=counted_items(subject)))
            continue
        keys = _subject(text, seg_start, start, end, seg_end)
        owner = _OWNER.search(masked, max(s, start - 60), start) if in_parens else None
        if owner is not None and strong(owner.group(1)):  # "INV-90418 (2)": the id's count; quote both
            start, end = owner.start(), masked.index(")", end) + 1
        related = relation(masked, q.start + s, q.end + s) if q.family in ("percent", "ratio") else None
        out.append(Claim("number", text[start:end], start, end, sentence, subkind="http" if http else _subkind(q),
                         value=q.text, quantity=q, keys=keys, operands=operands, computed=computed,
                         relation=related, fraction=fraction(masked, q.start + s, q.end + s) if q.family == "percent" else None,
                         universal=_UNIVERSAL.search(masked, max(s, start - 20), start) is not None,
                         threshold=_THRESHOLD.match(masked, q.end + s) is not None,
                         summed=summed,
                         near_dates=tuple(d for _, _, d in dates(may_restored(masked[back:e], text[back:e])))
                         if q.family == "duration" and q.step >= 86400 else (),
                         names=_record_names(text, s, e) if computed and q.family in ("money", "count", None) else
                         frozenset()))
    return out


def _table_row(masked: str, at: int) -> tuple[int, int] | None:
    """The span of the markdown table row holding ``at``, if it is in one: a row says what it
    sums for itself ("| Total | ~$24.6k |"), not for the rows around it."""
    start = masked.rfind("\n", 0, at) + 1
    end = masked.find("\n", at)
    end = len(masked) if end == -1 else end
    return (start, end) if masked[start:end].lstrip().startswith("|") else None


def _record_names(text: str, s: int, e: int) -> frozenset[str]:
    """Identifiers of a sentence and its capitalised words after the first ("INV-88213",
    "Crestline"), lower-cased as evidence keys are."""
    words = _TOKEN.findall(text[s:e])
    picked = [w for i, w in enumerate(words) if strong(w.strip(".,;:()")) or (i > 0 and w[:1].isupper())]
    return frozenset(k for w in picked for k in key_words(w) if len(k) >= 4 or strong(k))


def _package_names(before: str) -> frozenset[str]:
    """What a version belongs to: the name-like words among the three before it in its clause
    ("protobuf up to v1.34.1", "elasticsearch-py 8.14.0")."""
    clause = re.split(r"[,;:(]\s", before)[-1]
    words = (w.strip("`'\"").lower() for w in _TOKEN.findall(clause)[-3:])
    return frozenset(w for w in words if len(w) >= 3 and re.search(r"[a-z]", w) and w not in KEY_STOP)


def _subject(text: str, seg_start: int, start: int, end: int, seg_end: int) -> frozenset[str]:
    """The words that name what a number measures: the three tokens before it and the two after
    it, within its segment of the sentence ("INV-90418 (2)", "| gamma.example | $39/mo |")."""
    before = _TOKEN.findall(text[seg_start:start])[-3:]
    after = _TOKEN.findall(text[end:seg_end])[:2]
    return key_words(" ".join(before + after))


def _is_list_marker(masked: str, start: int, end: int) -> bool:
    """"1." or "2)" opening a line, or "(2)" opening a line, a sentence or a clause ("... Mostly
    False. (2) 'Burglary down 16%': ...")."""
    if masked[end:end + 1] in (".", ")") and (start == 0 or masked[start - 1] == "\n"):
        return True
    opened = start >= 1 and masked[start - 1] == "(" and masked[end:end + 1] == ")"
    return opened and (start == 1 or _ENUMERATION_BEFORE.search(masked, max(0, start - 4), start - 1) is not None)


def _subkind(q: Quantity) -> str:
    if q.family in ("money", "percent", "duration", "size", "count", "length", "mass"):
        return q.family
    return "quantity"
