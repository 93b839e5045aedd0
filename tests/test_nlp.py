"""Masking, sentence splitting and directive analysis on the hard cases the issue names."""

from __future__ import annotations

import pytest

from auditor.nlp import Directive, Strength, TextAnalyzer
from auditor.nlp._text import mask, split_sentences


def _directives(analyzer: TextAnalyzer, text: str) -> list[tuple[str, str, str | None, bool, bool]]:
    sentences = analyzer.sentences(f"test/{text}", text)
    return [(d.strength.name, d.polarity, d.action, d.restrictive, d.hedged)
            for ds in analyzer.directives(sentences) for d in ds]


def test_masking_preserves_length_and_hides_code() -> None:
    text = "Keep handle_webhook(event, ctx) and `retry()` in src/app.py; see https://x.io/a.\n```\nmust()\n```"
    masked = mask(text)
    assert len(masked.masked) == len(text)
    assert "handle_webhook" not in masked.masked and "must()" not in masked.masked
    kinds = [k for k, _, _ in masked.spans]
    assert kinds == ["call", "code", "path", "url"]


def test_bullets_and_headings_split_into_sentences() -> None:
    text = "## Constraints\n- Never book red-eye flights.\n1. Use only Marriott hotels\n* Budget: $500"
    spans = split_sentences(mask(text).masked)
    assert [text[s:e] for s, e in spans] == [
        "Constraints", "Never book red-eye flights.", "Use only Marriott hotels", "Budget: $500"]


@pytest.mark.parametrize(("text", "expected"), [
    ("You MUSTN'T edit vendor/.", ("ABSOLUTE", "prohibition", "edit", False, False)),
    ("you must not edit vendor/.", ("ABSOLUTE", "prohibition", "edit", False, False)),
    ("Don't edit vendor/.", ("ABSOLUTE", "prohibition", "edit", False, False)),
    ("Never edit vendor/.", ("ABSOLUTE", "prohibition", "edit", False, False)),
    ("Only edit vendor/.", ("ABSOLUTE", "obligation", "edit", True, False)),
    ("Prefer keeping vendor/ stable where possible.", ("RECOMMENDED", "obligation", "keep", False, True)),
    ("You may edit vendor/.", ("PERMITTED", "obligation", "edit", False, False)),
    ("Nothing from that room may ship until QA releases it.", ("ABSOLUTE", "prohibition", "ship", False, False)),
    ("Feel free to edit vendor/.", ("PERMITTED", "obligation", "edit", False, False)),
    ("Under no circumstances edit vendor/.", ("ABSOLUTE", "prohibition", "edit", False, False)),
    ("Editing vendor/ is not allowed.", ("ABSOLUTE", "prohibition", "edit", False, False)),
])
def test_modal_strength_polarity_action(analyzer: TextAnalyzer, text: str, expected: tuple[object, ...]) -> None:
    assert _directives(analyzer, text) == [expected]


def test_several_constraints_in_one_sentence(analyzer: TextAnalyzer) -> None:
    got = _directives(analyzer, "You must use Postgres 15, and you must never drop the audit_log table.")
    assert [(g[0], g[1], g[2]) for g in got] == [("ABSOLUTE", "obligation", "use"), ("ABSOLUTE", "prohibition", "drop")]


@pytest.mark.parametrize("text", ["That must be why a few of the counts look off.",
                                  "It must be the old water heater again."])
def test_must_be_infers_a_cause_or_a_recurrence(analyzer: TextAnalyzer, text: str) -> None:
    [[rule]] = analyzer.directives(analyzer.sentences(f"test/{text}", text))
    assert rule.epistemic


def test_a_joined_clause_with_its_own_subject_opens_the_rule(analyzer: TextAnalyzer) -> None:
    text = "The write-up covers all three regions, and the summary must not exceed one page."
    sentences = analyzer.sentences("test/joined", text)
    [[rule]] = analyzer.directives(sentences)
    assert text[rule.scope[0]:].startswith("the summary")
    assert not any("regions" in k.forms for k in rule.keys)


def test_is_to_states_an_obligation(analyzer: TextAnalyzer) -> None:
    got = _directives(analyzer, "Refund letters are to be sent by registered post.")
    assert got == [("ABSOLUTE", "obligation", "send", False, False)]


@pytest.mark.parametrize("text", [
    "Shall we proceed?", "The terminal cannot modify your code.", "June doesn't always have 31 days.",
    "There may not be a writer for this quote.", "I ran it to ensure the output is correct.",
    "FYI the backfill took 12 min on staging.", "On 12 March the max CPU was 93%.",
    "The 300-word figure is not a hard cap.", "The plan is to ship the release on Friday 14 March.",
])
def test_descriptive_text_holds_no_hard_constraint(analyzer: TextAnalyzer, text: str) -> None:
    assert [d for d in _directives(analyzer, text) if d[0] == Strength.ABSOLUTE.name] == [], text


def test_keys_keep_code_identifiers_whole(analyzer: TextAnalyzer) -> None:
    text = "You MUST NOT change the signature of handle_webhook(event, ctx)."
    (directives,) = analyzer.directives(analyzer.sentences("key-test", text))
    code = [k for k in directives[0].keys if k.kind == "code"]
    assert [k.text for k in code] == ["handle_webhook(event, ctx)"]
    assert "~handle_webhook" in code[0].forms  # a restatement may name the function without its arguments


def _names(directive: Directive) -> set[str]:
    return {k.text for k in directive.keys if k.kind == "name"}


def test_entities_only_where_a_constraint_can_come_from() -> None:
    analyzer = TextAnalyzer(disable=("parser",))  # a pipeline with NER: entities are read where needed
    text = "Route all refunds through Stripe Radar in Dublin. You must route refunds through Stripe Radar."
    weak, strong = analyzer.sentences("entities-test", text)
    analyzer.directives([weak, strong], entities_from=Strength.ABSOLUTE)
    assert analyzer.stats.sentences_parsed == 2
    # The imperative below the threshold is still found, its names from part-of-speech tags only.
    ((imperative,), (must,)) = analyzer.directives([weak, strong], entities_from=Strength.ABSOLUTE)
    assert imperative.imperative and imperative.action == "route"
    assert "Stripe Radar" not in _names(imperative)
    assert "Stripe Radar" in _names(must)
    # A caller that needs entities for the weak sentence gets it parsed again, with them.
    ((again,),) = analyzer.directives([weak], entities_from=Strength.NONE)
    assert analyzer.stats.sentences_parsed == 3
    assert "Stripe Radar" in _names(again)


@pytest.mark.parametrize(("text", "sentences"), [
    ("run it after 22:00 UTC. prod needs sign-off from me.", ["run it after 22:00 UTC.", "prod needs sign-off from me."]),
    ("use e.g. the replica. J. moss agreed.", ["use e.g. the replica.", "J. moss agreed."]),
    ("it works... then it stops", ["it works... then it stops"]),
])
def test_a_full_stop_before_a_lower_case_word_ends_a_sentence(text: str, sentences: list[str]) -> None:
    assert [text[a:b] for a, b in split_sentences(text)] == sentences


@pytest.mark.parametrize(("text", "imperative"), [
    ("Bank details came in by email from the buyer.", False),
    ("Change form BEN-CHG-02 arrived on 12 Nov.", False),
    ("Book slots are limited this week.", False),
    ("Keep the cron at 02:00 UTC.", True),
    ("Exclude intercompany invoices from the population.", True),
])
def test_an_opening_word_that_heads_a_subject_is_no_imperative(analyzer: TextAnalyzer, text: str,
                                                                imperative: bool) -> None:
    (found,) = analyzer.directives(analyzer.sentences(text, text))
    assert any(d.imperative for d in found) == imperative


@pytest.mark.parametrize(("upstream", "handoff", "turned"), [
    ("at least 4.5/5 stars", "choose those with at most 4.5/5", "4.5/5"),
    ("nothing departing before 7am please", "don't book anything leaving before 7am", None),
    ("nothing may be scheduled before 9am", "try to avoid anything before 9am", None),
    # a report of none is no negated bound: "no rainy days with at least 0.5mm" still counts from 0.5mm
    ("count the rainy days with at least 0.5mm of rain", "there were no rainy days with at least 0.5mm", None),
    ("keep it under 12 hours", "it may go above 12 hours", "12"),
    # the same number of another unit is another quantity
    ("then at most 2x per step", "about 2x per step, at least 2h per step", None),
    # a negated act after the bound: the bound may say whom the rule is for, so no side is read
    ("do not submit any reclaim under chf 100", "anything under chf 100 is not to be filed", None),
    ("items over 23 kg must never be slotted above shoulder height", "anything over 23 kg needs two people", None),
])
def test_a_bound_turned_to_the_other_side(upstream: str, handoff: str, turned: str | None) -> None:
    from auditor.checks._bounds import turned_bound
    assert turned_bound(upstream, handoff) == turned


@pytest.mark.parametrize(("text", "month"), [
    ("Need May GPU spend broken down by team.", True),
    ("The figures were published in May.", True),
    ("Spend for May 2024 is final.", True),
    ("May I ask for the file?", False),
    ("You may proceed with the export.", False),
])
def test_the_month_may_is_no_modal(text: str, month: bool) -> None:
    from auditor.nlp import months_apart
    assert ("Jun" in months_apart(text)) is month, text


@pytest.mark.parametrize(("text", "cued"), [
    ("Need the Q1 attribution for the board deck.", False),  # "I" dropped: the speaker's own request
    ("I need the Q1 attribution for the board deck.", False),
    ("Needs sign-off from the data lead before release.", True),  # "it" dropped: a rule
    ("The export needs sign-off from the data lead.", True),
])
def test_a_need_with_its_i_dropped_is_the_speakers_request(analyzer: TextAnalyzer, text: str, cued: bool) -> None:
    assert bool([d for d in _directives(analyzer, text) if d[0] == Strength.ABSOLUTE.name]) is cued, text
