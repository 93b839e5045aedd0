"""Reading a carrier: what the handoff clauses aligned with a constraint say about it.

Every clause of the aligned unit that carries the constraint's keys (two of them, or a strong
one) is read on its own: its strength (a modal cue, an imperative, a plain statement), its
polarity (a negation, a zero count, an antonym of the constraint's verb), hedges, permission
and waivers. The clauses must agree, or the verdict is left to the grader. Two readings look
at the whole unit: a permission to go past the constraint's bound, and a permission or order
that names what the constraint excluded ("never from the email" / "call the number in the
email"). What permits is read by ``_permissions``, what bounds and goes past a bound by ``_bounds``;
a rule no clause carries alone, by ``_across``.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import replace

from ..nlp import (
    CUE_PATTERN,
    CUE_TABLE,
    HEDGE_PATTERN,
    INSTRUCTION_VERBS,
    RESTRICTIVE_PATTERN,
    WHOLE_RULE_HEDGE,
    Directive,
    Key,
    Strength,
    clauses,
    is_light,
    key_positions,
    text_forms,
    verb_relation,
)
from ._across import FENCED, hedged_across
from ._bounds import goes_past, passes_value, restates_cap, turned_bound
from ._clause_words import (
    cued,
    done_by_source,
    is_negated,
    negation_governs,
    other_value,
    own_numbers,
    relation_to,
    reports_done,
    trailing,
)
from ._exclusions import asks_more_than, excluded_words, excludes_by_bound, names_any
from ._gates import (
    GATE_DOWN,
    GATE_FIRST,
    GATE_ONCE,
    GATE_UP,
    approval_gated,
    exception_on_approval,
    gate_moved,
    same_rule_turned,
    skips_gate,
    step_moved,
)
from ._permissions import (
    EXCEPT_IF,
    FREE_CHOICE,
    NO_OBJECTION,
    ONLY_IF,
    ONLY_MAY,
    PERMISSION,
    RESTRICTED,
    WAIVERS,
    ok_phrases,
    permits,
)
from ._reading import Reading, Unit

#: Least share of a constraint's key weight that a clause with no cue must carry to restate it.
STATEMENT_SHARE = 0.6
#: Least share of a constraint's key weight a clause must carry to invert it: "Book the cheapest
#: flight" does not invert "never book red-eye flights", whose qualifier it lacks.
INVERT_SHARE = 0.6
#: The same for a permission, a waiver or a skipped gate, which lifts the rule itself: "Go ahead and
#: send the claim to the supplier today" lifts "do not send anything to the supplier until ...".
LIFT_SHARE = 0.3

_IF_ABLE = re.compile(r"\b(?:if|what|whatever|as much as|as many as) (?:we|you|they|it|i) (?:can|could|may|might)\b")
#: Verbs that forbid what they govern: "avoid Fridays", "steer clear of the pool".
_AVOID_VERBS = r"avoid(?:s|ing)?|refrain(?:s|ing)? from|steer(?:ing)? clear of|stay(?:ing)? away from"
_AVOIDS = re.compile(rf"\b(?:{_AVOID_VERBS})\b")
_KEEPS_OUT = re.compile(rf"\b(?:without|excluding|exclude[sd]?|except|missing|absent|other than|instead of|"
                        rf"rather than|{_AVOID_VERBS}|leave (?:\w+ )?out|omit(?:s|ting)?)\b")
#: The rule's last key and the verb of which it is the subject, up to a cue: "@net-team's approval
#: is optional", "Irish domestic sales should preferably stay": the cue is said of the key.
_PREDICATE = re.compile(r"[\w@./-]+(?:'s)?\s+(?:is|are|was|were|will be|should|must|can|may|could|would|"
                        r"(?:now|still|also|here)\s+(?:is|are))\s+(?:(?:now|still|also|here|entirely|totally)\s+)?$")
#: The complement of what a rule is about: "the other 7 go to the pool", "the rest can wait".
_COMPLEMENT_SET = re.compile(r"^\s*(?:and |but |then )?(?:the others?\b|the rest\b|the remaining\b|all (?:the )?others?\b|"
                             r"everything else\b|everyone else\b|anything else\b)")
#: "only after the new key is deployed" is kept by steps put in order: "deploy it, then revoke the old one".
_ONLY_IN_TIME = re.compile(r"\bonly (?:after|once|when|until|before)\b")
_SEQUENCE = re.compile(r"\b(?:then|after|afterwards|once|before|first|until)\b")
#: A permission phrase and the verb it permits.
_PERMITTED_VERB = re.compile(r"\b(?:fine|ok|okay|free|allowed|welcome) to (\w+)|\b(?:can|may|could) (\w+)")
_COMPLEMENT = re.compile(r"\b(?:other|else|besides|anything but|except)\b")
_STANDING = re.compile(r"\b(?:always|never|every|each|any|all|whenever|no|only|at all times|until|unless|before|"
                       r"after|while|during)\b")


def read_units(c: Directive, upstream: str, units: Sequence[Unit], numbers: bool = True) -> Reading:
    """Read every aligned unit's clauses against constraint ``c`` (from sentence ``upstream``)
    and combine them: a decisive unit-level reading (a bound passed, an excluded alternative
    allowed) wins; otherwise cued clauses speak for the rule, plain statements only when nothing
    else does, and the clauses must agree."""
    readings: list[tuple[str, Reading]] = []
    for n, unit in enumerate(units):
        before = len(readings)
        decided = _read_unit(c, upstream, unit, readings, numbers)
        if decided is not None:
            return replace(decided, units=(n,))
        readings[before:] = [(t, replace(r, units=(n,))) for t, r in readings[before:]]
    if not readings:
        spread = hedged_across(c, units)
        if spread is not None:
            return spread
        return Reading("needs_semantic", "no single clause carries it; needs the semantic grader")
    decisive = [(t, r) for t, r in readings if r.verdict != "needs_semantic" or r.conflict]
    cued = [(t, r) for t, r in decisive if r.cued]
    chosen = cued or decisive or readings
    verdicts = {r.verdict for _, r in chosen}
    used = tuple(sorted({n for _, r in chosen for n in r.units}))
    if len(verdicts) > 1:
        said = "; ".join(f"{r.verdict} ({t.strip()[:40]!r})" for t, r in chosen)
        return Reading("needs_semantic", f"the handoff's clauses disagree: {said}", units=used)
    return replace(chosen[0][1], units=used)


def _read_unit(c: Directive, upstream: str, unit: Unit, readings: list[tuple[str, Reading]],
               numbers_needed: bool) -> Reading | None:
    """Append the unit's clause readings; return a reading that decides on its own, if any.
    A clause is read only if it carries every number of the constraint (``numbers_needed``)."""
    words = FENCED.sub(lambda m: " " * len(m.group(0)), unit.words)
    low_up = upstream.lower()
    up = f"upstream {c.strength.name.lower()} {c.polarity} ({c.cue!r})"
    plain = [words[a:b].lower() for a, b in unit.spans if not _PLAN.match(_IF_ABLE.sub(" ", words[a:b].lower()))]
    gated = approval_gated(low_up[c.scope[0]:c.scope[1]])
    if not gated and (any(permits(_IF_ABLE.sub(" ", t)) for t in plain) and goes_past(low_up, plain) or any(
            permits(_IF_ABLE.sub(" ", t)) and passes_value(low_up, t) for t in plain)):
        # "marginally over the €60 cap; ... fine to wave through", not "fine, but never beyond 6 weeks"
        return Reading("inverted", f"inverted: {up} -> the handoff permits going past the bound")
    ruled = [words[a:b].lower() for a, b in unit.spans if any(a <= at < b for at, _ in unit.parsed)]
    # a rule restated, not a value reported, nor a bound in a leading condition ("if prefetching
    # doesn't get p95 under 300 ms, a cache is acceptable"); a bound that calls for an approval
    # ("no discount above 20% without the director's approval") is a threshold, which "anything
    # above 20% needs the director's OK" restates
    turned = None if gated else next(filter(None, (turned_bound(low_up, _unconditioned(t)) for t in ruled)), None)
    if turned is not None:
        return Reading("inverted", f"inverted: {up} -> the handoff bounds {turned} from the other side")
    excluded = excluded_words(low_up) if c.polarity == "obligation" else ()
    bounded = excludes_by_bound(low_up)
    total = sum(k.weight for k in c.keys if numbers_needed or k.kind != "number") or 1.0
    numbers = [k for k in c.keys if k.kind == "number" and not k.aside] if numbers_needed else []
    governed = governed_keys(c, upstream)
    for start, end in unit.spans:
        text = words[start:end]
        if "```" in text or text.lstrip().startswith("|"):
            continue  # code and tables state values, not strength: no reading
        forms = text_forms(text)
        found = [k for k in unit.hit if forms.has(k)]
        low = text.lower()
        names_excluded = bool(excluded) and names_any(excluded, low)
        lead = _LEADING_CONDITION.match(low)  # "if the ECB rates aren't to hand, the live rate will do"
        rest = low[lead.end() if lead else 0:]
        if not bounded and names_any(excluded, rest) and not is_negated(rest) and not _COMPLEMENT_SET.match(rest) \
                and not _KEEPS_OUT.search(low) and not RESTRICTIVE_PATTERN.search(low) and not reports_done(low) and (
                    relation_to(c.action, text) == "same" or ok_phrases(low)
                    or any(m.group(0) in PERMISSION for m in CUE_PATTERN.finditer(low))):
            if asks_more_than(low_up):
                return Reading("needs_semantic", f"the rule asks for more than what the handoff names ('not "
                                                 f"just'); whether it settles for that alone needs the grader: "
                                                 f"{text.strip()[:80]!r}")
            return Reading("inverted", f"inverted: {up} -> the handoff allows what it excluded ({text.strip()[:80]!r})")
        if _PLAN.match(_IF_ABLE.sub(" ", low)):
            continue  # "let's fetch the labels...", "I will ...": a plan, not a rule restated
        if numbers and not all(n in found for n in numbers):
            continue  # "the cap is 6 months" is not about the constraint's 12 months
        if len(found) >= 2 or any(k.strong or k.kind == "action" for k in found):
            reach = max(key_positions(text, found), default=len(text))
            able = [(m.start(), m.end()) for m in _IF_ABLE.finditer(low)]  # "if you can" grants nothing
            inside = [d for at, d in unit.parsed if start <= at < end and (at - start <= reach or trailing(
                low, at - start)) and not any(a <= at - start < b for a, b in able)]
            reading = replace(read_clause(c, upstream, text, inside, up, reach, names_excluded),
                              cued=bool(inside) or cued(text))
            share = sum(k.weight for k in found) / total
            if reading.verdict == "inverted" and share < (LIFT_SHARE if reading.lifted else INVERT_SHARE):
                reading = Reading("needs_semantic", f"{reading.why}, but the clause carries too little of it to be sure")
            if reading.verdict == "kept" and not inside and not cued(text) and share < STATEMENT_SHARE:
                continue  # a plain statement that only mentions the topic restates nothing
            if reading.verdict == "kept" and governed and not any(k in found for k in governed):
                reading = Reading("needs_semantic", "the clause names what the rule is about, but nothing of what it "
                                                    "requires", cued=reading.cued)
            readings.append((text, reading))
    return None


def governed_keys(c: Directive, upstream: str) -> tuple[Key, ...]:
    """The keys a modal cue governs: those written after it and not before ("Any change to X
    requires *a* change *ticket approved by the CAB*"). None for an imperative, which governs its whole clause, or a cue that
    ends it ("Signature on delivery is required"), whose subject is what it requires."""
    if c.imperative:
        return ()
    head, tail = upstream[c.scope[0]:c.cue_at], upstream[c.cue_at + len(c.cue):c.scope[1]]
    return tuple(k for k in c.keys if key_positions(tail, (k,)) and not key_positions(head, (k,)))


def _permits_another_act(action: str | None, low: str) -> bool:
    """Every permission of the clause permits a known act other than the rule's own (and not
    its opposite): "fine to ask for the card number" says nothing of "the card must be blocked"."""
    verbs = _permitted_verbs(low)
    return action is not None and bool(verbs) and all(
        v in INSTRUCTION_VERBS and verb_relation(action, v) not in ("same", "antonym") for v in verbs)


def _permits_moving(low: str) -> bool:
    """Every permission of the clause lets one of the rule's things go or be somewhere ("celery can
    go to 5.4"): a light verb, which names no act of its own."""
    verbs = _permitted_verbs(low)
    return bool(verbs) and all(is_light(v) for v in verbs)


def _permitted_verbs(low: str) -> list[str]:
    """The verbs the clause's permissions permit ("fine to ask" -> "ask", "can go" -> "go")."""
    return [m.group(1) or m.group(2) for m in _PERMITTED_VERB.finditer(low)]


def read_clause(c: Directive, upstream: str, words: str, inside: Sequence[Directive], up: str,
                reach: int, names_excluded: bool = False) -> Reading:
    """One clause's reading of the constraint: kept, softened, inverted, fulfilled, or unsure.
    A negation or hedge counts only before ``reach``, the last of the constraint's keys in the
    clause: "keep the voice playful, never sarcastic" does not negate "playful"."""
    low = words.lower()
    used = _QUOTED.sub(lambda m: " " * len(m.group(0)), low)  # a quoted option is mentioned, not said
    cues = [m.group(0) for m in CUE_PATTERN.finditer(_IF_ABLE.sub(" ", used))
            if m.start() <= reach or trailing(low, m.end()) or _PREDICATE.match(low, reach, m.start())]
    condition = _LEADING_CONDITION.match(low)
    stated = NO_OBJECTION.sub(" ", low[condition.end() if condition else 0:reach + 1])  # not "if the reload doesn't take"
    negated = is_negated(stated) or _AVOIDS.search(stated) is not None  # "try to avoid Fridays": a prohibition
    governs = negation_governs(c.action, low)
    permission = [q for q in cues if q in PERMISSION and not (q in ("can", "could") and _REQUEST.search(low))] + (
        [m.group(0) for m in ok_phrases(low)]) + [m.group(0) for m in FREE_CHOICE.finditer(low)] + [
        m.group(0) for m in NO_OBJECTION.finditer(low)]
    if ONLY_MAY.search(low):  # "only Dana can step in", "can only go to X": a restriction, no permission
        permission = [q for q in permission if q.strip() not in RESTRICTED]
    granted = tuple(permission)
    waived = [q for q in cues if q in WAIVERS]
    relation = relation_to(c.action, words)
    polarity = "prohibition" if negated else "obligation"
    strength = Strength.ABSOLUTE
    rule_numbers = own_numbers(c)
    hedged = any((m.start() <= reach or not re.search(r"[a-z]{3,}", low[m.end():]) or trailing(low, m.end())
                  or WHOLE_RULE_HEDGE.fullmatch(m.group(0)))
                 and not other_value(low, m, rule_numbers) for m in HEDGE_PATTERN.finditer(used))
    condition_after = _TRAILING_IF.search(low, reach)
    condition_end = _CONDITION_END.search(low, condition_after.end()) if condition_after else None
    # an exception on someone's say-so the rule did not have: "... unless the research lead signs off"
    hedged = hedged or (exception_on_approval(low) and not exception_on_approval(upstream.lower()))
    hedged = hedged or (condition_after is not None and _LEEWAY.search(
        low, condition_after.end(), condition_end.start() if condition_end else len(low)) is not None
                        and not _TRAILING_IF.search(upstream.lower()))
    settled = False  # whether the polarity is known to be about the constraint's own action
    if inside:
        related = [d for d in inside if verb_relation(c.action, d.action) in ("same", "antonym")]
        d = (related or list(inside))[-1]
        own = verb_relation(c.action, d.action)
        if own in ("same", "antonym"):
            relation = own
            settled = True
        polarity = d.polarity
        strength = Strength.ABSOLUTE if d.imperative or (d.cue.lower() in ("can", "could") and _REQUEST.search(
            low)) or (d.cue.lower() in RESTRICTED and ONLY_MAY.search(low)) else d.strength
        if strength == Strength.PERMITTED and negated and d.cue.lower() in PERMISSION:
            strength, polarity = Strength.ABSOLUTE, "prohibition"  # "no other egress is allowed"
    elif c.polarity == "obligation" and any(CUE_TABLE[q] == (Strength.PERMITTED, "obligation") and q not in PERMISSION
                                             and q not in WAIVERS for q in cues):
        strength = Strength.PERMITTED  # "a CAB ticket would be good to have", "nice to have"
    elif any(CUE_TABLE[q][0] == Strength.RECOMMENDED for q in cues):
        strength = Strength.RECOMMENDED
    elif not cues and done_by_source(c.action, low) and c.imperative and not _STANDING.search(upstream.lower()):
        return Reading("fulfilled", "the source reports this one-off order done: nothing left to pass on")
    elif not cues and reports_done(low):
        return Reading("needs_semantic", "the handoff reports work done rather than passing the rule on")
    elif not cues and turned_bound(upstream.lower(), low) is not None:  # "two descriptions run over 155 characters"
        return Reading("needs_semantic", "the handoff reports a value past the bound rather than passing the rule on")
    if skips_gate(upstream.lower(), low):
        return Reading("inverted", lifted=True, why=f"inverted: {up} -> the handoff sends it straight on, past the step the rule puts "
                                   f"first ({words.strip()[:80]!r})")
    if waived:
        if c.polarity == "obligation" and relation == "same":
            return Reading("inverted", f"inverted: {up} -> the handoff waives it ({waived[0]!r})", lifted=True)
        return Reading("needs_semantic", f"the handoff waives something ({waived[0]!r}); needs the semantic grader")
    if permission and GATE_ONCE.search(low) and GATE_FIRST.search(upstream.lower()):
        permission, strength = [], Strength.ABSOLUTE  # "prod can go ahead once staging looks good" = "staging before prod"
    within = restates_cap(upstream.lower(), low)
    if within and strength == Strength.PERMITTED:
        strength = Strength.ABSOLUTE  # "you can offer anything up to $200": the cap, restated
    if permission and negated:
        permission, polarity = [], "prohibition"
    elif permission and within:
        permission = []  # "can be anything up to $10k" for "capped at $10,000": the bound itself, restated
    elif permission and _permits_another_act(c.action, low):
        permission = []  # "it's fine to ask for the card number now that the card is blocked": another act
    elif permission:
        strength = Strength.PERMITTED
    if (c.restrictive and negated and _COMPLEMENT.search(low)) or (negated and names_excluded):
        polarity = "obligation"  # "don't write any other field", "no gymnastics centers": the restriction kept
    if c.polarity == "prohibition" and (GATE_FIRST.search(upstream.lower()) or GATE_UP.search(upstream.lower())) \
            and step_moved(upstream.lower(), low):
        # "once the engineer closes the job, archive it" for "do not archive it until the customer
        # confirms the fix": another step, or the same one in other words
        return Reading("needs_semantic", f"the handoff's gate names nothing of the step the rule waits for; "
                                         f"whether it is the same step needs the semantic grader ({words.strip()[:80]!r})")
    if c.polarity == "prohibition" and GATE_UP.search(upstream.lower()) and GATE_DOWN.search(low) \
            and not gate_moved(upstream.lower(), low):
        polarity = "prohibition" if relation != "antonym" else "obligation"
    if relation == "antonym":
        polarity = "prohibition" if polarity == "obligation" else "obligation"
    said = f"handoff {strength.name.lower()} {polarity}" + (" hedged" if hedged else "") + f" ({words.strip()[:80]!r})"
    if strength == Strength.PERMITTED and c.polarity == "prohibition" and ONLY_IF.search(low) \
            and EXCEPT_IF.search(upstream.lower()):
        # "machine translation is only acceptable if a human post-edits it" for "no machine translation
        # without human post-editing": a permission under the rule's own exception restates it when the
        # condition is the same; which condition it is, the grader reads
        return Reading("needs_semantic", f"the handoff permits it only under a condition, as the rule's own "
                                         f"exception does; whether it is the same condition needs the grader: "
                                         f"{up}, {said}")
    if polarity != c.polarity:
        if same_rule_turned(c.polarity, upstream.lower(), low, bool(permission)):
            polarity = c.polarity
        elif not (settled or governs or relation == "antonym" or (permission and c.polarity == "prohibition")):
            if c.polarity == "prohibition" and strength == Strength.PERMITTED and (
                    not _permits_another_act(c.action, low) or _permits_moving(low)):
                # "celery can go to 5.4 in the same PR" for "you must not upgrade celery in the same PR":
                # whatever act it names, a permission among the rule's things lifts a prohibition
                return Reading("inverted", f"inverted: {up} -> the handoff permits, among its things, what it "
                                           f"forbids: {said}", lifted=True)
            if c.polarity == "prohibition" and (hedged or strength == Strength.RECOMMENDED) and (
                    inside or cues or not _GUESS.search(low)):  # "the refund will probably clear Monday": a guess
                # "Try to keep the partner tier out of the main table" for "Do not document the partner
                # tier": the rule put the other way round (its complement), and weakened
                return Reading("softened", f"softened: {up} -> the rule put the other way round, weakened: {said}")
            return Reading("needs_semantic", f"the polarity differs, not clearly about the same action: {up}, {said}",
                           conflict=relation != "none")
    if polarity != c.polarity:
        if relation == "none" and not (permission and c.polarity == "prohibition"):
            return Reading("needs_semantic", f"the polarity differs, about another action: {up}, {said}")
        scoped = RESTRICTIVE_PATTERN.search(low) is not None
        own_negated = negation_governs(c.action, low)
        if strength != Strength.PERMITTED and (scoped or (not own_negated if polarity == "prohibition" else is_negated(low))):
            # "The flow stays, do not remove it", "Pause only the affected items, never the whole feed": a
            # restatement that orders and forbids at once. The opposite order restricts nothing, and negates
            # nothing but the rule's own act ("Do not include the disclaimer" for "always include it")
            return Reading("needs_semantic", f"the handoff orders the opposite, but scopes or negates something "
                                             f"too, as a restatement in other words can: {up}, {said}", conflict=True)
        return Reading("inverted", f"inverted: {up} -> {said}", lifted=strength == Strength.PERMITTED and not hedged)
    if strength == Strength.PERMITTED and c.polarity == "prohibition" and relation != "antonym":
        return Reading("inverted", f"inverted: {up} -> the handoff permits it", lifted=not hedged)
    if granted and strength == Strength.PERMITTED and c.polarity == "obligation" and not hedged \
            and not (all(q in _SUGGESTING for q in granted) and _SUGGESTION.search(low)):
        # "Evidence can go through the portal, or be emailed" for "must go through the portal only": a
        # permission may weaken the order or leave room for what it excludes, and the independent
        # authors read it either way about equally often; a nice-to-have, or "might"/"could" in a
        # suggestion ("might be worth a quick sign-off", "you could consider the redress route"), stays
        # a softening
        return Reading("needs_semantic", f"the handoff permits what the rule orders: a weaker order, or leave "
                                         f"for what it excludes; needs the semantic grader: {up}, {said}")
    if hedged or strength < c.strength:
        return Reading("softened", f"softened: {up} -> {said}")
    if c.restrictive and c.polarity == "obligation" and not (
            RESTRICTIVE_PATTERN.search(low) or (negated and _COMPLEMENT.search(low))
            or (_ONLY_IN_TIME.search(upstream.lower()) and _SEQUENCE.search(low))):
        if not (inside or cues):
            return Reading("needs_semantic", "a statement without the restriction (only) does not restate it")
        # "Promote if AUC improves" for "Only promote if ...", "max 160 characters" for "limited to 160":
        # a condition or a bound may carry the restriction; on the independent sets the lost "only"
        # was a lost rule 4 times in 11
        return Reading("needs_semantic", f"the handoff restates it without the restriction (only), which a "
                                         f"condition or a bound may still carry: {up}, {said}", conflict=True)
    return Reading("kept", f"kept: {up} -> {said}")


def _unconditioned(low: str) -> str:
    """A clause without its leading condition ("if the reload doesn't take, ...")."""
    lead = _LEADING_CONDITION.match(low)
    return low[lead.end():] if lead else low


def unit_clauses(words: str) -> list[tuple[int, int]]:
    """Clauses of a unit, split at sentence ends too (a unit may hold two sentences)."""
    out: list[tuple[int, int]] = []
    for s, e in _sentence_pieces(words):
        out.extend((s + a, s + b) for a, b in clauses(words[s:e]))
    return out


def _sentence_pieces(words: str) -> list[tuple[int, int]]:
    spans, start = [], 0
    for m in re.finditer(r"[.!?](?:\s+|$)|\n", words):
        if m.end() > start:
            spans.append((start, m.end()))
        start = m.end()
    if start < len(words):
        spans.append((start, len(words)))
    return [s for s in spans if words[s[0]:s[1]].strip()] or [(0, len(words))]


_PLAN = re.compile(r"\s*(?:let's|let me|let us|i will|we will|i'll|we'll|i am going to|we are going to|"
                   r"i'm going to|we're going to|to [a-z]+\b)|.*\b(?:we|i) (?:can|could|will|shall)\b|.*\b(?:this|that|it|which) (?:will|would|should|can|could|may|might|helps?)\b")
#: Words in quotation marks, such as an answer option ("excluding the 'prefer not to say' group").
_QUOTED = re.compile(r"(?<![\w'])'[^'\n]{1,40}'(?![\w'])|\"[^\"\n]{1,40}\"|\u2018[^\u2019\n]{1,40}\u2019|"
                     r"\u201c[^\u201d\n]{1,40}\u201d")
#: A polite request is an order, not a permission: "Could you please extract ..."
_REQUEST = re.compile(r"\b(?:could|can|would|will) you\b")
#: "Might" and "could" suggest, not permit, beside a word of advice ("might be worth a call").
_SUGGESTING = frozenset({"might", "could"})
_SUGGESTION = re.compile(r"\b(?:worth|want to|consider|good|helpful|useful|nice|better|wise|idea)\b")
#: A guess, not a rule: a clause with no cue under "probably" or "maybe" predicts.
_GUESS = re.compile(r"\b(?:probably|prob|prolly|maybe|perhaps|likely)\b")
#: A leading condition, up to its comma: "If the reload doesn't pick it up, restarting is OK".
_LEADING_CONDITION = re.compile(r"\s*(?:if|when|whenever|once|in case|should|since|as|because|given that)\b[^,;]{0,80},")
#: What makes a trailing condition a hedge: it leaves the rule to time, room or means ("if there's
#: time", "where available", "if the template supports it", "if they'll accept that"), not to an occasion it applies on ("when she picks
#: up", "if anything gets moved", "when you publish"), which scopes a rule restated in full.
_LEEWAY = re.compile(r"\b(?:time|room|space|availab\w*|allows?|permits?|handy|(?:have|has) (?:it|them|one|any)\b|"
                     r"(?:you|they|we|i|it) can\b|able|possible|feasible|convenient|chance|get to it|easy|budget|"
                     r"bandwidth|capacity|spare|supports?|lets?|accept\w*|agree\w*|short|out of|run out|unavailab\w*|(?:you|they|we) (?:like|want|wish|prefer)|"
                     r"signs? off|approv\w*|ok(?:s|'s)|okays?|remember|think of it|get around to it)\b")
_CONDITION_END = re.compile(r"[,;.:!?]")
_TRAILING_IF = re.compile(r"(?<!know )(?<!see )(?<!check )(?<!ask )(?<!verify )(?<!confirm )"
                          r"\b(?:if|unless|as long as|provided|where|when)\b")
