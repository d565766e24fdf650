"""One live table per browser: a second tab waits or takes over, and the tab that lost it stops.

Two pages in one context share the saved game (web/game/one-table.js, web/platform/table-lock.js, and the
mark on the saves in web/engine/worker.js).
"""

from __future__ import annotations

from typing import Any

from playwright.sync_api import BrowserContext, Page, expect

from .conftest import BOOT_TIMEOUT_MS, TEST_QUERY, Site, Watch
from .helpers import do, legal_cards, step_count, wait_ready
from .test_a11y import axe_check

ELSEWHERE = "#elsewhere-dialog"
NO_LOCKS = "delete Navigator.prototype.locks"


def open_page(context: BrowserContext, site: Site, watch: Watch, init_script: str = "") -> Page:
    page = context.new_page()
    watch.attach(page)
    if init_script:
        page.add_init_script(init_script)
    page.goto(site.url + TEST_QUERY)
    return page


def told(page: Page, why: str) -> None:
    """The page shows the dialog of the game elsewhere: ``open`` (it waits) or ``moved`` (it stopped)."""
    dialog = page.locator(ELSEWHERE)
    expect(dialog).to_be_visible(timeout=BOOT_TIMEOUT_MS)
    expect(dialog).to_have_attribute("data-why", why)


def view(page: Page) -> Any:
    return page.evaluate("() => window.__test.view()")


def test_a_second_tab_waits_takes_over_and_the_first_stops(site: Site, context: BrowserContext, watch: Watch) -> None:
    first = open_page(context, site, watch)
    wait_ready(first, BOOT_TIMEOUT_MS)
    second = open_page(context, site, watch)
    told(second, "open")
    axe_check(second, "the dialog of a game open in another tab")
    expect(second.locator("#table")).not_to_have_attribute("data-ready", "1")  # no game read, nothing playable
    do(first, legal_cards(first)[0])  # the first tab plays on, unaware
    left = view(first)

    # The second takes over at the position the first left; the first stops and says so.
    second.locator(f"{ELSEWHERE} [data-action=take-over]").click()
    wait_ready(second, BOOT_TIMEOUT_MS)
    expect(second.locator(ELSEWHERE)).to_be_hidden()
    assert view(second) == left
    told(first, "moved")
    steps = step_count(first)
    first.locator("#my-hand .card").first.click(force=True)  # the dialog is modal: nothing reaches the table
    first.keyboard.press("Enter")
    assert step_count(first) == steps
    expect(first.locator(ELSEWHERE)).to_be_visible()  # and Escape does not put the stale table back
    first.keyboard.press("Escape")
    expect(first.locator(ELSEWHERE)).to_be_visible()

    # The second plays; the first takes the table back and finds the second's position. (Its hand may be
    # drawn a moment after the table is ready: Firefox once gave no legal card yet.)
    expect(second.locator("#my-hand .card[data-legal='1']")).not_to_have_count(0)
    do(second, legal_cards(second)[0])
    now = view(second)
    first.locator(f"{ELSEWHERE} [data-action=take-over]").click()
    wait_ready(first, BOOT_TIMEOUT_MS)
    assert view(first) == now
    told(second, "moved")

    # A tab that waits plays by itself once the tab that has the table is closed.
    third = open_page(context, site, watch)
    told(third, "open")
    first.close()
    wait_ready(third, BOOT_TIMEOUT_MS)
    expect(third.locator(ELSEWHERE)).to_be_hidden()
    assert view(third) == now


def test_without_web_locks_the_last_tab_opened_is_the_one_that_saves(
    site: Site, context: BrowserContext, watch: Watch
) -> None:
    """A browser without Web Locks: the mark on the saves stops the older tab at its next move."""
    first = open_page(context, site, watch, NO_LOCKS)
    wait_ready(first, BOOT_TIMEOUT_MS)
    assert first.evaluate("() => navigator.locks === undefined")
    second = open_page(context, site, watch, NO_LOCKS)
    wait_ready(second, BOOT_TIMEOUT_MS)
    mine = view(second)
    # The first tab's move is answered, but its save is refused: the second claimed the saves when it opened.
    first.locator(f"#my-hand [data-card='{legal_cards(first)[0]}']").click()
    told(first, "moved")
    second.reload()
    wait_ready(second, BOOT_TIMEOUT_MS)
    assert view(second) == mine
