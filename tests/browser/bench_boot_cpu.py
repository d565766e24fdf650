"""What a first visit and a warm boot cost in CPU in Chromium, with and without the tests' WebAssembly settings.

``python -m tests.browser.bench_boot_cpu [--rounds N] [--boots N]``
``python -m tests.browser.bench_boot_cpu --against OTHER_DIST [--browser firefox] [--rounds N] [--boots N]``

Each round launches Chromium once per variant, as the browser tests do (conftest.py), pays one first visit in
a new context (``warmed_up``: the snapshot stored, the service worker ready) and then ``--boots`` warm boots:
a new page to a loaded computer player, closed and wiped (``forget_the_player``). The CPU of every process
and thread on the machine is read from ``/proc`` around each part (tests/browser/cpu_by_thread.py), so run it
with nothing else running. The variants, in an order that rotates from round to round:

- ``tests``: the tests' settings: Liftoff only (CHROMIUM_WASM_BASELINE_ONLY), the engine's code held by the
  parked page (HOLD_THE_ENGINE_CODE);
- ``tier-up``: V8's own tiering (Liftoff, then TurboFan for hot functions), the code held;
- ``not held``: Liftoff only, the parked page holding nothing;
- ``neither``: V8's own tiering, nothing held (the tests before these settings).

With ``--against``, the variants are two builds instead, both launched as the tests launch the browser
(``conftest.launch_options``, Chromium or Firefox): ``dist`` (this tree's ``dist/``) and ``against`` (another
build, say a worktree's at the commit before), each served by its own server.

Printed: each variant's median CPU of a first visit and of a warm boot, with the medians' ratios to the
first variant's. These are boots only; what the settings save over the whole Chromium suite is in
tests/browser/README.md.
"""

from __future__ import annotations

import argparse
import statistics
import time
from collections.abc import Callable
from pathlib import Path

from playwright.sync_api import Browser, BrowserContext, Playwright, sync_playwright

import build

from . import conftest
from .conftest import Site, find_chromium, serve, visit_and_wipe, warmed_up
from .cpu_by_thread import Readings

VARIANTS = {
    "tests": (True, True),
    "tier-up": (False, True),
    "not held": (True, False),
    "neither": (False, False),
}


def cpu_of(action: Callable[[], object]) -> float:
    """The CPU seconds every process on the machine spent while ``action`` ran."""
    readings = Readings()
    readings.read(before_start=True)
    action()
    readings.read()
    by_kind, _ = readings.seconds()
    return sum(by_kind.values())


def launch(playwright: Playwright, *, baseline_only: bool) -> Browser:
    args = [
        "--disable-dev-shm-usage",
        "--disable-gpu",
        "--no-first-run",
        *conftest.CHROMIUM_ONE_PROCESS_PER_SITE,
        *(conftest.CHROMIUM_WASM_BASELINE_ONLY if baseline_only else []),
    ]
    return playwright.chromium.launch(executable_path=find_chromium(), args=args)


def warm_boot(context: BrowserContext, site: Site) -> None:
    visit_and_wipe(context, site, {"data-ready": "1", "data-computer": "loaded"})


def one_round(playwright: Playwright, site: Site, variant: str, boots: int) -> tuple[float, float]:
    """(CPU of the first visit, median CPU of a warm boot) of ``variant``, in a browser of its own."""
    baseline_only, held = VARIANTS[variant]
    hold = conftest.HOLD_THE_ENGINE_CODE
    try:
        if not held:
            conftest.HOLD_THE_ENGINE_CODE = "() => {}"
        return boots_of(launch(playwright, baseline_only=baseline_only), site, boots)
    finally:
        conftest.HOLD_THE_ENGINE_CODE = hold


def boots_of(browser: Browser, site: Site, boots: int) -> tuple[float, float]:
    """(CPU of the first visit, median CPU of a warm boot) of ``site`` in a new context of ``browser``, closed
    after."""
    try:
        context = browser.new_context()
        first = cpu_of(lambda: warmed_up(context, site))
        time.sleep(1)  # the first visit's idle work (the snapshot's write) ends before the boots are read
        each = [cpu_of(lambda: warm_boot(context, site)) for _ in range(boots)]
        conftest.PARKED.pop(context, None)
        return first, statistics.median(each)
    finally:
        browser.close()


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0] if __doc__ else None)
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument("--boots", type=int, default=6)
    parser.add_argument("--against", type=Path, help="another build's dist/: compare the two builds")
    parser.add_argument("--browser", choices=("chromium", "firefox"), default="chromium", help="with --against")
    args = parser.parse_args()
    for dist in (build.DIST, *([args.against] if args.against else [])):
        if not (dist / "sw.js").is_file():
            raise SystemExit(f"{dist} holds no build: python build.py build")
    sites = {"dist": serve(build.DIST), **({"against": serve(args.against)} if args.against else {})}
    names = list(sites) if args.against else list(VARIANTS)
    firsts: dict[str, list[float]] = {name: [] for name in names}
    warms: dict[str, list[float]] = {name: [] for name in names}
    try:
        with sync_playwright() as playwright:
            for r in range(args.rounds):
                for name in names[r % len(names) :] + names[: r % len(names)]:
                    if args.against:
                        browser_type = getattr(playwright, args.browser)
                        browser = browser_type.launch(**conftest.launch_options(args.browser, {}))
                        first, warm = boots_of(browser, sites[name], args.boots)
                    else:
                        first, warm = one_round(playwright, sites["dist"], name, args.boots)
                    firsts[name].append(first)
                    warms[name].append(warm)
                    print(f"round {r + 1} {name:>9}: first visit {first:5.2f} s, warm boot {warm:5.2f} s of CPU")
    finally:
        for site in sites.values():
            site.stop()
    reference = names[0]
    where = f"{args.browser}, {build.DIST} against {args.against}" if args.against else "chromium"
    print(f"\nmedians of {args.rounds} rounds ({args.boots} warm boots a round), CPU of every process ({where}):")
    for name in names:
        first, warm = statistics.median(firsts[name]), statistics.median(warms[name])
        first_ratio = first / statistics.median(firsts[reference])
        warm_ratio = warm / statistics.median(warms[reference])
        ratios = f"first visit {first:5.2f} s ({first_ratio:4.2f}x), warm boot {warm:5.2f} s ({warm_ratio:4.2f}x)"
        print(f"  {name:>9}: {ratios}")


if __name__ == "__main__":
    main()
