"""The modal lexicon: cue phrases with their strength and polarity, hedges, and verb groups.

Strength follows RFC 2119: ABSOLUTE (MUST, MUST NOT, NEVER ...) > RECOMMENDED (SHOULD,
prefer, avoid ...) > PERMITTED (MAY, optional, feel free ...). A hedge lowers a
directive by one step. Cues are matched on lower-cased, code-masked text.
"""

from __future__ import annotations

import re
from enum import IntEnum
from typing import Literal

Polarity = Literal["obligation", "prohibition"]


class Strength(IntEnum):
    NONE = 0
    PERMITTED = 1
    RECOMMENDED = 2
    ABSOLUTE = 3


#: Cues that lift an obligation ("no need to run it" permits not running it).
WAIVER_CUES = (
    "not required to", "is not required", "are not required", "not required", "not necessary",
    "no need to", "no need for", "needn't", "don't need to", "do not need to", "doesn't need to", "does not need to",
    "don't need", "do not need", "doesn't need", "does not need", "no longer need", "no longer needs",
    "don't have to", "do not have to", "does not have to", "doesn't have to", "not mandatory",
    "optional", "optionally", "up to you", "at your discretion",
)
#: Cues that permit the action they govern.
PERMISSION_CUES = (
    "may", "might", "can", "could", "feel free to", "feel free", "free to", "allowed to", "is allowed",
    "are allowed", "permitted to", "is permitted", "are permitted", "is fine to", "it's fine to", "is ok to",
    "is fine", "are fine", "fine to", "ok to", "okay to", "go ahead", "welcome to", "is acceptable",
    "are acceptable", "no problem",
)
_CUES: dict[tuple[Strength, Polarity], tuple[str, ...]] = {
    (Strength.ABSOLUTE, "prohibition"): (
        "must not", "mustn't", "must never", "shall not", "shan't", "shall never", "never", "do not", "don't",
        "may not", "cannot", "can not", "can't", "is not allowed", "are not allowed", "not allowed to",
        "is not permitted", "are not permitted", "not permitted to", "is forbidden", "are forbidden",
        "forbidden", "prohibited", "under no circumstances", "in no case", "at no point", "refrain from",
        "is not to", "are not to", "no longer allowed", "must avoid", "have to avoid", "need to avoid",
        "under any circumstances", "is not acceptable", "are not acceptable", "not acceptable",
    ),
    (Strength.ABSOLUTE, "obligation"): (
        "must", "shall", "have to", "has to", "need to", "needs to", "is required to", "are required to",
        "is required", "are required", "mandatory", "always", "ensure", "make sure",
        "be sure to", "it is essential", "it is critical", "it is imperative", "is essential",
        "required", "requires", "require", "needs", "need", "at most", "at least", "no more than", "no fewer than",
        "no less than", "not more than", "not less than", "capped at", "is capped", "are capped",
        "limited to", "is limited", "are limited", "no later than", "no earlier than",
        "strictly", "exclusively", "is to", "are to",
        "hard cap", "hard limit", "max", "maximum", "min", "minimum", "at or below", "at or above",
    ),
    (Strength.RECOMMENDED, "prohibition"): (
        "should not", "shouldn't", "should never", "ought not", "avoid", "prefer not to", "better not",
        "is not recommended", "not recommended", "discouraged", "ideally not", "try not to",
    ),
    (Strength.RECOMMENDED, "obligation"): (
        "should", "ought to", "is recommended", "recommended", "ideally", "prefer", "preferably",
        "preferred", "it is best to", "it's best to", "better to", "is encouraged", "encouraged",
    ),
    (Strength.PERMITTED, "obligation"): (
        *WAIVER_CUES, *PERMISSION_CUES, "nice to have", "would be nice", "would be good", "'d be nice", "'d be good",
    ),
}

CUE_TABLE: dict[str, tuple[Strength, Polarity]] = {
    phrase: key for key, phrases in _CUES.items() for phrase in phrases
}

def _cue_alternative(phrase: str) -> str:
    """``may`` next to a day of the month is the month ("by 30 May", "May 2"), not the modal;
    after an amount it is the modal ("Refunds above $200 may be issued")."""
    return r"(?<![\s(]\d )(?<![\s(]\d\d )may(?! \d{1,2}\b)" if phrase == "may" else re.escape(phrase)


CUE_PATTERN = re.compile(
    r"\b(?:" + "|".join(_cue_alternative(p) for p in sorted(CUE_TABLE, key=len, reverse=True)) + r")\b"
)

NO_NOUN_PATTERN = re.compile(
    r"(?:^|[:;,\u2014\u2013]\s*)(?P<word>no|nothing|none|nobody|no one)\b(?!\s+(?:need|longer|more|matter|idea|worries|exceptions?|doubt|problem)\b)")

#: Hedges that can only be about the rule itself, wherever they stand in its clause: "Treat the 50%
#: as a guide rather than a hard cap", "try to get it out around then".
_WHOLE_RULE = (r"as a (?:rough )?guide(?:line)?|(?:rather than|not) a hard (?:cap|limit|rule|line|deadline|requirement|"
               r"target)|(?:a|the) starting point|close enough|around then|soft (?:cap|limit|target|deadline)|ballpark")
HEDGE_PATTERN = re.compile(
    r"\b(?:where(?:ver)? possible|if possible|when(?:ever)? possible|as (?:much|far) as possible|"
    r"to the extent possible|if you can|if feasible|where feasible|when feasible|where practical|"
    r"if practical|when practical|if (?:we|they|it) can|where appropriate|if appropriate|when appropriate|if time permits|"
    r"try (?:not )?to|attempt to|aim to|generally|(?:would|'d) like to|best not to|better not to|"
    r"(?<![$\u20ac\u00a3\d] )worth (?!noting|mentioning|knowing|flagging)(?=[a-z]+ing\b)|usually|typically|in general|if convenient|where it makes sense|"
    r"as a rule of thumb|roughly|more or less|consider|ideally|if needed|as needed|when needed|"
    r"approximately|(?:around|about)(?=\s+(?:[a-z]+\s+)?[$\u20ac\u00a3~+\u2212-]?\d)|(?:if|when) you (?:get|have) (?:a |the )?(?:chance|time|moment)|when convenient|"
    r"at some point|best effort|probably|(?<!\bno )prob|prolly|preferably|where you can|if you(?:'d| would)? (?:like|want|wish|prefer)|"
    r"if (?:it's|it is) easy|maybe|perhaps|if time allows|(?:where|wherever|if) (?:the |your )?\w+ allows?|"
    r"would be (?:helpful|useful|great)|if you have (?:the |it |them )?(?:\w+ )?(?:to hand|handy)|ish|give or take|"
    rf"or so(?!-)|(?<=\d\s)odd|thereabouts|aim for|{_WHOLE_RULE}|to a minimum|"
    r"as (?:few|little|low|short|small|soon) as (?:possible|we can|you can))\b"
)
#: The hedges of ``_WHOLE_RULE``, which count wherever they stand in the rule's clause.
WHOLE_RULE_HEDGE = re.compile(_WHOLE_RULE)

RESTRICTIVE_PATTERN = re.compile(r"\b(?:only|exclusively|solely|nothing but|nothing other than|no other|"
                                 r"(?:keep|stick|limit|restrict)(?:ed|s)? (?:it |them |this |that )?to)\b")
NEGATION_PATTERN = re.compile(r"\b(?:not|never)\b|n't\b")

IMPERATIVE_LEADS = frozenset(
    {"please", "also", "then", "first", "now", "just", "next", "finally", "and", "try", "to", "attempt", "aim"}
)

#: Directive verbs: each row is (verbs of one action, verbs of its opposite). Two verbs on the
#: same side are synonyms; verbs on opposite sides are antonyms ("change" / "keep").
VERB_GROUPS: tuple[tuple[frozenset[str], frozenset[str]], ...] = tuple(
    (frozenset(pos.split()), frozenset(neg.split()))
    for pos, neg in (
        ("change modify alter edit rename rewrite touch update break refactor replace redesign reorder tweak "
         "adjust amend bump upgrade convert round reformat transform normalise normalize",
         "keep preserve retain maintain leave freeze stay remain"),
        ("remove delete drop purge erase destroy truncate wipe discard deprecate", "keep retain preserve"),
        ("share disclose reveal expose leak publish", "withhold hide redact mask conceal"),
        ("include add mention cite list attach state contain put", "omit exclude skip drop leave strip"),
        ("run execute perform test verify check validate confirm", "skip bypass ignore"),
        ("use utilize employ choose pick select adopt rely call install import", "drop replace"),
        ("exceed surpass overshoot overrun", "stay cap limit keep"),
        ("book reserve purchase buy schedule order", "cancel"),
        ("refund reimburse credit compensate", "charge"),
        ("deploy release ship push merge roll", "hold revert rollback"),
        ("contact call email message notify ping escalate page alert inform tell send mail forward write", "ignore"),
        ("disable turn-off deactivate silence suppress mute", "enable activate"),
        ("lock block throttle restrict limit cap", "unlock unblock"),
        ("wait hold pause delay postpone defer", "rush hurry expedite"),
        ("ask request", ""),
        ("sign approve authorise authorize", ""),
        ("write create build implement generate produce draft", ""),
        ("access read open query connect", ""),
        ("answer respond reply report return output provide give", "withhold"),
        ("store save persist cache record log", "discard"),
        ("accept approve allow grant", "reject deny refuse decline"),
    )
)

KNOWN_VERBS = frozenset(word for pos, neg in VERB_GROUPS for word in pos | neg)
INSTRUCTION_VERBS = KNOWN_VERBS | frozenset(
    ["write", "create", "build", "implement", "fix", "compute", "calculate", "find", "search", "set", "restrict", "target", "port", "pull", "print", "load", "extract", "respond", "summarise", "summarize", "translate", "sort", "filter", "format", "round", "convert", "reply", "tell", "ask", "wait", "limit", "avoid", "go", "make", "do", "be", "take", "put"]
)

LIGHT_VERBS = frozenset(
    ["be", "have", "do", "make", "get", "keep", "ensure", "follow", "apply", "stay", "remain", "go", "come", "take", "need", "want", "try"]
)

Relation = Literal["same", "antonym", "unrelated", "waived"]


def verb_relation(constraint_action: str | None, carrier_action: str | None) -> Relation:
    """How a carrier sentence's main verb relates to the constraint's governed verb."""
    if constraint_action is None or constraint_action in LIGHT_VERBS:
        return "waived"
    if carrier_action is None:
        return "unrelated"
    if constraint_action == carrier_action:
        return "same"
    for pos, neg in VERB_GROUPS:
        if (constraint_action in pos and carrier_action in pos) or (
            constraint_action in neg and carrier_action in neg
        ):
            return "same"
    for pos, neg in VERB_GROUPS:
        if (constraint_action in pos and carrier_action in neg) or (
            constraint_action in neg and carrier_action in pos
        ):
            return "antonym"
    return "unrelated"


#: Numbers written as words, with their values ("twenty-four" is read as "twenty" and "four").
SPELLED_NUMBERS: dict[str, int] = {
    **{w: n for n, w in enumerate(("zero", "one", "two", "three", "four", "five", "six", "seven", "eight", "nine",
                                   "ten", "eleven", "twelve", "thirteen", "fourteen", "fifteen", "sixteen",
                                   "seventeen", "eighteen", "nineteen", "twenty"))},
    "thirty": 30, "forty": 40, "fifty": 50, "sixty": 60, "seventy": 70, "eighty": 80, "ninety": 90, "hundred": 100,
}
#: A number written as words, for building patterns: ``word`` and, after a hyphen, ``unit_word``.
SPELLED_NUMBER = (rf"(?P<word>{'|'.join(sorted(SPELLED_NUMBERS, key=len, reverse=True))})"
                  r"(?:-(?P<unit_word>one|two|three|four|five|six|seven|eight|nine))?")


def spelled_value(m: re.Match[str]) -> int:
    """The value of a ``SPELLED_NUMBER`` match: "twenty-four" is 24."""
    unit = m.group("unit_word")
    return SPELLED_NUMBERS[m.group("word").lower()] + (SPELLED_NUMBERS[unit.lower()] if unit else 0)
