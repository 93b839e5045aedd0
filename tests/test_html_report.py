"""The HTML report: self-contained, deterministic, escaped, redactable; and in headless Chromium
(Debian's package, driven by Playwright) it renders the findings with their highlighted quotes,
its filters work and planted markup stays inert."""

from __future__ import annotations

import html
import json
import os
import re
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from conftest import EXAMPLES, ROOT

from auditor import audit, load_config
from auditor.edges import Quote
from auditor.report import Report, html_report, to_html
from auditor.report._html import CONTEXT_CHARS, _panel

WEBHOOK = EXAMPLES / "incident-webhook.json"
SECRET = "sk-live-4f9a8b7c6d5e4f3a2b1c0d9e8f7a"
#: Markup planted in every kind of trace text the page shows: ids, agent names, contents.
PLANTED = ('<script>window.__pwned = 1</script>', '<img src=x onerror="window.__pwned = 2">',
           '</pre></figure><script>window.__pwned = 3</script>', '"><svg onload="window.__pwned = 4">')


def _hostile(folder: Path) -> Path:
    """The webhook incident with markup in its trace id, an agent name and both messages."""
    data: dict[str, Any] = json.loads(WEBHOOK.read_text(encoding="utf-8"))
    data["trace_id"] = "webhook" + PLANTED[0]
    planner = "planner" + PLANTED[3]
    for agent in data["agents"]:
        if agent["name"] == "planner":
            agent["name"] = planner
    for event in data["events"]:
        if event.get("sender") == "planner":
            event["sender"] = planner
        if event.get("recipients") == ["planner"]:
            event["recipients"] = [planner]
        if event.get("id") == "ticket":
            event["content"] = PLANTED[1] + "\n" + event["content"]
        if event.get("id") == "plan":
            event["content"] += "\n" + PLANTED[2]
    path = folder / "hostile.json"
    path.write_text(json.dumps(data), encoding="utf-8")
    return path


def _with_secret(folder: Path) -> Path:
    data: dict[str, Any] = json.loads(WEBHOOK.read_text(encoding="utf-8"))
    for event in data["events"]:
        if event.get("id") == "plan":
            event["content"] += f"\nUse the deploy key {SECRET} for the staging run."
    path = folder / "secret.json"
    path.write_text(json.dumps(data), encoding="utf-8")
    return path


@pytest.fixture(scope="module")
def traces(tmp_path_factory: pytest.TempPathFactory) -> Path:
    folder = tmp_path_factory.mktemp("html-traces")
    (folder / "incident-webhook.json").write_bytes(WEBHOOK.read_bytes())
    _hostile(folder)
    return folder


@pytest.fixture(scope="module")
def report(traces: Path) -> Report:
    return audit([traces], load_config(ROOT / "config" / "edge-audit.yaml"))


@pytest.fixture(scope="module")
def page_html(report: Report) -> str:
    return html_report(report)


def test_self_contained_and_deterministic(report: Report, page_html: str) -> None:
    assert page_html == html_report(report)
    assert page_html.startswith("<!DOCTYPE html>")
    assert not re.search(r"<link|@import|url\(|\bsrc=\"", page_html)
    assert set(re.findall(r'href="(.)', page_html)) <= {"#"}
    policy = re.search(r'http-equiv="Content-Security-Policy" content="([^"]+)"', page_html)
    assert policy is not None
    assert html.unescape(policy.group(1)).startswith("default-src 'none'; style-src 'sha256-")
    assert "unsafe-inline" not in policy.group(1)
    assert page_html.count("<script>") == 1


def test_quotes_are_highlighted_in_their_messages(page_html: str) -> None:
    assert ('Add retry with exponential backoff to the payment webhook handler.\n<mark class="quote">You MUST NOT '
            'change the signature of handle_webhook(event, ctx).</mark>\nThree internal services call it '
            'positionally.') in page_html
    assert ('<mark class="mention">Implement retry with exponential backoff in handle_webhook.</mark>\n'
            '<mark class="quote">Prefer keeping the handle_webhook signature stable where possible.</mark>') in page_html
    deterministic, semantic = page_html.split('<section id="semantic">')
    assert 'data-kind="det"' in deterministic and 'data-kind="det"' not in semantic


def test_trace_text_is_escaped(page_html: str) -> None:
    for planted in PLANTED:
        assert planted not in page_html
    assert "&lt;script&gt;window.__pwned = 1&lt;/script&gt;" in page_html
    assert "&lt;/pre&gt;&lt;/figure&gt;&lt;script&gt;" in page_html
    assert 'planner&#34;&gt;&lt;svg onload=&#34;window.__pwned = 4&#34;&gt;' in page_html


def test_a_long_message_shows_windows_around_its_quotes() -> None:
    text = "x" * 5000 + " You MUST NOT log the card number. " + "y" * 5000
    start = text.index("You")
    end = text.index("number.") + len("number.")
    panel = _panel([(Quote("m", "content", start, end, text[start:end]), "quote")], text)
    assert [p.mark for p in panel.pieces] == ["gap", "", "quote", "", "gap"]
    assert panel.pieces[2].text == "You MUST NOT log the card number."
    assert len(panel.pieces[1].text) == len(panel.pieces[3].text) == CONTEXT_CHARS


def test_quotes_alone_when_the_trace_is_gone(report: Report) -> None:
    alone = to_html(report)
    assert "(the quote alone)" in alone
    assert '<mark class="quote">You MUST NOT change the signature of handle_webhook(event, ctx).</mark></pre>' in alone


def test_redact_masks_the_messages_too(tmp_path: Path) -> None:
    report = audit([_with_secret(tmp_path)], load_config(ROOT / "config" / "edge-audit.yaml"))
    assert SECRET in html_report(report)
    page = html_report(report, redact=True)
    assert SECRET not in page
    assert "Use the deploy key " + "*" * len(SECRET) + " for the staging run." in page
    assert '<mark class="quote">Prefer keeping the handle_webhook signature stable where possible.</mark>' in page


def test_a_secret_recognised_in_the_report_is_masked_in_every_message() -> None:
    from auditor.redact import redact_together

    value = "hunter2-correct-horse"
    texts = ["the value hunter2-correct-horse again", "nothing here"]
    assert redact_together(texts) == texts  # no context: not recognisable on its own
    masked = redact_together(texts, [f"password = {value}"])
    assert masked == ["the value " + "*" * len(value) + " again", "nothing here"]


def test_cli_writes_it(tmp_path: Path) -> None:
    from auditor._cli.main import main

    first, second = tmp_path / "a" / "report.html", tmp_path / "b.html"
    assert main(["run", str(WEBHOOK), "--html", str(first), "--quiet"]) == 1
    assert main(["run", str(WEBHOOK), "--html", str(second), "--quiet", "--redact"]) == 1
    assert first.read_bytes() == second.read_bytes()  # nothing to mask: redaction changes nothing
    assert "softened" in first.read_text(encoding="utf-8")


# --- in headless Chromium -----------------------------------------------------------------

CHROMIUM = Path("/usr/bin/chromium")
#: The flags this machine needs (no sandbox as root; no background network: it is closed).
CHROMIUM_ARGS = ["--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
                 "--disable-background-networking", "--disable-component-update", "--disable-sync"]


@pytest.fixture(scope="module")
def browser() -> Iterator[Any]:
    """Debian's Chromium under Playwright. Skipped where either is missing, except under
    ``.ci/run`` (EDGE_AUDIT_REQUIRE_BROWSER=1), which installs both: there it fails."""
    required = os.environ.get("EDGE_AUDIT_REQUIRE_BROWSER") == "1"
    try:
        from playwright.sync_api import sync_playwright
    except ImportError:
        if required:
            raise
        pytest.skip("playwright is not installed: pip install -e '.[dev]'")
    if not CHROMIUM.exists():
        if required:
            pytest.fail(f"{CHROMIUM} is missing: .ci/run installs it (apt-get install -y chromium)")
        pytest.skip(f"{CHROMIUM} is missing: apt-get install -y chromium (the Debian package; .ci/run installs it)")
    with sync_playwright() as p:
        launched = p.chromium.launch(executable_path=str(CHROMIUM), args=CHROMIUM_ARGS)
        yield launched
        launched.close()


def _open(browser: Any, html: str, folder: Path) -> tuple[Any, list[str]]:
    path = folder / "report.html"
    path.write_text(html, encoding="utf-8")
    page = browser.new_page(viewport={"width": 1400, "height": 1000})
    problems: list[str] = []
    page.on("pageerror", lambda err: problems.append(f"page error: {err}"))
    page.on("dialog", lambda dialog: problems.append(f"dialog: {dialog.message}"))
    page.on("request", lambda request: problems.append(f"request: {request.url}")
            if not request.url.startswith("file://") else None)
    page.goto(path.as_uri())
    return page, problems


def test_chromium_renders_the_findings_and_filters_them(browser: Any, page_html: str, tmp_path: Path) -> None:
    page, problems = _open(browser, page_html, tmp_path)
    softened = page.locator('.finding[data-verdict="softened"]')
    assert softened.count() == 2  # the example and its hostile copy
    first = softened.first
    assert first.is_visible()
    assert first.locator(".upstream mark.quote").inner_text() == \
        "You MUST NOT change the signature of handle_webhook(event, ctx)."
    assert first.locator(".handoff mark.quote").inner_text() == \
        "Prefer keeping the handle_webhook signature stable where possible."
    total = page.locator(".finding").count()
    assert page.locator("#shown").inner_text() == f"{total} of {total} findings shown"
    page.screenshot(path=str(tmp_path / "report.png"), full_page=False)
    first.scroll_into_view_if_needed()
    page.screenshot(path=str(tmp_path / "softened.png"))

    page.locator('input[data-kind="status"][value="fail"]').uncheck()
    assert not first.is_visible()
    failing = page.evaluate("document.querySelectorAll('.finding[data-status=\"fail\"]:not([hidden])').length")
    assert failing == 0
    assert page.locator('.finding[data-status="pass"]').first.is_visible()
    page.locator('input[data-kind="status"][value="fail"]').check()
    assert first.is_visible()

    for box in page.locator('input[data-kind="det-verdict"]').all():
        if box.get_attribute("value") != "softened":
            box.uncheck()
    visible = page.evaluate("Array.from(document.querySelectorAll('.finding[data-kind=\"det\"]'))"
                            ".filter(e => !e.hidden).map(e => e.dataset.verdict)")
    assert visible == ["softened", "softened"]
    edges = page.evaluate("Array.from(document.querySelectorAll('.edge')).filter(e => !e.hidden).length")
    assert edges == 2  # each trace's plan->coder edge; the others are hidden with their findings
    assert page.locator("#shown").inner_text().startswith("2 of ")
    assert (tmp_path / "report.png").stat().st_size > 10_000
    assert problems == []


def test_planted_markup_is_inert_in_chromium(browser: Any, page_html: str, tmp_path: Path) -> None:
    page, problems = _open(browser, page_html, tmp_path)
    assert page.evaluate("window.__pwned === undefined")
    assert page.locator("script").count() == 1
    assert page.locator("img, svg").count() == 0
    text = page.locator("body").inner_text()
    assert PLANTED[0] in text and PLANTED[1] in text and PLANTED[3] in text
    assert problems == []


def test_semantic_findings_are_apart_and_filtered(browser: Any, tmp_path: Path) -> None:
    from auditor._cli.main import main

    out = tmp_path / "semantic.html"
    assert main(["run", str(EXAMPLES / "semantic-handoffs.json"), "--config",
                 str(ROOT / "examples" / "edge-audit.local.yaml"), "--llm", "replay", "--html", str(out),
                 "--quiet"]) == 1
    page, problems = _open(browser, out.read_text(encoding="utf-8"), tmp_path)
    semantic = page.locator('.finding[data-kind="sem"]')
    assert semantic.count() > 1
    assert page.locator('#semantic .finding').count() == semantic.count()
    assert page.locator('#deterministic .finding[data-kind="sem"]').count() == 0
    targets = page.evaluate("Array.from(document.querySelectorAll('#semantic a')).map("
                            "a => document.getElementById(decodeURIComponent(a.hash.slice(1))) !== null)")
    assert targets and all(targets)  # each links to the deterministic finding it grades

    for box in page.locator('input[data-kind="sem-verdict"]').all():
        if box.get_attribute("value") != "dropped":
            box.uncheck()
    visible = page.evaluate("Array.from(document.querySelectorAll('.finding[data-kind=\"sem\"]'))"
                            ".filter(e => !e.hidden).map(e => e.dataset.verdict)")
    assert visible == ["dropped"]
    assert page.locator('.finding[data-kind="det"]').first.is_visible()  # the deterministic filters are apart
    page.locator("#semantic").screenshot(path=str(tmp_path / "semantic.png"))
    assert problems == []


def test_injected_script_would_be_blocked_by_the_policy(browser: Any, page_html: str, tmp_path: Path) -> None:
    """Defence in depth: were escaping to fail, the page's policy still refuses any script but
    its own."""
    broken = page_html.replace("<main>", "<main><script>window.__pwned = 9</script>", 1)
    page, problems = _open(browser, broken, tmp_path)
    assert page.evaluate("window.__pwned === undefined")
    assert page.locator("#shown").inner_text().endswith("findings shown")  # the page's own script ran
    del problems  # the refused script is reported as a console error, not a page error
