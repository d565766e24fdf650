"""Costly steps ask first: a claim (button and key), resigning, abandoning a match; the settings close unsaved."""

from __future__ import annotations

import re
from typing import Any

import pytest
from playwright.sync_api import Page, expect

from .conftest import STEP_TIMEOUT_MS, Site, Watch
from .helpers import (
    CONFIRM,
    actions,
    answer_question,
    do,
    new_game,
    open_table,
    phase,
    step_count,
    table_data,
    wait_ready,
)
from .test_a11y import axe_check
from .test_table import OVER, SCRIPTED_AT20

pytestmark = pytest.mark.browser

SETTINGS = "#settings-dialog"


def engine_view(page: Page) -> dict[str, Any]:
    """The game in play as the engine has it now (asked without the page's help)."""
    answer: dict[str, Any] = page.evaluate(
        "() => window.__test.request({cmd: 'table_show', table: window.__test.game()})"
    )
    assert answer["ok"], answer
    view: dict[str, Any] = answer["result"]["view"]
    return view


def to_the_claim(page: Page) -> None:
    """The scripted AT20 deal up to the point where you hold 66 and may claim."""
    new_game(page, **SCRIPTED_AT20)
    for move in ("exchange", "marry:H", "close", "KH", "AH", "TH"):
        do(page, move)
    assert "claim" in actions(page)


def expect_question(page: Page, ask: str) -> None:
    """The question ``ask`` is open, and says no number (no points) but the game's name, 66."""
    expect(page.locator(CONFIRM)).to_be_visible()
    expect(page.locator(CONFIRM)).to_have_attribute("data-ask", ask)
    question = page.locator("#confirm-question").inner_text()
    assert question and not re.search(r"\d", question.replace("66", "")), question


def expect_unchanged(page: Page, step: int, view: dict[str, Any]) -> None:
    expect(page.locator(CONFIRM)).to_be_hidden()
    wait_ready(page)
    assert step_count(page) == step
    assert engine_view(page) == view


def test_a_claim_asks_first_by_button_and_key(site: Site, page: Page, watch: Watch) -> None:
    watch.attach(page)
    open_table(page, site.url)
    to_the_claim(page)
    step, view = step_count(page), engine_view(page)

    # The button asks; no changes nothing.
    page.locator("#actions [data-action='claim']").click()
    expect_question(page, "claim")
    expect(page.locator("[data-action='confirm-no']")).to_be_focused()  # Enter alone does nothing costly
    axe_check(page, "the question before a claim")
    answer_question(page, "claim", yes=False)
    expect_unchanged(page, step, view)
    # The key asks too; Escape and a click beside the question answer no.
    page.locator("body").focus()
    page.keyboard.press("a")
    expect_question(page, "claim")
    page.keyboard.press("Tab")
    page.keyboard.press("Tab")
    expect(page.locator("[data-action='confirm-no']")).to_be_focused()  # Tab stays in the question
    page.keyboard.press("Escape")
    expect_unchanged(page, step, view)
    page.locator("#actions [data-action='claim']").click()
    expect_question(page, "claim")
    page.mouse.click(5, 5)
    expect_unchanged(page, step, view)
    # Yes claims.
    page.locator("#actions [data-action='claim']").click()
    answer_question(page, "claim")
    page.wait_for_function("step => Number(document.querySelector('#table').dataset.step) > step", arg=step)
    wait_ready(page)
    assert phase(page) in OVER
    expect(page.locator("#result .result-title")).to_have_text("You win the deal")

    # Switched off in the settings (and remembered), a claim is made at once.
    page.locator("#open-settings").click()
    expect(page.locator("#setting-confirm-claim")).to_be_checked()
    page.locator("#setting-confirm-claim").uncheck()
    page.locator("[data-action='settings-save']").click()
    expect(page.locator(SETTINGS)).to_be_hidden()
    stored = page.evaluate("() => JSON.parse(localStorage.getItem('sixty-six.settings.v1')).confirmClaim")
    assert stored is False
    to_the_claim(page)
    do(page, "claim")  # no question: do() would wait for its answer in vain
    expect(page.locator(CONFIRM)).to_be_hidden()
    assert phase(page) in OVER


def test_resigning_and_abandoning_a_match_ask_first(site: Site, page: Page, watch: Watch) -> None:
    watch.attach(page)
    open_table(page, site.url)
    # The top bar's "new game" opens the settings on their prominent button: a match not begun yet
    # (no trick taken) is left without a question.
    step = step_count(page)
    page.locator("#new-game").click()
    start = page.locator("[data-action='settings-new-game']")
    expect(start).to_be_focused()
    page.keyboard.press("Enter")
    expect(page.locator(SETTINGS)).to_be_hidden()
    page.wait_for_function("step => Number(document.querySelector('#table').dataset.step) > step", arg=step)
    wait_ready(page)
    expect(page.locator(CONFIRM)).to_be_hidden()

    # Once a trick is taken, it asks; no keeps the match.
    new_game(page, **SCRIPTED_AT20)
    do(page, "AH")
    game, step, view = page.evaluate("window.__test.game()"), step_count(page), engine_view(page)
    page.locator("#new-game").click()
    expect(start).to_be_focused()
    page.keyboard.press("Enter")
    expect_question(page, "abandon")
    answer_question(page, "abandon", yes=False)
    expect(page.locator(SETTINGS)).to_be_visible()  # back in the settings, nothing lost
    page.locator("[data-action='settings-cancel']").click()
    expect(page.locator(SETTINGS)).to_be_hidden()
    expect_unchanged(page, step, view)
    assert page.evaluate("window.__test.game()") == game

    # Other rules with a new game ask too; no, then Escape: nothing saved, the match goes on.
    page.locator("#open-settings").click()
    expect(page.locator("#setting-preset option")).to_have_count(8)
    page.select_option("#setting-preset", "DE24")
    start.click()
    answer_question(page, "abandon", yes=False)
    page.keyboard.press("Escape")
    expect(page.locator(SETTINGS)).to_be_hidden()
    expect_unchanged(page, step, view)
    assert page.evaluate("window.__test.settings().preset") == "AT20"
    # So does the tutorial from the help.
    page.locator("#open-help").click()
    page.locator("[data-action='open-tutorial']").click()
    answer_question(page, "abandon", yes=False)
    expect_unchanged(page, step, view)
    # Yes starts the new rules.
    page.locator("#open-settings").click()
    expect(page.locator("#setting-preset")).to_have_value("AT20")
    page.select_option("#setting-preset", "DE24")
    start.click()
    answer_question(page, "abandon")
    page.wait_for_function("() => window.__test.view()?.rules.id === 'DE24'", timeout=STEP_TIMEOUT_MS)
    wait_ready(page)

    # Resigning asks; no changes nothing, yes resigns.
    new_game(page, preset="KLUB20", seed=3, dealer=1, match=False)
    step, view = step_count(page), engine_view(page)
    page.locator("#actions [data-action='resign']").click()
    expect_question(page, "resign")
    answer_question(page, "resign", yes=False)
    expect_unchanged(page, step, view)
    do(page, "resign")
    expect(page.locator("#result")).to_have_attribute("data-code", "resigned")
    # A game that is over is left without a question.
    assert table_data(page)["gameOver"] == "1"
    page.locator("#result [data-action='new-game']").click()
    expect(page.locator(CONFIRM)).to_be_hidden()
    expect(page.locator("#table")).to_have_attribute("data-game-over", "0", timeout=STEP_TIMEOUT_MS)


def test_the_settings_close_unsaved_by_cancel_escape_and_backdrop(site: Site, page: Page, watch: Watch) -> None:
    watch.attach(page)
    open_table(page, site.url)
    before = page.evaluate("window.__test.settings()")
    level = page.locator("#setting-level")
    for way in ("cancel", "escape", "backdrop"):
        page.locator("#open-settings").click()
        expect(page.locator("#setting-preset option")).to_have_count(8)
        expect(level).to_have_value(str(before["level"]))
        level.select_option("5")
        page.select_option("#setting-preset", "HU24")
        page.locator("#setting-confirm-claim").uncheck()
        if way == "cancel":
            page.locator("[data-action='settings-cancel']").click()
        elif way == "escape":
            page.keyboard.press("Escape")
        else:
            page.mouse.click(5, 5)
        expect(page.locator(SETTINGS)).to_be_hidden()
        assert page.evaluate("window.__test.settings()") == before, way
    # Saved, they are kept.
    page.locator("#open-settings").click()
    expect(level).to_have_value(str(before["level"]))
    level.select_option("5")
    page.locator("[data-action='settings-save']").click()
    expect(page.locator(SETTINGS)).to_be_hidden()
    assert page.evaluate("window.__test.settings().level") == 5
