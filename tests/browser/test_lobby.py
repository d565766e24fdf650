"""Meeting strangers (web/game/find-game.js, web/online/lobby-relays.js) against the real local Nostr relay.

Every page is the real site in its own browser context, with the test's relay as its only relay and no STUN
server. The relay is never mocked: offers, withdrawals, join requests and answers pass through it, and the
junk offers of the last test are signed events published straight to it.
"""

from __future__ import annotations

import random
import re
import time
from collections.abc import Iterator

import pytest
from playwright.sync_api import Browser, Page, expect

from .conftest import STEP_TIMEOUT_MS, Site
from .online_fixtures import (  # noqa: F401  (fixtures)
    Relay,
    accepts_connections,
    die_with_parent,
    nostr_relay,
    relay_command,
    stop_relay,
    webrtc_browser,
)
from .online_helpers import Player, agree, move, new_player, wait_joined

pytestmark = pytest.mark.browser

#: The longest main-thread task (ms) the page may take while 5,000 junk offers arrive.
LONGEST_TASK_MAX_MS = 200
JUNK_OFFERS = 5000
LONG_TASKS_JS = """
window.__longest = 0;
try {
  new PerformanceObserver((list) => {
    for (const entry of list.getEntries()) window.__longest = Math.max(window.__longest, entry.duration);
  }).observe({ type: "longtask", buffered: true });
} catch {}
"""


@pytest.fixture
def players(webrtc_browser: Browser, site: Site, nostr_relay: Relay) -> Iterator[list[Player]]:  # noqa: F811
    made: list[Player] = []
    yield made
    for player in made:
        print("\n".join(player.console[-20:]))
        for selector in ("#lobby-status", "#lobby-relays", "#online-error"):
            loc = player.page.locator(selector)
            print(
                selector,
                loc.get_attribute("data-state") if loc.count() else "",
                loc.text_content() if loc.count() else "",
            )
        player.context.close()


def player(players: list[Player], browser: Browser, site: Site, relay: Relay, *, clock: bool = False) -> Player:
    made = new_player(browser, site, relay=relay.url, clock=clock, init_script=LONG_TASKS_JS)
    players.append(made)
    return made


def find_game(p: Player, name: str) -> Page:
    """Open "Find a game" from the online dialog, with ``name``; wait until the relay is up."""
    page = p.page
    page.locator("#open-online").click()
    page.locator("#online-find").click()
    expect(page.locator("#lobby-dialog")).to_be_visible()
    page.locator("#lobby-name").fill(name)
    expect(page.locator("#lobby-relays")).to_have_attribute("data-relays", "up", timeout=STEP_TIMEOUT_MS)
    return page


def open_table(p: Player, name: str) -> None:
    page = find_game(p, name)
    page.locator("#lobby-open").click()
    expect(page.locator("#lobby-status")).to_have_attribute("data-state", "open", timeout=STEP_TIMEOUT_MS)


def row(page: Page, name: str):  # type: ignore[no-untyped-def]
    return page.locator("#lobby-tables li", has_text=name)


def play_deal(a: Player, b: Player, rng: random.Random) -> None:
    """Moves by whichever page has one until the first deal is over on both tables."""
    state = agree(a, b)
    for _ in range(200):
        views = a.view(), b.view()
        if all(v is not None and v["deal_result"] for v in views):
            return
        moved = any(move(p, rng) for p in (a, b))
        state = agree(a, b, state if moved else None)
    raise AssertionError("the deal did not end")


def test_open_list_join_and_play_a_deal(
    webrtc_browser: Browser,  # noqa: F811
    site: Site,
    nostr_relay: Relay,  # noqa: F811
    players: list[Player],
) -> None:
    anna = player(players, webrtc_browser, site, nostr_relay)
    bea = player(players, webrtc_browser, site, nostr_relay)
    open_table(anna, "Anna")
    page = find_game(bea, "Bea")
    table = row(page, "Anna")
    expect(table).to_have_count(1, timeout=STEP_TIMEOUT_MS)
    # The opener's name, rating with its games and "checked", language, rules and how long it has been open.
    expect(table).to_contain_text(re.compile(r"rating 1,?500, checked; signed games: 0"))
    expect(table).to_contain_text("English")
    expect(table).to_contain_text("open for less than a minute")
    assert table.locator(".lobby-rules").inner_text().strip()
    expect(page.locator("#lobby-count")).to_have_text("Open tables: 1.")
    started = time.perf_counter()
    table.get_by_role("button", name="Join the table of Anna").click()
    wait_joined(anna, bea)
    print(f"\njoin clicked -> both tables dealt: {time.perf_counter() - started:.2f} s")
    expect(anna.page.locator("#lobby-dialog")).to_be_hidden()
    expect(bea.page.locator("#lobby-dialog")).to_be_hidden()
    assert anna.online()["status"]["names"] == ["Anna", "Bea"]  # type: ignore[index]
    play_deal(anna, bea, random.Random(7))
    assert not anna.errors and not bea.errors, anna.errors + bea.errors
