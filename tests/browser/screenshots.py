"""Take the README screenshots of the table: ``python -m tests.browser.screenshots [out_dir]``.

Builds dist/ if needed, serves it locally, plays a few moves of a fixed deal
in Debian's Chromium and saves desktop and phone (390 x 844) pictures to
docs/screenshots/ (or ``out_dir``).
"""

from __future__ import annotations

import sys
from pathlib import Path

from playwright.sync_api import Page, sync_playwright

from .conftest import BOOT_TIMEOUT_MS, ROOT, find_chromium, serve
from .helpers import do, legal_cards, new_game, open_table, phase

LAUNCH_ARGS = [
    "--disable-dev-shm-usage",
    "--disable-gpu",
    "--disable-background-networking",
    "--disable-component-update",
    "--no-first-run",
]
VIEWPORTS = {
    "desktop": {"width": 1280, "height": 800},
    "phone": {"width": 390, "height": 844},
}
# HU24, you lead; after two tricks the computer leads and you answer.
GAME = {"preset": "HU24", "seed": 2026, "dealer": 1}


def mid_deal(page: Page) -> None:
    new_game(page, **GAME)
    for _ in range(3):
        if phase(page) not in ("open", "closed", "exhausted") or not legal_cards(page):
            break
        do(page, legal_cards(page)[0])


def main(argv: list[str]) -> int:
    out = Path(argv[0]) if argv else ROOT / "docs" / "screenshots"
    out.mkdir(parents=True, exist_ok=True)
    from .conftest import build

    if not (build.DIST / "sw.js").is_file():
        build.build()
    site = serve(build.DIST)
    try:
        with sync_playwright() as p:
            browser = p.chromium.launch(executable_path=find_chromium(), args=LAUNCH_ARGS)
            for name, viewport in VIEWPORTS.items():
                phone = name == "phone"
                context = browser.new_context(
                    viewport=viewport,
                    is_mobile=phone,
                    has_touch=phone,
                    reduced_motion="reduce",
                )
                page = context.new_page()
                page.set_default_timeout(BOOT_TIMEOUT_MS)
                open_table(page, site.url)
                mid_deal(page)
                page.screenshot(path=str(out / f"table-{name}.png"))
                print(f"wrote {out / f'table-{name}.png'}")
                context.close()
            browser.close()
    finally:
        site.stop()
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
