"""The analysis board and links: from a review to the board, a variation, the all-cards switch, a link opened
elsewhere, and links that cannot be opened."""

from __future__ import annotations

import re

import pytest
from playwright.sync_api import BrowserContext, Page, expect

from .conftest import STEP_TIMEOUT_MS, TEST_QUERY, Site, Watch
from .helpers import open_table, wait_ready
from .test_a11y import axe_check
from .test_records import REVIEW, open_review_from_result, play_scripted_deal

pytestmark = pytest.mark.browser

BOARD = "#analysis-dialog"
LINK = re.compile(r"#deal=1\.[A-Za-z0-9_-]{20,}$")


def evaluated(page: Page) -> None:
    expect(page.locator(BOARD)).to_have_attribute("data-evaluated", "1", timeout=STEP_TIMEOUT_MS)


def copied_link(page: Page, box: str) -> str:
    expect(page.locator(f"#{box}-link-box")).to_be_visible()
    url = page.locator(f"#{box}-link").input_value()
    assert LINK.search(url), url
    expect(page.locator(f"#{box}-link-status")).not_to_be_empty()
    return url


def test_review_to_board_variation_all_cards_and_links(
    site: Site, page: Page, watch: Watch, phone_context: BrowserContext
) -> None:
    watch.attach(page)
    open_table(page, site.url)
    play_scripted_deal(page)
    open_review_from_result(page)
    page.locator("#review-next").click()
    expect(page.locator(REVIEW)).to_have_attribute("data-step", "1")
    page.locator("#review-copy-link").click()
    review_link = copied_link(page, "review")

    # The board opens where the review stood.
    page.locator("#review-analyse").click()
    board = page.locator(BOARD)
    expect(board).to_be_visible()
    expect(page.locator(REVIEW)).to_be_hidden()
    expect(board).to_have_attribute("data-ply", "1")
    expect(board).to_have_attribute("data-main", "1")
    evaluated(page)
    assert page.locator("#analysis-options li[data-value]").count() >= 2
    expect(page.locator("#analysis-options li[data-played='1']")).to_have_count(1)
    axe_check(page, "the analysis board")

    # Stepping by keys and buttons.
    page.keyboard.press("Home")
    expect(board).to_have_attribute("data-ply", "0")
    page.keyboard.press("ArrowRight")
    page.keyboard.press("ArrowRight")
    expect(board).to_have_attribute("data-ply", "2")
    page.locator("#analysis-prev").click()
    expect(board).to_have_attribute("data-ply", "1")
    page.locator("#analysis-first").click()
    expect(board).to_have_attribute("data-ply", "0")

    # A variation from the deal as dealt: another option than the one played.
    evaluated(page)
    # The words: "you" mid-sentence in the lower case; each option starts its line with a capital.
    assert "You knew" not in page.locator("#analysis-basis").inner_text()
    options = page.locator("#analysis-options .analysis-option-move").evaluate_all("els => els.map(e => e.textContent)")
    assert options and all(o[:1] == o[:1].upper() for o in options), options
    other = page.locator("#analysis-options li:not([data-played]) button").first
    action = other.evaluate("b => b.dataset.play")
    other.click()
    expect(board).to_have_attribute("data-main", "0")
    expect(board).to_have_attribute("data-ply", "1")
    expect(page.locator("#analysis-tree .analysis-variation .variation-move")).to_have_count(1)
    variation = page.locator("#analysis-tree li.current")
    expect(variation).to_have_attribute("data-node", re.compile(r"\d+"))
    # On from there by clicking a card of the player to move, if one may be played, else an option.
    card = page.locator(f"{BOARD} .analysis-card")
    if card.count():
        card.first.click()
    else:
        page.locator("#analysis-options button").first.click()
    expect(board).to_have_attribute("data-ply", "2")
    evaluated(page)
    mover_values = page.locator("#analysis-options li[data-value]").evaluate_all(
        "els => els.map(e => [e.dataset.action, e.dataset.value])"
    )
    # Every card known: the switch gives the double-dummy values.
    page.locator("#analysis-all-cards").check()
    expect(board).to_have_attribute("data-all-cards", "1")
    evaluated(page)
    expect(page.locator("#analysis-basis")).not_to_be_empty()
    all_values = page.locator("#analysis-options li[data-value]").evaluate_all(
        "els => els.map(e => [e.dataset.action, e.dataset.value, e.dataset.exact])"
    )
    assert all_values and mover_values
    axe_check(page, "the analysis board in a variation, every card known")
    # Up and down: from the variation's first move to the deal's own.
    page.keyboard.press("ArrowLeft")
    expect(board).to_have_attribute("data-ply", "1")
    page.keyboard.press("ArrowUp")
    expect(board).to_have_attribute("data-main", "1")
    page.keyboard.press("ArrowDown")
    expect(board).to_have_attribute("data-main", "0")
    page.keyboard.press("ArrowRight")
    expect(board).to_have_attribute("data-ply", "2")
    page.locator("#analysis-copy-link").click()
    variation_link = copied_link(page, "analysis")
    assert variation_link != review_link

    # The link in another browser context (a phone's): the board opens at the variation's position.
    other_page = phone_context.new_page()
    watch.attach(other_page)
    fragment = variation_link.split("#", 1)[1]
    other_page.goto(f"{site.url}{TEST_QUERY}#{fragment}")
    other_board = other_page.locator(BOARD)
    expect(other_board).to_be_visible(timeout=STEP_TIMEOUT_MS * 3)
    expect(other_board).to_have_attribute("data-ply", "2")
    expect(other_board).to_have_attribute("data-main", "0")
    assert "#" not in other_page.url  # the link is taken out of the address
    expect(other_page.locator("#analysis-tree .variation-move")).to_have_count(2)
    expect(other_page.locator("#analysis-seat-bottom strong")).to_have_text("Player 1")  # a link names no one
    evaluated(other_page)
    axe_check(other_page, "the analysis board from a link, on a phone")
    assert other_page.evaluate("document.documentElement.scrollWidth <= window.innerWidth")
    other_page.keyboard.press("Escape")
    expect(other_board).to_be_hidden()
    wait_ready(other_page)

    # Links that cannot be opened: a clear sentence at the table, which stays as it was.
    head, data = fragment.split(".", 1)
    damaged = f"{head}.{data[:-3]}{'A' if data[-3] != 'A' else 'B'}{data[-2:]}"
    for text, reason in ((damaged, "damaged"), ("deal=7.AAAAAAAAAA", "version")):
        other_page.evaluate("text => { location.hash = text; }", text)
        expect(other_page.locator("#table")).to_have_attribute("data-link-error", reason, timeout=STEP_TIMEOUT_MS)
        expect(other_page.locator("#notice")).to_be_visible()
        expect(other_page.locator("#notice-text")).not_to_be_empty()
        expect(other_board).to_be_hidden()
    assert action and not watch.errors, watch.errors
