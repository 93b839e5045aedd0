"""A ticket or version grounds its sentence only with the sentence's words beside it in the latest
evidence that names it (``auditor/claims/_beside.py``): a question or an older record saying it
is no support, a hard-wrapped sentence keeps its words, and a list's next record is not read."""

from __future__ import annotations

from labelled_claims import claim_check, handoff_verdicts

CHECK = claim_check()


def test_a_question_upstream_grounds_nothing() -> None:
    upstream = [{"message": "Can you confirm HS-05 is fixed in production before Friday?"},
                {"tool": "jira", "command": "", "result": "HS-05 status: Open\nassignee: kim", "status": "ok"}]
    assert handoff_verdicts(CHECK, upstream, "HS-05 is already fixed in production.") == [("HS-05", "needs_semantic")]


def test_an_older_record_grounds_nothing_once_a_later_one_names_it() -> None:
    upstream = [{"tool": "jira", "command": "", "result": "HS-05: fixed in production (deploy 14:02)", "status": "ok"},
                {"tool": "jira", "command": "", "result": "HS-05 reopened: regression seen again, status Open",
                 "status": "ok"}]
    assert handoff_verdicts(CHECK, upstream, "HS-05 is fixed in production.") == [("HS-05", "needs_semantic")]


def test_a_hard_wrapped_sentence_keeps_its_words() -> None:
    upstream = [{"tool": "jira", "command": "", "result": "HS-05 status: Open\nHS-06 status: Open\nHS-07 status: Open",
                 "status": "ok"}]
    got = dict(handoff_verdicts(CHECK, upstream, "Fixed and deployed to production: HS-05,\nHS-06 and HS-07."))
    assert got["HS-06"] == got["HS-07"] == "needs_semantic"


def test_the_next_record_of_a_list_is_not_read_whatever_the_spelling() -> None:
    upstream = [{"tool": "pip", "command": "", "result": "requests 2.30.0 latest stable release\nurllib3 2.31.0",
                 "status": "ok"}]
    assert handoff_verdicts(CHECK, upstream, "Upgraded urllib3 to v2.31.0, the latest stable release.") == [
        ("v2.31.0", "needs_semantic")]
