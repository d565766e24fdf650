"""Meeting strangers (web/game/find-game.js, web/online/lobby-relays.js) against the real local Nostr relay.

Every page is the real site in its own browser context, with the test's relay as its only relay and no STUN
server. The relay is never mocked: offers, withdrawals, join requests and answers pass through it, and the
junk offers of the last test are signed events published straight to it.
"""

from __future__ import annotations

import contextlib
import json
import random
import re
import subprocess
import time
from collections.abc import Iterator

import pytest
from playwright.sync_api import Browser, Page, expect

from ..run import RELAY_VENV
from .conftest import STEP_TIMEOUT_MS, Site
from .online_fixtures import (
    Relay,
    accepts_connections,
    die_with_parent,
    nostr_relay,  # noqa: F401 (a fixture)
    relay_command,
    stop_relay,
    webrtc_browser,  # noqa: F401 (a fixture)
)
from .online_helpers import Player, agree, move, new_player, wait_joined
from .test_a11y import axe_check

pytestmark = pytest.mark.browser

#: The longest main-thread task (ms, wall clock, which on a loaded 2-core machine counts other jobs too) the page
#: may take while 5,000 junk offers arrive and are read: half a second at most, the list stays usable.
LONGEST_TASK_MAX_MS = 500
JUNK_OFFERS = 5000
#: The lobby's topic and the offers' kind (web/online/lobby-relays.js).
LOBBY = ("sixty-six-lobby-1", "30666")
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
        with contextlib.suppress(Exception):  # an open table is withdrawn when its page goes
            player.page.goto("about:blank")
        for selector in ("#lobby-status", "#lobby-relays", "#online-error"):
            loc = player.page.locator(selector)
            print(
                selector,
                loc.get_attribute("data-state") if loc.count() else "",
                loc.text_content() if loc.count() else "",
            )
        player.context.close()


def player(
    players: list[Player],
    browser: Browser,
    site: Site,
    relay: Relay,
    *,
    clock: bool = False,
    match: tuple[str, int] | None = None,
) -> Player:
    made = new_player(browser, site, relay=relay.url, clock=clock, init_script=LONG_TASKS_JS, match=match)
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


def test_open_list_two_joiners_race_and_the_winner_plays_a_deal(
    webrtc_browser: Browser,  # noqa: F811
    site: Site,
    nostr_relay: Relay,  # noqa: F811
    players: list[Player],
) -> None:
    anna = player(players, webrtc_browser, site, nostr_relay)
    bea = player(players, webrtc_browser, site, nostr_relay)
    cid = player(players, webrtc_browser, site, nostr_relay)
    open_table(anna, "Anna")
    rows = []
    for joiner, name in ((bea, "Bea"), (cid, "Cid")):
        page = find_game(joiner, name)
        table = row(page, "Anna")
        expect(table).to_have_count(1, timeout=STEP_TIMEOUT_MS)
        rows.append(table)
    # The opener's name, rating with its games and "checked", language, rules and how long it has been open.
    expect(rows[0]).to_contain_text(re.compile(r"rating 1,?500, checked; signed games: 0"))
    expect(rows[0]).to_contain_text("English")
    expect(rows[0]).to_contain_text("open for less than a minute")
    assert rows[0].locator(".lobby-rules").inner_text().strip()
    expect(bea.page.locator("#lobby-count")).to_have_text("Open tables: 1.")
    # Both ask at once: the opener's engine gives the table to the first good request, the other is told in words.
    started = time.perf_counter()
    at = int(time.time() * 1000) + 1000
    for joiner in (bea, cid):  # both clicks at the same moment (Playwright's clicks would come one after the other)
        joiner.page.evaluate(
            "at => setTimeout(() => document.querySelector('#lobby-tables button[aria-label=\"Join the table of"
            " Anna\"]').click(), at - Date.now())",
            at,
        )
    status = [p.page.locator("#lobby-status") for p in (bea, cid)]
    deadline = time.monotonic() + STEP_TIMEOUT_MS / 1000
    while not any(s.get_attribute("data-state") == "refused" for s in status):
        assert time.monotonic() < deadline, [s.text_content() for s in status]
        time.sleep(0.1)
    loser, winner = (bea, cid) if status[0].get_attribute("data-state") == "refused" else (cid, bea)
    expect(loser.page.locator("#lobby-status")).to_have_text(
        "Someone else was quicker: this table is taken. Choose another."
    )
    wait_joined(anna, winner)
    print(f"\njoin clicked -> both tables dealt: {time.perf_counter() - started:.2f} s")
    expect(anna.page.locator("#lobby-dialog")).to_be_hidden()
    expect(winner.page.locator("#lobby-dialog")).to_be_hidden()
    names = anna.online()["status"]["names"]  # type: ignore[index]
    assert names[0] == "Anna" and names[1] in ("Bea", "Cid"), names
    assert loser.online() is None
    play_deal(anna, winner, random.Random(7))
    assert not anna.errors and not winner.errors and not loser.errors, anna.errors + winner.errors + loser.errors


def identity_of(p: Player) -> str:
    value: str = p.page.evaluate("() => JSON.parse(localStorage.getItem('sixty-six.identity.v1')).public")
    return value


def test_cancel_page_gone_expiry_and_a_blocked_opener(
    webrtc_browser: Browser,  # noqa: F811
    site: Site,
    nostr_relay: Relay,  # noqa: F811
    players: list[Player],
    browser_name: str,
) -> None:
    reader = player(players, webrtc_browser, site, nostr_relay, clock=True)
    opener = player(players, webrtc_browser, site, nostr_relay)
    pest = player(players, webrtc_browser, site, nostr_relay)
    # The reader blocked "Pest" (in a game before): Pest's table is never listed, nor counted.
    blocked = json.dumps([{"identity": identity_of(pest), "name": "Pest", "at": 1}])
    reader.page.evaluate("text => localStorage.setItem('sixty-six.blocked.v1', text)", blocked)
    open_table(pest, "Pest")
    page = find_game(reader, "Rita")
    tables = page.locator("#lobby-tables li")
    # Cancelled: the reader drops the table at once (the withdrawn marker and the deletion).
    open_table(opener, "Olga")
    expect(row(page, "Olga")).to_have_count(1, timeout=STEP_TIMEOUT_MS)
    # Keyboard and screen reader: the list, a table and the opener's wait pass axe, on a phone too, with nothing
    # to scroll sideways.
    if browser_name == "chromium":
        axe_check(page, "the lobby with a table")
        axe_check(opener.page, "the lobby with its own table open")
        page.set_viewport_size({"width": 360, "height": 740})
        axe_check(page, "the lobby on a phone")
        assert page.evaluate("() => document.getElementById('lobby-dialog').scrollWidth <= innerWidth")
    opener.page.locator("#lobby-cancel").click()
    expect(opener.page.locator("#lobby-status")).to_have_attribute("data-state", "cancelled")
    expect(tables).to_have_count(0, timeout=STEP_TIMEOUT_MS)
    # The page goes (pagehide): withdrawn too.
    opener.page.locator("#lobby-open").click()
    expect(row(page, "Olga")).to_have_count(1, timeout=STEP_TIMEOUT_MS)
    opener.page.goto("about:blank")
    expect(tables).to_have_count(0, timeout=STEP_TIMEOUT_MS)
    # Expired: an offer stands 3 minutes after its last renewal (the reader's clock runs 4 minutes on).
    opener.page.goto(site.url + "?test=1&fast=1")
    expect(opener.page.locator("#table")).to_have_attribute("data-ready", "1", timeout=STEP_TIMEOUT_MS)
    open_table(opener, "Olga")
    expect(row(page, "Olga")).to_have_count(1, timeout=STEP_TIMEOUT_MS)
    reader.page.clock.fast_forward(4 * 60_000)
    expect(tables).to_have_count(0, timeout=STEP_TIMEOUT_MS)
    assert row(page, "Pest").count() == 0
    assert not reader.errors and not opener.errors, reader.errors + opener.errors


def relay_refused(text: str) -> bool:
    """Firefox's own report, as a page error, of a WebSocket that could not connect (the relay was stopped)."""
    return bool(re.match(r"page error: Firefox can.t establish a connection to the server at ws://", text))


def restart_relay(relay: Relay) -> float:
    """Start the stopped relay again on its port, with its database; returns the seconds it took."""
    t0 = time.perf_counter()
    with relay.log.open("ab") as out:
        relay.process = subprocess.Popen(
            [str(relay_command()), "-c", "relay.yaml", "serve", "--use-uvicorn"],
            cwd=relay.log.parent,
            stdout=out,
            stderr=subprocess.STDOUT,
            stdin=subprocess.DEVNULL,
            preexec_fn=die_with_parent,
        )
    while not accepts_connections(relay.port):
        assert relay.process.poll() is None, relay.log_tail()
        assert time.perf_counter() - t0 < 30, relay.log_tail()
        time.sleep(0.05)
    return time.perf_counter() - t0


def test_the_relay_stops_and_starts_again_then_a_quick_game(
    webrtc_browser: Browser,  # noqa: F811
    site: Site,
    nostr_relay: Relay,  # noqa: F811
    players: list[Player],
) -> None:
    # Rules of their own (a shorter match): Quick game picks no table an earlier test left open.
    anna = player(players, webrtc_browser, site, nostr_relay, match=("DE24", 3))
    bea = player(players, webrtc_browser, site, nostr_relay, match=("DE24", 3))
    page = find_game(anna, "Anna")
    relays = page.locator("#lobby-relays")
    stop_relay(nostr_relay)
    expect(relays).to_have_attribute("data-relays", "down", timeout=STEP_TIMEOUT_MS)
    expect(relays).to_have_text("No relay can be reached: the list may be out of date. Trying again…")
    down = time.perf_counter()
    restart_relay(nostr_relay)
    expect(relays).to_have_attribute("data-relays", "up", timeout=STEP_TIMEOUT_MS)
    expect(relays).to_have_text("Connected to 1 of 1 relays.")
    print(f"\nrelay down -> the page connected again: {time.perf_counter() - down:.2f} s")
    # Quick game: nobody is waiting, so Anna's page opens a table and says so; Bea's quick game joins it.
    page.locator("#lobby-quick").click()
    expect(page.locator("#lobby-status")).to_have_attribute("data-state", "open", timeout=STEP_TIMEOUT_MS)
    expect(page.locator("#lobby-status")).to_contain_text("so yours is open now")
    other = find_game(bea, "Bea")
    expect(row(other, "Anna")).to_have_count(1, timeout=STEP_TIMEOUT_MS)
    started = time.perf_counter()
    other.locator("#lobby-quick").click()
    wait_joined(anna, bea)
    print(f"quick game clicked -> both tables dealt: {time.perf_counter() - started:.2f} s")
    errors = [e for e in anna.errors + bea.errors if not relay_refused(e)]
    assert not errors, errors


JUNK_SCRIPT = r"""
import asyncio, hashlib, json, os, sys, time
import coincurve, websockets

url, count, tag, kind = sys.argv[1], int(sys.argv[2]), sys.argv[3], int(sys.argv[4])
CONNECTIONS = 8
WINDOW = 25
keys = [coincurve.PrivateKey() for _ in range(max(1, count // 50))]
now = int(time.time())
junk = ["{junk", "[]", "not an offer", json.dumps({"format": "sixty-six/table-1", "table": "0" * 32})]
events = []
for i in range(count):
    key = keys[i % len(keys)]
    pub = key.public_key_xonly.format().hex()
    tags = [["d", os.urandom(16).hex()], ["t", tag], ["expiration", str(now + 600)]]
    content = junk[i % len(junk)] + " " + os.urandom(8).hex()
    serial = json.dumps([0, pub, now, kind, tags, content], separators=(",", ":"), ensure_ascii=False)
    event_id = hashlib.sha256(serial.encode()).hexdigest()
    sig = key.sign_schnorr(bytes.fromhex(event_id)).hex()
    events.append({"id": event_id, "pubkey": pub, "created_at": now, "kind": kind, "tags": tags,
                   "content": content, "sig": sig})


async def publish(part):
    accepted = 0
    async with websockets.connect(url, max_size=None, ping_interval=None) as ws:
        # A few at a time: a relay that pings mid-stream gets its answer soon, not behind the whole part.
        for start in range(0, len(part), WINDOW):
            window = part[start : start + WINDOW]
            for event in window:
                await ws.send(json.dumps(["EVENT", event]))
            for _ in window:
                answer = json.loads(await ws.recv())
                accepted += answer[0] == "OK" and answer[2] is True
    return accepted


async def main():
    parts = [events[i::CONNECTIONS] for i in range(CONNECTIONS)]
    accepted = sum(await asyncio.gather(*(publish(part) for part in parts)))
    print(json.dumps({"accepted": accepted}))


asyncio.run(main())
"""


def test_five_thousand_junk_offers_and_the_list_stays_usable(
    webrtc_browser: Browser,  # noqa: F811
    site: Site,
    nostr_relay: Relay,  # noqa: F811
    players: list[Player],
    browser_name: str,
) -> None:
    anna = player(players, webrtc_browser, site, nostr_relay)
    bea = player(players, webrtc_browser, site, nostr_relay)
    open_table(anna, "Anna")
    page = find_game(bea, "Bea")
    expect(row(page, "Anna")).to_have_count(1, timeout=STEP_TIMEOUT_MS)
    page.evaluate("() => { window.__longest = 0; }")  # from now on: the junk, not the page's start
    started = time.perf_counter()
    published = subprocess.run(
        [str(RELAY_VENV / "bin" / "python"), "-c", JUNK_SCRIPT, nostr_relay.url, str(JUNK_OFFERS), *LOBBY],
        capture_output=True,
        text=True,
        timeout=300,
    )
    took = time.perf_counter() - started
    assert published.returncode == 0, published.stderr[-2000:] + nostr_relay.log_tail()
    assert json.loads(published.stdout)["accepted"] == JUNK_OFFERS, published.stdout + published.stderr
    # Still usable: Anna's table stays, a table opened after the junk is listed, and a filter answers at once.
    cid = player(players, webrtc_browser, site, nostr_relay)
    open_table(cid, "Cid")
    expect(row(page, "Cid")).to_have_count(1, timeout=STEP_TIMEOUT_MS)
    expect(row(page, "Anna")).to_have_count(1)
    page.locator("#lobby-tables li").first.wait_for()
    page.locator(".lobby-filters summary").click()
    page.locator("#lobby-min-rating").fill("1600")
    page.locator("#lobby-min-rating").dispatch_event("change")
    expect(page.locator("#lobby-tables li")).to_have_count(0, timeout=5000)
    longest = page.evaluate("() => window.__longest")
    dropped = page.locator("#lobby-tables").get_attribute("data-dropped")
    refused = page.locator("#lobby-tables").get_attribute("data-refused")
    print(
        f"\n{JUNK_OFFERS} junk offers published in {took:.1f} s; dropped unchecked {dropped}, refused by the"
        f" engine {refused}; longest main-thread task {longest} ms ({browser_name})"
    )
    if browser_name == "chromium":  # Firefox has no long-task timing
        assert longest < LONGEST_TASK_MAX_MS, longest
