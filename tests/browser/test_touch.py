"""Touch on a phone: a card dragged or swiped to the trick is played; "tap to pick" picks, then plays.

Chromium gets real touches through its DevTools protocol (``Input.dispatchTouchEvent``), so the
page's ``touch-action`` and the browser's own gesture handling take part. Playwright has no touch
move for Firefox: there the same gestures are pointer events of type "touch" dispatched on the
card (the page's handlers are what they test).
"""

from __future__ import annotations

import re

import pytest
from playwright.sync_api import BrowserContext, Page, expect

from .access import announcements
from .conftest import Site, Watch
from .helpers import legal_cards, new_game, open_table, step_count, tap

pytestmark = pytest.mark.browser

#: Six cards in hand and you lead (HU24): every card may be played.
YOU_LEAD = {"preset": "HU24", "seed": 4, "dealer": 1}


class Finger:
    """One finger on ``page``: down, moves, up, in page coordinates (CSS pixels)."""

    def __init__(self, page: Page, browser_name: str) -> None:
        self.page = page
        self.cdp = page.context.new_cdp_session(page) if browser_name == "chromium" else None
        self.target = ""

    def touch(self, kind: str, x: float, y: float) -> None:
        if self.cdp is not None:
            points = [] if kind == "end" else [{"x": x, "y": y, "id": 1}]
            self.cdp.send("Input.dispatchTouchEvent", {"type": f"touch{kind.title()}", "touchPoints": points})
            return
        self.page.evaluate(
            """([selector, kind, x, y]) => {
                 const type = {start: "pointerdown", move: "pointermove", end: "pointerup"}[kind];
                 const card = document.querySelector(selector);
                 card.dispatchEvent(new PointerEvent(type, {
                   bubbles: true, cancelable: true, composed: true, pointerId: 7, pointerType: "touch",
                   isPrimary: true, button: 0, buttons: kind === "end" ? 0 : 1, clientX: x, clientY: y }));
               }""",
            [self.target, kind, x, y],
        )

    def slide(self, card: str, dx: float, dy: float, steps: int = 8) -> None:
        """Put the finger on ``card``, move it by (dx, dy) in ``steps`` and lift it."""
        self.target = f"#my-hand [data-card='{card}']"
        box = self.page.locator(self.target).bounding_box()
        assert box is not None
        x, y = box["x"] + box["width"] / 2, box["y"] + box["height"] / 2
        self.touch("start", x, y)
        for i in range(1, steps + 1):
            self.touch("move", x + dx * i / steps, y + dy * i / steps)
        self.touch("end", x + dx, y + dy)


def hand(page: Page) -> list[str]:
    cards: list[str] = page.locator("#my-hand .card").evaluate_all("els => els.map(e => e.dataset.card)")
    return cards


def trick_centre_from(page: Page, card: str) -> tuple[float, float]:
    """How far the trick's centre is from ``card``'s centre."""
    a = page.locator(f"#my-hand [data-card='{card}']").bounding_box()
    b = page.locator("#trick").bounding_box()
    assert a is not None and b is not None
    return (b["x"] + b["width"] / 2) - (a["x"] + a["width"] / 2), (b["y"] + b["height"] / 2) - (
        a["y"] + a["height"] / 2
    )


def played(page: Page, card: str, before: int) -> None:
    """``card`` was played and the computer answered: it left the hand, and the table is yours again."""
    expect(page.locator(f"#my-hand [data-card='{card}']")).to_have_count(0)
    page.wait_for_function(
        "n => { const t = document.getElementById('table').dataset; return t.ready === '1' && Number(t.step) >= n; }",
        arg=before + 2,
    )


def test_a_card_dragged_or_swiped_to_the_trick_is_played(
    site: Site, phone_context: BrowserContext, watch: Watch, browser_name: str
) -> None:
    page = phone_context.new_page()
    watch.attach(page)
    open_table(page, site.url)
    finger = Finger(page, browser_name)

    # Dragged all the way onto the trick.
    new_game(page, **YOU_LEAD)
    card = legal_cards(page)[0]
    before = step_count(page)
    finger.slide(card, *trick_centre_from(page, card))
    played(page, card, before)

    # Small moves that are not a swipe to the trick leave the card in the hand: sideways, down, too short.
    new_game(page, **YOU_LEAD)
    card = legal_cards(page)[1]
    before = step_count(page)
    for dx, dy in ((90, -20), (0, 60), (0, -20)):
        finger.slide(card, dx, dy)
        expect(page.locator(f"#my-hand [data-card='{card}']")).not_to_have_class(re.compile(r"\bdragging\b"))
        assert step_count(page) == before and card in hand(page), (dx, dy)
        assert page.locator(f"#my-hand [data-card='{card}']").evaluate("e => e.style.translate") == ""

    # A swipe of half the way up is enough.
    _, way = trick_centre_from(page, card)
    finger.slide(card, 0, way / 2, steps=4)
    played(page, card, before)


def test_tap_to_pick_picks_then_plays(
    site: Site, phone_context: BrowserContext, watch: Watch, browser_name: str
) -> None:
    page = phone_context.new_page()
    watch.attach(page)
    open_table(page, site.url)
    new_game(page, **YOU_LEAD)

    # Off (the default): one tap plays.
    card = legal_cards(page)[0]
    before = step_count(page)
    tap(page.locator(f"#my-hand [data-card='{card}']"), browser_name)
    played(page, card, before)

    # On, in the settings: the first tap picks (raised, said), the next one plays.
    page.locator("#open-settings").click()
    page.locator("#setting-tap-select").check()
    page.locator("[data-action='settings-save']").click()
    # The dialog's close is handled after the click returns: wait for the saved setting, not a snapshot of it.
    page.wait_for_function("() => window.__test.settings().tapToSelect === true")
    assert page.evaluate("window.__test.settings().tapToSelect") is True
    new_game(page, **YOU_LEAD)
    first, second = legal_cards(page)[:2]
    before = step_count(page)
    picked = page.locator("#my-hand .card.picked")
    tap(page.locator(f"#my-hand [data-card='{first}']"), browser_name)
    expect(picked).to_have_attribute("data-card", first)
    assert step_count(page) == before
    assert any("tap it again to play it" in line for line in announcements(page))
    # Another card moves the pick; a tap beside the hand drops it.
    tap(page.locator(f"#my-hand [data-card='{second}']"), browser_name)
    expect(picked).to_have_attribute("data-card", second)
    tap(page.locator("#trick"), browser_name)
    expect(picked).to_have_count(0)
    assert step_count(page) == before
    # Picked, then played by the second tap.
    tap(page.locator(f"#my-hand [data-card='{second}']"), browser_name)
    expect(picked).to_have_count(1)
    tap(page.locator(f"#my-hand [data-card='{second}']"), browser_name)
    played(page, second, before)

    # The keyboard's Enter plays at once, picked or not.
    new_game(page, **YOU_LEAD)
    card = legal_cards(page)[0]
    before = step_count(page)
    page.locator(f"#my-hand [data-card='{card}']").focus()
    page.keyboard.press("Enter")
    played(page, card, before)
