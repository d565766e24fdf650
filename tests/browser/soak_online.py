"""Online soak: two pages of the built site play many whole deals over one data channel.

``python -m tests.browser.soak_online [--deals 50] [--seed 1] [--think-ms 0] [--json FILE]``

Two Chromium contexts (Debian's Chromium, as in the browser tests) meet by
invitation link and answer code over the loopback interface, with no STUN
server, and play random legal moves in the test mode (no pauses between
moves, so the figures are the channel's, the engines' and the drawing's),
with a rematch whenever a match ends, until ``--deals`` deals are over.
``--think-ms``: each move waits that long first, as a player thinks (the
pages then shuffle the next pack in their idle time, as in real play).

It checks that nothing was lost or duplicated: every message one side sent
was received by the other (the channel numbers each one and closes on a gap
or a repeat, so a lost or repeated message would end the run), both signed
transcripts hold the same links, no page logged an error or refused a
message, and every finished match ended in one result both signed. It times
each of the guest's card clicks: from the click event until the card is
drawn in the trick on both tables (``performance.timeOrigin`` + the event's
time stamp, against a MutationObserver on ``#trick`` in each page; one
browser, one clock), and the wait between deals (the last card of a deal
drawn until the next deal's hand is drawn, on the guest's page), and prints
the median, the 90th percentile and the worst.
"""

from __future__ import annotations

import argparse
import json
import os
import random
import statistics
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

from playwright.sync_api import sync_playwright

from .conftest import CHROMIUM_WEBRTC_ARGS, ROOT, find_chromium, serve
from .online_helpers import Player, agree, connect_by_link, move, new_player, wait_change

#: Each page notes its card clicks in its own hand and when each card is drawn in the trick (epoch ms).
TIMING_SCRIPT = """
window.__soak = { clicks: [], shown: [], results: [] };
const now = () => performance.timeOrigin + performance.now();
document.addEventListener("click", (event) => {
  const card = event.target instanceof Element && event.target.closest("#my-hand [data-card]");
  if (card) window.__soak.clicks.push([card.dataset.card, performance.timeOrigin + event.timeStamp]);
}, true);
const drawn = new WeakSet();
new MutationObserver(() => {
  for (const card of document.querySelectorAll("#trick [data-card]")) {
    if (drawn.has(card)) continue;
    drawn.add(card);
    window.__soak.shown.push([card.dataset.card, now()]);
  }
  const result = document.getElementById("result");
  const over = Boolean(result && !result.hidden);
  const matchOver = Boolean(window.__test && window.__test.view() && window.__test.view().game_over);
  if (over !== window.__soak.over) window.__soak.results.push([over, now(), matchOver]);
  window.__soak.over = over;
}).observe(document, { subtree: true, childList: true, attributes: true, attributeFilter: ["hidden"] });
"""


def deal_over(player: Player) -> bool:
    view = player.view()
    return bool(view and view["deal_result"] is not None)


def latencies(guest: dict[str, Any], host: dict[str, Any]) -> list[float]:
    """For each guest click on a card: ms until that card was drawn in the trick on both tables."""
    out = []
    for card, at in guest["clicks"]:
        times = []
        for page in (guest, host):
            later = [t for c, t in page["shown"] if c == card and t >= at]
            if later:
                times.append(min(later))
        if len(times) == 2:
            out.append(max(times) - at)
    return out


def between_deals(page: dict[str, Any]) -> list[float]:
    """ms from a deal's end shown (its result panel) to the next deal drawn (the panel gone), within a match (a
    rematch waits for both players' clicks)."""
    out = []
    since = None
    for over, at, match_over in page["results"]:
        if over:
            since = None if match_over else at
        elif since is not None:
            out.append(at - since)
            since = None
    return out


def summary(times: list[float]) -> dict[str, float]:
    ordered = sorted(times)
    return {
        "median": round(statistics.median(times), 1),
        "p90": round(ordered[int(0.9 * (len(ordered) - 1))], 1),
        "worst": round(ordered[-1], 1),
    }


def soak(deals: int, seed: int, think_ms: int = 0) -> dict[str, Any]:
    dist = ROOT / "dist"
    if not (dist / "sw.js").is_file():
        subprocess.run([sys.executable, str(ROOT / "build.py"), "build"], cwd=ROOT, check=True)
    site = serve(dist)
    rng = random.Random(seed)
    started = time.monotonic()
    try:
        with sync_playwright() as p:
            browser = p.chromium.launch(
                executable_path=find_chromium(),
                args=["--disable-dev-shm-usage", "--disable-gpu", "--no-first-run", *CHROMIUM_WEBRTC_ARGS],
            )
            host = new_player(browser, site, clock=False, init_script=TIMING_SCRIPT)
            guest = new_player(browser, site, locale="de-DE", clock=False, init_script=TIMING_SCRIPT)
            connect_by_link(host, guest)
            done = 0
            was_over = False
            moves = 0
            state = agree(host, guest)
            results = []
            while done < deals:
                view = host.view()
                assert view is not None
                if view["game_over"]:
                    for player in (host, guest):
                        player.page.wait_for_function("() => window.__test.online().status.result !== null")
                    results.append([p.online()["status"]["result"] for p in (host, guest)])  # type: ignore[index]
                    guest.page.locator("#online-rematch").click()
                    host.page.locator("#online-rematch").click()
                    state = agree(host, guest, state)
                    continue
                if think_ms:
                    time.sleep(think_ms / 1000)
                if not (move(host, rng) or move(guest, rng)):
                    state = wait_change(host, guest, state)
                    continue
                moves += 1
                state = agree(host, guest, state)
                over = deal_over(host)
                if over and not was_over:
                    done += 1
                    print(f"deal {done}: {moves} moves, {time.monotonic() - started:.1f} s", file=sys.stderr)
                was_over = over
            # Quiet channel: every message sent has been received, both ways.
            deadline = time.monotonic() + 30
            while True:
                h, g = host.online(), guest.online()
                assert h and g
                if h["counts"]["sent"] == g["counts"]["received"] and g["counts"]["sent"] == h["counts"]["received"]:
                    break
                assert time.monotonic() < deadline, (h["counts"], g["counts"])
                time.sleep(0.05)
            assert host.errors == [] and guest.errors == [], host.errors + guest.errors
            assert g["problems"] == [] and h["problems"] == [], g["problems"] + h["problems"]
            assert all(a == b and a is not None for a, b in results), results
            times = latencies(guest.page.evaluate("window.__soak"), host.page.evaluate("window.__soak"))
            waits = between_deals(guest.page.evaluate("window.__soak"))
            browser.close()
    finally:
        site.stop()
    return {
        "deals": done,
        "moves": moves,
        "messages": {"host": h["counts"], "guest": g["counts"]},
        "matches_signed_by_both": len(results),
        "guest_clicks_timed": len(times),
        "click_to_both_tables_ms": summary(times),
        "between_deals_ms": summary(waits),
        "think_ms": think_ms,
        "wall_s": round(time.monotonic() - started, 1),
        "load_1min": round(os.getloadavg()[0], 1),
    }


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--deals", type=int, default=50)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--think-ms", type=int, default=0)
    parser.add_argument("--json", type=Path)
    args = parser.parse_args(argv)
    report = soak(args.deals, args.seed, args.think_ms)
    text = json.dumps(report, indent=2)
    print(text)
    if args.json:
        args.json.write_text(text + "\n", encoding="utf-8")
    return 0


if __name__ == "__main__":
    sys.exit(main())
