"""Issue 32's items before and after: ``python -m tests.browser.screenshots_compare BEFORE AFTER OUT [item ...]``.

BEFORE and AFTER are two built sites (the ``dist/`` of the commit before the
fixes and of the commit after them). Each is served locally; for each item of
``SHOTS`` the same screen is reached in both, in Debian's Chromium, at the
screen size and in the language where the issue saw the problem, through the
test hooks and the browser tests' own helpers (as ``screenshots.py`` does).
Each picture is a fresh browser (a first visit), and goes to OUT as
``<item>-before.jpg`` and ``<item>-after.jpg`` (JPEG, quality 80). Names after
OUT take only the items whose names start with one of them.
docs/phone-and-puzzles.md shows them side by side.

A step the older page does not have (a hook, a button) is reached as close as
possible and reported on the console; a screen that cannot be reached at all
is reported and the others go on (the exit status is then 1).
"""

from __future__ import annotations

import json
import sys
from collections.abc import Callable
from pathlib import Path
from typing import NamedTuple

from playwright.sync_api import Browser, Page, ViewportSize, expect

from py_engine.core.actions import action_name
from py_engine.puzzles import catalogue

from .conftest import BOOT_TIMEOUT_MS, STEP_TIMEOUT_MS, TEST_QUERY, serve
from .helpers import do, legal_cards, new_game, open_table, phase, wait_ready
from .screenshots import Shot as Screen
from .screenshots import chromium
from .screenshots import tutorial as tutorial_prompt
from .test_a11y import finish_scripted_deal
from .test_layouts import YOU_LEAD, play_a_card
from .test_puzzles import LINES, QUERY, a_puzzle_after_tricks, open_list, play, sent_along
from .test_records import open_review_from_result, play_scripted_deal
from .test_stats import level_one_matches, open_stats
from .test_table import SCRIPTED_AT20
from .test_tutorial import OFFER_QUERY

PHONE: ViewportSize = {"width": 390, "height": 844}
SIDEWAYS: ViewportSize = {"width": 844, "height": 390}
DESKTOP: ViewportSize = {"width": 1440, "height": 900}
LARGE: ViewportSize = {"width": 2560, "height": 1440}
#: The moves of the scripted AT20 deal (you lead): exchange, marriage, close, three tricks and the claim.
SCRIPTED_MOVES = ("exchange", "marry:H", "close", "KH", "AH", "TH", "claim")
SETTINGS_KEY = "sixty-six.settings.v1"
#: A date whose daily puzzle was, for everyone before the fix, one of the Romanian 24-card rules.
DAILY_QUERY = f"{TEST_QUERY}&today=2026-03-16"
#: A saved game the engine refuses to restore (as test_table's damaged save).
DAMAGE_THE_SAVE = """() => new Promise((resolve, reject) => {
  const open = indexedDB.open('sixty-six', 1);
  open.onsuccess = () => {
    const tx = open.result.transaction('saves', 'readwrite');
    tx.objectStore('saves').put({record: {format: 'py_engine/record', version: 1, deals: 'garbage'}}, 'current');
    tx.oncomplete = () => { open.result.close(); resolve(); };
    tx.onerror = () => reject(tx.error);
  };
  open.onerror = () => reject(open.error);
})"""


class Shot(NamedTuple):
    """One item's screen: how it is reached, at which size, in which language (browser locale and settings)."""

    name: str
    viewport: ViewportSize
    scene: Callable[[Page, str], None]
    settings: dict[str, str] | None = None  # a returning player's settings; None: a first visit
    locale: str = "en-GB"
    query: str = TEST_QUERY


def differs(what: str) -> None:
    """Say that the older page was reached another way than the newer one."""
    print(f"  note: {what}")


# ------------------------------------------------------------------ item 1: the end of a deal


def deal_end(page: Page, url: str) -> None:
    """The scripted AT20 deal to its end (a close judged at closing: the longest explanation)."""
    finish_scripted_deal(page)


# ------------------------------------------------------------------ items 2-4: puzzles


def open_puzzle(page: Page) -> catalogue.Puzzle:
    """The tests' puzzle with tricks won by both sides before its position, opened by its id (as a link would)."""
    puzzle = a_puzzle_after_tricks()
    page.evaluate("id => window.__test.openPuzzle(id)", puzzle.id)
    expect(page.locator("#table")).to_have_attribute("data-puzzle", puzzle.id)
    wait_ready(page)
    page.evaluate("scrollTo(0, 0)")
    return puzzle


def puzzle_start(page: Page, url: str) -> None:
    """The puzzle before a move, with the default points setting."""
    open_puzzle(page)


def puzzle_miss(page: Page, url: str) -> None:
    """The puzzle after a wrong first move (a new browser's first attempt): the refutation closed, the bar shown."""
    puzzle = open_puzzle(page)
    play(page, action_name(puzzle.others[0].action))
    expect(page.locator(LINES)).to_have_attribute("data-kind", "refutation")
    page.locator("#puzzle-lines-close").click()
    expect(page.locator(LINES)).to_be_hidden()
    page.evaluate("document.activeElement.blur(); scrollTo(0, 0)")


def puzzle_solved(page: Page, url: str) -> None:
    """The puzzle solved along the engine's solution."""
    puzzle = open_puzzle(page)
    for action in sent_along(puzzle.id):
        play(page, action)
    expect(page.locator("#table")).to_have_attribute("data-puzzle-state", "solved")
    page.evaluate("document.activeElement.blur(); scrollTo(0, 0)")


def tutorial_guide(page: Page, url: str) -> None:
    """The tutorial's prompt to exchange the trump Jack (as in screenshots.py)."""
    tutorial_prompt(page, Screen("tutorial", "desktop", "en", "french"))
    page.evaluate("scrollTo(0, 0)")


# ------------------------------------------------------------------ item 5: the daily puzzle


def puzzle_list(page: Page, url: str) -> None:
    """The list of puzzles as it opens: today's puzzle at its top, the rules filter."""
    open_list(page)


# ------------------------------------------------------------------ item 6: statistics and the score sheet


def stats_opened(page: Page, url: str) -> None:
    """The statistics of six level-1 matches, as they open."""
    page.evaluate("data => localStorage.setItem('sixty-six.stats', JSON.stringify(data))", level_one_matches(6))
    open_stats(page)
    expect(page.locator("[data-chart='rating'] .chart-dot")).to_have_count(6)


def stats_chart(page: Page, url: str) -> None:
    """The same statistics, the rating chart brought into view."""
    stats_opened(page, url)
    page.locator("[data-chart='rating']").evaluate("el => el.scrollIntoView({block: 'center'})")
    page.evaluate("document.activeElement.blur()")


def sheet_after_new_match(page: Page, url: str) -> None:
    """A one-deal match won, a new match resigned, then the score sheet (test_score_sheet's story)."""
    new_game(page, **SCRIPTED_AT20, rules={"match_target": 1})
    for move in SCRIPTED_MOVES:
        do(page, move)
    new_game(page, preset="KLUB20", seed=3, dealer=1, rules={"match_target": 1})
    do(page, "resign")
    assert phase(page) == "match_over"
    page.locator("#match-score").click()
    expect(page.locator("#sheet-dialog")).to_be_visible()


# ------------------------------------------------------------------ item 8: a newcomer


def newcomer(page: Page, url: str) -> None:
    """A first visit's HU24 deal (66 claimed by hand), one card played."""
    new_game(page, preset="HU24", seed=5, dealer=1)
    do(page, legal_cards(page)[0])


# ------------------------------------------------------------------ item 9: wording and layout


def analysis_at(page: Page, step: str) -> None:
    """The scripted deal's analysis board, from its review at ``step`` (``first``: after one move, ``claim``: just
    before the claim)."""
    play_scripted_deal(page)
    open_review_from_result(page)
    if step == "first":
        page.locator("#review-next").click()
    else:
        page.locator("#review-last").click()
        page.locator("#review-prev").click()
    page.locator("#review-analyse").click()
    expect(page.locator("#analysis-dialog")).to_have_attribute("data-evaluated", "1", timeout=4 * STEP_TIMEOUT_MS)
    page.evaluate("document.activeElement.blur()")


def analysis_first(page: Page, url: str) -> None:
    analysis_at(page, "first")


def analysis_claim(page: Page, url: str) -> None:
    analysis_at(page, "claim")
    page.locator("#analysis-options").evaluate("el => el.scrollIntoView({block: 'center'})")


def tutorial_offer(page: Page, url: str) -> None:
    """The first visit's offer of the tutorial, which names the rules chosen by the browser's language."""
    expect(page.locator("#tutorial-offer")).to_be_visible(timeout=STEP_TIMEOUT_MS)
    page.evaluate("document.activeElement.blur()")


def damaged_save(page: Page, url: str) -> None:
    """A saved game the engine refuses, found at the next visit: the notice."""
    page.evaluate(DAMAGE_THE_SAVE)
    page.reload()
    wait_ready(page, BOOT_TIMEOUT_MS)
    expect(page.locator("#notice")).to_be_visible()


def settings_open(page: Page, url: str) -> None:
    """The settings dialog during a deal, from its top."""
    new_game(page, **YOU_LEAD)
    page.locator("#open-settings").click()
    expect(page.locator("#settings-dialog")).to_be_visible()
    page.locator("#settings-dialog").evaluate("el => el.scrollTo(0, 0)")
    page.evaluate("document.activeElement.blur()")


def large_table(page: Page, url: str) -> None:
    """A deal on a large screen, one trick taken (a last trick to show)."""
    new_game(page, **YOU_LEAD)
    play_a_card(page)


def notice_over_hand(page: Page, url: str) -> None:
    """Damaged statistics said in a notice at the top of the table (as test_layouts does)."""
    page.goto(url + "icon.svg")  # a document of the site where no game runs (that might save over it)
    page.evaluate("localStorage.setItem('sixty-six.stats', '{damaged')")
    open_table(page, url)
    expect(page.locator("#notice")).to_be_visible()
    page.evaluate("scrollTo(0, 0)")


def new_after_match(page: Page, url: str) -> None:
    """A one-deal match won, then one tap on the top bar's New: what it opens."""
    new_game(page, **SCRIPTED_AT20, rules={"match_target": 1})
    for move in SCRIPTED_MOVES:
        do(page, move)
    assert phase(page) == "match_over"
    page.locator("#new-game").click()
    page.wait_for_function(
        """() => { const t = document.getElementById('table').dataset;
        return document.getElementById('settings-dialog')?.open
          || (t.phase !== 'match_over' && t.ready === '1'); }""",
        timeout=STEP_TIMEOUT_MS,
    )
    if page.locator("#settings-dialog").is_visible():
        differs("New opened the settings (the tap of the picture), not a new match")
    page.evaluate("document.activeElement.blur()")


EN = {"language": "en", "deck": "french", "preset": "AT20"}
#: An Austrian player: German, the Tell pattern, Austrian Schnapsen.
AUSTRIAN = {"language": "de", "deck": "tell", "preset": "AT20"}
SHOTS = (
    Shot("deal-end-phone", PHONE, deal_end, EN),
    Shot("deal-end-sideways", SIDEWAYS, deal_end, EN),
    Shot("puzzle-phone-start", PHONE, puzzle_start, EN, query=QUERY),
    Shot("puzzle-rating-miss", DESKTOP, puzzle_miss, EN, query=QUERY),
    Shot("puzzle-phone-miss", PHONE, puzzle_miss, EN, query=QUERY),
    Shot("puzzle-desktop-solved", DESKTOP, puzzle_solved, EN, query=QUERY),
    Shot("tutorial-desktop", DESKTOP, tutorial_guide, EN),
    Shot("daily-austrian", DESKTOP, puzzle_list, AUSTRIAN, query=DAILY_QUERY),
    Shot("stats-opened", PHONE, stats_opened, EN),
    Shot("stats-chart", DESKTOP, stats_chart, EN),
    Shot("sheet-new-match", DESKTOP, sheet_after_new_match, EN),
    Shot("newcomer-points", DESKTOP, newcomer, EN),
    Shot("review-you-knew", DESKTOP, analysis_first, EN),
    Shot("rules-name-de", DESKTOP, tutorial_offer, None, locale="de-DE", query=OFFER_QUERY),
    Shot("article-hu", DESKTOP, tutorial_offer, None, locale="hu-HU", query=OFFER_QUERY),
    Shot("claim-66", DESKTOP, analysis_claim, EN),
    Shot("damaged-save", DESKTOP, damaged_save, EN),
    Shot("settings-phone-ro", PHONE, settings_open, {"language": "ro", "deck": "french", "preset": "RO24"}),
    Shot("settings-phone-de", PHONE, settings_open, {"language": "de", "deck": "french", "preset": "DE24"}),
    Shot("top-bar-large", LARGE, large_table, EN),
    Shot("notice-over-hand", PHONE, notice_over_hand, EN),
    Shot("new-after-match", DESKTOP, new_after_match, EN),
)


def settled(page: Page) -> None:
    """Wait until the service worker has cached the site for offline play (a download cut short by the screen's
    first steps would say so in a notice of its own); once more after a reload if it was cut short."""
    for _ in range(2):
        page.wait_for_function(
            "() => ['ready', 'failed'].includes(document.getElementById('table').dataset.sw)", timeout=BOOT_TIMEOUT_MS
        )
        if page.locator("#table").get_attribute("data-sw") == "ready":
            return
        page.reload()
        wait_ready(page, BOOT_TIMEOUT_MS)
    differs("the offline cache was not complete")


def take(browser: Browser, url: str, shot: Shot, path: Path) -> None:
    """Reach ``shot``'s screen on the site at ``url`` in a fresh browser context and save it as ``path``."""
    phone = shot.viewport["width"] < 980
    context = browser.new_context(
        viewport=shot.viewport, is_mobile=phone, has_touch=phone, reduced_motion="reduce", locale=shot.locale
    )
    try:
        if shot.settings is not None:
            chosen = json.dumps(shot.settings)
            context.add_init_script(f"localStorage.setItem({json.dumps(SETTINGS_KEY)}, {json.dumps(chosen)})")
        page = context.new_page()
        page.set_default_timeout(STEP_TIMEOUT_MS)
        open_table(page, url, shot.query)
        settled(page)
        shot.scene(page, url)
        page.screenshot(path=str(path), type="jpeg", quality=80)
    finally:
        context.close()


def main(argv: list[str]) -> int:
    if len(argv) < 3:
        print(__doc__)
        return 2
    builds = {"before": Path(argv[0]), "after": Path(argv[1])}
    out = Path(argv[2])
    wanted = tuple(argv[3:])
    out.mkdir(parents=True, exist_ok=True)
    sites = {when: serve(directory) for when, directory in builds.items()}
    failed: list[str] = []
    try:
        with chromium() as browser:
            for shot in SHOTS:
                if wanted and not shot.name.startswith(wanted):
                    continue
                for when, site in sites.items():
                    path = out / f"{shot.name}-{when}.jpg"
                    print(f"{shot.name} ({when})", flush=True)
                    try:
                        take(browser, site.url, shot, path)
                    except Exception as error:  # one screen that cannot be reached: the rest go on
                        failed.append(f"{path.name}: {type(error).__name__}: {str(error).splitlines()[0]}")
                        print(f"  failed: {failed[-1]}", flush=True)
                    else:
                        print(f"  wrote {path}", flush=True)
    finally:
        for site in sites.values():
            site.stop()
    for line in failed:
        print(f"not taken: {line}")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
