"""The pace setting: brisk by default, the last trick left on the table until the next card; relaxed sweeps it."""

from __future__ import annotations

from typing import Any

import pytest
from playwright.sync_api import Page, expect

from .conftest import BOOT_TIMEOUT_MS, Site, Watch
from .helpers import do, legal_cards, new_game, open_table, wait_ready

pytestmark = pytest.mark.browser

PACED_QUERY = "?test=1"  # test mode with the pace's real pauses and movements (not the tests' fast mode)
LINGERING = "#trick .trick-card.lingering"


def view(page: Page) -> Any:
    return page.evaluate("window.__test.view()")


def play_until_i_lead_after_a_trick(page: Page) -> Any:
    """Play first legal cards until you are to lead a new trick after one was won; that view."""
    for _ in range(20):
        v = view(page)
        if v["to_act"] == v["seat"] and not v["trick"] and v["last_trick"] and not v["deal_result"]:
            return v
        do(page, legal_cards(page)[0])
    raise AssertionError("never to lead after a trick")


def test_your_lead_finds_the_centre_clear_at_every_pace(site: Site, page: Page, watch: Watch) -> None:
    watch.attach(page)
    open_table(page, site.url, PACED_QUERY)
    assert page.evaluate("window.__test.settings()")["pace"] == "normal"
    new_game(page, preset="AT20", seed=4, dealer=0)
    v = play_until_i_lead_after_a_trick(page)
    # You lead: the centre is yours; the last trick is in its panel, not faded under your next card.
    expect(page.locator(LINGERING)).to_have_count(0)
    expect(page.locator("#trick .card")).to_have_count(0)
    shown = page.locator("#last-trick [data-card]").evaluate_all("els => els.map(e => e.dataset.card).sort()")
    assert shown == sorted(entry["card"] for entry in v["last_trick"]["cards"])

    # Relaxed: the trick pauses, then goes to its pile; nothing is left on the table.
    page.locator("#open-settings").click()
    page.select_option("#setting-pace", "relaxed")
    page.locator("[data-action='settings-save']").click()
    expect(page.locator("#settings-dialog")).to_be_hidden()
    page.wait_for_function("() => window.__test.settings().pace === 'relaxed'")
    new_game(page, preset="AT20", seed=4, dealer=0)
    play_until_i_lead_after_a_trick(page)
    expect(page.locator(LINGERING)).to_have_count(0)
    expect(page.locator("#trick .card")).to_have_count(0)
    page.reload()
    wait_ready(page, BOOT_TIMEOUT_MS)
    assert page.evaluate("window.__test.settings()")["pace"] == "relaxed"
