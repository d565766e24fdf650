"""Accessibility: axe-core finds nothing on any screen, the live region tells every event, touch targets, phone layout.

axe-core comes with the axe-playwright-python package (the test extra), which
injects its axe.min.js into the page and runs it. The felt is a radial
gradient, whose contrast axe cannot measure ("incomplete"); the scans
therefore paint the page background in the gradient's lightest colour first
(the worst case for the light text), so that color-contrast is checked.
"""

from __future__ import annotations

import json
import re
from typing import Any

import pytest
from axe_playwright_python.sync_playwright import Axe
from playwright.sync_api import BrowserContext, Page, expect

from .access import COMPUTER_MARRIES_AND_CLOSES, announcements, english
from .conftest import Site, Watch
from .helpers import Oracle, actions, check_no_leak, do, legal_cards, messages, new_game, open_table, phase
from .test_i18n_deck import LANGUAGES, choose, label, words
from .test_table import OVER, SCRIPTED_AT20

pytestmark = pytest.mark.browser

AXE = Axe()
LIGHTEST_FELT = "#1d6e40"  # --felt in styles.css, the light centre of the gradient
PHONE = {"viewport": {"width": 360, "height": 740}, "has_touch": True, "is_mobile": True}


def axe_check(page: Page, where: str) -> None:
    """axe-core reports no violation on the page as it is now."""
    page.evaluate("colour => { document.body.style.background = colour; }", LIGHTEST_FELT)
    results = AXE.run(page)
    page.evaluate("() => { document.body.style.background = ''; }")
    assert results.violations_count == 0, f"{where}: {results.generate_report()}"
    # The scan ran the rules that matter here (a scan that checked nothing would also report nothing).
    assert results.response["testEngine"]["name"] == "axe-core"


def scripted_deal_with_axe(page: Page, label_: str) -> None:
    new_game(page, **SCRIPTED_AT20)
    axe_check(page, f"{label_}: your lead, exchange and close offered")
    do(page, "exchange")
    axe_check(page, f"{label_}: a marriage offered")
    do(page, "marry:H")
    do(page, "close")
    axe_check(page, f"{label_}: the talon closed, a marriage declared")
    for card in ("KH", "AH", "TH"):
        do(page, card)
    axe_check(page, f"{label_}: 66 may be claimed")
    do(page, "claim")
    assert phase(page) in OVER
    expect(page.locator("#result")).to_be_visible()
    axe_check(page, f"{label_}: the end of the deal")


def test_axe_finds_nothing_on_the_table_during_play_and_at_deal_end(site: Site, page: Page, watch: Watch) -> None:
    watch.attach(page)
    open_table(page, site.url)
    axe_check(page, "the first table")
    scripted_deal_with_axe(page, "desktop")
    # The computer's turn, with its marriage and closed talon on the table.
    new_game(page, **COMPUTER_MARRIES_AND_CLOSES)
    axe_check(page, "after the computer declared and closed")


def test_axe_finds_nothing_on_a_phone(site: Site, new_context: Any, watch: Watch) -> None:
    context: BrowserContext = new_context(**PHONE)
    page = context.new_page()
    watch.attach(page)
    open_table(page, site.url)
    scripted_deal_with_axe(page, "360 px")
    page.locator("#open-settings").click()
    page.locator("#keys-help summary").click()
    axe_check(page, "360 px: the settings dialog")


def test_axe_finds_nothing_in_the_settings_dialog_in_every_language(site: Site, page: Page, watch: Watch) -> None:
    watch.attach(page)
    open_table(page, site.url)
    new_game(page, **SCRIPTED_AT20)
    for language in LANGUAGES:
        choose(page, language=language)
        axe_check(page, f"the table in {language}")
        page.locator("#open-settings").click()
        page.locator("#keys-help summary").click()
        expect(page.locator("#keys-list dd").first).to_have_text(words(language)["a11y.keys.arrows"])
        axe_check(page, f"the settings dialog in {language}")
        page.keyboard.press("Escape")
        expect(page.locator("#settings-dialog")).to_be_hidden()


# ------------------------------------------------------------ the live region


def fill(template: str, **params: Any) -> str:
    return re.sub(r"\{(\w+)\}", lambda m: str(params[m.group(1)]), template)


def english_sentence(event: dict[str, Any], w: dict[str, Any]) -> str | None:
    """What the live region must say for ``event`` in English (French suits), from en.json's words."""
    side = "me" if event.get("seat") == 0 else "opp"
    kind = event["type"]
    if kind == "play":
        return fill(w[f"a11y.say.play.{side}"], card=english(event["card"]))
    if kind == "trick":
        who = "me" if event["winner"] == 0 else "opp"
        forms = w[f"a11y.say.trick.{who}"]
        return fill(forms["one" if event["points"] == 1 else "other"], n=event["points"])
    if kind == "marriage":
        return fill(w[f"a11y.say.marriage.{side}"], points=event["points"], suit=w[f"suit.french.{event['suit']}"])
    if kind == "close":
        return w[f"a11y.say.close.{side}"]
    if kind == "exchange":
        return fill(w[f"a11y.say.exchange.{side}"], gave=english(event["gave"]), took=english(event["took"]))
    if kind == "draw":
        if "card" not in event:
            return w["a11y.say.drawHidden.opp"]
        return fill(w[f"a11y.say.draw.{side}"], card=english(event["card"]))
    if kind == "claim":
        return w[f"a11y.say.{'claim' if event['valid'] else 'wrongClaim'}.{side}"]
    if kind == "deal_end":
        winner = event["winner"]
        return w["result.deal.none"] if winner is None else w[f"result.deal.{'me' if winner == 0 else 'opp'}"]
    return None


def received_events(page: Page, start: int) -> list[dict[str, Any]]:
    events: list[dict[str, Any]] = []
    for raw in messages(page, start):
        message = json.loads(raw)
        result = message.get("result") if message.get("type") == "response" else None
        if isinstance(result, dict) and result.get("ok") and "events" in result:
            events += result["events"]
    return events


def assert_told_in_order(lines: list[str], expected: list[str]) -> None:
    """Each expected sentence is (the start of) a line of the log, in the same order."""
    position = 0
    for sentence in expected:
        for i in range(position, len(lines)):
            if lines[i].startswith(sentence):
                position = i + 1
                break
        else:
            raise AssertionError(f"the live region never said {sentence!r} (after line {position}): {lines}")


def test_the_live_region_tells_every_event(site: Site, page: Page, watch: Watch) -> None:
    watch.attach(page)
    open_table(page, site.url)
    region = page.locator("#announcer")
    assert region.get_attribute("aria-live") == "polite" and region.get_attribute("role") == "log"
    w = words("en")
    start = new_game(page, **COMPUTER_MARRIES_AND_CLOSES)
    # The computer declared 40 in hearts, closed the talon and led before you could act.
    lines = announcements(page)
    first = received_events(page, start)
    kinds = [e["type"] for e in first]
    assert kinds[:3] == ["marriage", "close", "play"], kinds
    led = first[2]["card"]
    assert_told_in_order(
        lines,
        [
            "New game: Austrian Schnapsen. You deal. Trumps: hearts; the face-up trump card is Jack of hearts.",
            "The computer declares 40 (hearts).",
            "The computer closes the talon.",
            f"The computer plays {english(led)}.",
            "Your turn: answer the trick",
        ],
    )
    # Play the deal out; every event the page receives is told, in order, and no line names a hidden card.
    oracle = Oracle(COMPUTER_MARRIES_AND_CLOSES)
    while phase(page) not in OVER:
        check_no_leak(messages(page, start), oracle)
        told = " ".join(announcements(page))
        assert not {code for code in oracle.secret() if english(code) in told}, "the live region names a hidden card"
        cards = legal_cards(page)
        do(page, cards[0] if cards else next(a for a in actions(page) if a != "next"))
    events = received_events(page, start)
    expected = [s for s in (english_sentence(e, w) for e in events) if s]
    assert sum(e["type"] == "trick" and e["winner"] == 1 for e in events) >= 1
    assert_told_in_order(announcements(page), expected)
    view = page.evaluate("window.__test.view()")
    scores = view["match"]["scores"]
    assert_told_in_order(
        announcements(page),
        [fill(w["result.matchScore"], me=scores[0], opp=scores[1], target=view["match"]["target"])],
    )


def test_the_live_region_speaks_the_players_language_and_pattern(site: Site, page: Page, watch: Watch) -> None:
    watch.attach(page)
    open_table(page, site.url)
    choose(page, language="de", deck="tell")
    start = new_game(page, **COMPUTER_MARRIES_AND_CLOSES)
    w = words("de")
    lines = announcements(page)
    suit = w["suit.tell.H"]
    assert fill(w["a11y.say.marriage.opp"], points=40, suit=suit) in lines
    assert w["a11y.say.close.opp"] in lines
    led = received_events(page, start)[-1]["card"]
    assert fill(w["a11y.say.play.opp"], card=label("de", "tell", led)) in lines
    # Your cards are named in the Tell pattern: the Queen is the Ober.
    names = page.locator("#my-hand .card").evaluate_all("els => els.map(e => e.getAttribute('aria-label'))")
    assert label("de", "tell", "QC") in names and "Ober" in label("de", "tell", "QC")
    assert page.evaluate("window.__test.missingKeys()") == []


# ------------------------------------------------------- touch and layout


def touch_targets(page: Page) -> list[dict[str, Any]]:
    """Every visible control and the area it offers to a finger (a card of the fanned hand: its uncovered part)."""
    found: list[dict[str, Any]] = page.evaluate(
        """() => {
            const seen = [];
            const visible = (el) => {
                const r = el.getBoundingClientRect();
                const s = getComputedStyle(el);
                return r.width > 0 && r.height > 0 && s.visibility !== 'hidden' && !el.closest('[hidden]');
            };
            const controls = document.querySelectorAll(
                'button, select, summary, a[href], label.check, [tabindex]:not([tabindex="-1"])');
            const modal = document.querySelector('dialog[open]');
            for (const el of controls) {
                if (!visible(el) || (modal && !modal.contains(el))) continue;
                const r = el.getBoundingClientRect();
                let width = r.width;
                const next = el.matches('#my-hand .card') ? el.nextElementSibling : null;
                if (next) width = next.getBoundingClientRect().left - r.left;
                seen.push({what: el.outerHTML.slice(0, 90), width, height: r.height});
            }
            return seen;
        }"""
    )
    return found


def assert_fits_a_phone(page: Page, where: str) -> None:
    targets = touch_targets(page)
    assert targets, f"{where}: no controls found"
    small = [t for t in targets if t["width"] < 44 or t["height"] < 44]
    assert small == [], f"{where}: touch targets under 44 x 44 px: {small}"
    assert page.evaluate("document.documentElement.scrollWidth <= window.innerWidth"), f"{where}: scrolls sideways"


def test_touch_targets_and_no_sideways_scroll_at_360_px(site: Site, new_context: Any, watch: Watch) -> None:
    context: BrowserContext = new_context(**PHONE)
    page = context.new_page()
    watch.attach(page)
    open_table(page, site.url)
    new_game(page, preset="HU24", seed=4, dealer=1)  # six cards: the widest hand
    assert page.locator("#my-hand .card").count() == 6
    assert_fits_a_phone(page, "six cards in hand")
    new_game(page, **SCRIPTED_AT20)
    assert_fits_a_phone(page, "exchange and close offered")
    do(page, "exchange")
    assert_fits_a_phone(page, "a marriage offered")
    for step in ("marry:H", "close", "KH", "AH", "TH"):
        do(page, step)
    assert_fits_a_phone(page, "66 may be claimed")
    do(page, "claim")
    assert_fits_a_phone(page, "the end of the deal")
    page.locator("#my-tricks-details summary").scroll_into_view_if_needed()
    page.locator("#open-settings").click()
    page.locator("#keys-help summary").click()
    assert_fits_a_phone(page, "the settings dialog")


def test_no_sideways_scroll_from_phone_to_desktop(site: Site, page: Page, watch: Watch) -> None:
    watch.attach(page)
    open_table(page, site.url)
    new_game(page, preset="HU24", seed=4, dealer=1)
    for width, height in ((360, 740), (412, 915), (600, 900), (768, 1024), (1024, 768), (1440, 900)):
        page.set_viewport_size({"width": width, "height": height})
        page.wait_for_function("w => window.innerWidth === w", arg=width)
        assert page.evaluate("document.documentElement.scrollWidth <= window.innerWidth"), (
            f"{width} px scrolls sideways"
        )
        # Nothing of the table is cut off at the sides.
        boxes = page.locator("#table .card, #table button, .topbar button").evaluate_all(
            "els => els.map(e => { const r = e.getBoundingClientRect(); return [r.left, r.right]; })"
        )
        assert all(left >= -1 and right <= width + 1 for left, right in boxes), (width, boxes)
