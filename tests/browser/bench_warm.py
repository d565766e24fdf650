"""Warm starts of several built sites, side by side.

``python -m tests.browser.bench_warm [--rounds N] DIST [DIST ...]``

Each DIST is a built site (``dist/`` of some commit, or a copy changed by
hand). Each is served on its own origin (its own service worker, snapshot
and storage) and opened in its own tab of one headless Chromium profile;
after a first visit (the snapshot stored, every file cached), each round
reloads every tab once, in an order that rotates from round to round, and
after each reload waits for the engine's idle work (the computer player's
import, ``data-computer="loaded"``) so that it does not run into the next
(a build from before that hook gets a pause of PAUSE_S instead).

Printed: each site's median warm time-to-playable with its minimum and
first quartile, the ratio of its median to the first site's, and the median
of the per-round ratios (the rounds pair the sites in time, so a machine
that slows down for a while slows all alike). A warm start on two CPUs
varies by 10-20% from round to round: tell a change from noise with 15-20
rounds, and with a site compared with itself (the same DIST twice).
"""

from __future__ import annotations

import argparse
import statistics
import sys
from collections.abc import Sequence
from pathlib import Path

from playwright.sync_api import sync_playwright

from .bench_startup import SITE_INIT, Probe, fresh_profile, serve

#: Seconds to wait after a reload of a build that does not say when its idle work is done.
PAUSE_S = 2.5
#: What the engine worker of a build that says so posts (web/engine/worker.js).
IDLE_NOTICE = 'type: "computer", status: "loaded"'


def says_when_idle(dist: Path) -> bool:
    """Does this build's engine worker say when the computer player is loaded ahead?"""
    return any(IDLE_NOTICE in path.read_text(encoding="utf-8") for path in dist.rglob("worker.js"))


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("dists", nargs="+", type=Path, help="built sites to compare (the first is the reference)")
    parser.add_argument("--rounds", type=int, default=20, help="reloads of each site (default 20)")
    args = parser.parse_args(argv)
    for dist in args.dists:
        if not (dist / "sw.js").is_file():
            parser.error(f"{dist} is not a built site (no sw.js)")
    servers = [serve(dist) for dist in args.dists]
    hooked = [says_when_idle(dist) for dist in args.dists]
    times: list[list[float]] = [[] for _ in args.dists]
    try:
        with sync_playwright() as playwright, fresh_profile(playwright, SITE_INIT) as (context, first):
            pages = [first, *(context.new_page() for _ in args.dists[1:])]
            probes = [Probe(page) for page in pages]

            def settle(i: int) -> None:
                if hooked[i]:
                    probes[i].wait("the computer player", lambda d: d.get("computer") == "loaded")
                else:
                    pages[i].wait_for_timeout(PAUSE_S * 1000)

            for i, (page, probe, server) in enumerate(zip(pages, probes, servers, strict=True)):
                page.goto(server.url, wait_until="commit")
                probe.wait("the first visit", lambda d: d.get("ready") == "1")
                probe.wait("the snapshot", lambda d: d.get("snapshot") == "stored")
                probe.wait("the service worker", lambda d: d.get("sw") == "ready")
                settle(i)
            count = len(pages)
            for round_ in range(args.rounds):
                for k in range(count):
                    i = (k + round_) % count
                    pages[i].bring_to_front()
                    probes[i].new_document()
                    pages[i].reload(wait_until="commit")
                    probes[i].wait("the reload", lambda d: d.get("ready") == "1")
                    if probes[i].data.get("bootMode") != "snapshot":
                        raise RuntimeError(f"{args.dists[i]}: the reload did not boot from the snapshot")
                    times[i].append(float(probes[i].data["bootMs"]))
                    settle(i)
                print(f"round {round_ + 1}/{args.rounds}: " + ", ".join(f"{t[-1]:.0f}" for t in times), flush=True)
    finally:
        for server in servers:
            server.stop()
    reference = statistics.median(times[0])
    print(f"\nWarm time-to-playable, ms, {args.rounds} rounds (the first site is the reference):")
    for dist, values in zip(args.dists, times, strict=True):
        middle = statistics.median(values)
        paired = statistics.median(t / r for t, r in zip(values, times[0], strict=True))
        quartile = statistics.quantiles(values, n=4)[0] if len(values) > 1 else values[0]
        print(
            f"  {dist!s:40} median {middle:6.0f}  min {min(values):6.0f}  p25 {quartile:6.0f}"
            f"  ratio {middle / reference:.3f}  per round {paired:.3f}"
        )
    return 0


if __name__ == "__main__":
    sys.exit(main())
