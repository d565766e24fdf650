"""Puzzles: the list and today's puzzle, solving one move by move, a wrong move's refutation, the solution,
progress and rating kept over a reload, a damaged progress entry, a puzzle link opened in a fresh page, the
analysis board after a puzzle, axe on each new view, a reload in the middle of a puzzle (and after a wrong move,
and with the kept attempt damaged), and a puzzle chosen, solved and read with the keyboard alone."""

from __future__ import annotations

import datetime
import json
import re
from collections.abc import Callable
from functools import cache
from typing import Any

import pytest
from playwright.sync_api import BrowserContext, Page, expect

from py_engine.core.actions import action_name
from py_engine.puzzles import catalogue
from py_engine.puzzles.daily import daily_for
from py_engine.puzzles.solving import Session

from .access import focused, press, tab_to
from .conftest import STEP_TIMEOUT_MS, Site, Watch
from .helpers import answer_question, open_table, wait_moved, wait_ready
from .test_a11y import assert_fits_a_phone, axe_check
from .test_layouts import box, hit_by_a_pointer, inside_the_window, shape_context

pytestmark = pytest.mark.browser

TODAY = "2026-03-01"
QUERY = f"?test=1&fast=1&today={TODAY}"
LIST = "#puzzles-dialog"
LINES = "#puzzle-lines-dialog"
BAR = "#puzzle-bar"
PUZZLE_LINK = re.compile(r"#puzzle=1\.[A-Za-z0-9_-]+$")
#: The rules of the test browser's first visit (English): the daily puzzle is of them, the list starts at them.
PLAYERS_RULES = "AT20"


def request(page: Page, payload: dict[str, Any]) -> Any:
    answer = page.evaluate("payload => window.__test.request(payload)", payload)
    assert answer["ok"], answer
    return answer["result"]


def solution_of(page: Page, puzzle_id: str) -> dict[str, Any]:
    """The puzzle's solution, through an attempt of the test's own (closed again)."""
    handle = request(page, {"cmd": "puzzle_open", "puzzle_id": puzzle_id})["puzzle"]
    solution: dict[str, Any] = request(page, {"cmd": "puzzle_solution", "puzzle": handle})["solution"]
    request(page, {"cmd": "puzzle_close", "puzzle": handle})
    return solution


def cheap_puzzles() -> list[catalogue.Puzzle]:
    """Built-in puzzles that the engine answers at once (few worlds), the longest solutions first."""
    found = [p for p in catalogue.builtin() if p.worlds <= 10 and len(p.others) >= 1]
    return sorted(found, key=lambda p: (-sum(1 for _ in p.line), p.id))


def open_list(page: Page) -> None:
    page.locator("#open-puzzles").click()
    expect(page.locator(LIST)).to_have_attribute("data-loaded", "1", timeout=STEP_TIMEOUT_MS)


def choose(page: Page, puzzle_id: str) -> None:
    """Choose a puzzle in the list (shown by its rules); wait until it is on the table and may be played."""
    page.locator("#puzzle-filter-preset").select_option(catalogue.by_id()[puzzle_id].preset)
    page.locator(f"{LIST} button[data-puzzles='open'][data-id='{puzzle_id}']").click()
    expect(page.locator("#table")).to_have_attribute("data-puzzle", puzzle_id)
    wait_ready(page)


def play(page: Page, action: str) -> None:
    """One move of the side, by clicking its card or its button, then wait for the engine's answer."""
    before = int(page.locator("#table").get_attribute("data-step") or "0")
    if action.startswith("play:"):
        page.locator(f"#my-hand [data-card='{action[5:]}']").click()
    else:
        page.locator(f"#actions button[data-action='{action}']").click()
        if action == "claim" and page.evaluate("window.__test.settings().confirmClaim"):
            answer_question(page, "claim")
    wait_moved(page, before)


def press_bar(page: Page, button: str) -> None:
    """Press a button of the puzzle bar: one beside "More", or one in it (More is opened first)."""
    target = page.locator(button)
    if target.evaluate("b => Boolean(b.closest('#puzzle-more'))") and not page.evaluate(
        "document.getElementById('puzzle-more').open"
    ):
        page.locator("#puzzle-more > summary").click()
    target.click()


def available(page: Page, action: str) -> bool:
    if action.startswith("play:"):
        return page.locator(f"#my-hand [data-card='{action[5:]}'][data-legal='1']").count() == 1
    return page.locator(f"#actions button[data-action='{action}']").count() == 1


def solve_along(page: Page, side: int, line: list[dict[str, Any]]) -> int:
    """Play the side's moves of the solution's line as they come up (the engine plays the defence and the forced
    moves); return how many the player made."""
    made = 0
    at = 0
    while page.locator("#table").get_attribute("data-puzzle-state") == "playing":
        mine = [i for i in range(at, len(line)) if line[i]["seat"] == side and available(page, line[i]["action"])]
        assert mine, f"none of the line's moves is offered: {line[at:]}"
        at = mine[0]
        play(page, line[at]["action"])
        expect(page.locator("#puzzle-message")).not_to_be_empty()
        at += 1
        made += 1
    return made


def refute_then_solve(page: Page, wrong: str, check: Callable[[Page, str], None]) -> None:
    """Play ``wrong``; ``check`` its refutation, then the solution, each closed again."""
    play(page, wrong)
    for kind in ("refutation", "solution"):
        if kind == "solution":
            press_bar(page, "#puzzle-give-up")
        expect(page.locator(LINES)).to_have_attribute("data-kind", kind)
        check(page, f"a {kind}")
        page.locator("#puzzle-lines-close").click()


def test_solve_a_puzzle_fail_one_and_keep_the_progress(site: Site, page: Page, watch: Watch) -> None:
    """The story in both browsers: the list, a puzzle solved by clicks, a wrong move refuted, the solution, the
    progress after a reload, and the puzzle's link opened in a fresh page."""
    watch.attach(page)
    open_table(page, site.url, QUERY)
    open_list(page)
    # The list starts at the player's rules, and today's puzzle is of them.
    assert page.evaluate("window.__test.settings().preset") == PLAYERS_RULES
    expect(page.locator("#puzzle-filter-preset")).to_have_value(PLAYERS_RULES)
    own = [p.id for p in catalogue.builtin() if p.preset == PLAYERS_RULES]
    expect(page.locator(f"{LIST} .puzzle-item")).to_have_count(len(own))
    daily = daily_for(TODAY, catalogue.builtin(), PLAYERS_RULES)
    assert daily in own
    expect(page.locator("#puzzle-daily")).to_have_attribute("data-puzzle", daily)
    page.locator("#puzzle-filter-preset").select_option("")
    expect(page.locator(f"{LIST} .puzzle-item")).to_have_count(len(catalogue.builtin()))
    expect(page.locator("#puzzle-daily")).to_have_attribute("data-date", TODAY)

    # Solving move by move along the engine's solution.
    first, second = cheap_puzzles()[:2]
    solution = solution_of(page, first.id)
    choose(page, first.id)
    expect(page.locator(BAR)).to_be_visible()
    expect(page.locator("#puzzle-goal")).not_to_be_empty()
    assert page.locator("#table").get_attribute("data-seat") == str(first.side)
    made = solve_along(page, first.side, solution["lines"][0]["line"])
    assert made >= 1
    expect(page.locator("#table")).to_have_attribute("data-puzzle-state", "solved")
    progress = page.evaluate("window.__test.puzzleProgress()")
    assert progress["puzzles"][first.id]["first"] == "solved"
    assert progress["rating"] > 1500 and progress["streak"] == 1

    # A wrong first move: the refutation, with the loss the engine gave.
    wrong = solution_of(page, second.id)["lines"][1]
    press_bar(page, "#puzzle-all")
    expect(page.locator(LIST)).to_have_attribute("data-loaded", "1", timeout=STEP_TIMEOUT_MS)
    choose(page, second.id)
    play(page, wrong["action"])
    dialog = page.locator(LINES)
    expect(dialog).to_be_visible()
    expect(dialog).to_have_attribute("data-kind", "refutation")
    expect(page.locator("#puzzle-loss")).to_have_attribute("data-loss", str(wrong["loss"]))
    steps = dialog.locator(".puzzle-line li")
    assert steps.count() >= 2
    page.locator("#puzzle-step-next").click()
    expect(dialog.locator(".puzzle-line li[aria-current='step']")).to_have_attribute("data-step", "2")
    page.locator("#puzzle-lines-close").click()
    expect(dialog).to_be_hidden()
    expect(page.locator("#table")).to_have_attribute("data-puzzle-state", "failed")

    # The solution, once it is over: no question, every first move with its value.
    press_bar(page, "#puzzle-give-up")
    expect(dialog).to_have_attribute("data-kind", "solution")
    expect(dialog.locator(".puzzle-solution-line")).to_have_count(1 + len(second.others))
    page.locator("#puzzle-lines-close").click()

    # The link of this puzzle.
    press_bar(page, "#puzzle-copy-link")
    expect(page.locator("#puzzle-link-box")).to_be_visible()
    url = page.locator("#puzzle-link").input_value()
    assert PUZZLE_LINK.search(url), url

    # After a reload the progress is there, in the list too.
    open_table(page, site.url, QUERY)
    open_list(page)
    page.locator("#puzzle-filter-preset").select_option("")
    expect(page.locator(f"{LIST} [data-id='{first.id}']")).to_have_attribute("data-state", "solved")
    expect(page.locator(f"{LIST} [data-id='{second.id}']")).to_have_attribute("data-state", "failed")
    rating = page.locator("[data-puzzle-stat='rating']").inner_text()
    # Rounded as the page rounds (Math.round: halves up), not as Python's round() does.
    assert rating.startswith(str(page.evaluate("Math.round(window.__test.puzzleProgress().rating)")))
    page.locator(f"{LIST} button[data-puzzles='close']").click()

    # The link opens the puzzle in a fresh page (the table is one per browser: this one goes first).
    context = page.context
    page.close()
    fresh = context.new_page()
    watch.attach(fresh)
    fresh.goto(url.replace("#", QUERY + "#"))
    expect(fresh.locator("#table")).to_have_attribute("data-puzzle", second.id, timeout=STEP_TIMEOUT_MS)
    expect(fresh.locator("#table")).to_have_attribute("data-puzzle-state", "playing")
    fresh.close()


@pytest.mark.page_logic
def test_daily_puzzle_damage_board_and_axe(site: Site, page: Page, watch: Watch, context: BrowserContext) -> None:
    """Today's puzzle solved and its run of days, axe on every new view, the analysis board after a puzzle,
    and a damaged progress entry repaired with a notice."""
    watch.attach(page)
    open_table(page, site.url, QUERY)
    open_list(page)
    axe_check(page, "the puzzles list")
    daily = page.locator("#puzzle-daily").get_attribute("data-puzzle")
    assert daily
    puzzle = catalogue.by_id()[daily]
    solution = solution_of(page, daily)
    page.locator("#puzzle-daily button[data-puzzles='daily']").click()
    expect(page.locator("#table")).to_have_attribute("data-puzzle", daily)
    wait_ready(page)
    axe_check(page, "a puzzle being solved")
    # Giving up asks first; "no" keeps the puzzle going.
    press_bar(page, "#puzzle-give-up")
    answer_question(page, "puzzle-solution", yes=False)
    solve_along(page, puzzle.side, solution["lines"][0]["line"])
    expect(page.locator("#table")).to_have_attribute("data-puzzle-state", "solved")
    progress = page.evaluate("window.__test.puzzleProgress()")
    assert progress["daily"]["days"] == {TODAY: "solved"} and progress["daily"]["streak"] == 1

    # The board: the puzzle's deal at its position.
    press_bar(page, "#puzzle-analysis")
    board = page.locator("#analysis-dialog")
    expect(board).to_have_attribute("data-loaded", "1", timeout=STEP_TIMEOUT_MS)
    expect(board).to_have_attribute("data-ply", str(len(puzzle.position.actions)))
    page.locator("#analysis-close").click()

    # A refutation and the solution, scanned.
    other = next(p for p in cheap_puzzles() if p.id != daily)
    wrong = solution_of(page, other.id)["lines"][1]["action"]
    page.evaluate("id => window.__test.openPuzzle(id)", other.id)
    wait_ready(page)
    refute_then_solve(page, wrong, axe_check)

    # The list says today's is solved, and the run of days.
    open_list(page)
    expect(page.locator("#puzzle-daily")).to_have_attribute("data-state", "solved")
    expect(page.locator("#puzzle-daily-run")).to_have_attribute("data-run", "1")
    page.locator(f"{LIST} button[data-puzzles='close']").click()

    # Back to the game: the table is the game's again.
    press_bar(page, "#puzzle-leave")
    wait_ready(page)
    expect(page.locator(BAR)).to_be_hidden()
    assert page.locator("#table").get_attribute("data-mode") == "computer"

    # A damaged entry: repaired, said, and a copy kept.
    page.evaluate(
        """() => {
            const p = JSON.parse(localStorage.getItem("sixty-six.puzzles"));
            p.puzzles["bad id!"] = {first: "maybe"};
            localStorage.setItem("sixty-six.puzzles", JSON.stringify(p));
        }"""
    )
    open_table(page, site.url, QUERY)
    expect(page.locator("#notice")).to_be_visible()
    expect(page.locator("#notice-text")).to_contain_text("puzzles")
    kept = page.evaluate("window.__test.puzzleProgress()")
    assert daily in kept["puzzles"] and "bad id!" not in kept["puzzles"]
    assert page.evaluate("localStorage.getItem('sixty-six.damaged.puzzles')") is not None


def test_the_puzzle_screens_and_the_board_fit_a_phone(site: Site, phone_context: BrowserContext, watch: Watch) -> None:
    """At 360 px: the list, a puzzle on the table, its refutation, its solution and the analysis board after it
    have 44 px touch targets and scroll nowhere sideways (the layout is the browser's: both browsers)."""
    page = phone_context.new_page()
    watch.attach(page)
    open_table(page, site.url, QUERY)
    open_list(page)
    assert_fits_a_phone(page, "the puzzle list")
    puzzle = cheap_puzzles()[1]
    wrong = solution_of(page, puzzle.id)["lines"][1]["action"]
    choose(page, puzzle.id)
    assert_fits_a_phone(page, "a puzzle on the table")
    refute_then_solve(page, wrong, assert_fits_a_phone)
    press_bar(page, "#puzzle-analysis")
    expect(page.locator("#analysis-dialog")).to_have_attribute("data-loaded", "1", timeout=STEP_TIMEOUT_MS)
    assert_fits_a_phone(page, "the analysis board after a puzzle")


def a_puzzle_after_tricks() -> catalogue.Puzzle:
    """A puzzle the engine answers at once, with tricks won by both seats before its position, and a wrong move."""
    for puzzle in cheap_puzzles():
        view = Session(puzzle).view()
        if view["my_tricks"] and view["opponent_tricks"] and len(sent_along(puzzle.id)) >= 2:
            return puzzle
    raise AssertionError("no puzzle fits")


def shown_cards(page: Page, where: str) -> list[str]:
    cards: list[str] = page.locator(f"{where} [data-card]").evaluate_all("els => els.map(e => e.dataset.card)")
    return sorted(cards)


@pytest.mark.parametrize("width,height", [(390, 844), (1440, 900)])
def test_a_puzzle_keeps_the_hand_in_view_and_shows_what_the_side_knows(
    site: Site, request: pytest.FixtureRequest, watch: Watch, browser_name: str, width: int, height: int
) -> None:
    """With the running points hidden by the settings: the points of both seats and both seats' tricks show; the
    bar takes at most 15% of a phone's height and every card of the hand is hit by a pointer at its centre, while
    solving, after a miss and after solving; the main button is none while playing, "Try again" after a miss and
    "Next puzzle" once solved, and the focus lands on it."""
    phone = width < 980
    page = shape_context(request, phone).new_page()
    page.set_viewport_size({"width": width, "height": height})
    watch.attach(page)
    open_table(page, site.url, QUERY)
    page.evaluate("window.__test.setSettings({points: 'hide'})")
    puzzle = a_puzzle_after_tricks()
    wrong = action_name(puzzle.others[0].action)
    where = f"{width}x{height}"
    page.evaluate("id => window.__test.openPuzzle(id)", puzzle.id)
    wait_ready(page)
    page.evaluate("scrollTo(0, 0)")

    view = page.evaluate("window.__test.view()")
    expect(page.locator("#my-points")).to_contain_text(str(view["my_points"]))
    expect(page.locator("#opp-points")).to_contain_text(str(view["opponent_points"]))
    assert shown_cards(page, "#my-tricks") == sorted(c for pair in view["my_tricks"] for c in pair)
    assert shown_cards(page, "#opp-tricks") == sorted(c for pair in view["opponent_tricks"] for c in pair)

    def bar_fits(when: str) -> None:
        bar = page.locator(BAR).bounding_box()
        assert bar is not None
        if phone:
            assert bar["height"] <= 0.15 * height, f"{where}, {when}: the bar is {bar['height']} px high"
        if page.locator("#my-hand .card").count():
            inside_the_window(page, ["#my-hand .card >> nth=0", "#my-hand .card >> nth=-1"], f"{where}, {when}")

    bar_fits("solving")
    hit_by_a_pointer(page, "#my-hand .card", f"{where}, solving")
    expect(page.locator(f"{BAR} .btn-primary")).to_have_count(0)

    play(page, wrong)
    expect(page.locator(LINES)).to_have_attribute("data-kind", "refutation")
    page.keyboard.press("Escape")
    expect(page.locator(LINES)).to_be_hidden()
    page.evaluate("scrollTo(0, 0)")
    expect(page.locator(f"{BAR} .btn-primary")).to_have_attribute("id", "puzzle-retry")
    assert focused(page)["id"] == "puzzle-retry", focused(page)
    bar_fits("after a miss")
    hit_by_a_pointer(page, "#my-hand .card", f"{where}, after a miss")
    hit_by_a_pointer(page, "#puzzle-retry", f"{where}, after a miss")
    # "More" opens above its button, below the top bar: each of its choices is hit by a pointer there
    # (scrolled to within the menu if the menu scrolls), none under the top bar.
    page.locator("#puzzle-more > summary").click()
    menu, top = box(page, ".puzzle-more-body"), box(page, ".topbar")
    assert menu["y"] >= top["y"] + top["height"] - 0.5, f"{where}: More starts under the top bar: {menu}, {top}"
    button = box(page, "#puzzle-more > summary")
    assert menu["y"] + menu["height"] <= button["y"] + 0.5, f"{where}: More covers its own button: {menu}"
    for choice in page.locator(".puzzle-more-body > .btn:visible").all():
        choice.evaluate("b => b.scrollIntoView({block: 'nearest'})")
        assert page.evaluate(
            "b => { const r = b.getBoundingClientRect();"
            " return b.contains(document.elementFromPoint(r.x + r.width / 2, r.y + r.height / 2)); }",
            choice.element_handle(),
        ), f"{where}: More's {choice.inner_text()!r} is hidden"
    page.locator("#puzzle-more > summary").click()

    page.locator("#puzzle-retry").click()
    expect(page.locator("#table")).to_have_attribute("data-puzzle-state", "playing")
    wait_ready(page)
    for action in sent_along(puzzle.id):
        play(page, action)
    expect(page.locator("#table")).to_have_attribute("data-puzzle-state", "solved")
    page.evaluate("scrollTo(0, 0)")
    expect(page.locator(f"{BAR} .btn-primary")).to_have_attribute("id", "puzzle-next")
    assert focused(page)["id"] == "puzzle-next", focused(page)
    bar_fits("solved")
    hit_by_a_pointer(page, "#puzzle-next", f"{where}, solved")
    if page.locator("#my-hand .card").count():
        hit_by_a_pointer(page, "#my-hand .card", f"{where}, solved")


# ------------------------------------------------------------------ a reload


ATTEMPT_KEY = "sixty-six.puzzle-attempt"


@cache
def sent_along(puzzle_id: str) -> tuple[str, ...]:
    """The moves the page sends to solve a puzzle along its stored line (the engine makes the forced ones)."""
    puzzle = catalogue.by_id()[puzzle_id]
    session = Session(puzzle)
    sent: list[str] = []
    while session.status == "playing":
        assert session.on_line is not None
        sent.append(action_name(puzzle.line[session.on_line]))
        session.move(sent[-1])
    return tuple(sent)


def a_cheap_daily_puzzle() -> tuple[str, catalogue.Puzzle]:
    """A date from 2026-03-01 on whose daily puzzle the engine answers at once and takes two moves or more."""
    first = datetime.date.fromisoformat(TODAY)
    for n in range(len(catalogue.builtin())):
        date = (first + datetime.timedelta(days=n)).isoformat()
        puzzle = catalogue.by_id()[daily_for(date, catalogue.builtin(), PLAYERS_RULES)]
        if puzzle.worlds <= 10 and puzzle.others and len(sent_along(puzzle.id)) >= 2:
            return date, puzzle
    raise AssertionError("no daily puzzle fits")


def kept_attempt(page: Page) -> Any:
    return page.evaluate("key => JSON.parse(localStorage.getItem(key))", ATTEMPT_KEY)


def keep_attempt(page: Page, text: str) -> None:
    """Put ``text`` where the page keeps the attempt on the table (as a page that went away left it, or damaged)."""
    page.evaluate("([key, text]) => localStorage.setItem(key, text)", [ATTEMPT_KEY, text])


def progress_of(page: Page) -> dict[str, Any]:
    progress: dict[str, Any] = page.evaluate("window.__test.puzzleProgress()")
    return progress


def the_game(page: Page) -> dict[str, Any]:
    """What identifies the game in play: its hand, trump card, tricks and match (the view as drawn)."""
    view = page.evaluate("window.__test.view()")
    return {key: view[key] for key in ("hand", "trump_card", "tricks_played", "match", "legal")}


def back_on_the_table(page: Page, puzzle_id: str, earlier: str, first: bool) -> None:
    """After a reload: the puzzle is on the table at its position, to be played; ``earlier``: how the attempt before
    the reload stood; ``first``: whether this attempt is still the rated first one."""
    table = page.locator("#table")
    expect(table).to_have_attribute("data-puzzle", puzzle_id)
    expect(table).to_have_attribute("data-puzzle-state", "playing")
    expect(table).to_have_attribute("data-puzzle-first", "1" if first else "0")
    expect(page.locator(BAR)).to_have_attribute("data-resumed", earlier)
    expect(page.locator("#puzzle-message")).not_to_be_empty()
    assert table.get_attribute("data-mode") == "puzzle"


def test_a_reload_brings_the_puzzle_back_and_leaves_the_game_alone(site: Site, page: Page, watch: Watch) -> None:
    """Today's puzzle: a reload after a correct move starts it again at its position, still the first attempt
    and still today's; a wrong move is recorded at once, and the reload after it gives a second attempt; a move
    the page kept but never heard back about is judged after the reload; a damaged or unknown kept attempt
    leaves the game on the table with a notice. The game in play is the same throughout."""
    watch.attach(page)
    date, puzzle = a_cheap_daily_puzzle()
    query = f"?test=1&fast=1&today={date}"
    open_table(page, site.url, query)
    game = the_game(page)
    open_list(page)
    expect(page.locator("#puzzle-daily")).to_have_attribute("data-puzzle", puzzle.id)
    page.locator("#puzzle-daily button[data-puzzles='daily']").click()
    expect(page.locator("#table")).to_have_attribute("data-puzzle", puzzle.id)
    wait_ready(page)
    start = page.evaluate("window.__test.view()")
    sent = sent_along(puzzle.id)
    play(page, sent[0])
    expect(page.locator("#table")).to_have_attribute("data-puzzle-state", "playing")
    assert kept_attempt(page) == {"version": 1, "id": puzzle.id, "daily": date, "moves": [sent[0]]}

    # Reloaded mid-puzzle: the same puzzle at its position, still the first attempt, still today's.
    open_table(page, site.url, query)
    back_on_the_table(page, puzzle.id, "playing", first=True)
    assert page.evaluate("window.__test.view()") == start
    assert progress_of(page)["puzzles"] == {}
    assert kept_attempt(page) == {"version": 1, "id": puzzle.id, "daily": date, "moves": []}

    # A wrong move is recorded before it is shown; the reload after it gives a second attempt, rated no more.
    solution = solution_of(page, puzzle.id)
    play(page, solution["lines"][1]["action"])
    expect(page.locator(LINES)).to_have_attribute("data-kind", "refutation")
    failed = progress_of(page)
    assert failed["puzzles"][puzzle.id]["first"] == "failed" and failed["daily"]["days"] == {date: "failed"}
    open_table(page, site.url, query)
    back_on_the_table(page, puzzle.id, "playing", first=False)
    assert progress_of(page) == failed
    solve_along(page, puzzle.side, solution["lines"][0]["line"])
    expect(page.locator("#table")).to_have_attribute("data-puzzle-state", "solved")
    solved = progress_of(page)
    assert solved["puzzles"][puzzle.id] == {"first": "failed", "solved": True, "tries": 2, "last": date}
    assert (solved["rating"], solved["streak"], solved["daily"]) == (failed["rating"], 0, failed["daily"])

    # The page went away while the engine judged a wrong move (kept before it was sent, never answered): after
    # the reload the engine judges it, and it is the failure it was; the attempt on the table is a second one.
    other = next(p for p in cheap_puzzles() if p.id != puzzle.id)
    wrong = action_name(other.others[0].action)
    keep_attempt(page, json.dumps({"version": 1, "id": other.id, "daily": None, "moves": [wrong]}))
    open_table(page, site.url, query)
    back_on_the_table(page, other.id, "failed", first=False)
    after = progress_of(page)
    assert after["puzzles"][other.id] == {"first": "failed", "solved": False, "tries": 1, "last": date}
    assert after["rating"] < solved["rating"] and after["daily"] == solved["daily"]

    # Damaged, and a puzzle this version does not have: dropped, said, and the game is there as it was.
    unknown = {"version": 1, "id": "at20-0000000", "daily": None, "moves": []}
    for text, why in (("{not an attempt", "damaged"), (json.dumps(unknown), "unknown")):
        keep_attempt(page, text)
        open_table(page, site.url, query)
        expect(page.locator("#table")).to_have_attribute("data-puzzle-dropped", why)
        expect(page.locator("#notice")).to_be_visible()
        expect(page.locator("#notice-text")).not_to_be_empty()
        expect(page.locator(BAR)).to_be_hidden()
        assert page.locator("#table").get_attribute("data-mode") == "computer"
        assert the_game(page) == game
        assert kept_attempt(page) is None
        assert progress_of(page) == after


# ------------------------------------------------------------------ the keyboard alone


def choose_by_keys(page: Page, select: str, value: str) -> None:
    """Change a select with the arrow keys until it shows ``value``."""
    tab_to(page, select)
    for key in ("ArrowDown", "ArrowUp"):
        for _ in range(12):
            if page.locator(select).input_value() == value:
                return
            page.keyboard.press(key)
    raise AssertionError(f"the arrow keys never chose {value!r} in {select}")


def keyboard_puzzle() -> catalogue.Puzzle:
    """A puzzle the engine answers at once whose solution takes action buttons and cards (one or more of each)."""
    for puzzle in sorted(cheap_puzzles(), key=lambda p: p.id):
        sent = sent_along(puzzle.id)
        cards = [a for a in sent if a.startswith("play:")]
        if len(cards) >= 2 and len(cards) < len(sent) and "claim" not in sent:
            return puzzle
    raise AssertionError("no puzzle fits")


def test_a_puzzle_chosen_solved_and_read_with_the_keyboard_alone(site: Site, page: Page, watch: Watch) -> None:
    """No click: Tab to the puzzles button, the filters by arrow keys, Tab to the puzzle and Enter; the cards by
    the hand's arrow keys and Enter, the actions by Shift+Tab and Enter; then the result on the bar, where the
    focus goes, the solution opened and closed again, and back to the game."""
    watch.attach(page)
    puzzle = keyboard_puzzle()
    sent = sent_along(puzzle.id)
    open_table(page, site.url, QUERY)
    tab_to(page, "#open-puzzles")
    page.keyboard.press("Enter")
    expect(page.locator(LIST)).to_have_attribute("data-loaded", "1", timeout=STEP_TIMEOUT_MS)
    assert focused(page)["inDialog"]
    choose_by_keys(page, "#puzzle-filter-preset", puzzle.preset)
    choose_by_keys(page, "#puzzle-filter-band", puzzle.entry()["band"])
    items = page.locator(f"{LIST} .puzzle-item")
    shown = items.evaluate_all("els => els.map(e => e.dataset.id)")
    assert puzzle.id in shown and len(shown) < 40, shown
    tab_to(page, f"{LIST} .puzzle-item[data-id='{puzzle.id}']")
    page.keyboard.press("Enter")
    expect(page.locator("#table")).to_have_attribute("data-puzzle", puzzle.id)
    wait_ready(page)
    # The focus is on a card you may play.
    now = focused(page)
    assert now["inHand"] and now["legal"] == "1", f"the puzzle opened with the focus on {now}"

    for action in sent:
        if action.startswith("play:"):
            card = action[5:]
            tab_to(page, "#my-hand .card")
            page.keyboard.press("Home")
            for _ in range(8):
                if focused(page)["card"] == card:
                    break
                page.keyboard.press("ArrowRight")
            assert focused(page)["card"] == card and focused(page)["legal"] == "1", focused(page)
        else:
            tab_to(page, f"#actions button[data-action='{action}']", key="Shift+Tab")
        press(page, "Enter")
        if action != sent[-1]:
            expect(page.locator("#table")).to_have_attribute("data-puzzle-state", "playing")

    # Solved: said on the bar and aloud, and the focus is on the bar's next step.
    expect(page.locator("#table")).to_have_attribute("data-puzzle-state", "solved")
    expect(page.locator("#puzzle-message")).not_to_be_empty()
    message = page.locator("#puzzle-message").inner_text()
    assert message in page.locator("#announcer p").evaluate_all("els => els.map(e => e.textContent)")
    assert focused(page)["id"] == "puzzle-next", focused(page)
    # The solution, by keys: Enter opens it (the focus in it), Enter on a line's summary folds it, Escape closes.
    tab_to(page, "#puzzle-solution")
    page.keyboard.press("Enter")
    dialog = page.locator(LINES)
    expect(dialog).to_have_attribute("data-kind", "solution")
    expect(dialog.locator(".puzzle-solution-line")).to_have_count(1 + len(puzzle.others))
    assert focused(page)["inDialog"]
    tab_to(page, f"{LINES} .puzzle-solution-line.best summary")
    page.keyboard.press("Enter")
    expect(dialog.locator(".puzzle-solution-line.best")).not_to_have_attribute("open", "")
    page.keyboard.press("Escape")
    expect(dialog).to_be_hidden()
    assert page.evaluate("document.activeElement.closest('#puzzle-bar') !== null"), focused(page)
    # Back to the game by keys: "More" opens by Enter, and its choices follow it in the tab order.
    tab_to(page, "#puzzle-more > summary")
    page.keyboard.press("Enter")
    tab_to(page, "#puzzle-leave")
    page.keyboard.press("Enter")
    expect(page.locator(BAR)).to_be_hidden()
    wait_ready(page)
    assert page.locator("#table").get_attribute("data-mode") == "computer"
