"""Hearsay: what the handoff says a named third party said or decided ("Brightline HVAC has
confirmed the funds", "Ms Reid has agreed to lead the group", "Finance already signed off on
these numbers", "Kestrel told us they'll invoice on 6 December").

A claim of someone's word is checkable only so far: whether anything the source saw could carry
that word. So the grounding decides two cases and leaves the rest to the grader:

* the party takes part in the conversation, or its name stands in something the source saw (a
  message, a tool call or its output) within 150 characters of a word of report or consent
  ("confirmed", "approval", "agreed", "said", "will", "replied", "by phone") -> ``needs_semantic``:
  whether that says what the handoff reports needs a reader;
* the name appears only without such a word near it ("Brightline HVAC" as a vendor on an
  invoice), or nowhere the source could look -> ``invented``: nothing it saw records the party's
  word at all.

The party is a clause's subject of one to four capitalised words ("The Home Office", "Dr Chen",
"UPS"), never a pronoun, and, when it is one word opening its sentence, not a common noun
made from a verb ("Inspection confirmed the fault", "Analysis confirmed ...": the word of a process,
which a tool output may give in other words). The verbs are acts of word or consent: confirmed,
approved, agreed, signed off, accepted, promised, offered, committed, told, said,
waived, authorised.
"""

from __future__ import annotations

import re

from ._claim import Claim
from ._evidence import Evidence
from ._verdicts import Grounding

_TITLE = r"(?:(?:The|Our|Their)\s+)?(?:(?:Ms|Mr|Mrs|Dr|Prof)\.?\s+)?"
_NAME = r"[A-Z][\w&'.-]*(?:\s+(?:of\s+)?[A-Z][\w&'.-]*){0,3}"
_VERB = (r"(?:confirmed|approved|agreed|signed off|accepted|promised|offered|committed|told|said|waived|"
         r"authori[sz]ed)")
HEARSAY = re.compile(rf"(?<![\w&'.-])(?P<party>{_TITLE}{_NAME})\s+(?:(?:has|have|had)\s+)?(?:(?:already|also|now|just)\s+)?"
                     rf"(?P<verb>{_VERB})(?![\w-])(?P<rest>[^.;!?\n]*)")
#: What may stand between a clause's start and its subject: a bullet, or a joining word after a
#: semicolon, colon, dash or comma.
_LEAD = re.compile(r"(?:^|[;:\u2014\u2013]|,\s*(?:and|but|so)\b)[\s\-*\u2022]*$")
#: Words that open a clause without being its subject: pronouns, and the subordinators and adverbs
#: of a participle clause ("Once confirmed, I will proceed", "If agreed, we can stop").
_NOT_A_PARTY = frozenset(["i", "we", "you", "he", "she", "they", "it", "this", "that", "these", "those", "there", "someone", "everyone", "nobody", "both", "all", "each", "one", "who", "which", "what", "once", "if", "when", "whenever", "having", "after", "before", "until", "unless", "as", "since", "while", "because", "although", "though", "where", "whether", "not", "also", "just", "already", "then", "now", "so", "and", "but", "or", "yes", "no", "ok", "okay", "please", "here"])
_TITLES = frozenset(["the", "our", "their", "ms", "mr", "mrs", "dr", "prof", "of"])
#: A word of report or consent in a text naming the party ("confirmed", "approval", "agreed", "said",
#: "OK'd", "signed", "accepts", "promised", "will ..."): something the handoff's report may rest on.
_WORD = re.compile(r"\b(?:confirm\w*|approv\w*|agree\w*|sign\w*|said|says|told|tells|promis\w*|offer\w*|accept\w*|"
                   r"commit\w*|grant\w*|waiv\w*|authori[sz]\w*|ok(?:'?d|ay)?|yes|will|reply|replied|wrote|email\w*|"
                   r"call\w*|phon\w*|quote[ds]?)\b", re.IGNORECASE)
_HERE = re.compile(r"\s+here\b", re.IGNORECASE)
_SPEAKER_LEAD = re.compile(r"\s*(?:(?:from|sender|author|signed)\s*:\s*(?:\w+\s+)?|[-\u2014\u2013~]+\s*)?",
                           re.IGNORECASE)
_NEAR = 150  # how far from the party's name its word may stand
#: One word made from a verb: a process, not a party ("Inspection confirmed ...", "Testing
#: confirmed ...").
_PROCESS = re.compile(r"(?:tion|sion|sis|ing)$")
#: Tools and processes that report without being a party to a promise.
_PROCESSES = frozenset({"ci", "cd", "build", "builds", "pipeline", "monitoring", "budget", "data", "analysis", "review",
                        "audit", "scan", "check", "checks", "test", "tests", "logs", "metrics", "alerts", "benchmarks",
                        "results", "records", "figures", "numbers", "search", "query", "dashboard", "report"})


def hearsay_claims(text: str, masked: str, s: int, e: int) -> list[Claim]:
    """The hearsay claims of one sentence, spans into ``text``."""
    out: list[Claim] = []
    for m in HEARSAY.finditer(masked, s, e):
        if _LEAD.search(masked[s:m.start()]) is None:
            continue
        words = [w.strip(".'") for w in m.group("party").split()]
        names = [w for w in words if w.lower() not in _TITLES]
        head = names[-1].lower().split("'")[0] if names else ""
        if not names or head in _NOT_A_PARTY or words[0].lower() in _NOT_A_PARTY:
            continue
        opening = m.start("party") == s or not masked[s:m.start("party")].strip(" -*\u2022")
        if len(names) == 1 and (_PROCESS.search(names[0].lower()) and (opening or not names[0].isupper())
                                or names[0].lower() in _PROCESSES):
            continue
        if not m.group("rest").strip(" ,"):
            continue  # "Budget approved, all lines ...": a headline's passive, no one's word
        start, end = m.start("party"), m.end("rest")
        out.append(Claim("fuzzy", text[start:end].rstrip(" ,"), start, end, (s, e), subkind="hearsay",
                         value=" ".join(names)))
    return out


def ground_hearsay(claim: Claim, evidence: Evidence) -> Grounding:
    party = claim.value or ""
    words = [w for w in re.findall(r"[A-Za-z][\w&-]*", party) if len(w) >= 2]
    folded = {p.casefold() for p in evidence.participants}
    if any(w.casefold() in folded for w in words) or party.casefold() in folded:
        return Grounding("needs_semantic", f"{party} takes part in the conversation; whether its messages say "
                                           f"this needs the semantic grader")
    patterns = {w: _whole(w) for w in words}
    named = [t for w in words for t in evidence.index.texts_with(w) if patterns[w].search(t.text)]
    worded = next((t for w in words for t in named for m in patterns[w].finditer(t.text)
                   if _WORD.search(t.text, max(0, m.start() - _NEAR), m.end() + _NEAR)
                   or _speaking(t.text, m.start(), m.end())), None)
    if worded is not None:
        return Grounding("needs_semantic", f"{party} appears in {worded.event_id} ({worded.field}) beside a word of "
                                           f"report or consent; whether it is this one needs the semantic grader")
    if named:
        return Grounding("invented", f"the handoff reports {party}'s word, but what the source saw names {party} "
                                     f"({named[0].event_id}) with no word of report or consent from them")
    return Grounding("invented", f"the handoff reports {party}'s word, but {party} appears in no tool call, no "
                                 f"output and no message the source saw")


def _speaking(text: str, start: int, end: int) -> bool:
    """The name at ``start:end`` labels who speaks: "QA here:", "From: Dana Ruiz", "Dana:" or
    "— Dana" opening its line."""
    line = text[text.rfind("\n", 0, start) + 1:start]
    return _HERE.match(text, end) is not None or _SPEAKER_LEAD.fullmatch(line) is not None and (
        bool(line.strip()) or text[end:end + 1] == ":")


def _whole(word: str) -> re.Pattern[str]:
    return re.compile(rf"(?<![\w-]){re.escape(word)}(?![\w-])", re.IGNORECASE)
