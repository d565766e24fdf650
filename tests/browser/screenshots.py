"""Take the README screenshots of the table: ``python -m tests.browser.screenshots [out_dir]``.

Builds dist/ if needed, serves it locally, plays a few moves of a fixed deal
in Debian's Chromium and saves desktop and phone (390 x 844) pictures to
docs/screenshots/ (or ``out_dir``): the table in English with French suits,
in Hungarian and German with the Hungarian/German (Tell) pattern, the
settings in Romanian and the end of a deal in Polish.
"""

from __future__ import annotations

import json
import sys
from pathlib import Path
from typing import NamedTuple

from playwright.sync_api import Page, expect, sync_playwright

from .conftest import BOOT_TIMEOUT_MS, ROOT, find_chromium, serve
from .helpers import actions, do, legal_cards, new_game, open_table, phase

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


def deal_end(page: Page) -> None:
    """Play the fixed deal to its end: claim once you have 66, else the first card you may play."""
    new_game(page, **GAME)
    for _ in range(40):
        if phase(page) not in ("open", "closed", "exhausted"):
            return
        offered = actions(page)
        if "claim" in offered and page.evaluate("window.__test.view().my_points") >= 66:
            do(page, "claim")
        elif legal_cards(page):
            do(page, legal_cards(page)[0])
        else:
            do(page, "pass" if "pass" in offered else offered[0])


def settings(page: Page) -> None:
    mid_deal(page)
    page.locator("#open-settings").click()
    expect(page.locator("#settings-dialog")).to_be_visible()


class Shot(NamedTuple):
    name: str
    viewport: str
    language: str | None  # None: the browser's (English)
    deck: str | None  # None: the language's usual pattern
    scene: str


SHOTS = (
    Shot("table-desktop", "desktop", None, None, "mid_deal"),
    Shot("table-phone", "phone", None, None, "mid_deal"),
    Shot("table-desktop-hu-tell", "desktop", "hu", "tell", "mid_deal"),
    Shot("table-phone-de-tell", "phone", "de", "tell", "mid_deal"),
    Shot("settings-phone-ro", "phone", "ro", None, "settings"),
    Shot("deal-end-desktop-pl-french", "desktop", "pl", "french", "deal_end"),
)
SCENES = {"mid_deal": mid_deal, "settings": settings, "deal_end": deal_end}


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
            for shot in SHOTS:
                phone = shot.viewport == "phone"
                context = browser.new_context(
                    viewport=VIEWPORTS[shot.viewport],
                    is_mobile=phone,
                    has_touch=phone,
                    reduced_motion="reduce",
                    locale="en-GB",
                )
                # A returning player who chose this language and card pattern in the settings.
                chosen = json.dumps({"language": shot.language, "deck": shot.deck})
                context.add_init_script(f"localStorage.setItem('sixty-six.settings.v1', {json.dumps(chosen)})")
                page = context.new_page()
                page.set_default_timeout(BOOT_TIMEOUT_MS)
                open_table(page, site.url)
                SCENES[shot.scene](page)
                path = out / f"{shot.name}.png"
                page.screenshot(path=str(path))
                print(f"wrote {path}")
                context.close()
            browser.close()
    finally:
        site.stop()
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
