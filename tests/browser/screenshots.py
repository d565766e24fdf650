"""Take the screenshots of every screen: ``python -m tests.browser.screenshots [out_dir] [name ...]``.

Builds dist/ if needed, serves it locally and, in Debian's Chromium, reaches
each screen a player sees with fixed deals (the test hooks of
tests/browser/README.md and the tests' own helpers): the table during a deal
(desktop 1280 x 800, a 390 x 844 phone, the phone held sideways at
844 x 390, and a 2560 x 1440 screen), the end of a deal, the settings
and their custom-rules editor, the help's rules summary and how-to-play,
a tutorial prompt, the statistics after two finished matches, the review of
a finished deal, the analysis board with a variation, a puzzle being solved and a wrong move's refutation,
the score sheet after a few deals, the hand-over screen of
two players on one device, and the computer playing itself. Every screen is taken in two of the six languages,
once with each card pattern (French and the Hungarian/German "Tell"). The pictures go to docs/screenshots/ (or
``out_dir``) as ``<screen>-<viewport>-<language>-<deck>.png``; names after
the folder take only the shots whose name starts with one of them.
docs/screens.md shows them all.
"""

from __future__ import annotations

import json
import struct
import sys
import zlib
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import NamedTuple

from playwright.sync_api import Browser, Page, ViewportSize, expect, sync_playwright

import build

from .conftest import BOOT_TIMEOUT_MS, ROOT, find_chromium, serve
from .helpers import actions, do, legal_cards, new_game, open_table, phase, step_count, wait_ready
from .modes_helpers import SCRIPTED_AT20, set_preferences, take_over, wait_step
from .test_a11y import open_help
from .test_help_rules import choose as choose_rule
from .test_help_rules import open_help_rules, open_rules_editor
from .test_modes import wait_steps, watch_game
from .test_puzzles import cheap_puzzles, choose, open_list, play, solution_of
from .test_records import open_review_from_result
from .test_score_sheet import play_deals
from .test_stats import lose_by_resigning, open_stats, win_scripted_match
from .test_tutorial import expect_step

LAUNCH_ARGS = [
    "--disable-dev-shm-usage",
    "--disable-gpu",
    "--disable-background-networking",
    "--disable-component-update",
    "--no-first-run",
]
VIEWPORTS: dict[str, ViewportSize] = {
    "desktop": {"width": 1280, "height": 800},
    "phone": {"width": 390, "height": 844},
    "landscape": {"width": 844, "height": 390},
    "large": {"width": 2560, "height": 1440},
}
#: The viewports of a phone (touch, mobile).
PHONES = ("phone", "landscape")
# HU24, you lead; after two tricks the computer leads and you answer.
GAME = {"preset": "HU24", "seed": 2026, "dealer": 1}
# The computer against itself: HU24, six cards in each hand.
WATCHED = {"preset": "HU24", "seed": 99, "dealer": 1}
# Two people at one device, by language: the one who leads first, then the other.
PLAYERS = {
    "en": ("Anna", "Ben"),
    "hu": ("Anna", "Béla"),
    "de": ("Anna", "Max"),
    "ro": ("Ana", "Mihai"),
    "pl": ("Anna", "Piotr"),
    "sr": ("Ana", "Marko"),
}


class Shot(NamedTuple):
    """One picture: the screen (a key of ``SCENES``), the viewport, the language and card pattern chosen."""

    screen: str
    viewport: str
    language: str
    deck: str

    @property
    def name(self) -> str:
        return f"{self.screen}-{self.viewport}-{self.language}-{self.deck}"


def mid_deal(page: Page, shot: Shot) -> None:
    """The fixed HU24 deal after a few tricks: the computer has led and you answer."""
    new_game(page, **GAME)
    for _ in range(3):
        if phase(page) not in ("open", "closed", "exhausted") or not legal_cards(page):
            break
        do(page, legal_cards(page)[0])


def deal_end(page: Page, shot: Shot) -> None:
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


def settings(page: Page, shot: Shot) -> None:
    """The settings dialog during a deal, from its top: rules, level, dealer, language, card pattern."""
    mid_deal(page, shot)
    page.locator("#open-settings").click()
    expect(page.locator("#settings-dialog")).to_be_visible()
    page.locator("#settings-dialog").evaluate("el => el.scrollTo(0, 0)")


def rules_editor(page: Page, shot: Shot) -> None:
    """The settings' custom-rules editor open during a deal, with one rule changed (resigning allowed)."""
    mid_deal(page, shot)
    open_rules_editor(page)
    choose_rule(page, "resign", True)
    editor = page.locator("#custom-rules-body")
    expect(editor).to_have_attribute("data-changed", "1")
    expect(editor).to_have_attribute("data-valid", "1")
    page.locator("#custom-rules summary").evaluate("el => el.scrollIntoView({block: 'start'})")


def help_rules(page: Page, shot: Shot) -> None:
    """The help's summary of the rules of the game on the table."""
    mid_deal(page, shot)
    open_help_rules(page)


def howto(page: Page, shot: Shot) -> None:
    """The help's how-to-play."""
    mid_deal(page, shot)
    open_help(page, "howto")


def tutorial(page: Page, shot: Shot) -> None:
    """The tutorial, started from the help: the prompt that asks you to exchange the trump Jack."""
    page.locator("#open-help").click()
    page.locator("[data-action='open-tutorial']").click()
    expect_step(page, "trump")
    page.locator("[data-action='tutorial-next']").click()
    expect_step(page, "open")
    do(page, "AD")
    expect_step(page, "drawn")
    page.locator("[data-action='tutorial-next']").click()
    expect_step(page, "exchange")


def stats(page: Page, shot: Shot) -> None:
    """The statistics after a won and a lost one-deal match: from the top (the rating and its chart) on a
    desktop, from the chart by rules (and the tables below it) on a phone."""
    win_scripted_match(page)
    lose_by_resigning(page)
    open_stats(page)
    expect(page.locator("[data-chart='rating'] .chart-dot")).to_have_count(2)
    if shot.viewport == "phone":
        page.locator("[data-chart='rules']").evaluate("el => el.scrollIntoView({block: 'start'})")
    else:
        page.locator("#stats-dialog").evaluate("el => el.scrollTo(0, 0)")


def score_sheet(page: Page, shot: Shot) -> None:
    """The score sheet of two Bummerls to 5: a deal played out, then resignations, opened from the top bar."""
    play_deals(page, 4)
    page.locator("#match-score").click()
    expect(page.locator("#sheet-dialog")).to_be_visible()


def review(page: Page, shot: Shot) -> None:
    """The review of the fixed deal played to its end, at the first move the computer marks as clearly worse."""
    deal_end(page, shot)
    open_review_from_result(page)
    marked = page.locator("#review-moves li[data-worse='1'] button")
    (marked.first if marked.count() else page.locator("#review-last")).click()


def analysis(page: Page, shot: Shot) -> None:
    """The analysis board on the fixed deal: from the review at its sixth move, another card played, and the reply
    the computer rates best, with the values of the next decision (from what the player to move knew)."""
    deal_end(page, shot)
    open_review_from_result(page)
    for _ in range(6):
        page.locator("#review-next").click()
    page.locator("#review-analyse").click()
    board = page.locator("#analysis-dialog")
    expect(board).to_have_attribute("data-evaluated", "1")
    page.locator("#analysis-options li:not([data-played]) button").first.click()
    expect(board).to_have_attribute("data-main", "0")
    expect(board).to_have_attribute("data-evaluated", "1")
    page.locator("#analysis-options li[data-best='1'] button").first.click()
    expect(board).to_have_attribute("data-ply", "8")
    expect(board).to_have_attribute("data-evaluated", "1")
    page.evaluate("document.activeElement.blur()")


def puzzle(page: Page, shot: Shot) -> None:
    """A puzzle on the table: its goal, themes and difficulty in the bar, after the first move of its solution
    (the first built-in puzzle the tests solve: few worlds, a long solution)."""
    chosen = cheap_puzzles()[0].id
    line = solution_of(page, chosen)["lines"][0]["line"]
    open_list(page)
    choose(page, chosen)
    side = int(page.locator("#table").get_attribute("data-seat") or "0")
    play(page, next(step["action"] for step in line if step["seat"] == side))
    expect(page.locator("#puzzle-message")).not_to_be_empty()


def refutation(page: Page, shot: Shot) -> None:
    """A wrong first move in a puzzle: the refutation with the game points it loses, one step into its line."""
    chosen = cheap_puzzles()[1].id
    wrong = solution_of(page, chosen)["lines"][1]["action"]
    open_list(page)
    choose(page, chosen)
    play(page, wrong)
    expect(page.locator("#puzzle-lines-dialog")).to_have_attribute("data-kind", "refutation")
    page.locator("#puzzle-step-next").click()
    page.evaluate("document.activeElement.blur()")


def handover(page: Page, shot: Shot) -> None:
    """Two players on one device: the first has led, and the device goes to the second (no hand shown)."""
    first, second = PLAYERS[shot.language]
    set_preferences(page, mode="hotseat", names=[first, second], ranked=False)
    new_game(page, **SCRIPTED_AT20)
    take_over(page, 0, first)
    do(page, "AH")
    expect(page.locator("#handover-title")).to_contain_text(second)


def watching(page: Page, shot: Shot) -> None:
    """The computer playing itself, paused a few moves in with a card led: both hands face up and the watch bar."""
    watch_game(page, WATCHED)
    wait_steps(page, step_count(page) + 4)
    page.locator("[data-control='pause']").click()
    expect(page.locator("#table")).to_have_attribute("data-watch-paused", "1")
    wait_ready(page)
    for _ in range(4):  # one move at a time until a card lies on the table
        if page.locator("#trick [data-card]").count() == 1:
            break
        before = step_count(page)
        page.locator("[data-control='step']").click()
        wait_step(page, before)
    expect(page.locator("#watch-bar")).to_be_visible()


SCENES: dict[str, Callable[[Page, Shot], None]] = {
    "table": mid_deal,
    "deal-end": deal_end,
    "settings": settings,
    "rules-editor": rules_editor,
    "help-rules": help_rules,
    "howto": howto,
    "tutorial": tutorial,
    "stats": stats,
    "review": review,
    "analysis": analysis,
    "puzzle": puzzle,
    "refutation": refutation,
    "score-sheet": score_sheet,
    "handover": handover,
    "watch": watching,
}
# Each screen in two languages and once in each card pattern; each language in four or five pictures.
SHOTS = (
    Shot("table", "desktop", "en", "french"),
    Shot("table", "desktop", "hu", "tell"),
    Shot("table", "phone", "de", "tell"),
    Shot("table", "phone", "pl", "french"),
    Shot("table", "landscape", "en", "french"),
    Shot("table", "landscape", "hu", "tell"),
    Shot("table", "large", "de", "tell"),
    Shot("table", "large", "pl", "french"),
    Shot("deal-end", "desktop", "pl", "french"),
    Shot("deal-end", "phone", "sr", "tell"),
    Shot("settings", "phone", "ro", "tell"),
    Shot("settings", "desktop", "hu", "french"),
    Shot("rules-editor", "desktop", "en", "french"),
    Shot("rules-editor", "phone", "pl", "tell"),
    Shot("help-rules", "desktop", "de", "tell"),
    Shot("help-rules", "phone", "sr", "french"),
    Shot("howto", "desktop", "ro", "tell"),
    Shot("howto", "phone", "hu", "tell"),
    Shot("tutorial", "desktop", "en", "french"),
    Shot("tutorial", "phone", "hu", "tell"),
    Shot("stats", "desktop", "pl", "french"),
    Shot("stats", "phone", "de", "tell"),
    Shot("review", "desktop", "de", "tell"),
    Shot("review", "phone", "ro", "french"),
    Shot("analysis", "desktop", "en", "french"),
    Shot("analysis", "phone", "hu", "tell"),
    Shot("puzzle", "desktop", "de", "french"),
    Shot("puzzle", "phone", "hu", "tell"),
    Shot("refutation", "desktop", "en", "tell"),
    Shot("refutation", "phone", "pl", "french"),
    Shot("score-sheet", "desktop", "hu", "french"),
    Shot("score-sheet", "phone", "en", "tell"),
    Shot("handover", "desktop", "ro", "tell"),
    Shot("handover", "phone", "sr", "french"),
    Shot("watch", "desktop", "sr", "tell"),
    Shot("watch", "phone", "en", "french"),
)


def recompress(png: bytes) -> bytes:
    """The same PNG with its image data deflated at zlib's highest level: lossless, and about a seventh smaller."""
    out, data, pos = [png[:8]], bytearray(), 8
    while pos < len(png):
        (length,) = struct.unpack(">I", png[pos : pos + 4])
        kind, end = png[pos + 4 : pos + 8], pos + 12 + length
        if kind == b"IDAT":
            data += png[pos + 8 : pos + 8 + length]
        else:
            if kind == b"IEND":
                packed = b"IDAT" + zlib.compress(zlib.decompress(data), 9)
                out.append(struct.pack(">I", len(packed) - 4) + packed + struct.pack(">I", zlib.crc32(packed)))
            out.append(png[pos:end])
        pos = end
    return b"".join(out)


@contextmanager
def chromium() -> Iterator[Browser]:
    """Debian's Chromium as the screenshots take it, closed afterwards."""
    with sync_playwright() as p:
        browser = p.chromium.launch(executable_path=find_chromium(), args=LAUNCH_ARGS)
        try:
            yield browser
        finally:
            browser.close()


def main(argv: list[str]) -> int:
    out = Path(argv[0]) if argv else ROOT / "docs" / "screenshots"
    wanted = tuple(argv[1:])
    out.mkdir(parents=True, exist_ok=True)
    if not (build.DIST / "sw.js").is_file():
        build.build()
    site = serve(build.DIST)
    try:
        with chromium() as browser:
            for shot in SHOTS:
                if wanted and not shot.name.startswith(wanted):
                    continue
                phone = shot.viewport in PHONES
                context = browser.new_context(
                    viewport=VIEWPORTS[shot.viewport],
                    is_mobile=phone,
                    has_touch=phone,
                    reduced_motion="reduce",
                    locale="en-GB",
                )
                # A returning player who chose this language and card pattern (and GAME's rules) in the settings.
                chosen = json.dumps({"language": shot.language, "deck": shot.deck, "preset": GAME["preset"]})
                context.add_init_script(f"localStorage.setItem('sixty-six.settings.v1', {json.dumps(chosen)})")
                page = context.new_page()
                page.set_default_timeout(BOOT_TIMEOUT_MS)
                open_table(page, site.url)
                SCENES[shot.screen](page, shot)
                assert page.evaluate("window.__test.missingKeys()") == [], f"{shot.name}: untranslated text"
                path = out / f"{shot.name}.png"
                path.write_bytes(recompress(page.screenshot()))
                print(f"wrote {path}")
                context.close()
    finally:
        site.stop()
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
