"""Actions the author says it took ("I ran mypy", "I've opened an issue", "Scaled X to 6
replicas", "I typed 'x'"), grounded against the author's *own* tool calls.

Verbs fall in families; each family names the tool-name and command stems that do it:

* ``run``: ran, executed, tested, queried, ... -> any own run whose tool or command mentions the
  object (a generic object, "it", "the script", takes the latest own run);
* ``write``: opened, created, sent, notified, updated, raised, scaled, deleted, assigned,
  cleared, deployed, ... -> an own call whose tool name carries a stem of the family
  ("notify", "send", "email" for *notified*; ``payments.refund`` for *refunded*), or whose
  arguments carry such a stem and a word of the object. Own calls that exist but
  none of which does it make the action ``invented``: the author did other things, not this.
  But a call of the verb's kind whose command does not name the object ("Tested commit 9f2c4e1"
  / ``pytest tests/billing``) may be the same act: ``needs_semantic``, unless the object names a
  path or an id the call would have named; so may a call whose result shows the act done (a
  ``helm history`` line "Rollback to 21" for "Rolled back search-api");
* ``check``: verified, checked, confirmed, reviewed, ... -> an own call whose name, arguments
  or result mention the object; otherwise ``needs_semantic`` (one can check by reading);
* ``echo``: typed, clicked, visited, ... -> the agent's own action transcript (an
  ``observation`` call) or call arguments holding the object; otherwise ``needs_semantic``.

An action with no own tool call at all is ``invented`` for the run and write families, unless
it names no doer ("Refunded $59.00 on A-1043."): a source without tools may be reporting
someone else's work, so that is ``needs_semantic``. "We"
actions are collective: every visible call counts, and when none does it the claim is
``needs_semantic`` (another agent may have done it in prose or code the author saw). A
change shown in the message's own code block ("I modified the function to: ```...```") is
``needs_semantic``: the code is the evidence, and only a reader can judge it.
"""

from __future__ import annotations

import json
import re
from collections.abc import Sequence
from dataclasses import dataclass

from ..trace import ToolCall
from ._rows import vocabulary
from ._verdicts import Verdict

FAMILIES: dict[str, tuple[str, ...]] = {
    "ran": ("run",), "run": ("run",), "executed": ("run",), "re-ran": ("run",), "reran": ("run",),
    "tested": ("run", "test"), "queried": ("run", "query", "sql", "select"), "benchmarked": ("run", "bench"),
    "profiled": ("run", "prof"), "loaded": ("load", "copy", "import", "insert"),
    "updated": ("update", "set", "patch", "edit", "write", "put", "apply"), "edited": ("edit", "write", "patch"),
    "modified": ("edit", "write", "patch", "update"), "changed": ("edit", "write", "patch", "update", "set"),
    "created": ("create", "new", "add", "open", "insert", "post"), "added": ("add", "create", "insert", "append"),
    "wrote": ("write", "create", "edit"), "written": ("write", "create", "edit"), "fixed": ("edit", "write", "patch"),
    "patched": ("patch", "edit"), "refactored": ("edit", "write"), "renamed": ("rename", "mv", "move"),
    "deleted": ("delete", "remove", "rm", "drop", "purge"), "removed": ("delete", "remove", "rm", "drop"),
    "committed": ("commit", "git"), "pushed": ("push", "git"), "deployed": ("deploy", "apply", "rollout", "release"),
    "installed": ("install", "pip", "npm", "apt", "add"), "migrated": ("migrat",),
    "opened": ("open", "create", "new", "issue", "ticket", "post"), "filed": ("file", "create", "issue", "ticket"),
    "sent": ("send", "email", "mail", "message", "post", "notify", "slack", "sms", "reply"),
    "emailed": ("email", "mail", "send"), "notified": ("notify", "send", "email", "mail", "message", "page", "slack"),
    "told": ("send", "message", "email", "notify", "reply"), "informed": ("send", "message", "email", "notify"),
    "pinged": ("ping", "send", "message", "slack", "notify"), "messaged": ("message", "send", "slack", "chat"),
    "paged": ("page", "incident", "alert"), "assigned": ("assign", "update", "set"),
    "raised": ("raise", "update", "set", "create", "increase"), "cleared": ("clear", "reset", "retry", "delete"),
    "scaled": ("scale",), "restarted": ("restart", "rollout"), "merged": ("merge",), "approved": ("approve",),
    "refunded": ("refund",), "booked": ("book", "reserve"), "scheduled": ("schedule", "create"),
    "submitted": ("submit",), "applied": ("apply", "update", "set"), "uploaded": ("upload", "put", "cp"),
    "logged": ("log", "create", "record"), "flagged": ("flag", "label", "update"), "cancelled": ("cancel",),
    "escalated": ("escalat", "assign", "page"), "froze": ("freeze", "hold"), "held": ("hold", "freeze"),
    "posted": ("post", "send", "comment"), "rolled": ("rollout", "rollback", "undo"), "let": ("send", "message", "notify"),
}
RUN = frozenset(["ran", "run", "executed", "re-ran", "reran", "tested", "queried", "benchmarked", "profiled"])
CHECK = frozenset(["verified", "checked", "confirmed", "validated", "reviewed", "inspected", "spot-checked",
                   "compared", "looked", "read", "searched", "found"])
ECHO = frozenset(["typed", "clicked", "visited", "navigated", "scrolled", "opened the page", "browsed"])
CODE = frozenset(["updated", "edited", "modified", "changed", "added", "wrote", "written", "fixed", "patched",
                  "refactored", "renamed", "created"])
_GENERIC = frozenset(["it", "this", "that", "code", "script", "program", "snippet", "command", "them", "everything",
                      "again", "now", "over"])
_STOP = vocabulary("""the a an and or of to in on for with it this that all my our its their then also again now some any
you your them him her his they it's as at by from into so up out over back just already""")


@dataclass(frozen=True)
class ActionVerdict:
    verdict: Verdict
    reason: str
    call: ToolCall | None = None


def call_text(call: ToolCall) -> str:
    args = call.arguments if isinstance(call.arguments, str) else json.dumps(call.arguments or {}, default=str)
    return f"{call.tool} {args}".lower()


def _words(obj: str) -> list[str]:
    return [w for w in re.findall(r"[a-z0-9_./@#-]+", obj.lower()) if w not in _STOP and len(w) > 2]


def _stem(word: str) -> str:
    for suffix in ("ing", "ed", "es", "s"):
        if word.endswith(suffix) and len(word) - len(suffix) >= 4:
            return word[:-len(suffix)]
    return word


def ground_action(verb: str, obj: str, source: str, own: Sequence[ToolCall], shown_code: bool) -> ActionVerdict:
    """``own`` are the source's own tool calls before the message, in trace order."""
    verb = verb.lower()
    words = _words(obj)
    stems = {_stem(w) for w in words}
    kindred = None  # the latest own call of the verb's kind ("tested" / a pytest run), when the object names no path
    for call in reversed(own):
        haystack = call_text(call)
        if verb in CHECK or verb in ECHO:
            haystack += " " + (call.result or "").lower()
        concrete = [w for w in words if any(ch in w for ch in "./_-@#") and w in haystack]
        matched = {s for s in stems if len(s) > 3 and s in haystack}
        by_object = bool(concrete) or len(matched) >= (2 if verb in CHECK or verb in ECHO else 1)
        by_verb = any(stem in haystack for stem in FAMILIES.get(verb, ()))
        named = [w for w in words if any(ch in w for ch in "./_@#")]
        by_tool = verb not in RUN and any(stem in call.tool.lower() for stem in FAMILIES.get(verb, ())) \
            and (not named or bool(concrete))
        generic = verb in RUN and (not words or set(words) <= _GENERIC)
        if kindred is None and (by_verb or by_tool) and not named:
            kindred = call  # a call that names its object (a path, an id) is about that object, not this one
        result = (call.result or "").lower()
        if kindred is None and verb not in RUN and any(stem in result for stem in FAMILIES.get(verb, ())) and (
                any(w in result for w in words if not w.isdigit()) if words else True):
            kindred = call  # "Rolled back search-api": a `helm history` that shows the rollback
        if by_object and (by_verb or verb not in FAMILIES or verb in RUN) or (by_verb and not words) or generic \
                or by_tool:
            return ActionVerdict("grounded", f"{source}'s own call {call.id} ({call.tool}) does it", call)
    if shown_code and verb in CODE:
        return ActionVerdict("needs_semantic", "the change is shown in the message's own code block")
    if verb in CHECK or verb in ECHO or verb not in FAMILIES:
        return ActionVerdict("needs_semantic", f"no own call of {source} matches '{verb} {obj.strip()}'; "
                                               f"it may have been done by reading")
    if kindred is not None:
        return ActionVerdict("needs_semantic", f"{source}'s own call {kindred.id} ({kindred.tool}) is of the kind "
                                               f"'{verb}' names, or shows it done, but does not name its object",
                             kindred)
    if not own:
        return ActionVerdict("invented", f"'{verb}' is a claim about {source}'s own action, and {source} made no "
                                         f"tool call before this message")
    return ActionVerdict("invented", f"none of {source}'s {len(own)} tool calls does '{verb} {obj.strip()}'")
