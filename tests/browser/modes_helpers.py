"""Driving the ways to play (two players on one device, watching the computer) and checking what they reveal."""

from __future__ import annotations

from typing import Any

from playwright.sync_api import Page, expect

from py_engine.core.cards import CARD_NAMES, names

from .conftest import STEP_TIMEOUT_MS
from .helpers import CARD_RE, TABLE, Oracle, dom_cards, new_responses, step_count

# AT20, seat 0 leads (seat 1 deals): JH QH AH TH AD against AC TC KC QC JC, trump KH face up.
SCRIPTED_AT20: dict[str, Any] = {
    "preset": "AT20",
    "seed": 1,
    "dealer": 1,
    "deck": [
        *("JH", "QH", "AH"),
        *("AC", "TC", "KC"),
        "KH",
        *("TH", "AD"),
        *("QC", "JC"),
        *("AS", "TS", "KS", "QS", "JS", "TD", "KD", "QD", "JD"),
    ],
}


def set_preferences(page: Page, **prefs: Any) -> None:
    """The next new game's mode (``window.__test.setPreferences``)."""
    page.evaluate("prefs => window.__test.setPreferences(prefs)", prefs)


def meta(page: Page) -> dict[str, Any]:
    found: dict[str, Any] = page.evaluate("window.__test.meta()")
    return found


def hand(oracle: Oracle, seat: int) -> set[str]:
    return set(names(oracle.match.deal.hands[seat]))


def known(oracle: Oracle, seat: int) -> set[str]:
    """Cards of ``seat``'s hand that the other seat has seen (a declared marriage, an exchanged trump)."""
    deal = oracle.match.deal
    return set(names(deal.hands[seat] & deal.known[seat]))


def hidden_from(oracle: Oracle, seat: int) -> set[str]:
    """Cards ``seat`` may not know now: the other hand's unseen cards and the face-down talon."""
    deal = oracle.match.deal
    if deal.over:
        return set()
    other = 1 - seat
    unseen = set(names(deal.hands[other] & ~deal.known[other]))
    return unseen | talon(oracle)


def talon(oracle: Oracle) -> set[str]:
    deal = oracle.match.deal
    if deal.over:
        return set()
    return {CARD_NAMES[c] for c in deal.talon[deal.talon_pos :]}


def hidden_from_everyone(oracle: Oracle) -> set[str]:
    return hidden_from(oracle, 0) | hidden_from(oracle, 1)


def check_messages(log: list[str], oracle: Oracle, *, watching: bool = False) -> int:
    """Replay the worker's messages against the oracle and fail on a secret card.

    Two players: a message with a view of seat s (or with frames of seat s,
    the move a player made before handing over) may name nothing hidden from
    s; a message without either (the hand-over between deals) nothing hidden
    from either player. Watching (``watching``): no face-down talon card, ever.
    Returns how many responses were checked.
    """
    for raw, result, _ in new_responses(log, oracle, lambda r: bool(r.get("ok") and "table" in r and "seating" in r)):
        frames = result.get("frames") or []
        view = result.get("view") or (frames[-1]["view"] if frames else None)
        if watching:
            secret = talon(oracle)
        elif view is not None:
            secret = hidden_from(oracle, view["seat"])
        else:
            secret = hidden_from_everyone(oracle)
        leaked = set(CARD_RE.findall(raw)) & secret
        assert not leaked, f"the worker sent secret cards {sorted(leaked)} in {raw[:300]}"
        oracle.checked += 1
    assert oracle.started, "the new game's answer is not in the log"
    return oracle.checked


def wait_step(page: Page, before: int) -> None:
    page.wait_for_function(
        "before => { const d = document.querySelector('#table').dataset;"
        " return Number(d.step) > before && d.ready === '1'; }",
        arg=before,
        timeout=STEP_TIMEOUT_MS,
    )


def take_over(page: Page, seat: int, name: str) -> None:
    """On the hand-over screen: "I am <name>, show my hand"."""
    expect(page.locator("#handover")).to_be_visible()
    button = page.locator("[data-control='show-hand']")
    expect(button).to_contain_text(name)
    before = step_count(page)
    button.click()
    wait_step(page, before)
    expect(page.locator(TABLE)).to_have_attribute("data-handover", "0")
    expect(page.locator(TABLE)).to_have_attribute("data-seat", str(seat))
    expect(page.locator("#handover")).to_be_hidden()


def my_hand(page: Page) -> set[str]:
    cards: list[str] = page.locator("#my-hand .card").evaluate_all("els => els.map(e => e.dataset.card)")
    return set(cards)


def assert_no_hand_shown(page: Page, oracle: Oracle) -> None:
    """While the hand-over screen shows, the document holds no card of either hand."""
    expect(page.locator(TABLE)).to_have_attribute("data-handover", "1")
    shown = dom_cards(page) & (hand(oracle, 0) | hand(oracle, 1))
    assert not shown, f"the hand-over screen leaves cards of a hand in the page: {sorted(shown)}"
    assert page.locator("#my-hand .card").count() == 0
