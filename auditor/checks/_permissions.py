"""Permissions: the words and phrases by which a handoff permits or waives what a rule ordered or
forbade ("is fine", "the live rate will do", "feel free to", "won't mind", "whichever she prefers"),
and the shapes that look like a permission but permit nothing ("no payment can go out",
"nothing else will do", "needs the GM's OK", "only Dana can"), or permit only under a condition
("only acceptable if a human post-edits it").
"""

from __future__ import annotations

import re

from ..nlp import CUE_PATTERN, PERMISSION_CUES, WAIVER_CUES

PERMISSION = frozenset(PERMISSION_CUES)
WAIVERS = frozenset(WAIVER_CUES)
OK_PATTERN = re.compile(r"\b(?:is|are|'s) (?:[a-z]+ly |probably |still |totally )?(?:ok|okay|fine|acceptable)\b|"
                        # "the live rate will do", not "what the intern would do"
                        r"(?:^|[,;:.]\s*)(?:(?!\b(?:what|which|that|whatever|who)\b)[^,;:.])*?\b(?:will|would) "
                        r"(?:do|be fine|be ok|be okay|be acceptable)(?=\s*(?:[,.;:!)]|$|for now|instead))")
#: "needs the GM's OK", "wait for Dana's okay": an approval asked for, not a permission given.
_OK_ASKED = re.compile(r"\b(?:needs?|requires?|gets?|got|getting|wait(?:s|ing)? for|without|until|pending|after)\s+"
                       r"(?:the |an? |my |his |her |their |our |your )?[\w-]+(?: [\w-]+)?'s (?:[a-z]+ )?$")
#: A permission whose subject is "no ..." permits nothing: "no payment can go out until the review".
_NO_SUBJECT = re.compile(r"\b(?:no|nothing|nobody|none|neither)\b[^,;:.]{0,40}$")
#: "won't mind", "has no objection to": a permission worded with a negation.
NO_OBJECTION = re.compile(r"\b(?:won't|wouldn't|doesn't|don't|didn't|will not|would not|does not|do not) mind\b|"
                          r"\bno (?:objection|problem) (?:to|with)\b")
#: Going on past a bound regardless: "keep it running even though it's over the $180 line".
_CONCEDED_PAST = re.compile(r"\b(?:even though|even if|although|despite|regardless of)\b[^.;]{0,30}"
                            r"\b(?:over|above|exceed\w*|more than|beyond|past)\b")
#: "only Dana can step in", "can only go to X", "only A, B or C are allowed": a restriction; its
#: modal or its "allowed" permits nothing.
ONLY_MAY = re.compile(r"\bonly\b[^,;.]{0,60}\b(?:can|could|may|(?:is|are) (?:allowed|permitted|accepted|acceptable))\b|"
                      r"\b(?:can|could|may) only\b")
#: The words of a permission that a restriction (``ONLY_MAY``) turns into an order.
RESTRICTED = frozenset({"can", "could", "may", "allowed", "permitted", "accepted", "acceptable", "is allowed",
                        "are allowed", "is permitted", "are permitted", "is acceptable", "are acceptable"})
#: A free choice is a permission: "refund it to whichever card she prefers".
FREE_CHOICE = re.compile(r"\b(?:whichever|whatever)\b[^.;,]{0,30}?\b(?:you|she|he|they|the (?:customer|client|"
                         r"user|guest|patient))\s+(?:prefers?|likes?|wants?|chooses?|picks?)\b")
#: A permission restricted to a condition, and the exception a prohibition makes.
ONLY_IF = re.compile(r"\bonly(?: \w+){0,2} (?:if|when|once|after|with|provided|as long as)\b")
EXCEPT_IF = re.compile(r"\b(?:without|unless|until|except|before)\b")


def ok_phrases(low: str) -> list[re.Match[str]]:
    """The phrases of ``low`` that permit something ("is fine", "the live rate will do"); not one
    whose subject is "nothing ..." or "no ...", which restricts ("on 20GB, nothing else will do")."""
    return [m for m in OK_PATTERN.finditer(low)
            if not (m.group(0).startswith("'s") and _OK_ASKED.search(low, max(0, m.start() - 60), m.start() + 3))
            and not _NO_SUBJECT.search(low[:m.start()] + m.group(0).split(" will ")[0].split(" would ")[0])]


def permits(low: str) -> bool:
    """Whether ``low`` permits something: an OK phrase, a permission cue whose subject is no "no
    ...", "won't mind", or going on past a bound regardless."""
    return bool(ok_phrases(low)) or any(m.group(0) in PERMISSION and not _NO_SUBJECT.search(low, 0, m.start())
                                        for m in CUE_PATTERN.finditer(low)) \
        or NO_OBJECTION.search(low) is not None or _CONCEDED_PAST.search(low) is not None
