"""Pace benchmark: from a card click to your next chance to act, against level 5 at the default pace.

``python -m tests.browser.bench_pace [--moves N] [--runs N] [--reference DIST] [--no-build] [--json FILE]``

Plays ``--moves`` of your moves (the first legal card each time; a finished deal is
followed by the next, not timed) on a new profile in headless Chromium, in the
page's normal mode (level 5 with its 1 s budget, the default pace: no test mode),
``--runs`` times. Each cycle is timed in the page, from the click's event time
until the table is next playable for you (``#table[data-ready=1]`` with you to
act, or the deal over); *searching* is the time the page waited for
``table_computer`` answers within the cycle. ``--reference DIST`` (a ``dist/``
built from another commit) runs the same moves there, alternating with this
build's runs, so that the load of the machine hits both alike; medians, the worst
cycle and the share spent searching are printed side by side.
"""

from __future__ import annotations

import argparse
import json
import statistics
import subprocess
import sys
import time
from collections.abc import Sequence
from pathlib import Path
from typing import Any

from playwright.sync_api import Page, Playwright, sync_playwright

from .bench_startup import SETTINGS_KEY, fresh_profile, serve

ROOT = Path(__file__).resolve().parents[2]
SETTINGS = {"preset": "AT20", "level": 5, "dealer": "computer", "points": "auto"}
TIMEOUT_MS = 60_000

# Before the page's own scripts: the settings, and a record of every cycle (click → your turn again)
# with the time spent waiting for the computer's search within it.
PACE_PROBE = f"""
(() => {{
  try {{
    localStorage.setItem({json.dumps(SETTINGS_KEY)}, {json.dumps(json.dumps(SETTINGS))});
    localStorage.setItem("sixty-six.tutorial", "offered"); // no first-visit offer over the table
  }} catch {{}}
  const pace = {{ cycles: [], open: null, searching: new Map() }};
  window.__pace = pace;
  const NativeWorker = window.Worker;
  window.Worker = class extends NativeWorker {{
    constructor(...args) {{
      super(...args);
      this.addEventListener("message", (event) => {{
        const asked = pace.searching.get(event.data && event.data.id);
        if (asked === undefined || event.data.type !== "response") return;
        pace.searching.delete(event.data.id);
        if (!pace.open) return;
        const ms = performance.now() - asked.sent;
        if (asked.cmd === "table_computer") pace.open.search += ms;
        else pace.open.engine += ms;
      }});
    }}
    postMessage(message, ...rest) {{
      if (message && message.id !== undefined) {{
        const cmd = message.payload && message.payload.cmd ? message.payload.cmd : message.type;
        pace.searching.set(message.id, {{ cmd, sent: performance.now() }});
      }}
      return super.postMessage(message, ...rest);
    }}
  }};
  document.addEventListener("click", (event) => {{
    if (!event.target.closest || !event.target.closest("#my-hand")) return;
    pace.open = {{ click: event.timeStamp, search: 0, engine: 0 }};
  }}, true);
  document.addEventListener("DOMContentLoaded", () => {{
    const table = document.getElementById("table");
    new MutationObserver(() => {{
      const d = table.dataset;
      const yours = d.toAct === d.seat || d.phase === "deal_over" || d.phase === "match_over";
      if (!pace.open || d.ready !== "1" || !yours) return;
      const {{ click, search, engine }} = pace.open;
      pace.cycles.push({{ ms: performance.now() - click, search, engine }});
      pace.open = null;
    }}).observe(table, {{ attributes: true }});
  }});
}})();
"""


def play(page: Page, moves: int) -> list[dict[str, float]]:
    """Your next ``moves`` moves (first legal card), each cycle as the page timed it."""
    table = page.locator("#table")
    table.wait_for(state="attached")
    page.wait_for_function("() => document.querySelector('#table').dataset.ready === '1'", timeout=TIMEOUT_MS * 3)
    while page.evaluate("window.__pace.cycles.length") < moves:
        # A card if you have one to play, else the button that goes on (the next deal, a new match).
        page.locator(
            "#my-hand .card[data-legal='1'], #table button[data-action='next'], #table button[data-action='new-game']"
        ).first.click()
        if page.locator("#confirm-dialog[open]").count():
            page.locator("[data-action='confirm-yes']").click()
        page.wait_for_function(
            """() => {
              const d = document.querySelector('#table').dataset;
              return window.__pace.open === null && d.ready === '1'
                && (d.toAct === d.seat || d.phase === 'deal_over' || d.phase === 'match_over');
            }""",
            timeout=TIMEOUT_MS,
        )
    cycles: list[dict[str, float]] = page.evaluate("window.__pace.cycles")
    return cycles[:moves]


def run_once(playwright: Playwright, url: str, moves: int) -> list[dict[str, float]]:
    with fresh_profile(playwright, PACE_PROBE) as (_context, page):
        errors: list[str] = []
        page.on("pageerror", lambda error: errors.append(str(error)))
        page.goto(url)
        cycles = play(page, moves)
        if errors:
            raise RuntimeError(f"the page failed: {errors}")
        return cycles


def summary(cycles: Sequence[dict[str, float]]) -> dict[str, float]:
    times = [c["ms"] for c in cycles]
    search = [c["search"] for c in cycles]
    over = [c["ms"] - c["search"] for c in cycles]
    return {
        "cycles": len(times),
        "median_s": statistics.median(times) / 1000,
        "worst_s": max(times) / 1000,
        "median_search_s": statistics.median(search) / 1000,
        "search_share": sum(search) / sum(times),
        "median_beyond_search_s": statistics.median(over) / 1000,
        "median_other_engine_s": statistics.median(c["engine"] for c in cycles) / 1000,
        "worst_beyond_search_s": max(over) / 1000,
    }


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--moves", type=int, default=12, help="your moves timed per run")
    parser.add_argument("--runs", type=int, default=3)
    parser.add_argument("--reference", type=Path, help="a dist/ of another commit, run alternately")
    parser.add_argument("--no-build", action="store_true")
    parser.add_argument("--json", type=Path)
    args = parser.parse_args(argv)
    if not args.no_build:
        subprocess.run([sys.executable, str(ROOT / "build.py"), "build"], cwd=ROOT, check=True)
    sites = {"this build": ROOT / "dist"}
    if args.reference:
        sites["reference"] = args.reference
    servers = {name: serve(path) for name, path in sites.items()}
    results: dict[str, list[dict[str, float]]] = {name: [] for name in sites}
    started = time.perf_counter()
    try:
        with sync_playwright() as playwright:
            for run in range(args.runs):
                for name, server in servers.items():
                    cycles = run_once(playwright, server.url, args.moves)
                    results[name] += cycles
                    s = summary(cycles)
                    print(
                        f"run {run + 1} {name}: median {s['median_s']:.2f} s, worst {s['worst_s']:.2f} s,"
                        f" searching {100 * s['search_share']:.0f}% ({time.perf_counter() - started:.0f} s)",
                        flush=True,
                    )
    finally:
        for server in servers.values():
            server.stop()
    report: dict[str, Any] = {name: summary(cycles) for name, cycles in results.items()}
    print(f"\nclick → your next chance to act, level 5 at the default pace ({args.runs} runs × {args.moves} moves):")
    for name, s in report.items():
        print(
            f"  {name:10}: median {s['median_s']:.2f} s, worst {s['worst_s']:.2f} s;"
            f" searching {100 * s['search_share']:.0f}% (median {s['median_search_s']:.2f} s);"
            f" beyond the search: median {s['median_beyond_search_s']:.2f} s, worst {s['worst_beyond_search_s']:.2f} s"
            f" (other engine calls: median {s['median_other_engine_s']:.2f} s)"
        )
    if "reference" in report:
        ratio = report["this build"]["median_s"] / report["reference"]["median_s"]
        print(f"  ratio of medians (this build / reference): {ratio:.2f}")
    if args.json:
        args.json.write_text(json.dumps(report, indent=2) + "\n")
    return 0


if __name__ == "__main__":
    sys.exit(main())
