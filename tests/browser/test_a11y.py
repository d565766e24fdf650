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
from axe_playwright_python.sync_playwright import Axe, AxeResults  # type: ignore[import-untyped]
from playwright.sync_api import BrowserContext, Page, expect

from .access import COMPUTER_MARRIES_AND_CLOSES, announcements, english, focused
from .conftest import Site, Watch
from .helpers import (
    Oracle,
    actions,
    check_no_leak,
    do,
    legal_cards,
    messages,
    new_game,
    open_table,
    phase,
    step_count,
    wait_ready,
)
from .test_i18n_deck import LANGUAGES, choose, label, words
from .test_table import OVER, SCRIPTED_AT20

pytestmark = pytest.mark.browser

AXE = Axe()
LIGHTEST_FELT = "#1d6e40"  # --felt in styles.css, the light centre of the gradient


def axe_check(page: Page, where: str) -> None:
    """axe-core reports no violation on the page as it is now."""
    page.evaluate("colour => { document.body.style.background = colour; }", LIGHTEST_FELT)
    # axe's script (about 500 KB) is injected once per page, not once per scan: the package's run() does both.
    if not page.evaluate("() => typeof window.axe === 'object'"):
        page.evaluate(AXE.axe_script)
    results = AxeResults(page.evaluate("options => axe.run(document, options)", {"resultTypes": ["violations"]}))
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


@pytest.mark.page_logic
def test_axe_finds_nothing_on_the_table_during_play_and_at_deal_end(site: Site, page: Page, watch: Watch) -> None:
    watch.attach(page)
    open_table(page, site.url)
    axe_check(page, "the first table")
    scripted_deal_with_axe(page, "desktop")
    # The computer's turn, with its marriage and closed talon on the table.
    new_game(page, **COMPUTER_MARRIES_AND_CLOSES)
    axe_check(page, "after the computer declared and closed")


def test_axe_finds_nothing_on_a_phone(site: Site, phone_context: BrowserContext, watch: Watch) -> None:
    page = phone_context.new_page()
    watch.attach(page)
    open_table(page, site.url)
    scripted_deal_with_axe(page, "360 px")
    page.locator("#open-settings").click()
    page.locator("#keys-help summary").click()
    axe_check(page, "360 px: the settings dialog")


@pytest.mark.page_logic
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
        return str(w[f"a11y.say.close.{side}"])
    if kind == "exchange":
        return fill(w[f"a11y.say.exchange.{side}"], gave=english(event["gave"]), took=english(event["took"]))
    if kind == "draw":
        if "card" not in event:
            return str(w["a11y.say.drawHidden.opp"])
        return fill(w[f"a11y.say.draw.{side}"], card=english(event["card"]))
    if kind == "claim":
        return str(w[f"a11y.say.{'claim' if event['valid'] else 'wrongClaim'}.{side}"])
    if kind == "deal_end":
        winner = event["winner"]
        return str(w["result.deal.none"] if winner is None else w[f"result.deal.{'me' if winner == 0 else 'opp'}"])
    return None


def received_events(page: Page, start: int) -> list[dict[str, Any]]:
    events: list[dict[str, Any]] = []
    for raw in messages(page, start):
        message = json.loads(raw)
        result = message.get("result") if message.get("type") == "response" else None
        if isinstance(result, dict) and result.get("ok") and "frames" in result:
            events += [frame["event"] for frame in result["frames"]]
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


@pytest.mark.page_logic
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


@pytest.mark.page_logic
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
    # An open dialog does not scroll sideways inside either.
    wide = page.evaluate(
        "() => { const d = document.querySelector('dialog[open]'); return d ? d.scrollWidth - d.clientWidth : 0; }"
    )
    assert wide <= 0, f"{where}: the dialog's content is {wide} px wider than the dialog"


def test_touch_targets_and_no_sideways_scroll_at_360_px(
    site: Site, phone_context: BrowserContext, watch: Watch
) -> None:
    context = phone_context
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


# --------------------------------------------- the other screens and the modes


def finish_scripted_deal(page: Page) -> None:
    new_game(page, **SCRIPTED_AT20)
    for step in ("exchange", "marry:H", "close", "KH", "AH", "TH", "claim"):
        do(page, step)
    assert phase(page) in OVER


def open_review(page: Page) -> None:
    page.locator("#result [data-control='review']").click()
    expect(page.locator("#review-dialog")).to_have_attribute("data-loaded", "1")


def open_help(page: Page, section: str | None = None) -> None:
    page.locator("#open-help").click()
    expect(page.locator("#help-dialog")).to_be_visible()
    if section:
        page.locator(f"#help-dialog [data-help='{section}']").click()
        expect(page.locator("#help-content")).to_have_attribute("data-ready", section)


def open_stats(page: Page) -> None:
    open_help(page)
    page.locator("[data-action='open-stats']").click()
    expect(page.locator("#stats-dialog")).to_be_visible()


def close_with_escape(page: Page, dialog: str) -> None:
    page.keyboard.press("Escape")
    expect(page.locator(dialog)).to_be_hidden()


@pytest.mark.page_logic
def test_axe_finds_nothing_on_the_review_statistics_and_help_screens(site: Site, page: Page, watch: Watch) -> None:
    watch.attach(page)
    open_table(page, site.url)
    finish_scripted_deal(page)
    open_review(page)
    axe_check(page, "the review screen")
    page.locator("#review-last").click()
    axe_check(page, "the review screen at the last step")
    # Keyboard: Tab stays in the dialog, Escape closes it, and the focus returns to the review button.
    for _ in range(20):
        page.keyboard.press("Tab")
        assert focused(page)["inDialog"], f"Tab left the review screen: {focused(page)}"
    close_with_escape(page, "#review-dialog")
    assert page.evaluate("document.activeElement.dataset.control") == "review"
    open_help(page)
    axe_check(page, "the help (how to play)")
    open_help_rules = page.locator("#help-dialog [data-help='rules']")
    open_help_rules.click()
    expect(page.locator("#help-content")).to_have_attribute("data-ready", "rules")
    axe_check(page, "the help (the rules of this game)")
    page.locator("[data-action='open-stats']").click()
    expect(page.locator("#stats-dialog")).to_be_visible()
    expect(page.locator("#stats-dialog [data-chart='rules']")).to_be_visible()
    axe_check(page, "the statistics screen")
    for _ in range(20):
        page.keyboard.press("Tab")
        assert focused(page)["inDialog"], f"Tab left the statistics screen: {focused(page)}"
    close_with_escape(page, "#stats-dialog")
    page.locator("#open-settings").click()
    page.locator("#custom-rules summary").click()
    expect(page.locator("#custom-rules-body")).to_be_visible()
    axe_check(page, "the settings with the custom rules open")
    close_with_escape(page, "#settings-dialog")


@pytest.mark.page_logic
def test_axe_and_the_live_region_with_two_players_and_watching(site: Site, page: Page, watch: Watch) -> None:
    watch.attach(page)
    open_table(page, site.url)
    page.evaluate(
        "p => window.__test.setPreferences(p)", {"mode": "hotseat", "names": ["Anna", "Béla"], "ranked": False}
    )
    new_game(page, **SCRIPTED_AT20)
    expect(page.locator("#handover")).to_be_visible()
    axe_check(page, "the hand-over screen")
    page.locator("[data-control='show-hand']").click()
    expect(page.locator("#handover")).to_be_hidden()
    wait_ready(page)
    axe_check(page, "two players: Anna's turn")
    do(page, "AH")
    # The device changes hands: the log is empty, so Béla cannot read Anna's cards in it.
    expect(page.locator("#handover")).to_be_visible()
    assert announcements(page) == []
    page.locator("[data-control='show-hand']").click()
    expect(page.locator("#handover")).to_be_hidden()
    wait_ready(page)
    w = words("en")
    lines = announcements(page)
    béla = fill(
        w["modes.named.sayHand"], name="Béla", cards=", ".join(english(c) for c in ("AC", "TC", "KC", "QC", "JC"))
    )
    assert lines[0] == f"{béla} {fill(w['a11y.say.table'], cards=english('AH'))}", lines
    # Keep every line said from now on (the log is emptied again when the device goes back to Anna).
    page.evaluate(
        """() => { window.heard = [];
            const keep = list => { for (const c of list) for (const n of c.addedNodes) heard.push(n.textContent); };
            new MutationObserver(keep).observe(document.querySelector('#announcer'), {childList: true}); }"""
    )
    do(page, "JC")
    expect(page.locator("#handover")).to_be_visible()
    assert announcements(page) == []
    # Béla's own play and the trick were told with the players' names.
    lines = page.evaluate("window.heard")
    assert fill(w["modes.named.sayPlay"], name="Béla", card=english("JC")) in lines
    assert fill(w["modes.named.sayTrick"]["other"], name="Anna", n=13) in lines
    # Watching the computer play itself.
    page.evaluate("p => window.__test.setPreferences(p)", {"mode": "watch", "watchLevel": 1})
    page.evaluate("s => window.__test.setSettings(s)", {"pace": "fast"})
    at = step_count(page)
    page.evaluate("options => window.__test.newGame(options)", {"preset": "HU24", "seed": 99, "dealer": 1})
    page.wait_for_function("n => Number(document.querySelector('#table').dataset.step) >= n", arg=at + 4)
    page.locator("[data-control='pause']").click()
    expect(page.locator("#table")).to_have_attribute("data-watch-paused", "1")
    wait_ready(page)
    axe_check(page, "watching, paused")
    assert any(line.startswith("Computer 1") or line.startswith("Computer 2") for line in announcements(page))


def test_the_other_screens_fit_a_phone(site: Site, phone_context: BrowserContext, watch: Watch) -> None:
    page = phone_context.new_page()
    watch.attach(page)
    open_table(page, site.url)
    finish_scripted_deal(page)
    open_review(page)
    assert_fits_a_phone(page, "the review screen")
    axe_check(page, "360 px: the review screen")
    close_with_escape(page, "#review-dialog")
    open_help(page, "rules")
    assert_fits_a_phone(page, "the help")
    axe_check(page, "360 px: the help")
    close_with_escape(page, "#help-dialog")
    for language in ("en", "de", "hu"):
        if language != "en":
            choose(page, language=language)
        open_stats(page)
        assert_fits_a_phone(page, f"the statistics screen in {language}")
        axe_check(page, f"360 px: the statistics screen in {language}")
        close_with_escape(page, "#stats-dialog")
    page.locator("#open-settings").click()
    page.locator("#custom-rules summary").click()
    expect(page.locator("#custom-rules-body")).to_be_visible()
    assert_fits_a_phone(page, "the settings with the custom rules open")


def test_axe_finds_nothing_in_the_tutorial_and_it_fits_a_phone(
    site: Site, phone_context: BrowserContext, watch: Watch
) -> None:
    context = phone_context
    page = context.new_page()
    watch.attach(page)
    open_table(page, site.url, "?test=1&fast=1&tutorial=offer")  # in test mode the offer is off unless asked for
    expect(page.locator("#tutorial-offer")).to_be_visible()
    axe_check(page, "the tutorial's offer")
    assert_fits_a_phone(page, "the tutorial's offer")
    page.locator("[data-action='tutorial-start']").click()
    expect(page.locator("#coach")).to_be_visible()
    wait_ready(page)
    axe_check(page, "a tutorial prompt")
    assert_fits_a_phone(page, "a tutorial prompt")
