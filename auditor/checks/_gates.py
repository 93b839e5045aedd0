"""Gates: a rule and its restatement with the opposite polarity that still say the same thing.

"never land after 22:00" and "land before 22:00" bound one number from opposite sides; "needs
approval first" and "don't post until approved" put the same step first; "write-offs above $2,500
need Dolores's sign-off" restates "do not write off any balance over $2,500 without my approval".
But an obligation that lasts until something ("keep finance posted every hour until it's green")
is no gate, and a handoff whose gates all stand in the upstream ("before 7am") restates content,
not an order re-expressed as a gate.
"""

from __future__ import annotations

import re

from ._clause_words import is_negated

GATE_UP = re.compile(r"\b(?:until|before|unless)\b")
GATE_DOWN = re.compile(r"\bonly\b.*\b(?:once|after|when|if)\b|\b(?:until|before|unless)\b")
GATE_ONCE = re.compile(r"\b(?:once|after|only when|only after|as soon as)\b")
#: "first" as a step ("approve it first"), not an ordinal ("their first slot", "the first run").
_FIRST = r"(?<!\bthe )(?<!\btheir )(?<!\bour )(?<!\bmy )(?<!\byour )(?<!\bits )(?<!\bhis )(?<!\bher )(?<!\ba )first"
GATE_FIRST = re.compile(rf"\b(?:before|{_FIRST}|until|prior to|without)\b")
_APPROVALS = r"(?:approval|sign-?off|consent|go-ahead|authori[sz]ation|ok)"
_WITHOUT_APPROVAL = re.compile(rf"\bwithout\b[^.;]{{0,30}}\b{_APPROVALS}\b")
_APPROVER = re.compile(rf"\bwithout (?:the |an? )?([a-z][\w-]*?)(?:'s)? (?:explicit |written |prior )?{_APPROVALS}\b")
_APPROVAL_NEEDED = re.compile(rf"\b(?:needs?|requires?|required|subject to|must (?:get|have))\b[^.;]{{0,30}}\b"
                              rf"{_APPROVALS}\b|\b(?:approved|signed off|authori[sz]ed) (?:by|first|beforehand)\b")
#: "Keep finance posted every hour until it's green": an obligation that lasts until something, no gate.
_KEEP_UNTIL = re.compile(r"\buntil\b")
_GATE_BEFORE = re.compile(rf"\b(?:before|{_FIRST}|prior to|without)\b")
_GATE_ANY = re.compile(rf"\b(?:before|{_FIRST}|until|prior to|once|after|only when|only after)\b")
#: An order to do the gated act at once: "send it straight to the client", "book it directly".
_STRAIGHT = re.compile(r"\b(?:straight (?:to|on|out|away|through)|directly to|right away|without waiting|"
                       r"no need to wait)\b")
#: A step the rule puts first, not a time: "before it goes to the client", not "before 7am".
_STEP_FIRST = re.compile(r"\b(?:before|until|prior to)\b(?!\s+(?:\d|noon|midnight|tomorrow|today|tonight|"
                         r"(?:mon|tues|wednes|thurs|fri|satur|sun)day|end of|(?:jan|feb|mar|apr|may|jun|jul|aug|sep|"
                         r"oct|nov|dec)[a-z]*\b|the (?:\d|end|start|weekend)))")
#: The handoff's own step first: "once legal has reviewed it, publish it straight to the blog",
#: "... straight to the client after the chef's sign-off".
_STEP_NAMED = re.compile(rf"\b(?:{_APPROVALS}|review(?:ed|s)?|check(?:ed)?|verif(?:y|ied)|sign(?:s|ed)? off|"
                         rf"approv(?:e|ed)|ok(?:'d|ed|s))\b")
#: Someone's say-so: what an approval gate waits for ("until the DBA approves", "after I sign off").
_APPROVAL_STEP = re.compile(rf"\b(?:{_APPROVALS}|approv(?:e|es|ed|ing|al)|sign(?:s|ed)? off|signs?-?off|green light|"
                            rf"authori[sz](?:e|es|ed)|consents?|ok(?:'d|ed|s)|ask(?:s|ed|ing)?)\b")
_EXCEPTION = re.compile(rf"\b(?:unless|except (?:if|when|with))\b[^.;]{{0,40}}(?:{_APPROVAL_STEP.pattern}|\bagrees?\b)")
#: A gate and what it waits for, to the end of its clause: "until the DBA approves".
_GATE_SPAN = re.compile(r"\b(?:until|before|unless|without|prior to|once|after)\b([^.;,\u2014]*)")
_GATE_FILLER = frozenset({"the", "and", "any", "for", "has", "have", "from", "with", "their", "our", "your", "its",
                          "explicit", "written", "prior", "first", "been", "is", "are", "them", "him", "her", "you",
                          "they", "she", "he", "it"})
#: The approval put after the act: "we'll get their sign-off after", "approve it retroactively".
_STEP_LATER = re.compile(rf"{_STEP_NAMED.pattern}[^.;,]{{0,20}}\b(?:after(?:wards)?|later|retroactively|after the fact)\b"
                         rf"(?!\s+(?:the|it|that|you|we|they|review|[a-z]+ing)\b)")
_DIRECTIONS = (("after", "before"), ("over", "under"), ("above", "below"), ("more than", "less than"),
               ("more than", "fewer than"), ("later than", "earlier than"), ("longer than", "shorter than"))


def _gate_restated(low_up: str, low: str) -> bool:
    """Every gate of the handoff ("before 7am") stands in the upstream too: content restated,
    not an order re-expressed as a gate ("needs approval first" / "don't post until approved")."""
    gates = [m.group(0) for m in re.finditer(_GATE_ANY.pattern + r"\s+[\w:.]*\w", low)]
    return bool(gates) and all(g in low_up for g in gates)


def _complementary(low_up: str, low: str) -> bool:
    """The two sides bound the same number from opposite directions: "never after 22:00" and
    "before 22:00" say the same thing with opposite polarity."""
    shared = {m.group(0) for m in re.finditer(r"\d[\d:.,]*", low_up)} & {m.group(0) for m in re.finditer(r"\d[\d:.,]*", low)}
    if not shared:
        return False
    for a, b in _DIRECTIONS:
        for x, y in ((a, b), (b, a)):
            if any(re.search(rf"\b{x}\s+{re.escape(n)}", low_up) and re.search(rf"\b{y}\s+{re.escape(n)}", low)
                   for n in shared):
                return True
    return False


def same_rule_turned(polarity: str, low_up: str, low: str, permission: bool) -> bool:
    """Whether a handoff clause of the other polarity than the rule (of ``polarity``, from the
    upstream sentence ``low_up``) restates it as a gate or a complement."""
    if _complementary(low_up, low):
        return True  # "never land after 22:00" = "land before 22:00"
    if GATE_FIRST.search(low_up) and _GATE_ANY.search(low) and not _gate_restated(low_up, low) \
            and not (polarity == "obligation" and _KEEP_UNTIL.search(low_up) and not _GATE_BEFORE.search(low_up)) \
            and not gate_moved(low_up, low):
        return True  # "needs approval first" = "don't post until approved"
    # "above $2,500 needs sign-off" = "don't write off over $2,500 without approval"
    return _WITHOUT_APPROVAL.search(low_up) is not None and _APPROVAL_NEEDED.search(low) is not None and not permission


def gate_moved(low_up: str, low: str) -> bool:
    """The rule's gate waits for someone's approval ("staging only until the DBA approves") and the
    handoff's gate names no approval and nothing that gate names ("once staging looks good you can
    run it on prod"): the act goes ahead on another step, so the gate is no restatement. A handoff
    naming the approver or the channel ("it has to go through the API review board") may restate it."""
    if _GATE_ANY.search(low) is None or _APPROVAL_STEP.search(low) is not None:
        return False
    for gate in _GATE_SPAN.finditer(low_up):
        if _APPROVAL_STEP.search(gate.group(1)):
            named = {w for w in re.findall(r"[#@]?[a-z][\w-]{2,}", gate.group(1)) if not _APPROVAL_STEP.fullmatch(w)}
            return not any(re.search(rf"(?<![\w#@-]){re.escape(w)}(?![\w-])", low) for w in named - _GATE_FILLER)
    return False


_STEM = re.compile(r"(?:ed|ing|es|s|e)$")
#: A moment, not a step: "until next week", "until further notice", "before Q3", "until the end of
#: the month"; not "until the next release is tagged" or "until end-to-end tests pass".
_TIME_NOUN = r"(?:day|week|month|quarter|year|sprint|morning|afternoon|evening|weekend|release window)s?"
_RELATIVE_TIME = re.compile(rf"\s+(?:(?:the )?(?:next|this|last|following|coming) {_TIME_NOUN}\b(?! (?:is|are|has|have)\b)|"
                            rf"further notice|(?:the )?end of (?:the )?{_TIME_NOUN}\b|eod\b|eow\b|close of business|"
                            rf"q[1-4]\b|(?:a|one|two|three|four|\d+) {_TIME_NOUN}\b)")


def _awaits(low_up: str, gate: re.Match[str]) -> bool:
    """Whether a gate's clause names the step the rule waits for: "until ...", "without ...", or,
    in a negated rule, "before ..." ("do not publish before legal has read it"); not a time
    ("before 7am", "until next week"), and not the later act of "interview each user before any
    result is invalidated"."""
    word = gate.group(0).split()[0]
    if not _STEP_FIRST.match(low_up, gate.start()) and word not in ("without", "unless"):
        return False
    if _RELATIVE_TIME.match(low_up, gate.start() + len(word)):
        return False
    return word not in ("before", "prior") or is_negated(low_up[:gate.start()])


def step_moved(low_up: str, low: str) -> bool:
    """The rule's gate waits for a step that is no approval ("do not close it until the customer
    confirms the fix", "without a thumbs-up from me") and the handoff's gate names none of its words
    in any inflection ("once the engineer marks the job complete"): the gate may wait for another
    step, or for the same one in other words ("once the client has verified the repair"), which
    only the grader can tell. A gate that waits for an approval is ``gate_moved``'s."""
    if _GATE_ANY.search(low) is None or _APPROVAL_STEP.search(low) is not None:
        return False
    for gate in _GATE_SPAN.finditer(low_up):
        if _APPROVAL_STEP.search(gate.group(1)):
            return False
        if _awaits(low_up, gate):
            named = {w for w in re.findall(r"[#@]?[a-z]\w{2,}", gate.group(1))} - _GATE_FILLER
            stems = {_STEM.sub("", w) for w in named}
            return not any(re.search(rf"(?<![\w#@-]){re.escape(w)}", low) for w in stems if len(w) >= 3)
    return False


def exception_on_approval(low: str) -> bool:
    """An exception on someone's say-so: "... unless the research lead signs off"."""
    return _EXCEPTION.search(low) is not None


def skips_gate(low_up: str, low: str) -> bool:
    """The handoff orders the gated act at once ("Please send the allergen matrix straight to the
    client") where the rule puts a step or an approval first ("must be signed off by me before it
    goes to the client"), and names no approval itself, or names it only after the act ("we'll get
    their sign-off after"): the gate is lifted."""
    if _KEEP_UNTIL.search(low_up) and not _GATE_BEFORE.search(low_up):
        return False  # "keep the old key active until the new one is deployed": no step first, an end
    gated = _STEP_FIRST.search(low_up) is not None or _WITHOUT_APPROVAL.search(low_up) is not None \
        or approval_gated(low_up)
    return gated and _STRAIGHT.search(low) is not None and (_STEP_NAMED.search(low) is None
                                                             or _STEP_LATER.search(low) is not None)


def approver(low_up: str) -> str | None:
    """Whose approval a rule is gated on ("... without GM approval" -> "gm"), if it names one."""
    m = _APPROVER.search(low_up)
    return m.group(1) if m is not None else None


def approval_gated(low_up: str) -> bool:
    """The rule puts an approval in the way, not a limit: "Any refund over CHF 100 needs my approval
    first" (or "nothing above $150 without GM approval") allows going past the bound once approved,
    so a handoff that permits it inverts nothing by that."""
    return _APPROVAL_NEEDED.search(low_up) is not None or _WITHOUT_APPROVAL.search(low_up) is not None


def approval_restated(low_up: str, low: str) -> bool:
    """An approval-gated rule whose gate the handoff sentence states too ("anything beyond that needs
    the CX manager's OK"): a permission beside it grants what needs no approval."""
    return approval_gated(low_up) and any(not is_negated(low[max(0, m.start() - 12):m.end()])
                                          for m in _APPROVAL_NEEDED.finditer(low))
