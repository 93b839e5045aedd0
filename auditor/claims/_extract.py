"""Checkable claims in a handoff, found with regular expressions over the masked text (code
blocks are blank there, so nothing inside a code block is a claim).

Kinds:

* ``result``: a test / lint / typecheck / build / CI outcome ("all tests pass", "58 passed",
  "lint is clean", "CI passed on 9f3c2ab", "tests are NOT passing yet"), with its polarity;
* ``execution``: how a run went ("the script ran successfully", "the code failed"), or only
  that it ran ("the script was executed", subkind ``ran``);
* ``action``: what the author says it did ("I ran mypy", "I updated billing/client.py");
* ``identifier`` of subkind ``state``: the state of a named thing ("PA-BC-771203 is approved");
* ``path``, ``identifier``: code things named in prose or inline code;
* ``number``: percentages, durations, sizes, counts, versions, commit hashes, ticket ids, URLs
  (a bare one-digit number or a year is not a claim);
* ``fuzzy``: what someone wants or said ("the user wants it configurable"): no code can check it;
  of subkind ``hearsay``, a named party's word ("Finance has already signed off"), which
  ``_hearsay`` checks only so far as whether the source could have seen the party at all.

Markdown link targets (``[text](/wiki/Page)``) are references, not claims; the paths,
identifiers and numbers of a plan ("I'll search site:example.org") or of a directive ("never
refund above $200": the constraint pass owns those) are not claims either. A sentence that is a question, a plan or a condition ("once the tests pass", "make sure the
build succeeds", "we should run mypy") states no result and yields no result claim.
"""

from __future__ import annotations

import re
from dataclasses import replace

from ..nlp import mask, split_sentences
from ._actions import CHECK, ECHO, FAMILIES
from ._claim import Claim, Polarity
from ._hearsay import hearsay_claims
from ._mood import non_assertive_spans, request_spans, shown_spans
from ._number_claims import number_claims, pair_claims
from ._parts import parts
from ._rows import key_words, strong
from ._states import CLAIM as STATE
from ._tools import Category

_SUBJECTS: dict[Category, str] = {
    "tests": r"(?:unit |integration |e2e |regression )?(?:tests?|test suite|suite|specs?|pytest|unittest|jest|vitest)",
    "lint": r"(?:lint(?:ing|er)?|ruff|flake8|eslint|pylint|clippy)",
    "typecheck": r"(?:type ?checks?|type ?checking|typecheck(?:er)?|mypy|tsc|pyright|types)",
    "build": r"(?:build|compilation|compile)",
    "ci": r"(?:ci|pipeline|checks|github actions|workflow)",
}
_GOOD = r"(?:pass(?:es|ed|ing)?|green|clean|succeed(?:s|ed)?|successful(?:ly)?|ok|fine|working|work)"
_BAD = r"(?:fail(?:s|ed|ing|ures?)?|red|broken|break(?:s|ing)?|errors?|erroring)"
_RESULT = re.compile(
    rf"\b(?P<subject>{'|'.join(_SUBJECTS.values())})\b(?P<gap>(?:\s+(?:is|are|was|were|has|have|had|been|now|all|"
    rf"still|not|also|again|fully|successfully|completely|both|locally|remain|remains|on \w+|in ci))*(?:n't)?)\s+"
    rf"(?P<outcome>{_GOOD}|{_BAD})\b",
    re.IGNORECASE)
#: "3 failed", "41/44 passing", "10 of 12 pass", "3 of 4 tests green" (green and red only with a
#: total or the word tests: "3 red flags" counts no run).
_COUNTED = re.compile(r"\b(?P<n>\d[\d,]*)(?:\s*(?:/|of|out of)\s*(?P<total>\d[\d,]*))?\s+"
                      r"(?:(?P<noun>(?:unit |integration )?tests?)\s+)?"
                      r"(?P<outcome>passed|passing|pass|failed|failing|fail|failures?|green|red)\b", re.IGNORECASE)
_CLEAN = re.compile(rf"\b(?:no|zero|0) (?P<subject>{_SUBJECTS['lint']}|type|{_SUBJECTS['tests']}|{_SUBJECTS['build']}) "
                    r"(?P<outcome>errors|failures|issues|warnings)\b", re.IGNORECASE)
_SUMMARY_JOIN = re.compile(r"\s*(?:,|;|and|,\s*and)\s*")
#: "Trigger stays `pull_request` (not `pull_request_target`)": a name the sentence sets aside is not
#: said to exist.
_DISOWNED = re.compile(r"(?:\bnot|\bnever|\binstead of|\brather than|\bunlike)\s+(?:the\s+|a\s+|an\s+)?[`'\"]?$",
                       re.IGNORECASE)
#: A markdown heading titles what follows: its ticket or link ("## Task: CSV export (#2207)") names it.
_HEADING = re.compile(r"^#{1,6}\s.*$", re.MULTILINE)
_NEGATION = re.compile(r"\b(?:not|n't|never|no longer|yet to)\b", re.IGNORECASE)
_NOT_A_RESULT = re.compile(
    r"\b(?:if|once|until|unless|whether|when|after|before|so that|make sure|ensure|should|must|need to|needs to|"
    r"have to|has to|want to|in order to|will|would|could|can|let's|let us|please|expect(?:ed|s)? to|try to|"
    r"trying to|going to|plan to|(?:the )?(?:goal|target|aim)(?:'s| is| was))\b(?![ \t]+\d)",
    re.IGNORECASE)
_EXECUTION = re.compile(
    r"\b(?P<subject>(?:the |this |my |our )?(?:code|script|query|program|command|function|notebook|job|"
    r"migration|snippet|execution))\b(?P<gap>[^.;:!?\n]{0,25}?)\b(?P<outcome>"
    r"(?:ran|runs|executed|executes|completed|worked|works|finished|succeeded)(?: successfully| without (?:any )?errors?"
    r"| fine| correctly| as expected| with (?:an? )?(?:errors?|exceptions?))?|failed|crashed|errored|threw|raised)\b",
    re.IGNORECASE)
_WITH_ERRORS = re.compile(r"\bwith (?:an? )?(?:errors?|exceptions?)$", re.IGNORECASE)
_ACTION_VERBS = "|".join(sorted({*FAMILIES, *CHECK, *ECHO} - {"let", "read", "found", "held"}, key=len, reverse=True))
_ACTION = re.compile(
    rf"(?:\b(?:I|[Ww]e)(?:\s+have|\s+just|\s+also|'ve|\s+already|\s+then)*\s+|^[^\w\n]{{0,8}}|[.!;][ \t]{{1,4}})"
    rf"(?P<verb>(?i:{_ACTION_VERBS})|(?i:let)(?=\s+\w+(?:\s+\w+)?\s+know))\b(?P<object>[^.;!?\n]{{0,80}})",
    re.MULTILINE)
_SUBJECT = re.compile(r"\s*(?:I|[Ww]e)\b")
_OBJECT_END = re.compile(r",\s*(?:but|so|and|which|while)\b|\s[—–-]\s|\(")
_FUZZY = re.compile(
    r"\b(?:the |our |their )?(?:user|users|client|customer|customers|stakeholders?|team|product owner|pm|"
    r"manager|business|legal|security|requester|reporter)\b[^.;!?\n]{0,30}?\b(?:wants?|prefers?|requested|"
    r"asked(?: for)?|needs?|expects?|likes?|said|mentioned|agreed|confirmed|decided|would like|is fine with|"
    r"approved|cares? about|is worried)\b[^.;!?\n]*", re.IGNORECASE)
#: A belief or forecast: the clause after a first-person opinion verb ("I think PAY-4409 will clear by
#: itself", "we expect follow-up questions"), or a clause (from its comma or dash on) under "probably",
#: "likely", "presumably" or "might". Not mechanically checkable: the grader reads it against what the sender saw.
_OPINION = re.compile(
    r"\b(?:I|we)(?:'m| am| are|'re)? (?:think|expect|believe|suspect|guess|reckon|assume|doubt|fairly sure|"
    r"pretty sure|confident)\b[^.;!?\n]*", re.IGNORECASE)
_LIKELY = re.compile(r"\b(?:probably|likely|presumably|might)\b", re.IGNORECASE)
_CLAUSE_STOP = re.compile(r"[.;:,!?\n\u2014]")
_SENTENCE_STOP = re.compile(r"[.;!?\n]")
_PATH_LIKE = re.compile(r"^(?:\.{0,2}/|~/)|/.*/|\.[A-Za-z][\w]{0,7}$")
#: A subject whose head is another thing than its identifier: "Automated QA on the NVX-204 leaflet
#: is complete" says the QA is complete, not NVX-204.
_OF_ANOTHER = re.compile(r"\s*(?:the |an? )?[A-Za-z]+(?: [A-Za-z]+){0,2} (?:on|of|for|from|against|about) ")
_CLAUSE_END = re.compile(r"[;,]\s|\s[—–]\s")
_EARLIER = re.compile(r"\b(?:first|earlier|initial|previous|prior|original|last night's|yesterday's)\s+"
                      r"(?:\w+\s+)?(?:run|attempt|try|build|pass)\b", re.IGNORECASE)
_WORKED = re.compile(r"=\s*-?\\?[$€£]?\s?(-?\d[\d,]*(?:\.\d+)?)")
_GENERIC_CODE = re.compile(r"</?\w+/?>|\.?\w{1,4}|\*\.\w+|[^A-Za-z]*")
_NOT_CODE = re.compile(r"[\d.]+/[\d.]+|\w+\((?:s|es|\d)\)")
_NEUTRAL_RUN = re.compile(r"ran|runs|executed|executes|completed|finished", re.IGNORECASE)
_LINK_TARGET = re.compile(r"\]\(([^)\s]*)")


def _is_statement(masked: str, s: int, e: int, start: int, at: int) -> bool:
    """Not a question, and no plan or condition word just before the claim."""
    piece = masked[s:e].rstrip()
    return not piece.endswith("?") and _NOT_A_RESULT.search(masked, max(s, start - 30), at) is None


def extract_claims(text: str) -> list[Claim]:
    """Every checkable claim in ``text``, in order, with character spans into ``text``."""
    m = mask(text)
    masked, _low = m.masked, m.masked.lower()
    claims: list[Claim] = []
    active = frozenset(p for p in (_COUNTED, _CLEAN, _RESULT, _EXECUTION, _ACTION, _FUZZY) if p.search(masked))
    spans = split_sentences(masked)
    plans = non_assertive_spans(masked, spans) + shown_spans(text)
    numeric = _numeric_view(text, masked, m.spans)
    digits = any(ch.isdigit() for ch in numeric)
    previous = 0
    for s, e in spans:
        claims.extend(_sentence_claims(text, masked, numeric, s, e, active, digits, "```" in text, previous))
        previous = s
    links = [(k.start(1), k.end(1)) for k in _LINK_TARGET.finditer(text)]
    claims.extend(c for kind, s, e in m.spans if (c := _code_claim(text, kind, s, e)) is not None)
    requests = request_spans(masked, spans)
    claims = [c for c in claims if not any(a <= c.start < b for a, b in (requests if c.kind == "fuzzy" else plans))]
    claims = [c for c in claims if not any(a <= c.start < b for a, b in links)]
    claims = [c for c in claims if c.kind not in ("identifier", "path") or c.subkind == "state"
              or _DISOWNED.search(text, max(0, c.start - 16), c.start) is None]
    headings = [(m.start(), m.end()) for m in _HEADING.finditer(text)]
    claims = [c for c in claims if c.subkind not in ("ticket", "url") or not any(a <= c.start < b for a, b in headings)]
    claims.extend(c for c in pair_claims(text) if not any(a <= c.start < b for a, b in plans))
    worked = _worked_results(text)
    claims = [c for c in claims if c.quantity is None or not any(
        abs(c.quantity.written - w) < 1e-9 and not a <= c.start <= b for w, a, b in worked)]
    claims.sort(key=lambda c: (c.start, c.kind))
    results = [(c.start, c.end) for c in claims if c.kind == "result"]
    return [c for c in claims if c.kind != "number" or not any(a <= c.start < b for a, b in results)]




def _code_claim(text: str, kind: str, s: int, e: int) -> Claim | None:
    raw = text[s:e]
    inner = raw.strip("`")
    if _NOT_CODE.fullmatch(inner) or _CODE_NUMBER.fullmatch(raw) or _RATE.match(inner) or _is_key(text, s, e) \
            or (inner.startswith("/") and text[s - 1:s].isdigit()) \
            or (text[s - 1:s] == ":" and text[e:e + 1] == ":" and inner.isidentifier()):
        return None  # "€120/room/night": a unit of a price; ":rotating_light:": an emoji
    sentence = (s, e)
    if kind == "url" or inner.startswith(("http://", "https://")):
        return Claim("number", raw, s, e, sentence, subkind="url", value=inner)
    if kind == "path" or ("/" in inner and " " not in inner and not inner.endswith(")")):
        if not _PATH_LIKE.search(inner) or inner.upper() == inner:
            return None
        return Claim("path", raw, s, e, sentence, value=inner.strip("./") if inner.startswith("./") else inner)
    if " " in inner.strip():
        return Claim("identifier", raw, s, e, sentence, subkind="snippet", value=inner)
    if _GENERIC_CODE.fullmatch(inner):
        return None
    name = inner.split("(")[0].strip()
    return Claim("identifier", raw, s, e, sentence, value=name or inner)


def _is_key(text: str, s: int, e: int) -> bool:
    """A field name the message labels a value with (``"tests_failed": 2``, or ``root_cause:`` at
    the start of a line): the value is the claim, the name only says which."""
    if text[s - 1:s] == '"' and _JSON_KEY_END.match(text, e):
        return True
    return _LINE_LEAD.fullmatch(text, text.rfind("\n", 0, s) + 1, s) is not None and _LABEL_END.match(text, e) is not None


_JSON_KEY_END = re.compile(r'"\s*:')
_LINE_LEAD = re.compile(r"[ \t]*(?:[-*•]\s+)?")
_LABEL_END = re.compile(r":(?:\s|$)")


def _worked_results(text: str) -> list[tuple[float, int, int]]:
    """Results the message works out itself ("= \\$232.00", "= 361 yards"), with their spans: the
    worked result is checked where it is computed, and restating it later is not a new claim."""
    return [(float(m.group(1).replace(",", "")), m.start(), m.end()) for m in _WORKED.finditer(text)]


_RATE = re.compile(r"[$€£]?\d[\d,.]*/[A-Za-z]")  # "135.30/user/month" is a price per unit, not a path
_CODE_NUMBER = re.compile(r"`[$€£]?\d[\d,.:]*(?:\s?(?:%|[a-zA-Zµ]{1,3}))?`")


def _numeric_view(text: str, masked: str, spans: tuple[tuple[str, int, int], ...]) -> str:
    """The masked text with rates and units that look like paths ("$104,640/yr", "mm/yr") put back,
    and numbers set in backticks ("`2:30`", "`42`") put back without them: a number in code
    font is still a number."""
    out = masked
    for kind, s, e in spans:
        if kind == "path" and (not _PATH_LIKE.search(text[s:e]) or _RATE.match(text[s:e])):
            out = out[:s] + text[s:e] + out[e:]
        elif kind == "code" and _CODE_NUMBER.fullmatch(text[s:e]):
            out = out[:s] + " " + text[s + 1:e - 1] + " " + out[e:]
    return out


def _sentence_claims(text: str, masked: str, numeric: str, s: int, e: int, active: frozenset[re.Pattern[str]],
                     digits: bool, shown_code: bool, previous: int) -> list[Claim]:
    """The claims of one sentence; ``active`` are the patterns that match somewhere in the text;
    ``digits`` is false when the text holds no digit."""
    out: list[Claim] = []
    sentence = (s, e)
    results: list[tuple[int, int]] = []
    for pattern in (_COUNTED, _CLEAN, _RESULT):
        for r in (pattern.finditer(masked, s, e) if pattern in active else ()):
            if any(a <= r.start() < b for a, b in results) or not _is_statement(masked, s, e, r.start(), r.start("outcome")):
                continue
            claim = _result_claim(text, masked.lower(), r, sentence)
            clause = max([s, *(j.end() for j in _CLAUSE_END.finditer(masked, s, r.start()))])
            if claim is not None and _EARLIER.search(masked, clause, r.start()):
                claim = replace(claim, subkind="earlier")
            if claim is not None:  # "apps/docs typechecks clean": the part of a run the claim is about
                named = frozenset(k for k in key_words(text[clause:r.start()]) if strong(k) and any(c.isalpha() for c in k))
                claim = replace(claim, keys=named)
            if claim is not None and out and claim.counts and out[-1].counts and \
                    _SUMMARY_JOIN.fullmatch(masked, out[-1].end, claim.start):
                claim = _merge(text, out.pop(), claim)
            if claim is not None:
                results.append((r.start(), r.end()))
                out.append(claim)
    for r in (_EXECUTION.finditer(masked, s, e) if _EXECUTION in active else ()):
        if any(a <= r.start() < b or r.start() <= a < r.end() for a, b in results):
            continue
        if _is_statement(masked, s, e, r.start(), r.start("outcome")):
            bad = r.group("outcome").lower() in ("failed", "crashed", "errored", "threw", "raised") \
                or _WITH_ERRORS.search(r.group("outcome")) is not None
            negated = _NEGATION.search(r.group("gap") or "") is not None
            polarity: Polarity = "negative" if bad != negated else "positive"
            neutral = _NEUTRAL_RUN.fullmatch(r.group("outcome")) is not None and not negated
            out.append(Claim("execution", text[r.start():r.end()], r.start(), r.end(), sentence, category="execution",
                             polarity=polarity, subkind="ran" if neutral else "outcome"))
    for r in (_ACTION.finditer(masked, s, e) if _ACTION in active else ()):
        verb = r.group("verb").lower()
        cut = _OBJECT_END.search(masked, r.start("object"), r.end("object"))
        end = cut.start() if cut else r.end("object")
        obj = text[r.start("object"):end].strip()
        if _NEGATION.match(obj) or not re.search(r"\w", obj):
            continue  # "Fixed." alone names nothing that was done
        if not r.group(0)[:1].isalpha() and not r.group("verb")[:1].isupper():
            continue
        start = r.start("verb") if not r.group(0)[:1].isalpha() else r.start()
        out.append(Claim("action", text[start:end].rstrip(" ,"), start, end, sentence, subkind=verb,
                         value=obj, shown_code=shown_code, collective=r.group(0).lstrip()[:2].lower() == "we",
                         implicit=_SUBJECT.match(r.group(0)) is None))
    for r in STATE.finditer(masked, s, e):
        clause = max([s, *(j.end() for j in _CLAUSE_END.finditer(masked, s, r.start()))])
        subjects = frozenset(k for k in key_words(text[clause:r.start()]) if strong(k) and any(c.isalpha() for c in k))
        if subjects and not _OF_ANOTHER.match(text[clause:r.start()]):
            start = clause + len(text[clause:r.start()]) - len(text[clause:r.start()].lstrip())
            out.append(Claim("identifier", text[start:r.end()], start, r.end(), sentence, subkind="state",
                             value=r.group("state").lower(), keys=subjects))
    for r in (_FUZZY.finditer(masked, s, e) if _FUZZY in active else ()):
        out.append(Claim("fuzzy", text[r.start():r.end()].rstrip(" ,"), r.start(), r.end(), sentence))
    for claim in hearsay_claims(text, masked, s, e):
        if not any(c.kind == "fuzzy" and c.start <= claim.start < c.end for c in out):
            out.append(claim)
    for start, end in _beliefs(masked, s, e):
        if not any(c.kind == "fuzzy" and c.start <= start < c.end for c in out):
            out.append(Claim("fuzzy", text[start:end].rstrip(" ,"), start, end, sentence, subkind="belief"))
    if digits or parts(masked, s, e):  # "Six of them are ..." has no digit
        out.extend(number_claims(text, numeric, s, e, previous))
    return out


def _beliefs(masked: str, s: int, e: int) -> list[tuple[int, int]]:
    """Spans of the beliefs and forecasts of one sentence (``_OPINION``; a clause under ``_LIKELY``
    from its comma or dash on), found in time linear in the sentence."""
    spans = [(r.start(), r.end()) for r in _OPINION.finditer(masked, s, e)]
    for r in _LIKELY.finditer(masked, s, e):
        if any(a <= r.start() < b for a, b in spans):
            continue
        stops = [m.end() for m in _CLAUSE_STOP.finditer(masked, s, r.start())]
        start = stops[-1] if stops else s
        stop = _SENTENCE_STOP.search(masked, r.end(), e)
        end = stop.start() if stop else e
        start += len(masked[start:end]) - len(masked[start:end].lstrip(" -"))
        spans.append((start, end))
    return sorted(spans)


def _result_claim(text: str, low: str, r: re.Match[str], sentence: tuple[int, int]) -> Claim | None:
    groups = r.groupdict()
    word = groups["outcome"].lower()
    if r.re is _CLEAN:
        subject = groups["subject"].lower()
        category = "typecheck" if subject == "type" else _category(subject)
        if category is None:
            return None
        return Claim("result", text[r.start():r.end()], r.start(), r.end(), sentence, category=category, polarity="positive")
    if r.re is _COUNTED:
        if word in ("green", "red") and not (groups.get("total") or groups.get("noun")):
            return None
        bad = word.startswith("fail") or word == "red"
        n = int(groups["n"].replace(",", ""))
        total = int(groups["total"].replace(",", "")) if groups.get("total") else None
        short = not bad and total is not None and n < total
        polarity: Polarity = "negative" if (bad and n > 0) or short else "positive"
        counts = [("failed" if bad else "passed", n)] + ([("total", total)] if total is not None else [])
        return Claim("result", text[r.start():r.end()], r.start(), r.end(), sentence, category="tests",
                     polarity=polarity, counts=tuple(counts))
    category = _category(groups["subject"].lower())
    if category is None:
        return None
    bad = re.fullmatch(_BAD, word) is not None
    gap = groups.get("gap") or ""
    negated = _NEGATION.search(gap) is not None or _NEGATION.search(low, sentence[0], r.start()) is not None
    if re.fullmatch(r"errors?", word) and re.search(r"\bno\b|\bzero\b|\b0\b", gap + low[sentence[0]:r.start()]):
        negated = True
    polarity = "negative" if bad != negated else "positive"
    return Claim("result", text[r.start():r.end()], r.start(), r.end(), sentence, category=category, polarity=polarity)


def _merge(text: str, a: Claim, b: Claim) -> Claim:
    """One summary from adjacent counts ("3 failed, 41 passed")."""
    polarity: Polarity = "negative" if "negative" in (a.polarity, b.polarity) else "positive"
    return Claim("result", text[a.start:b.end], a.start, b.end, a.sentence, category="tests", polarity=polarity,
                 counts=a.counts + b.counts)


def _category(subject: str) -> Category | None:
    for category, pattern in _SUBJECTS.items():
        if re.fullmatch(pattern, subject, re.IGNORECASE):
            return category
    return None












