"""The ways to play on a 360 px phone: axe-core finds nothing, controls are 44 px, nothing scrolls sideways."""

from __future__ import annotations

import pytest
from playwright.sync_api import BrowserContext, expect

from .conftest import STEP_TIMEOUT_MS, Site, Watch
from .helpers import TABLE, do, new_game, open_table, phase, step_count
from .modes_helpers import SCRIPTED_AT20, set_preferences, take_over, wait_step
from .test_a11y import assert_fits_a_phone, axe_check

pytestmark = pytest.mark.browser


def test_modes_screens_on_a_phone(site: Site, phone_context: BrowserContext, watch: Watch) -> None:
    page = phone_context.new_page()
    watch.attach(page)
    open_table(page, site.url)

    # The settings with the fields for two players.
    page.locator("#open-settings").click()
    page.select_option("#setting-mode", "hotseat")
    expect(page.locator("#setting-name1")).to_be_visible()
    axe_check(page, "the settings, two players")
    assert_fits_a_phone(page, "the settings, two players")
    page.keyboard.press("Escape")

    # Two players: the hand-over screen, then a turn with a hint shown.
    set_preferences(page, mode="hotseat", names=["Anna", "Béla"], ranked=False)
    new_game(page, **SCRIPTED_AT20)
    expect(page.locator("#handover")).to_be_visible()
    expect(page.locator("[data-control='show-hand']")).to_be_focused()
    axe_check(page, "the hand-over screen")
    assert_fits_a_phone(page, "the hand-over screen")
    take_over(page, 0, "Anna")
    steps = step_count(page)
    page.locator("[data-control='hint']").click()
    wait_step(page, steps)
    expect(page.locator("#table [data-hint='1']")).to_have_count(1)
    axe_check(page, "a turn with a hint")
    assert_fits_a_phone(page, "a turn with a hint")

    # The review of a finished deal.
    set_preferences(page, mode="computer")
    new_game(page, **SCRIPTED_AT20)
    for move in ("exchange", "marry:H", "close", "KH", "AH", "TH", "claim"):
        do(page, move)
    assert phase(page) in ("deal_over", "match_over")
    assert_fits_a_phone(page, "the end of the deal with review and record buttons")
    page.locator("#result [data-control='review']").click()
    dialog = page.locator("#review-dialog")
    expect(dialog).to_have_attribute("data-evaluated", "1", timeout=STEP_TIMEOUT_MS * 4)
    page.keyboard.press("ArrowRight")
    axe_check(page, "the review")
    assert_fits_a_phone(page, "the review")
    page.keyboard.press("Escape")
    expect(dialog).to_be_hidden()

    # Watching, paused.
    set_preferences(page, mode="watch", watchLevel=1)
    page.evaluate("s => window.__test.setSettings(s)", {"pace": "fast"})
    page.evaluate("options => window.__test.newGame(options)", {"preset": "AT20", "seed": 5, "dealer": 0})
    page.locator("[data-control='pause']").click()
    expect(page.locator(TABLE)).to_have_attribute("data-watch-paused", "1")
    page.wait_for_function("() => document.querySelector('#table').dataset.ready === '1'", timeout=STEP_TIMEOUT_MS)
    axe_check(page, "watching, paused")
    assert_fits_a_phone(page, "watching, paused")
