"""The claims pass reads evidence as tools write it, and grounds what counting and dates give.

Each case is one mechanism: a claim that is right by what the tool printed (a CSV cell, a
compact JSON value, a debit, a unit named by its field) is grounded, and a number the pass cannot
follow is left to the grader rather than called invented.
"""

from __future__ import annotations

from typing import Any

import pytest
from labelled_claims import claim_check, handoff_verdicts

from auditor.checks import CheckContext, CheckFn, make_check
from auditor.claims import extract_claims, tabular
from auditor.claims._quantity import clocks, dates, named_unit, quantities
from auditor.edges import build_edges
from auditor.nlp import TextAnalyzer
from auditor.trace import Trace


@pytest.fixture(scope="module")
def check() -> CheckFn:
    return claim_check()


def _tool(result: str) -> list[dict[str, Any]]:
    return [{"tool": "bash", "command": "query", "exit_code": 0, "result": result}]


CSV = "vendor,model,unit_price_ex_vat_gbp,qty,lead_time_days\nOffice Depot UK,Realspace Pro,235.00,40,14\n"


@pytest.mark.parametrize(("upstream", "handoff", "quote", "verdict"), [
    # a CSV table is read cell by cell
    (_tool(CSV), "Office Depot quoted £235.00 per chair.", "£235.00", "grounded"),
    (_tool(CSV), "Office Depot quoted £253.00 per chair.", "£253.00", "needs_semantic"),  # which column: unsure
    # compact JSON: a number right after '":'
    (_tool('{"release":"5.12.0","crash_free_sessions":0.9971}'), "Crash-free sessions are at 99.71%.", "99.71%",
     "grounded"),
    # a debit states the amount a sentence gives without its sign
    (_tool("R-1031 | Wire out - Atlas Freight | -18400.00"), "R-1031 is a wire of $18,400.00 to Atlas Freight.",
     "$18,400.00", "grounded"),
    # the field names the unit: 2820 seconds is 47 minutes, a two-year term is "term_years": 2
    (_tool('{"incident_duration_s": 2820}'), "The incident lasted 47 minutes.", "47 minutes", "grounded"),
    (_tool('{"incident_duration_s": 2820}'), "The incident lasted 2820 minutes.", "2820 minutes", "contradicted"),
    (_tool('{"term_years": 2, "survival_years": 7}'), "The term is 2 years.", "2 years", "grounded"),
    # a number inside a field name: "hours_last_12_months"
    (_tool('{"hours_last_12_months": 1388}'), "He worked 1,388 hours in the last 12 months.", "12 months",
     "grounded"),
    # Kubernetes quantities are sizes: 980Mi is no distance
    (_tool("NAME   CPU   MEMORY\napi-1  12m   980Mi"), "Memory is at 980Mi.", "980Mi", "grounded"),
    # "10 business days" is a span of days, not a count of businesses
    (_tool('{"standard_turnaround_business_days": 5}'), "Turnaround is 10 business days.", "10 business days",
     "contradicted"),
])
def test_evidence_as_tools_write_it(check: CheckFn, upstream: list[dict[str, Any]], handoff: str, quote: str,
                                    verdict: str) -> None:
    assert (quote, verdict) in handoff_verdicts(check, upstream, handoff)


def test_csv_tables_become_tab_separated_and_logs_do_not() -> None:
    assert tabular('a,b,c\n1,"2,5",3') == 'a\tb\tc\n1\t"2,5"\t3'
    log = "06:01:12,204 INFO merged: 9,871\n06:03:48,918 INFO merged: 18,442"
    assert tabular(log) == log  # no header line of names: not a table


@pytest.mark.parametrize(("name", "unit"), [
    ("incident_duration_s", "s"), ("price_eur", "EUR"), ("list_price_usd_per_user_month", "USD"),
    ("hours_last_12_months", "hours"), ("per_day", None), ("rate", None), ("budget_consumed_pct", "%"),
])
def test_the_unit_a_field_name_gives(name: str, unit: str | None) -> None:
    assert named_unit(name) == unit


def test_a_currency_never_measures_another() -> None:
    (euros,), (pounds,) = quantities("€412,300.00"), quantities("£412,300.00")
    from auditor.claims._compare import compatible
    assert not compatible(euros, pounds)


@pytest.mark.parametrize(("upstream", "handoff", "quote", "verdict"), [
    # records of a table that carry a state word
    (_tool(" mrn   | status\n 10442 | active\n 10458 | inactive\n 10471 | active\n 10490 | active\n(4 rows)"),
     "New patients: 4 checked, 3 active.", "3 active", "grounded"),
    # a JSON list under the key that names what is counted
    (_tool('{"result": "no_match", "lists": ["OFAC SDN", "UN", "EU", "UK HMT"]}'), "No match across 4 lists.",
     "4 lists", "grounded"),
    # lines of one output that name an identifier
    (_tool("03:41 ListBuckets svc-exporter\n03:40 GetCallerIdentity svc-exporter\n22:00 PutItem other"),
     "Two calls by svc-exporter, then 2 calls by svc-exporter in total.", "2 calls", "grounded"),
])
def test_counts_the_evidence_gives_by_counting(check: CheckFn, upstream: list[dict[str, Any]], handoff: str,
                                               quote: str, verdict: str) -> None:
    assert (quote, verdict) in handoff_verdicts(check, upstream, handoff)


def test_days_between_two_dates_written_before() -> None:
    check = claim_check()
    upstream = _tool("S-1102 | 2024-07-16 | 08:30\nS-2241 | 2024-07-25 | 09:15")
    handoff = "MRI: Tue 16 Jul 08:30. Consult: Thu 25 Jul 09:15. That's 9 days between them."
    assert ("9 days", "grounded") in handoff_verdicts(check, upstream, handoff)
    assert ("8 days", "grounded") not in handoff_verdicts(check, upstream, handoff.replace("9 days", "8 days"))


def test_a_date_in_may_is_read_as_may(check: CheckFn) -> None:
    got = handoff_verdicts(check, _tool('{"eta": "2025-05-14"}'), "The ETA is 14 May.")
    assert ("14 May", "grounded") in got
    assert [c.date for c in extract_claims("The ETA is 14 May.") if c.date] == [(5, 14, None)]


@pytest.mark.parametrize(("text", "read"), [
    ("Fri 28 Feb 7:30pm", ["19:30"]),  # minutes and a meridiem: the meridiem counts
    ("at 9:05 am and 12:10a.m.", ["09:05", "00:10"]),
    ("14:00, 7pm, 12:30 pm", ["14:00", "19:00", "12:30"]),
    ("fired at 7:30:15 pm", ["19:30"]),  # seconds too
])
def test_clock_times_with_a_meridiem(text: str, read: list[str]) -> None:
    assert [c for _, _, c in clocks(text)] == read


@pytest.mark.parametrize(("text", "claimed", "stated"), [
    ("validated on 21/02/2025", [(2, 21, 2025)], [(2, 21, 2025)]),  # day first: 21 is no month
    ("due 12/25/2024", [(12, 25, 2024)], [(12, 25, 2024)]),  # month first: 25 is no month
    ("signed 01.03.2025", [(3, 1, 2025)], [(3, 1, 2025)]),  # dotted dates are day first
    ("came in on 27/03", [(3, 27, None)], [(3, 27, None)]),
    ("on 03/04/2025", [], [(4, 3, 2025), (3, 4, 2025)]),  # either way round: a claim unknown, evidence both
    ("3/4 of them, 24/7, 12.7% (9/63), 10/12 passed, v1.2.3, 2.3.20", [], []),  # fractions and versions
])
def test_numeric_dates(text: str, claimed: list[tuple[int, int, int | None]],
                       stated: list[tuple[int, int, int | None]]) -> None:
    assert [d for _, _, d in dates(text)] == claimed
    assert [d for _, _, d in dates(text, ambiguous=True)] == stated


def test_a_numeric_date_is_grounded_by_an_iso_one(check: CheckFn) -> None:
    upstream = _tool('{"id": "OBS-2", "received": "2025-03-19"}')
    assert ("19/03", "grounded") in handoff_verdicts(check, upstream, "OBS-2 came in on 19/03.")
    assert ("27/03", "grounded") not in handoff_verdicts(check, upstream, "OBS-2 came in on 27/03.")


@pytest.mark.parametrize(("upstream", "handoff", "quote", "verdict"), [
    # a short version: "1.79" is rustc 1.79.0
    (_tool("rustc 1.79.0 (129f3b996 2024-06-10)"), "The local toolchain is 1.79 here.", "1.79", "grounded"),
    # a mean only where the sentence says it averages: 25% is no "mean" of four shares by chance
    (_tool("stage   share\nrank    61.8%\nfetch   31.2%\nparse   4.0%\nother   2.7%"), "The cache saves about 25% of the time.", "about 25%",
     "invented"),
    # a percentage applied to an amount
    (_tool('{"list_price_usd": 165, "discount_pct": 18}'), "Pricing: 18% off $165 = $135.30 per user.",
     "$135.30", "grounded"),
    # "a + b" says the sentence computes; a percentage applied to a count rounds
    (_tool("vegetarian: 38\nvegan: 12\nnone: 121"), "Veggie + vegan is 50 people.", "50 people", "grounded"),
    ([{"message": "Cap the renewal at active users + 5%."}, *_tool('{"licensed": 340, "active_90d": 281}')],
     "Capped at active + 5% → 295 seats max.", "295 seats", "grounded"),
    # a count is a whole number: 31.4 / 15 gives no "2 files"
    (_tool("budget 31.4\nlimit 15"), "It is used in 2 files.", "2 files", "invented"),
    # an amount times an amount is no amount
    (_tool("Starter: $10.99 per user\nBasic: $9 per seat"), "Basic for the team comes to $98.91 in total.",
     "$98.91", "needs_semantic"),
])
def test_arithmetic_by_kind(check: CheckFn, upstream: list[dict[str, Any]], handoff: str, quote: str,
                            verdict: str) -> None:
    assert (quote, verdict) in handoff_verdicts(check, upstream, handoff)


def test_a_percentage_is_not_multiplied_as_a_plain_number(check: CheckFn) -> None:
    upstream = [{"message": "Cap the renewal at active users + 5%."}, *_tool('{"active": 200, "inactive": 59}')]
    got = dict(handoff_verdicts(check, upstream, "Capped at active + 5% → 295 seats max."))
    assert got["295 seats"] != "grounded", got  # 5% × 59 is no 295
    assert got.get("5%") != "contradicted", got  # an operand of "+" is not what the sentence computes


@pytest.mark.parametrize(("upstream", "handoff", "quote", "verdict"), [
    # the sentence computes an amount from amounts the evidence has, by steps not followed: unknown
    (_tool("vendor,unit_price_gbp,qty\nSteelcase,289.00,40\nOffice Depot,235.00,40\n"),
     "Steelcase works out at £13,872.00 inc VAT.", "£13,872.00", "needs_semantic"),
    # a rounded amount no evidence states, with amounts visible
    (_tool("uk_payable: £412,300.00\nde_receivable: €478,950.00"), "UK-DE is out by about €14.6k.",
     "about €14.6k", "needs_semantic"),
    # but a percentage nothing gives stays invented: one division or one change makes one
    (_tool("errors: 30\nrequests: 120"), "Errors were 300% of requests.", "300%", "invented"),
    # and an amount with no amount in sight
    (_tool("age 5\nvisits planned: 4"), "Four visits cost $20.00 in total.", "$20.00", "invented"),
    # a count the evidence may give by steps not followed (two distinct counts visible), even when
    # the sentence does not say it computes
    (_tool("shard-a: 1,204 rows\nshard-b: 1,198 rows"), "The backfill wrote 2,390 rows.", "2,390 rows",
     "needs_semantic"),
    # but one number of its kind, however often it appears, gives nothing by itself
    (_tool('{"days_late": 6}\ndays_late=6'), "The p95 latency is 340 ms.", "340 ms", "invented"),
    # and a count is only counted from whole numbers
    (_tool("budget 31.4\nratio 0.5\nlimit 15"), "It is used in 2 files.", "2 files", "invented"),
    # a number its own sentence gives, in another unit or by one operation, stands or falls with
    # that sentence's numbers (which are claims of their own); so does one that fails beside them
    (_tool("awb,pcs,lb\n125-1,40,2610"), "Seafood, 2,610 lb or about 1,180 kg.", "about 1,180 kg",
     "needs_semantic"),
    (_tool("awb,pcs,lb\n125-1,40,2610"), "Seafood, 2,610 lb or about 1,480 kg.", "about 1,480 kg", "needs_semantic"),
    (_tool("site_a 190.2\nsite_b 130.5"), "June used 320.7 MWh, up about 1.9% on last June (314.7 MWh).", "about 1.9%",
     "needs_semantic"),
    (_tool("site_a 190.2\nsite_b 130.5"), "June used 320.7 MWh, up about 4.9% on last June (314.7 MWh).", "about 4.9%",
     "needs_semantic"),
    # alone in its sentence, a number nothing gives is invented (unhedged: a hedged one may round
    # a figure worked out from the evidence's numbers, so it is the grader's)
    (_tool("awb,pcs,lb\n125-1,40,2610"), "Seafood comes to 1,480 kg.", "1,480 kg", "invented"),
    (_tool("awb,pcs\n125-1,40"), "The crate is 1,184 kg.", "1,184 kg", "invented"),
    (_tool("awb,pcs,lb\n125-1,40,2610"), "Seafood comes to about 1,480 kg.", "about 1,480 kg", "needs_semantic"),
    (_tool("site_a 190.2\nsite_b 130.5"), "June was up about 4.9% on last June.", "about 4.9%", "invented"),
    # a cell's share of its row's or its column's sum: worked out, perhaps, so not invented
    (_tool("                 No  Yes\n  Humanities       88   52\n  Physical sciences 61  119"),
     "Physical sciences: 66.1% use AI tools.", "66.1%", "needs_semantic"),
    (_tool("zone  | count\ncore  | 301877\nouter | 142066\npilot | 42271"), "The core zone carried 62% of trips.",
     "62%", "needs_semantic"),
    (_tool("zone  | count\ncore  | 301877\nouter | 142066\npilot | 42271"), "The core zone carried 71% of trips.",
     "71%", "invented"),
])
def test_what_the_arithmetic_cannot_follow_is_not_invented(check: CheckFn, upstream: list[dict[str, Any]],
                                                           handoff: str, quote: str, verdict: str) -> None:
    assert (quote, verdict) in handoff_verdicts(check, upstream, handoff)


@pytest.mark.parametrize(("handoff", "quote", "verdict"), [
    # an order to the receiver asserts nothing, though only the tagger knows its verb
    ("Tests pass on main. Regenerate the lockfile under OPS-4471.", "OPS-4471", "needs_semantic"),
    ("The gain clears the bar.\n2. Register r-4471 as fraud-clf v13 (stage: Staging).", "v13", "needs_semantic"),
    ("Deadline is Friday. Pin pytest to 8.2.1 in the dev requirements.", "8.2.1", "needs_semantic"),
    # statements stay statements: a past verb, a noun compound, a name, a subject before its verb,
    # a predicate that shares the sentence's subject
    ("Regenerated the lockfile under OPS-4471.", "OPS-4471", "invented"),
    ("Release notes say the only change ships in v5.4.1.", "v5.4.1", "invented"),
    ("Orla Pendant ships from OPS-4471.", "OPS-4471", "invented"),
    ("Echo this morning showed the drift in OPS-4471.", "OPS-4471", "invented"),
    ("The job stalls but restart from v5.4.1 works.", "v5.4.1", "invented"),
])
def test_an_order_to_the_receiver_invents_nothing(check: CheckFn, handoff: str, quote: str, verdict: str) -> None:
    assert (quote, verdict) in handoff_verdicts(check, _tool("status: ok"), handoff)


@pytest.mark.parametrize(("upstream", "handoff", "quote", "verdict"), [
    # a number a message sets as a rule, a condition or a bound is no reading of a value
    ([{"message": "Nothing above €40 per head for the team dinner."}], "Dinner came to €40 per head.", "€40",
     "needs_semantic"),
    ([{"message": "If the queue passes 5,000 jobs, page me."}], "The queue is at 5,000 jobs.", "5,000 jobs",
     "needs_semantic"),
    # a message that reads the value grounds it, and so does tool output beside the rule
    ([{"message": "Dinner at Luca's came to €40 per head."}], "Dinner came to €40 per head.", "€40", "grounded"),
    ([{"message": "Nothing above €40 per head for the team dinner."}, *_tool("per_head_eur: 40")],
     "Dinner came to €40 per head.", "€40", "grounded"),
])
def test_a_rule_states_no_value(check: CheckFn, upstream: list[dict[str, Any]], handoff: str, quote: str,
                                verdict: str) -> None:
    assert (quote, verdict) in handoff_verdicts(check, upstream, handoff)


@pytest.mark.parametrize(("upstream", "handoff", "quote", "verdict"), [
    # a tool's tally is no second number beside the numbers it repeats
    (_tool("Plan: 11 to add, 0 to change, 0 to destroy."), "Plan: 12 to add, 0 to change, 0 to destroy.",
     "12 to add, 0 to change, 0 to destroy", "contradicted"),
    # a whole number that names ("Order 4412") is no other measure of the sentence
    (_tool('{"order": 4412, "days_late": 6}'), "Order 4412 is 13 days late.", "13 days", "contradicted"),
    (_tool('{"order": 4412, "days_late": 6, "total": 59.0}'), "Order 4412 is 13 days late, $59.00 in all.", "13 days",
     "needs_semantic"),
    # a semicolon parts a sentence only where it ends a clause, not inside an HTML entity
    (_tool("p95 latency: 180 ms\nrequests: 2,000"), "Webhook p95 latency is 120 ms; 2,000 requests ran.", "120 ms",
     "contradicted"),
    (_tool("p95 latency: 180 ms\nrequests: 2,000"), "Webhook p95 latency is 120 ms &amp; 2,000 requests.", "120 ms",
     "needs_semantic"),
    # a number a rule names is no grounding, even when an unrelated row states it too
    (_tool("retries: 7") + _tool('{"open_access": 5}') + [{"message": "If 7 of them are open access, stop."}],
     "Seven of them are open access.", "Seven of them are open access", "needs_semantic"),
])
def test_what_counts_as_another_number(check: CheckFn, upstream: list[dict[str, Any]], handoff: str, quote: str,
                                       verdict: str) -> None:
    assert (quote, verdict) in handoff_verdicts(check, upstream, handoff)


def test_without_a_spacy_pipeline_nothing_is_an_order() -> None:
    check = make_check("edge-audit.claims.v1", CheckContext(TextAnalyzer("no_such_pipeline")), {})
    assert ("BLD-8812", "invented") in handoff_verdicts(check, _tool("status: ok"), "Root cause: BLD-8812 was wrong.")


def test_a_participant_of_the_conversation_is_no_invented_name(check: CheckFn) -> None:
    def verdicts(handoff: str) -> dict[str, str]:
        events = [
            {"type": "message", "sender": "user", "recipients": ["chat_manager"], "content": "Subtitle the short."},
            {"type": "tool_call", "agent": "subtitler", "tool": "bash", "arguments": {"command": "qa"},
             "result": "318 events", "exit_code": 0, "status": "ok", "visible_to": "*"},
            {"type": "message", "sender": "subtitler", "recipients": ["editor"], "content": handoff},
        ]
        trace = Trace.model_validate({"schema": "edge-audit.trace.v1", "trace_id": f"p{len(handoff)}",
                                      "events": events})
        return {f.handoff[0].text: f.verdict for f in check(build_edges(trace).edges[-1])}

    assert verdicts("subtitler (to chat_manager):\n\nEditor, over to you: 318 events.")["chat_manager"] == "grounded"
    assert verdicts("subtitler (to chat_helper):\n\nEditor, over to you: 318 events.")["chat_helper"] == \
        "needs_semantic"
    # a name as spelled: the class `Chat_manager` is not the agent
    assert verdicts("The `Chat_Manager` class flagged 318 events.")["`Chat_Manager`"] == "needs_semantic"
    assert verdicts("The `chat_manager` agent flagged 318 events.")["`chat_manager`"] == "grounded"


@pytest.mark.parametrize(("handoff", "absent"), [
    ('{"tests_failed": 2, "failed_task": "dbt_run_fct_orders"}', "tests_failed"),
    ("root_cause: the connector dropped a column", "root_cause"),
    ("Pricing: 18% off = `135.30/user/month`.", "135.30/user/month"),
])
def test_field_names_and_rates_are_no_identifier_claims(handoff: str, absent: str) -> None:
    assert absent not in [c.text.strip("`") for c in extract_claims(handoff) if c.kind in ("identifier", "path")]


def test_a_count_of_passes_is_not_a_claim_that_nothing_failed(check: CheckFn) -> None:
    upstream = [{"tool": "bash", "command": "pytest -q", "exit_code": 1, "result": "1 failed, 57 passed in 3.41s"}]
    got = dict(handoff_verdicts(check, upstream, "- tests: 1 failing (`test_backoff`), 57 pass"))
    assert got["57 pass"] == "grounded"
    assert dict(handoff_verdicts(check, upstream, "- tests: 1 failing (`test_backoff`), 56 pass"))["56 pass"] \
        == "contradicted"


def test_a_rule_in_a_message_is_no_reading_of_a_value(check: CheckFn) -> None:
    upstream = [{"message": "checkout p99 is way up. post updates at least every 30 min."},
                *_tool('{"window": "last_15m", "p99_seconds": "0.183"}')]
    assert ("~180ms", "contradicted") not in handoff_verdicts(check, upstream, "p99 went from ~180ms up.")


def test_a_table_row_of_several_numbers_does_not_contradict_by_a_word(check: CheckFn) -> None:
    upstream = _tool("platform  | spend_usd | conversions | cpa\nFacebook  |      9000 |         270 | 33.33")
    assert ("$10,000", "contradicted") not in handoff_verdicts(check, upstream, "Plan: Facebook gets $10,000.")


def test_ordinals_and_prices_per_unit_are_read_as_such() -> None:
    got = [(c.kind, c.text) for c in extract_claims("Rate is €120/room/night, check-in on the 17th.")]
    assert got == [("number", "€120")]


def test_a_year_never_measures_an_amount(check: CheckFn) -> None:
    upstream = [{"tool": "search", "command": "", "exit_code": 0,
                 "args": {"query": "EU heat pump market value 2023"}, "result": "IEA: heat pump sales report"}]
    assert ("€5.12bn", "contradicted") not in handoff_verdicts(check, upstream, "The EU market value is €5.12bn.")


def test_a_table_row_sums_only_what_it_says_it_sums(check: CheckFn) -> None:
    upstream = _tool("budget lines: indirect 2235, total 24585")
    handoff = "| Item | Amount |\n|---|---|\n| Direct costs | $22,350 |\n| Indirect | $2,235 |\n| Total | ~$24.6k |"
    assert ("$22,350", "contradicted") not in handoff_verdicts(check, upstream, handoff)


@pytest.mark.parametrize(("text", "read"), [
    ("81bd3c2 test: flaky timer fix", []),  # the head of a hash is no number
    ("c0ffe12 a13f9e2 4e77a10", []),
    ("d_aph = 249_261_000  # km", [249261000.0]),  # digits grouped as code writes them
    ("c ≈ 3×10^5 km/s, 2^10 = 1024", [1024.0]),  # a power is read as no number
    ("5x faster, 3 pods, 4k users", [5.0, 3.0, 4000.0]),
])
def test_numbers_inside_ids_and_code(text: str, read: list[float]) -> None:
    assert [q.value for q in quantities(text)] == read


@pytest.mark.parametrize(("upstream", "handoff", "quote"), [
    # a number an upstream rule bounds is a threshold, not the subject's value
    ([{"message": "The SLO to hit: p95 under 300 ms at 200 RPS."}], "Measured p95 611 ms at 200 RPS.", "611 ms"),
    ([{"message": "Nothing above €40 per head is reimbursable."}], "Food per head came to €43.", "€43"),
    ([{"message": "Auto-suspend has to be 60 seconds or less."}], "Auto-suspend runs every 5 minutes.", "5 minutes"),
    # a call's arguments say what was asked for, not what a subject measures
    ([{"tool": "bash", "command": "evaluate.py --models v2,v3 --bootstrap 1000", "exit_code": 0,
       "result": "done"}], "AUC is 0.781 for v2.", "0.781"),
])
def test_a_bound_in_a_rule_contradicts_no_value(upstream: list[dict[str, Any]], handoff: str, quote: str) -> None:
    assert (quote, "contradicted") not in handoff_verdicts(claim_check(), upstream, handoff)


def test_a_name_the_sentence_sets_aside_is_no_claim() -> None:
    claims = extract_claims("Trigger stays `pull_request` (not `pull_request_target`), so forks get no secrets.")
    assert [c.text for c in claims if c.kind == "identifier"] == ["`pull_request`"]
    assert [c.text for c in extract_claims("The handler is not in src/x.py.")] == ["src/x.py"]


def test_a_headings_ticket_titles_what_follows() -> None:
    claims = extract_claims("## Task: CSV export for /reports (#2207)\n\nFixed in #2210 yesterday.")
    assert [c.text for c in claims if c.subkind == "ticket"] == ["#2210"]


def test_an_enumeration_marker_is_no_count() -> None:
    text = "Findings. (1) 'Turnout up': it rose to 31.8%. (2) 'Burglary down': true. INV-90418 (2) is open."
    assert [c.text for c in extract_claims(text) if c.kind == "number" and c.subkind == "quantity"] == ["INV-90418 (2)"]


def test_an_emoji_shortcode_is_no_identifier() -> None:
    assert [c.text for c in extract_claims(":rotating_light: ETL is late; loader_job ran twice.")] == ["loader_job"]


GRADLE = ("Starting 142 tests on Pixel_6(AVD)\nTests on Pixel_6(AVD) failed: There were 2 failed tests.\n"
          "142 tests completed, 2 failed, 3 skipped\n\nBUILD FAILED in 9m 41s")
GH_PRS = "9921\tFix crash on deep link\tcherry-pick,P0\n9930\tTweak spacing\tcherry-pick,P3"
CREDENTIALS = ("report date 2024-12-02\nuser,access_key_1_active,access_key_1_last_rotated\n"
               "dbt-cloud,true,2024-06-18T08:05:51+00:00")
SESSIONS = "OR-1 | Riyadh | Asia/Riyadh (+03) | 2025-01-09 15:00 | 90m"
CONVERT = "date -d '2024-12-14 00:00 UTC' for Europe/Madrid"
TICKETS = ("ticket,site,opened_utc,resolved_utc\nINC-1,HLX-STORE-114,2025-02-10T07:42:00Z,2025-02-10T09:06:00Z\n"
           "INC-2,HLX-STORE-208,2025-02-13T18:05:00Z,2025-02-14T03:11:00Z\n")
CLAIMS = ("claim_id,card,amount,ccy\nRE-1,debit,420.00,USD\nRE-2,debit,1875.00,USD\nRE-3,credit,2260.00,USD\n"
          "RE-4,debit,315.39,USD\n")
CUES = "cue,start,end,type\n3,00:01:30,00:22:05,content\n4,00:22:05,00:23:10,ad"


@pytest.mark.parametrize(("upstream", "handoff", "quote", "verdict"), [
    # gradle prints the total and the failures: the rest passed
    ([{"tool": "bash", "command": "./gradlew connectedAndroidTest", "exit_code": 1, "result": GRADLE}],
     "142 tests, 2 failed, 3 skipped, so 137 passed.", "137 passed", "grounded"),
    ([{"tool": "bash", "command": "./gradlew connectedAndroidTest", "exit_code": 1, "result": GRADLE}],
     "142 tests, 2 failed, 3 skipped, so 139 passed.", "139 passed", "contradicted"),
    # absence is looked for loosely: a ticket's bare number, a name inside a longer one, another spelling
    (_tool(GH_PRS), "Only #9921 is a P0.", "#9921", "needs_semantic"),
    (_tool(GH_PRS), "Only #9925 is a P0.", "#9925", "invented"),
    (_tool(CREDENTIALS), "The `access_key_1` of dbt-cloud is overdue.", "`access_key_1`", "needs_semantic"),
    (_tool(CREDENTIALS), "The `signing_key_2` of dbt-cloud is overdue.", "`signing_key_2`", "needs_semantic"),
    (_tool("MIN AVAILABLE   ALLOWED DISRUPTIONS\n2               1"), "The budget has `minAvailable` at 2.", "`minAvailable`",
     "needs_semantic"),
    # an age no evidence writes may be the time between two visible dates: not invented
    (_tool(CREDENTIALS), 'The key is {"age_days": 167}.', "167", "needs_semantic"),
    (_tool(CREDENTIALS), 'The key is {"age_days": 412}.', "412", "invented"),
    # the rest of a whole, as a percentage: 112 crashed of 18,640 users is 99.4% crash-free
    (_tool("| version | users | crashed_users |\n| 6.4.0 | 18640 | 112 |"),
     "6.4.0: 18,640 users, 112 crashed, 99.4% crash-free.", "99.4%", "grounded"),
    (_tool("| version | users | crashed_users |\n| 6.4.0 | 18640 | 112 |"),
     "Version 6.4.0 is 97.4% crash-free.", "97.4%", "invented"),
    # a count over a bare total: "44 users" of 18640 is 0.24%
    (_tool("window: last 48 hours\n" + "-" * 200 + "\nusers 18640") + _tool("ANR Input dispatching | users: 44"),
     "The ANR hits 44 users, so about 0.24% of the base.", "about 0.24%", "grounded"),
    # the rows of one key add up to a total the sentence gives for it; a bare number is that number in any unit
    (_tool('{"charges": [{"replacement": 12.99}, {"replacement": 14.99}, {"replacement": 12.02}]}'),
     "Replacement costs come to £40.00.", "£40.00", "grounded"),
    (_tool('{"charges": [{"replacement": 12.99}, {"replacement": 14.99}, {"replacement": 12.02}]}'),
     "Replacement costs come to £44.00.", "£44.00", "invented"),
    (_tool('{"retention": 5}'), "Retention is 5 years.", "5 years", "needs_semantic"),
    (_tool('{"retention": 7}'), "Retention is 5 years.", "5 years", "contradicted"),
    # a Unix time is no quantity; "9.6G" is a size, not grams
    (_tool('{"metric": {"region": "eu-west-1"}, "value": [1717153512.401, 523]}'), "eu-west-1 p95 is ~520 ms.",
     "~520 ms", "grounded"),
    (_tool("heap_used 9.6G\nheap_max 10.8G"), "The heap is at 9.6G of 10.8G.", "9.6G", "grounded"),
    # a time worked out from a visible one and a span its sentence gives; a span from elsewhere does not count
    (_tool("GIVEN_AT 2024-11-21 09:40"), "Dose 1 went in at 09:40, so the 18-24h window opens at 03:40.", "03:40",
     "needs_semantic"),
    (_tool("GIVEN_AT 2024-11-21 09:40\nwindow 18 h"), "The window opens at 03:40.", "03:40", "invented"),
    # a percentage its own fraction gives: the work is shown, the fraction's whole is for the grader
    (_tool("| ward | discharges | deaths | sent |\n| AMU | 412 | 9 | 331 |"), "AMU 331/397 (83.4%).",
     "331/397 (83.4%)", "needs_semantic"),
    # numbers a thousandfold apart measure different things: an id on the row contradicts no score
    (_tool("bed 4 | MRN 4478120 | pews"), "Bed 4 is at 8 pts.", "8 pts", "needs_semantic"),
    # minutes and seconds into a recording: 22:05 is 00:22:05 of the cue sheet, not a clock time
    (_tool(CUES), "The ad break sits at 22:05.", "22:05", "grounded"),
    (_tool(CUES), "The ad break sits at 24:05.", "24:05", "invented"),
    (_tool("2024-05-01 09:14:30 job done"), "The job finished at 14:30.", "14:30", "invented"),  # a clock's mm:ss
    # a visible time moved into a zone its own row names; the wrong way round, or by the wrong season, is not
    (_tool(SESSIONS), "Riyadh starts 18:00 local.", "18:00", "needs_semantic"),
    (_tool(SESSIONS), "Riyadh starts 13:00 local.", "13:00", "invented"),
    (_tool(CONVERT), "Madrid opens at 01:00.", "01:00", "needs_semantic"),
    (_tool(CONVERT), "Madrid opens at 02:00.", "02:00", "invented"),  # +02 is Madrid's summer offset, not December's
    # timestamps: a span crossing midnight is the time between them
    (_tool(TICKETS), "INC-2 took 9.1 h.", "9.1 h", "needs_semantic"),
    (_tool(TICKETS), "INC-2 took 7.3 h.", "7.3 h", "invented"),
    # a number that ends a visible identifier names it
    (_tool(TICKETS), "Store 208 was down longest.", "208", "needs_semantic"),
    (_tool(TICKETS), "Store 209 was down longest.", "209", "invented"),
    # a rate is no length: 6.2 mm/s is the bare 6.2 of a velocity column
    (_tool("date,point,v_rms_mm_s\n2024-10-22,front,6.2\n"), "Vibration is at 6.2 mm/s.", "6.2 mm", "grounded"),
    # a bare amount on a row that names another currency is no amount in euros
    (_tool("SUS-4452  2024-12-09  GBP      185.60  fee\nrate GBP/EUR 0.83665"), "SUS-4452 converts to EUR 221.84.",
     "EUR 221.84", "needs_semantic"),
    (_tool("SUS-4452  2024-12-09  EUR      185.60  fee"), "SUS-4452 is EUR 221.84.", "EUR 221.84", "contradicted"),
    # a whole number ending in two zeros may be rounded to them; an amount in cents states a dollar
    # amount when the sentence says it rounds
    (_tool("PCO-024 | over-ex | $65,637.00"), "PCO-024 is at $65,600.", "$65,600", "grounded"),
    (_tool("PCO-024 | over-ex | $65,637.00"), "PCO-024 is at $65,700.", "$65,700", "contradicted"),
    (_tool("APAC     182,340.55\nEMEA     241,905.10"), "Rounded to the dollar: APAC $182,341.", "$182,341",
     "grounded"),
    (_tool("APAC     182,340.55\nEMEA     241,905.10"), "APAC is at $182,341.", "$182,341", "invented"),
    # a record's only number without a unit may measure something else; one with the claim's unit does not
    (_tool("T-5540 | Harbor Freight | 4980.00 | open"), "T-5540 is USD 3,676.", "USD 3,676", "needs_semantic"),
    (_tool("T-5540 | Harbor Freight | $4,980.00 | open"), "T-5540 is USD 3,676.", "USD 3,676", "contradicted"),
    # the sum of some rows of one column: which rows is for the grader
    (_tool(CLAIMS), "The three debit claims come to USD 2,610.39.", "USD 2,610.39", "needs_semantic"),
    (_tool(CLAIMS), "The three debit claims come to USD 2,611.39.", "USD 2,611.39", "invented"),
])
def test_what_tools_print_is_not_taken_for_absence(check: CheckFn, upstream: list[dict[str, Any]], handoff: str,
                                                   quote: str, verdict: str) -> None:
    assert (quote, verdict) in handoff_verdicts(check, upstream, handoff)


@pytest.mark.parametrize(("tool", "result", "verdict"), [
    ("e2e", "Running 24 tests using 4 workers\n  24 passed (1.2m)", "grounded"),  # read as a tests run
    ("xcodebuild", "Test Suite 'All tests' passed at 2024-07-01 10:00:00.", "needs_semantic"),  # not read: may be it
    ("open_page", "Release notes for 7.3: dark mode, new onboarding.", "invented"),  # no outcome anywhere
    ("refunds.create", '{"refund": "re_31", "status": "succeeded"}', "invented"),  # an outcome, but of no test
    ("bash", "| Passed | oriole-33-en |\n| Failed | a10-29-en |", "needs_semantic"),  # its command runs tests
])
def test_a_run_this_pass_does_not_recognise_may_be_the_one_claimed(check: CheckFn, tool: str, result: str,
                                                                   verdict: str) -> None:
    command = "gcloud firebase test android run --type robo" if tool == "bash" else ""
    upstream = [{"tool": tool, "command": command, "exit_code": 0, "result": result}]
    got = handoff_verdicts(check, upstream, "All the tests pass.")
    assert [v for _, v in got] == [verdict], got


@pytest.mark.parametrize(("handoff", "quote", "verdict"), [
    ("All 41 tests pass.", "41 tests pass", "invented"),  # it names a test run, and none is visible
    ("Lot 0331: 1,500 passed final inspection.", "1,500 passed", "needs_semantic"),  # parts, not tests
    ("Pre-checks done and the checks pass.", "checks pass", "needs_semantic"),  # a pre-check is no CI run
])
def test_an_outcome_that_names_no_run_is_not_called_invented(check: CheckFn, handoff: str, quote: str,
                                                              verdict: str) -> None:
    upstream = [{"tool": "mes.query", "command": "", "exit_code": 0, "result": "lot 0331 qty 1500 status CLOSED"}]
    assert (quote, verdict) in handoff_verdicts(check, upstream, handoff)


@pytest.mark.parametrize(("text", "names"), [
    ("41 tests pass", True), ("test_billing failed", True), ("billing_tests failed", True), ("the suite is green", True),
    ("the latest 10 failed", False), ("the fastest passed", False), ("5 contests passed", False),
])
def test_only_a_test_word_names_a_test_run(text: str, names: bool) -> None:
    from auditor.claims._results import _NAMES_RUN
    assert (_NAMES_RUN["tests"].search(text) is not None) == names


def test_a_clock_marked_with_its_zone_moves_only_out_of_it() -> None:
    from auditor.claims._zones import zone_moved
    assert zone_moved(12 * 60, [("Meeting 15:00 UTC+3", frozenset())]) is not None  # 15:00 at +3 is 12:00 UTC
    assert zone_moved(18 * 60, [("Meeting 15:00 UTC+3", frozenset())]) is None  # the wrong way round
    assert zone_moved(23 * 60, [("2024-12-14T18:00:00-05:00", frozenset())]) is not None
    assert zone_moved(13 * 60, [("2024-12-14T18:00:00-05:00", frozenset())]) is None


@pytest.mark.parametrize(("sentence", "verdict"), [
    ("Rounded to the dollar: APAC $182,341.", "grounded"),
    ("After the round-trip: APAC $182,341.", "invented"),  # "round-trip" says nothing of rounding
    ("In round 2, APAC $182,341.", "invented"),
])
def test_only_a_sentence_that_rounds_lets_dollars_stand_for_cents(check: CheckFn, sentence: str,
                                                                  verdict: str) -> None:
    assert ("$182,341", verdict) in handoff_verdicts(check, _tool("APAC     182,340.55"), sentence)


def test_only_a_summary_of_completed_tests_gives_the_passes() -> None:
    from auditor.claims.parsers.runners import parse_tests
    gradle = parse_tests("142 tests completed, 2 failed, 3 skipped")
    jest = parse_tests("Tests: 1 failed, 2 todo, 42 total")
    assert gradle is not None and dict(gradle.counts)["passed"] == 137
    assert jest is not None and "passed" not in dict(jest.counts)  # todo tests neither passed nor failed
