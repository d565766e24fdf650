"""Helpers for the keyboard, screen-reader, sound and touch tests: keys that make moves, the focus, the live region."""

from __future__ import annotations

from typing import Any

from playwright.sync_api import Page, expect

from .conftest import STEP_TIMEOUT_MS
from .helpers import CONFIRM, step_count, wait_ready

# AT20, the computer leads (you deal) from KH QH AH TH AS with hearts trumps (JH face up):
# it declares 40 and closes the talon (a sure Schwarz), then leads. You hold KC QC JC QD JD.
COMPUTER_MARRIES_AND_CLOSES = {
    "preset": "AT20",
    "seed": 1,
    "dealer": 0,
    "deck": [
        *("KH", "QH", "AH"),
        *("KC", "QC", "JC"),
        "JH",
        *("TH", "AS"),
        *("QD", "JD"),
        *("AC", "TC", "AD", "TD", "KD", "TS", "KS", "QS", "JS"),
    ],
}

RANKS = {"A": "Ace", "T": "Ten", "K": "King", "Q": "Queen", "J": "Jack", "9": "Nine"}
SUITS = {"H": "hearts", "D": "diamonds", "C": "clubs", "S": "spades"}


def english(code: str) -> str:
    """A card's spoken name in English with French suits ("Queen of hearts")."""
    return f"{RANKS[code[0]]} of {SUITS[code[1]]}"


def press(page: Page, key: str) -> None:
    """Press a key that makes a move, then wait until the table has applied it (and the computer's answer)."""
    before = step_count(page)
    page.keyboard.press(key)
    page.wait_for_function(
        "before => { const d = document.querySelector('#table').dataset;"
        " return Number(d.step) > before && d.ready === '1'; }",
        arg=before,
        timeout=STEP_TIMEOUT_MS,
    )
    wait_ready(page)


def press_and_confirm(page: Page, key: str, ask: str) -> None:
    """Press a key that asks first (``ask``: the question), answer yes by keyboard, and wait for the move."""
    page.keyboard.press(key)
    expect(page.locator(CONFIRM)).to_be_visible()
    expect(page.locator(CONFIRM)).to_have_attribute("data-ask", ask)
    expect(page.locator("[data-action='confirm-no']")).to_be_focused()  # the safe answer first
    page.keyboard.press("Tab")
    expect(page.locator("[data-action='confirm-yes']")).to_be_focused()
    press(page, "Enter")


def focused(page: Page) -> dict[str, Any]:
    """What has the keyboard focus."""
    info: dict[str, Any] = page.evaluate(
        """() => {
            const a = document.activeElement;
            return {
                tag: a ? a.tagName.toLowerCase() : null,
                id: a && a.id || null,
                card: a && a.dataset ? a.dataset.card || null : null,
                action: a && a.dataset ? a.dataset.action || null : null,
                legal: a && a.dataset ? a.dataset.legal || null : null,
                inHand: Boolean(a && a.closest && a.closest('#my-hand')),
                inResult: Boolean(a && a.closest && a.closest('#result')),
                inActions: Boolean(a && a.closest && a.closest('#actions')),
                inDialog: Boolean(a && a.closest && a.closest('dialog')),
                visibleRing: Boolean(a && a.matches && a.matches(':focus-visible')),
            };
        }"""
    )
    return info


def tab_to(page: Page, selector: str, limit: int = 40, key: str = "Tab") -> None:
    """Press ``key`` (Tab, or Shift+Tab to go back) until the focused element matches ``selector`` (fails after
    ``limit`` presses)."""
    for _ in range(limit):
        if page.evaluate("s => Boolean(document.activeElement && document.activeElement.matches(s))", selector):
            return
        page.keyboard.press(key)
    raise AssertionError(f"{key} never reached {selector}; the focus is on {focused(page)}")


def announcements(page: Page) -> list[str]:
    """The lines of the live region (#announcer), oldest first."""
    lines: list[str] = page.locator("#announcer p").evaluate_all("els => els.map(e => e.textContent)")
    return lines


def sounds(page: Page) -> dict[str, Any]:
    stats: dict[str, Any] = page.evaluate("window.__test.sounds()")
    return stats
