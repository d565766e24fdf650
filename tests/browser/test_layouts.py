"""Every screen shape: a phone held sideways, a phone upright (the last trick), large screens.

Each shape is checked by the boxes of the table's parts against the window: what
must be seen is inside it, and the page does not scroll.
"""

from __future__ import annotations

from typing import Any

import pytest
from playwright.sync_api import BrowserContext, FloatRect, Page

from .conftest import Site, Watch
from .helpers import legal_cards, new_game, open_table, step_count
from .test_table import SCRIPTED_AT20

pytestmark = pytest.mark.browser

#: Six cards in hand and you lead (HU24).
YOU_LEAD = {"preset": "HU24", "seed": 4, "dealer": 1}


def box(page: Page, selector: str) -> FloatRect:
    found = page.locator(selector).first.bounding_box()
    assert found is not None, f"{selector} is not shown"
    return found


def inside_the_window(page: Page, selectors: list[str], where: str) -> None:
    size = page.viewport_size
    assert size is not None
    for selector in selectors:
        b = box(page, selector)
        assert b["x"] >= 0 and b["y"] >= 0, f"{where}: {selector} starts off the window: {b}"
        assert b["x"] + b["width"] <= size["width"] + 0.5, f"{where}: {selector} ends right of the window: {b}"
        assert b["y"] + b["height"] <= size["height"] + 0.5, f"{where}: {selector} ends below the window: {b}"


def no_scrolling(page: Page, where: str) -> None:
    extent: list[int] = page.evaluate(
        "[document.documentElement.scrollWidth - innerWidth, document.documentElement.scrollHeight - innerHeight]"
    )
    assert extent == [0, 0], f"{where}: the page scrolls by {extent} px"


def play_a_card(page: Page) -> None:
    before = step_count(page)
    page.locator(f"#my-hand [data-card='{legal_cards(page)[0]}']").click()
    page.wait_for_function(
        "n => { const t = document.getElementById('table').dataset; return t.ready === '1' && Number(t.step) >= n; }",
        arg=before + 2,
    )


def phone_table(
    site: Site, phone_context: BrowserContext, watch: Watch, width: int, height: int, game: dict[str, Any]
) -> Page:
    """A phone's page of ``width`` x ``height`` with ``game`` on the table."""
    page = phone_context.new_page()
    page.set_viewport_size({"width": width, "height": height})
    watch.attach(page)
    open_table(page, site.url)
    new_game(page, **game)
    return page


@pytest.mark.parametrize("width,height", [(844, 390), (740, 360), (915, 412)])
def test_a_phone_held_sideways_shows_everything_without_scrolling(
    site: Site, phone_context: BrowserContext, watch: Watch, width: int, height: int
) -> None:
    page = phone_table(site, phone_context, watch, width, height, SCRIPTED_AT20)  # exchange, close: most buttons
    where = f"{width}x{height}, exchange and close offered"
    parts = ["#my-hand .card >> nth=-1", "#my-hand .card >> nth=0", "#stock", "#opp-hand", "#trick"]
    inside_the_window(page, [*parts, "#actions button >> nth=-1", "#hint", "#last-trick"], where)
    no_scrolling(page, where)
    play_a_card(page)
    where = f"{width}x{height}, after a trick"
    inside_the_window(page, [*parts, "#last-trick .card >> nth=-1"], where)
    no_scrolling(page, where)


@pytest.mark.parametrize("width,height", [(390, 844), (360, 740)])
def test_a_phone_held_upright_shows_the_last_trick_without_scrolling(
    site: Site, phone_context: BrowserContext, watch: Watch, width: int, height: int
) -> None:
    page = phone_table(site, phone_context, watch, width, height, YOU_LEAD)
    play_a_card(page)
    page.evaluate("scrollTo(0, 0)")  # (Firefox scrolls a clicked card into view its own way)
    inside_the_window(page, ["#my-hand .card >> nth=-1", "#last-trick .card >> nth=-1"], f"{width}x{height}")


def test_large_screens_grow_the_table(site: Site, context: BrowserContext, watch: Watch) -> None:
    page = context.new_page()
    watch.attach(page)
    open_table(page, site.url)
    new_game(page, **YOU_LEAD)
    sizes: dict[str, Any] = {}
    for width, height in ((1280, 800), (1920, 1080), (2560, 1440), (3840, 2160)):
        page.set_viewport_size({"width": width, "height": height})
        where = f"{width}x{height}"
        inside_the_window(page, ["#my-hand .card >> nth=-1", "#opp-hand", "#stock", "#last-trick"], where)
        no_scrolling(page, where)
        table = box(page, "#table")
        sizes[where] = (box(page, "#my-hand .card")["width"], table["width"] / width, table["height"] / height)
    card = [s[0] for s in sizes.values()]
    # The cards grow with the screen: on 4K nearly twice as wide as on 1080p.
    assert card == sorted(card) and card[3] >= 1.8 * card[1], sizes
    assert all(share >= 0.5 for _, share, _ in sizes.values()), sizes  # the table keeps half the width or more
    assert all(share >= 0.85 for _, _, share in sizes.values()), sizes  # and most of the height
