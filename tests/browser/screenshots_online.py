"""Screenshots of online play: ``python -m tests.browser.screenshots_online [out_dir]``.

Builds dist/ if needed, serves it locally, starts the tests' Nostr relay
(``python tests/run.py setup`` installs it) and, in Debian's Chromium,
brings two pages together as the browser tests do (tests/browser/
online_helpers.py): a host in English with French suits and a guest in
Hungarian with the Tell pattern. Pictures, in docs/screenshots/ (or
``out_dir``): the invitation (link and QR code), the guest's answer code,
the room's rules shown to the guest before joining, a game in progress on
both tables with chat, the host's reconnect screen after the guest's
connection broke, and a room code (a third page, in German).
docs/screens.md shows them.
"""

from __future__ import annotations

import json
import random
import sys
import tempfile
from pathlib import Path

from playwright.sync_api import sync_playwright

import build

from .conftest import CHROMIUM_WEBRTC_ARGS, ROOT, find_chromium, serve
from .online_fixtures import start_relay, stop_relay
from .online_helpers import (
    Player,
    guest_answers,
    host_by_link,
    host_by_room,
    host_connects,
    new_player,
    play,
    wait_joined,
)
from .screenshots import recompress
from .test_online_game import chat


def chosen(language: str, deck: str) -> str:
    """An init script: a returning player who chose this language and card pattern in the settings."""
    settings = json.dumps({"language": language, "deck": deck, "preset": "KLUB20"})
    return f"localStorage.setItem('sixty-six.settings.v1', {json.dumps(settings)})"


def main(argv: list[str]) -> int:
    out = Path(argv[0]) if argv else ROOT / "docs" / "screenshots"
    out.mkdir(parents=True, exist_ok=True)
    if not (build.DIST / "sw.js").is_file():
        build.build()
    site = serve(build.DIST)
    relay = start_relay(Path(tempfile.mkdtemp(prefix="relay-")))

    def shot(player: Player, name: str) -> None:
        assert player.page.evaluate("window.__test.missingKeys()") == [], f"{name}: untranslated text"
        path = out / f"{name}.png"
        path.write_bytes(recompress(player.page.screenshot()))
        print(f"wrote {path}")

    try:
        with sync_playwright() as p:
            browser = p.chromium.launch(
                executable_path=find_chromium(),
                args=["--disable-dev-shm-usage", "--disable-gpu", "--no-first-run", *CHROMIUM_WEBRTC_ARGS],
            )
            players = [
                new_player(browser, site, locale="en-GB", relay=relay.url, init_script=chosen("en", "french")),
                new_player(browser, site, locale="hu-HU", relay=relay.url, init_script=chosen("hu", "tell")),
            ]
            host, guest = players
            link = host_by_link(host, "Anna")
            shot(host, "online-invite-desktop-en-french")
            answer = guest_answers(guest, link, "Béla")
            shot(guest, "online-answer-desktop-hu-tell")
            host_connects(host, answer)
            guest.page.locator("#online-rules").wait_for(state="visible")
            shot(guest, "online-rules-desktop-hu-tell")
            guest.page.locator("#online-accept").click()
            wait_joined(host, guest)
            play(host, guest, random.Random(3), moves=5)
            chat(host, "Good luck, Béla!")
            chat(guest, phrase="good_luck")
            chat(host, phrase="well_played")
            wait_joined(host, guest)
            shot(host, "online-game-desktop-en-french")
            shot(guest, "online-game-desktop-hu-tell")
            guest.page.evaluate("() => window.__test.dropConnection()")
            new_link = host.page.locator("#online-invite-link")
            new_link.wait_for(state="visible")
            host.page.wait_for_function("() => document.querySelector('#online-invite-link').value !== ''")
            shot(host, "online-reconnect-desktop-en-french")
            third = new_player(browser, site, locale="de-DE", relay=relay.url, init_script=chosen("de", "tell"))
            players.append(third)
            host_by_room(third, "Max")
            shot(third, "online-room-desktop-de-tell")
            for player in players:
                assert player.errors == [], player.errors
            browser.close()
    finally:
        stop_relay(relay)
        site.stop()
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
