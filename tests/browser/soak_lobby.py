"""Lobby soak: quick games between rotating pairs of pages, through a real local Nostr relay.

``python -m tests.browser.soak_lobby [--browser chromium|firefox] [--games 20] [--pages 4] [--seed 1] [--json FILE]
[--shots DIR]``

Not part of the test command. It starts the test's Nostr relay (``.cache/nostr-relay/``, as the browser tests
do) and ``--pages`` pages of the built site in Chromium (or Firefox ESR), each in its own context (its own
storage, identity, Nostr key and engine), with the relay as their only relay and no STUN server, all under the
same custom rules (a match to 1 game point: one deal is a whole match). For each game, the next pair in turn: the first
page presses Quick game (no table is open, so it opens one and waits), then the second presses Quick game and
joins it; the two play random legal moves until the match is over, and leave. Every match must end in a
result both pages signed: its certificate is in both pages' signed results, and the next game's offer
attaches them (the opener's rating then counts its games). Once every page is closed the relay is asked for the lobby's
offers: none may be left standing (every table is withdrawn once taken; a page that goes withdraws its own).

It prints the time from the second page's click on Quick game until both tables are dealt (median and worst),
and with ``--shots`` saves screenshots of the lobby (a table listed), of an opener's quick-game wait, on a
desktop (1280 x 800) and a phone (390 x 844), into DIR.
"""

from __future__ import annotations

import argparse
import json
import os
import random
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

from playwright.sync_api import Browser, Page, Playwright, ViewportSize, expect, sync_playwright

from ..run import RELAY_VENV
from .conftest import (
    CHROMIUM_WEBRTC_ARGS,
    FIREFOX_WEBRTC_PREFS,
    ROOT,
    STEP_TIMEOUT_MS,
    find_chromium,
    find_firefox,
    serve,
)
from .helpers import answer_question
from .online_fixtures import LOBBY, start_relay, stop_relay
from .online_helpers import Player, firefox_ice_notice, new_player, play, wait_joined

DESKTOP: ViewportSize = {"width": 1280, "height": 800}
PHONE: ViewportSize = {"width": 390, "height": 844}


def lobby(player: Player, name: str) -> Page:
    """Open "Find a game" with ``name``; wait until the relay is up."""
    page = player.page
    page.locator("#open-online").click()
    page.locator("#online-find").click()
    expect(page.locator("#lobby-dialog")).to_be_visible()
    page.locator("#lobby-name").fill(name)
    expect(page.locator("#lobby-relays")).to_have_attribute("data-relays", "up", timeout=STEP_TIMEOUT_MS)
    return page


def signed(player: Player) -> list[str]:
    """The matches of this page's signed results."""
    value: list[str] = player.page.evaluate(
        "() => (JSON.parse(localStorage.getItem('sixty-six.signed-results') || '{}').results || []).map(r => r.match)"
    )
    return value


def shoot(page: Page, folder: Path, name: str) -> None:
    for size, label in ((DESKTOP, "desktop"), (PHONE, "phone")):
        page.set_viewport_size(size)
        page.screenshot(path=str(folder / f"lobby-{name}-{label}-en.png"))
    page.set_viewport_size(DESKTOP)


def leave(player: Player) -> None:
    player.page.locator("#online-leave").click()
    answer_question(player.page, "online-leave")
    player.page.wait_for_function("() => window.__test.online() === null", timeout=STEP_TIMEOUT_MS)


#: Asks the relay for the lobby's offers; prints those still standing (newest of its address, not withdrawn,
#: not expired). Run by the relay's own Python, which has websockets.
STANDING_SCRIPT = r"""
import asyncio, json, sys, time
import websockets

url, tag, kind = sys.argv[1], sys.argv[2], int(sys.argv[3])


async def main():
    async with websockets.connect(url, max_size=None) as ws:
        await ws.send(json.dumps(["REQ", "soak", {"kinds": [kind], "#t": [tag], "limit": 5000}]))
        newest = {}
        while True:
            message = json.loads(await ws.recv())
            if message[0] == "EOSE":
                break
            if message[0] == "EVENT":
                event = message[2]
                tags = {t[0]: t[1] for t in event["tags"] if len(t) > 1}
                address = event["pubkey"] + ":" + tags.get("d", "")
                if address not in newest or newest[address][0]["created_at"] < event["created_at"]:
                    newest[address] = (event, tags)
    now = time.time()
    standing = [
        a for a, (event, tags) in newest.items()
        if tags.get("status") != "withdrawn" and float(tags.get("expiration", "inf")) > now
    ]
    print(json.dumps(standing))


asyncio.run(main())
"""


def standing_offers(relay_url: str) -> list[str]:
    """The addresses of the offers the relay still holds as open (a watcher of the relay, not a page)."""
    done = subprocess.run(
        [str(RELAY_VENV / "bin" / "python"), "-c", STANDING_SCRIPT, relay_url, *LOBBY],
        capture_output=True,
        text=True,
        timeout=60,
        check=True,
    )
    standing: list[str] = json.loads(done.stdout)
    return standing


def launch(p: Playwright, browser: str) -> Browser:
    if browser == "firefox":
        return p.firefox.launch(
            channel="moz-firefox", executable_path=find_firefox(), firefox_user_prefs=FIREFOX_WEBRTC_PREFS
        )
    return p.chromium.launch(
        executable_path=find_chromium(),
        args=["--disable-dev-shm-usage", "--disable-gpu", "--no-first-run", *CHROMIUM_WEBRTC_ARGS],
    )


def soak(games: int, pages: int, seed: int, shots: Path | None, browser_name: str = "chromium") -> dict[str, Any]:
    dist = ROOT / "dist"
    if not (dist / "sw.js").is_file():
        subprocess.run([sys.executable, str(ROOT / "build.py"), "build"], cwd=ROOT, check=True)
    site = serve(dist)
    relay = start_relay(Path(tempfile.mkdtemp(prefix="soak-lobby-")))
    rng = random.Random(seed)
    started = time.monotonic()
    timings: list[float] = []
    matches: list[str] = []
    try:
        with sync_playwright() as p:
            browser = launch(p, browser_name)
            players = [
                new_player(browser, site, relay=relay.url, clock=False, match=("HU24", 1), booted=False)
                for _ in range(pages)
            ]
            for player in players:
                expect(player.page.locator("#table")).to_have_attribute("data-ready", "1", timeout=90_000)
                player.page.set_viewport_size(DESKTOP)
            names = [f"Player {i + 1}" for i in range(pages)]
            for game in range(games):
                first = game % pages
                second = (first + 1 + (game // pages) % (pages - 1)) % pages
                a, b = players[first], players[second]
                page_a = lobby(a, names[first])
                page_a.locator("#lobby-quick").click()
                expect(page_a.locator("#lobby-status")).to_have_attribute("data-state", "open", timeout=STEP_TIMEOUT_MS)
                page_b = lobby(b, names[second])
                expect(page_b.locator("#lobby-tables li", has_text=names[first])).to_have_count(
                    1, timeout=STEP_TIMEOUT_MS
                )
                if shots and game == 0:
                    shots.mkdir(parents=True, exist_ok=True)
                    shoot(page_a, shots, "quick-wait")
                    shoot(page_b, shots, "list")
                clicked = time.perf_counter()
                page_b.locator("#lobby-quick").click()
                try:
                    wait_joined(a, b)
                except Exception:
                    for player, name in ((a, names[first]), (b, names[second])):
                        status = player.page.locator("#lobby-status")
                        rows = player.page.locator("#lobby-tables li").all_inner_texts()
                        print(name, status.get_attribute("data-state"), status.text_content(), rows, file=sys.stderr)
                        print("\n".join(player.console[-10:]), file=sys.stderr)
                    raise
                timings.append(time.perf_counter() - clicked)
                play(a, b, rng)
                status = a.online()["status"]  # type: ignore[index]
                match = status["match"]
                for player in (a, b):
                    player.page.wait_for_function(
                        "match => (JSON.parse(localStorage.getItem('sixty-six.signed-results') || '{}').results"
                        " || []).some(r => r.match === match)",
                        arg=match,
                        timeout=STEP_TIMEOUT_MS,
                    )
                matches.append(match)
                print(
                    f"game {game + 1}: {names[first]} and {names[second]}, dealt in {timings[-1]:.2f} s,"
                    f" {time.monotonic() - started:.0f} s",
                    file=sys.stderr,
                )
                leave(a)
                leave(b)
            kept = [signed(player) for player in players]
            errors = [e for player in players for e in player.errors if not firefox_ice_notice(e)]
            browser.close()
        left = standing_offers(relay.url)  # every page is gone: what it left open would stand
    finally:
        stop_relay(relay)
        site.stop()
    assert not errors, errors
    assert not left, f"offers left on the relay after the last game: {left}"
    # Every match is in the signed results of both its players (two pages each).
    assert all(sum(match in k for k in kept) == 2 for match in matches), (matches, kept)
    ordered = sorted(timings)
    return {
        "browser": browser_name,
        "games": len(matches),
        "offers_left": len(left),
        "pages": pages,
        "matches_signed_by_both": sum(sum(match in k for k in kept) == 2 for match in matches),
        "quick_click_to_both_dealt_s": {
            "median": round(statistics.median(ordered), 2),
            "worst": round(ordered[-1], 2),
            "best": round(ordered[0], 2),
        },
        "wall_s": round(time.monotonic() - started, 1),
        "load_1min": round(os.getloadavg()[0], 1),
    }


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=(__doc__ or "").split("\n\n")[0])
    parser.add_argument("--browser", choices=("chromium", "firefox"), default="chromium")
    parser.add_argument("--games", type=int, default=20)
    parser.add_argument("--pages", type=int, default=4)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--json", type=Path)
    parser.add_argument("--shots", type=Path)
    args = parser.parse_args(argv)
    report = soak(args.games, args.pages, args.seed, args.shots, args.browser)
    text = json.dumps(report, indent=2)
    print(text)
    if args.json:
        args.json.write_text(text + "\n", encoding="utf-8")
    return 0


if __name__ == "__main__":
    sys.exit(main())
