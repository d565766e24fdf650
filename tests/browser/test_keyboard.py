"""Playing with the keyboard alone: the hand, the shortcuts, the focus after each move, the dialogs."""

from __future__ import annotations

from typing import Any

import pytest
from playwright.sync_api import Page, expect

from .access import announcements, focused, press, press_and_confirm, tab_to
from .conftest import BOOT_TIMEOUT_MS, Site, Watch
from .helpers import actions, do, legal_cards, new_game, open_table, phase, table_data, wait_ready
from .test_table import OVER, SCRIPTED_AT20

pytestmark = pytest.mark.browser

#: Elements that carry a one-key shortcut of the table (the dialogs' navigation keys are left out).
TABLE_SHORTCUTS = "[aria-keyshortcuts]:not(dialog [aria-keyshortcuts])"


def focus_legal_card(page: Page) -> str:
    """With the focus in your hand, walk to the first card you may play with Home and the arrow keys."""
    assert focused(page)["inHand"], f"the focus left your hand: {focused(page)}"
    page.keyboard.press("Home")
    for _ in range(8):
        now = focused(page)
        assert now["inHand"]
        if now["legal"] == "1":
            return str(now["card"])
        page.keyboard.press("ArrowRight")
    raise AssertionError("the arrow keys found no card to play")


def test_a_whole_deal_with_the_keyboard_alone(site: Site, page: Page, watch: Watch) -> None:
    watch.attach(page)
    open_table(page, site.url)
    new_game(page, preset="HU24", seed=20261129, dealer=0)  # the computer leads
    tab_to(page, "#my-hand .card")
    # The hand is one tab stop: the next Tab leaves it.
    assert page.locator("#my-hand .card[tabindex='0']").count() == 1
    keys = ["Enter", " "]
    moves = 0
    while phase(page) not in OVER:
        cards = legal_cards(page)
        if cards:
            now = focused(page)
            # The focus is kept on a card you may play after each move and animation.
            assert now["inHand"] and now["legal"] == "1", f"after {moves} moves the focus is on {now}"
            assert now["visibleRing"], "the focused card shows no focus ring"
            card = focus_legal_card(page)
            press(page, keys[moves % 2])
            assert card not in page.locator("#my-hand .card").evaluate_all("els => els.map(e => e.dataset.card)")
        else:
            offered = actions(page)
            assert focused(page)["inActions"], f"no card to play, and the focus is not on an action: {focused(page)}"
            press(page, "p" if "pass" in offered else "a")
        moves += 1
        assert moves < 40, "the deal does not end"
    # At the end of the deal the focus is on the result's first button; Enter starts the next deal.
    now = focused(page)
    assert now["inResult"] and now["tag"] == "button", f"at the end of the deal the focus is on {now}"
    if now["action"] == "next":
        press(page, "Enter")
        assert phase(page) not in OVER
        assert page.locator("#my-hand .card").count() == 6


@pytest.mark.page_logic
def test_shortcut_keys_take_every_action(site: Site, page: Page, watch: Watch) -> None:
    """E exchanges, M declares, C closes, digits play, A claims, N deals on: the scripted AT20 deal by shortcuts."""
    watch.attach(page)
    open_table(page, site.url)
    new_game(page, **SCRIPTED_AT20)
    page.locator("body").focus()
    # Every control says its key to assistive technology.
    expect(page.locator("#actions [data-action='close']")).to_have_attribute("aria-keyshortcuts", "C")
    expect(page.locator("#my-hand .card").first).to_have_attribute("aria-keyshortcuts", "1")
    press(page, "e")
    assert page.evaluate("window.__test.view().trump_card") == "JH"
    press(page, "m")
    view: dict[str, Any] = page.evaluate("window.__test.view()")
    assert [m["suit"] for m in view["marriages"]] == ["H"]
    press(page, "c")
    assert phase(page) == "closed"
    # After the marriage you must lead its King or Queen: a digit for another card is refused, and said.
    hand = page.locator("#my-hand .card").evaluate_all("els => els.map(e => e.dataset.card)")
    refused = next(i for i, code in enumerate(hand) if code not in ("KH", "QH"))
    step = table_data(page)["step"]
    page.keyboard.press(str(refused + 1))
    expect(page.locator("#announcer p").last).to_have_text(
        f"{page.locator('#my-hand .card').nth(refused).get_attribute('aria-label')} cannot be played now."
    )
    assert table_data(page)["step"] == step
    for code in ("KH", "AH", "TH"):
        hand = page.locator("#my-hand .card").evaluate_all("els => els.map(e => e.dataset.card)")
        press(page, str(hand.index(code) + 1))
    assert "claim" in actions(page)
    press_and_confirm(page, "a", "claim")
    assert phase(page) in OVER
    expect(page.locator("#result .result-title")).to_have_text("You win the deal")
    press(page, "n")
    assert phase(page) not in OVER


@pytest.mark.page_logic
def test_keys_that_do_nothing_say_so_and_shortcuts_can_be_turned_off(site: Site, page: Page, watch: Watch) -> None:
    watch.attach(page)
    open_table(page, site.url)
    new_game(page, **SCRIPTED_AT20)
    page.locator("body").focus()
    step = table_data(page)["step"]
    page.keyboard.press("a")  # no claim now
    expect(page.locator("#announcer p").last).to_have_text("Not possible now.")
    page.keyboard.press("9")  # there is no ninth card: nothing happens
    page.keyboard.press("Control+1")  # browser keys are left alone
    assert table_data(page)["step"] == step
    # Turn the single-key shortcuts off in the settings (with the keyboard): digits and letters do nothing then.
    tab_to(page, "#open-settings")
    page.keyboard.press("Enter")
    expect(page.locator("#settings-dialog")).to_be_visible()
    tab_to(page, "#setting-shortcuts")
    expect(page.locator("#setting-shortcuts")).to_be_checked()
    page.keyboard.press(" ")
    expect(page.locator("#setting-shortcuts")).not_to_be_checked()
    tab_to(page, "[data-action='settings-save']")
    page.keyboard.press("Enter")
    expect(page.locator("#settings-dialog")).to_be_hidden()
    # Saved (the dialog's close event) and redrawn. The table's one-key shortcuts are off; a dialog's own
    # navigation keys (the analysis board's arrows, Home and End) are not character keys and stay.
    expect(page.locator(TABLE_SHORTCUTS)).to_have_count(0)
    wait_ready(page)
    page.locator("body").focus()
    step = table_data(page)["step"]
    view = page.evaluate("window.__test.view()")
    page.evaluate("() => document.querySelector('#announcer').replaceChildren()")
    page.keyboard.press("e")
    page.keyboard.press("1")
    assert page.locator("#announcer p").count() == 0, f"a shortcut answered while they are off: {announcements(page)}"
    assert table_data(page)["step"] == step
    assert page.evaluate("window.__test.view()") == view
    assert page.locator(TABLE_SHORTCUTS).count() == 0
    # ...while the hand still plays with Enter. The switch is remembered.
    tab_to(page, "#my-hand .card")
    focus_legal_card(page)
    press(page, "Enter")
    page.reload()
    wait_ready(page, BOOT_TIMEOUT_MS)
    page.locator("#open-settings").focus()
    page.keyboard.press("Enter")
    expect(page.locator("#setting-shortcuts")).not_to_be_checked()


def test_settings_dialog_by_keyboard(site: Site, page: Page, watch: Watch) -> None:
    """Enter opens it, Tab stays inside it, Escape closes it without saving, and the focus comes back."""
    watch.attach(page)
    open_table(page, site.url)
    tab_to(page, "#open-settings")
    page.keyboard.press("Enter")
    dialog = page.locator("#settings-dialog")
    expect(dialog).to_be_visible()
    assert focused(page)["inDialog"]
    # The keyboard help lists the keys in words.
    tab_to(page, "#keys-help summary")
    page.keyboard.press("Enter")
    expect(page.locator("#keys-list")).to_be_visible()
    expect(page.locator("#keys-list")).to_contain_text("Close the talon")
    keys = page.locator("#keys-list kbd").evaluate_all("els => els.map(e => e.textContent)")
    assert {"M", "E", "C", "A", "P", "N", "1", "6", "Esc"} <= set(keys)
    # Focus is trapped: forward and backward, Tab never leaves the dialog.
    controls = dialog.locator("button, select, input, summary").count()
    for _ in range(controls + 3):
        page.keyboard.press("Tab")
        assert focused(page)["inDialog"], f"Tab left the dialog: {focused(page)}"
    for _ in range(controls + 3):
        page.keyboard.press("Shift+Tab")
        assert focused(page)["inDialog"], f"Shift+Tab left the dialog: {focused(page)}"
    # Change a setting with the keyboard, then Escape: nothing is saved.
    level = page.evaluate("window.__test.settings().level")
    page.locator("#setting-level").focus()
    page.keyboard.press("ArrowDown")
    assert page.locator("#setting-level").input_value() != str(level)
    page.keyboard.press("Escape")
    expect(dialog).to_be_hidden()
    assert page.evaluate("window.__test.settings().level") == level
    assert focused(page)["id"] == "open-settings"
    # Open again, change the level and save with Enter on the button.
    page.keyboard.press("Enter")
    expect(dialog).to_be_visible()
    page.locator("#setting-level").focus()
    page.keyboard.press("ArrowDown")
    chosen = page.locator("#setting-level").input_value()
    tab_to(page, "[data-action='settings-save']")
    page.keyboard.press("Enter")
    expect(dialog).to_be_hidden()
    # (the dialog's close event, which saves, comes a moment after it is hidden)
    page.wait_for_function("level => String(window.__test.settings().level) === level", arg=chosen)
    assert focused(page)["id"] == "open-settings"


def test_the_focus_ring_shows_on_every_control(site: Site, page: Page, watch: Watch) -> None:
    watch.attach(page)
    open_table(page, site.url)
    new_game(page, **SCRIPTED_AT20)
    for selector in ("#open-settings", "#actions [data-action='close']", "#my-hand .card"):
        tab_to(page, selector)
        style = page.evaluate(
            "() => { const s = getComputedStyle(document.activeElement);"
            " return [s.outlineStyle, parseFloat(s.outlineWidth)]; }"
        )
        assert focused(page)["visibleRing"]
        assert style[0] != "none" and style[1] >= 2, f"{selector} has no visible focus ring: {style}"
    assert announcements(page), "the live region says nothing"


def test_the_focus_lands_on_your_play_after_a_dialog_and_a_new_deal(site: Site, page: Page, watch: Watch) -> None:
    """Escape on the first visit's tutorial offer, and N for a deal the computer leads: the focus is in your hand
    (where the next Enter plays), not on the page's body, nine tabs away."""
    watch.attach(page)
    open_table(page, site.url, "?test=1&fast=1&tutorial=offer")
    expect(page.locator("#tutorial-offer")).to_be_visible()
    page.keyboard.press("Escape")
    expect(page.locator("#tutorial-offer")).to_be_hidden()
    expect(page.locator("#my-hand .card[data-legal='1']").first).to_be_focused()

    new_game(page, **SCRIPTED_AT20)  # you lead this deal; the computer leads the next
    for step in ("exchange", "marry:H", "close", "KH", "AH", "TH", "claim"):
        do(page, step)
    assert phase(page) in OVER
    page.evaluate("document.activeElement.blur()")  # as after a click on the felt: the focus is nowhere
    press(page, "n")
    assert table_data(page)["toAct"] == "0", "the computer has led: your turn"
    now = focused(page)
    assert now["inHand"] and now["legal"] == "1", f"after N the focus is on {now}"


#: Each dialog and the control that opens it.
DIALOGS = [
    ("#open-settings", "#settings-dialog"),
    ("#open-help", "#help-dialog"),
    ("#match-score", "#sheet-dialog"),
    ("#open-puzzles", "#puzzles-dialog"),
]


def test_escape_gives_the_focus_back_to_the_dialogs_opener(site: Site, page: Page, watch: Watch) -> None:
    """Opened by keys and closed by Escape, each dialog gives the focus back where it was taken from."""
    watch.attach(page)
    open_table(page, site.url)
    for opener, dialog in DIALOGS:
        # Forward from the top of the page, or back from the last opener if this one comes before it.
        before = page.evaluate(
            "s => Boolean(document.activeElement.compareDocumentPosition(document.querySelector(s))"
            " & Node.DOCUMENT_POSITION_PRECEDING)",
            opener,
        )
        tab_to(page, opener, key="Shift+Tab" if before else "Tab")
        page.keyboard.press("Enter")
        expect(page.locator(dialog)).to_be_visible()
        page.keyboard.press("Escape")
        expect(page.locator(dialog)).to_be_hidden()
        expect(page.locator(opener)).to_be_focused()
