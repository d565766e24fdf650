"""The tutorial: offered on the first visit, a guided first deal, skippable, re-opened from the help."""

from __future__ import annotations

from typing import Any

import pytest
from playwright.sync_api import Page, expect

from py_engine.puzzles import catalogue

from .conftest import BOOT_TIMEOUT_MS, STEP_TIMEOUT_MS, Site, Watch
from .helpers import TEST_QUERY, do, legal_cards, open_table, phase, wait_ready

pytestmark = pytest.mark.browser

OFFER_QUERY = TEST_QUERY + "&tutorial=offer"  # in test mode the first-visit offer is off unless asked for


def coach_step(page: Page) -> str:
    coach = page.locator("#coach")
    expect(coach).to_be_visible()
    step: str = coach.get_attribute("data-step") or ""
    return step


def expect_step(page: Page, step: str) -> None:
    expect(page.locator("#coach")).to_have_attribute("data-step", step, timeout=STEP_TIMEOUT_MS)
    expect(page.locator("#coach")).to_be_visible()
    assert "⟦" not in page.locator("#coach").inner_text()


def targets(page: Page) -> list[str]:
    found: list[str] = page.locator(".coach-target").evaluate_all(
        "els => els.map(e => e.dataset.card || e.dataset.action || e.id || e.className)"
    )
    return found


def test_the_first_visit_offers_a_guided_deal(site: Site, page: Page, watch: Watch) -> None:
    watch.attach(page)
    open_table(page, site.url, OFFER_QUERY)
    offer = page.locator("#tutorial-offer")
    expect(offer).to_be_visible(timeout=STEP_TIMEOUT_MS)
    expect(offer).to_contain_text("New to Sixty-Six?")
    expect(offer.locator("#tutorial-offer-rules")).to_contain_text("Austrian Schnapsen")  # an English browser
    page.locator("[data-action='tutorial-start']").click()
    expect(offer).to_be_hidden()

    expect_step(page, "trump")
    expect(page.locator("#stock .trump-card")).to_have_class("card trump-card coach-target")
    expect(page.locator("#coach")).to_contain_text("is trumps for the whole deal")
    view = page.evaluate("window.__test.view()")
    assert view["rules"]["id"] == "AT20" and sorted(view["hand"]) == ["AD", "AH", "JH", "QH", "TH"]
    page.locator("[data-action='tutorial-next']").click()

    expect_step(page, "open")
    expect(page.locator("#coach")).to_contain_text("While the talon is open, any card may be played")
    assert targets(page) == ["AD"]
    do(page, "AD")
    expect_step(page, "drawn")
    page.locator("[data-action='tutorial-next']").click()
    expect_step(page, "exchange")
    assert targets(page) == ["exchange"]
    do(page, "exchange")
    expect_step(page, "marriage")
    assert targets(page) == ["marry:H"]
    do(page, "marry:H")
    expect_step(page, "close")
    do(page, "close")
    expect_step(page, "strict")
    expect(page.locator("#coach")).to_contain_text("must follow suit")
    do(page, "KH")  # after the marriage: its King or Queen
    while coach_step(page) == "strict":
        hearts = [card for card in legal_cards(page) if card.endswith("H")]
        do(page, hearts[0])
    expect_step(page, "claim")
    assert targets(page) == ["claim"]
    do(page, "claim")
    assert phase(page) == "deal_over"
    expect_step(page, "end")
    expect(page.locator("#coach")).to_contain_text("you won the deal")
    page.locator("[data-action='tutorial-finish']").click()
    expect(page.locator("#coach")).to_have_count(0)
    expect(page.locator(".coach-target")).to_have_count(0)
    # The tutorial deal is not counted, and the offer is not made again; finished, it ends the newcomer's help.
    assert page.evaluate("window.__test.stats()")["buckets"] == {}
    assert "finished" in page.evaluate("JSON.parse(localStorage.getItem('sixty-six.tutorial'))")
    page.reload()
    wait_ready(page, BOOT_TIMEOUT_MS)
    expect(page.locator("#tutorial-offer")).to_have_count(0)


@pytest.mark.page_logic
def test_the_tutorial_can_be_declined_skipped_and_reopened(site: Site, page: Page, watch: Watch) -> None:
    watch.attach(page)
    open_table(page, site.url, OFFER_QUERY)
    page.locator("[data-action='tutorial-decline']").click()
    expect(page.locator("#tutorial-offer")).to_be_hidden()
    expect(page.locator("#coach")).to_have_count(0)
    page.reload()
    wait_ready(page, BOOT_TIMEOUT_MS)
    expect(page.locator("#tutorial-offer")).to_have_count(0)  # offered once only

    page.locator("#open-help").click()
    page.locator("[data-action='open-tutorial']").click()
    expect_step(page, "trump")
    page.locator("[data-action='tutorial-next']").click()
    expect_step(page, "open")
    page.locator("[data-action='tutorial-skip']").click()
    expect(page.locator("#coach")).to_have_count(0)
    expect(page.locator(".coach-target")).to_have_count(0)
    # The deal goes on without the prompts.
    do(page, "AD")
    expect(page.locator("#coach")).to_have_count(0)
    assert page.evaluate("window.__test.view()")["tricks_played"] == 1


@pytest.mark.page_logic
def test_the_tutorial_speaks_every_language(site: Site, page: Page, watch: Watch) -> None:
    watch.attach(page)
    open_table(page, site.url)
    texts = set()
    for language in ("en", "hu", "de", "ro", "pl", "sr"):
        page.locator("#open-settings").click()
        page.select_option("#setting-language", language)
        page.locator("[data-action='settings-save']").click()
        expect(page.locator("html")).to_have_attribute("data-language", language, timeout=STEP_TIMEOUT_MS)
        page.locator("#open-help").click()
        page.locator("[data-action='open-tutorial']").click()
        expect_step(page, "trump")
        texts.add(page.locator("#coach .coach-text").inner_text())
        assert page.evaluate("window.__test.missingKeys()") == [], language
        page.locator("[data-action='tutorial-skip']").click()
        expect(page.locator("#coach")).to_have_count(0)
    assert len(texts) == 6


@pytest.mark.page_logic
def test_a_first_visit_plays_the_rules_of_the_browsers_language(site: Site, new_context: Any, watch: Watch) -> None:
    """Hungarian → HU24, said on the first screen, changeable from there; the other languages and regions."""
    page = new_context(locale="hu-HU").new_page()
    watch.attach(page)
    open_table(page, site.url, OFFER_QUERY)
    assert page.evaluate("window.__test.view()")["rules"]["id"] == "HU24"
    offer = page.locator("#tutorial-offer")
    expect(offer.locator("#tutorial-offer-rules")).to_contain_text("Snapszer")
    page.locator("[data-action='tutorial-rules']").click()
    expect(page.locator("#settings-dialog")).to_be_visible()
    expect(page.locator("#setting-preset")).to_have_value("HU24")
    chosen = page.evaluate(
        """async (tags) => {
          const { presetForLocale } = await import("./screens/settings.js");
          return tags.map((tag) => presetForLocale(tag));
        }""",
        ["hu", "pl-PL", "ro-RO", "de-AT", "de-DE", "de-CH", "sr-Latn-RS", "hr-HR", "bs", "en-GB", "fr-FR", ""],
    )
    assert chosen == [
        "HU24",
        "PL24",
        "RO24",
        "AT20",
        "DE24",
        "DE24",
        "KLUB20",
        "KLUB20",
        "KLUB20",
        "AT20",
        "AT20",
        "AT20",
    ]


def test_a_first_visit_by_a_link_is_not_offered_the_tutorial(site: Site, page: Page, watch: Watch) -> None:
    """Someone opening a shared puzzle came for it: no tutorial offer over it, nor when it is left; the offer
    waits for a later visit."""
    watch.attach(page)
    open_table(page, site.url)
    puzzle = catalogue.builtin()[0].id
    link = page.evaluate("id => window.__test.request({cmd: 'link_make', puzzle: id})", puzzle)["result"]["link"]
    page.goto(f"{site.url}{OFFER_QUERY}#{link}")
    wait_ready(page, BOOT_TIMEOUT_MS)
    expect(page.locator("#table")).to_have_attribute("data-puzzle", puzzle)
    page.locator("#puzzle-more > summary").click()
    page.locator("#puzzle-leave").click()
    wait_ready(page)
    expect(page.locator("#tutorial-offer")).to_have_count(0)
    page.goto(site.url + OFFER_QUERY)
    wait_ready(page, BOOT_TIMEOUT_MS)
    expect(page.locator("#tutorial-offer")).to_be_visible()


def test_the_tutorial_keeps_the_hand_in_view_on_a_desktop(site: Site, page: Page, watch: Watch) -> None:
    """At 1440 x 900 the guide stands beside the table: the whole hand is in the window, and nothing scrolls."""
    watch.attach(page)
    page.set_viewport_size({"width": 1440, "height": 900})
    open_table(page, site.url, OFFER_QUERY)
    page.locator("[data-action='tutorial-start']").click()
    expect(page.locator("#coach")).to_be_visible()
    wait_ready(page)
    hand = page.locator("#my-hand .card").evaluate_all("cs => cs.map(c => c.getBoundingClientRect().bottom)")
    assert hand and max(hand) <= 900, hand
    assert page.evaluate("document.documentElement.scrollHeight <= innerHeight"), "the page scrolls"
    coach = page.locator("#coach").bounding_box()
    assert coach is not None and coach["y"] + coach["height"] <= 900, coach
