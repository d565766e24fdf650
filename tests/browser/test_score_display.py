"""The running points: both players', only yours, or none (count in your head), as the settings say."""

from __future__ import annotations

from typing import Any

import pytest
from playwright.sync_api import Page, expect

from .conftest import BOOT_TIMEOUT_MS, Site, Watch
from .helpers import do, legal_cards, new_game, open_table, wait_ready

pytestmark = pytest.mark.browser


def set_points(page: Page, mode: str) -> None:
    page.locator("#open-settings").click()
    page.select_option("#setting-points", mode)
    page.locator("[data-action='settings-save']").click()
    expect(page.locator("#settings-dialog")).to_be_hidden()
    # The settings are saved when the dialog's "close" event comes, a task after it is hidden.
    expect(page.locator("#table")).to_have_attribute("data-points", mode)
    assert page.evaluate("window.__test.settings()")["points"] == mode


def shown(page: Page) -> tuple[str, str]:
    return page.locator("#my-points").inner_text(), page.locator("#opp-points").inner_text()


@pytest.mark.page_logic
def test_each_points_mode_shows_the_right_totals(site: Site, page: Page, watch: Watch) -> None:
    watch.attach(page)
    open_table(page, site.url)
    new_game(page, preset="AT20", seed=5, dealer=1)
    while True:  # play until both players have points, so that every number is worth showing
        view: dict[str, Any] = page.evaluate("window.__test.view()")
        assert view["deal_result"] is None, "the deal ended before both players had points"
        if view["my_points"] > 0 and view["opponent_points"] > 0 and view["to_act"] == 0:
            break
        do(page, legal_cards(page)[0])
    mine, theirs = f"· {view['my_points']}", f"· {view['opponent_points']}"
    expected = {"both": (mine, theirs), "own": (mine, ""), "hide": ("", "")}
    won_cards = page.locator("#my-tricks .card")
    for mode, texts in expected.items():
        set_points(page, mode)
        expect(page.locator("#my-points")).to_have_text(texts[0])
        expect(page.locator("#opp-points")).to_have_text(texts[1])
        # Counting in your head means it: no list of your won cards either while the points are hidden.
        expect(won_cards).to_have_count(0 if mode == "hide" else 2 * len(view["my_tricks"]))
    # "As the rules suggest": hidden where 66 is claimed by hand (AT20), both shown where it ends the deal by itself.
    set_points(page, "auto")
    assert shown(page) == ("", "")
    new_game(page, preset="KLUB20", seed=5, dealer=1)
    do(page, legal_cards(page)[0])
    view = page.evaluate("window.__test.view()")
    assert view["rules"]["claim_mode"] == "auto"
    assert shown(page) == (f"· {view['my_points']}", f"· {view['opponent_points']}")
    # The choice is kept and applies to the next deals as well.
    set_points(page, "own")
    page.reload()
    wait_ready(page, BOOT_TIMEOUT_MS)
    assert page.evaluate("window.__test.settings()")["points"] == "own"
    view = page.evaluate("window.__test.view()")
    assert shown(page) == (f"· {view['my_points']}", "")
