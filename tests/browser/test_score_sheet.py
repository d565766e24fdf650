"""The score sheet: the top bar's score (or "Score sheet" at a deal's end) opens every finished deal and Bummerl.

The sheet is the engine's (``view.sheet``, docs/protocol.md): the page lays it
out from the seat at the bottom. The tests play a few deals quickly (a deal
played out, then resignations: KLUB20 allows them) and compare each line of
the dialog with the view; they open it by mouse and by keyboard, and on
phones (touch) of 390 and 320 px.
"""

from __future__ import annotations

from typing import Any

import pytest
from playwright.sync_api import BrowserContext, Page, expect

from .access import focused
from .conftest import BOOT_TIMEOUT_MS, Site, Watch
from .helpers import actions, do, legal_cards, new_game, open_table, phase, wait_ready
from .test_a11y import assert_fits_a_phone, axe_check
from .test_i18n_deck import words
from .test_table import SCRIPTED_AT20

pytestmark = pytest.mark.browser

SHEET = "#sheet-dialog"
EN = words("en")
# KLUB20 allows resigning (one click ends a deal, 3 game points to the other); two Bummerls to 5.
SESSION = {"preset": "KLUB20", "seed": 3, "dealer": 1, "rules": {"match_target": 5, "session_bummerls": 2}}


def play_out_deal(page: Page) -> None:
    """Play the first legal card until the deal is over."""
    while phase(page) not in ("deal_over", "match_over"):
        do(page, legal_cards(page)[0])


def resign_deal(page: Page) -> None:
    """End the deal by resigning (playing a card until resigning is offered on your turn)."""
    while phase(page) not in ("deal_over", "match_over"):
        do(page, "resign" if "resign" in actions(page) else legal_cards(page)[0])


def play_deals(page: Page, finished: int) -> dict[str, Any]:
    """From a new game of SESSION: one deal played out, then resignations, until ``finished`` deals are over."""
    new_game(page, **SESSION)
    play_out_deal(page)
    while True:
        view: dict[str, Any] = page.evaluate("window.__test.view()")
        if len(view["sheet"]["deals"]) >= finished or view["game_over"]:
            return view
        do(page, "next")
        resign_deal(page)


def reason(deal: dict[str, Any]) -> str:
    text = str(EN["sheet.code." + deal["code"]])
    if deal["basis"] in ("schwarz", "schneider"):
        text += f" ({EN['sheet.basis.' + deal['basis']]})"
    return text


def gain(deal: dict[str, Any], seat: int) -> str:
    if deal["winner"] != seat:
        return ""
    return f"{deal['game_points']} + {deal['carried']}" if deal["carried"] else str(deal["game_points"])


def check_sheet(page: Page, view: dict[str, Any]) -> None:
    """The open dialog shows view.sheet line by line, from seat 0 (you: the first seats' column)."""
    dialog = page.locator(SHEET)
    sheet = view["sheet"]
    rows = dialog.locator("table.sheet-deals tbody tr")
    expect(rows).to_have_count(len(sheet["deals"]))
    for i, deal in enumerate(sheet["deals"]):
        row = rows.nth(i)
        expect(row).to_have_attribute("data-match", str(deal["match"]))
        expect(row).to_have_attribute("data-deal", str(deal["deal"]))
        expect(row).to_have_attribute("data-code", deal["code"])
        winner = "none" if deal["winner"] is None else ("me" if deal["winner"] == 0 else "opp")
        expect(row).to_have_attribute("data-winner", winner)
        cells = row.locator("th, td").all_inner_texts()
        assert cells == [str(deal["deal"]), reason(deal), gain(deal, 0), gain(deal, 1)], (cells, deal)
    # Each match's total: its Bummerl line's score, or the match in play's.
    for table in dialog.locator("table.sheet-deals").all():
        number = int(table.get_attribute("data-match") or 0)
        done = [b for b in sheet["bummerls"] if b["match"] == number]
        scores = done[0]["scores"] if done else view["match"]["scores"]
        total = table.locator("tfoot tr").locator("th, td").all_inner_texts()
        assert total == [EN["sheet.total"], str(scores[0]), str(scores[1])], (total, number)
    bummerls = dialog.locator("#sheet-bummerls tbody tr")
    expect(bummerls).to_have_count(len(sheet["bummerls"]))
    for i, bummerl in enumerate(sheet["bummerls"]):
        cells = bummerls.nth(i).locator("th, td").all_inner_texts()
        winner = EN["seat.you"] if bummerl["winner"] == 0 else EN["seat.computer"]
        assert cells == [str(bummerl["match"]), winner, *map(str, bummerl["scores"])], (cells, bummerl)


def test_the_sheet_lists_every_deal_and_bummerl(site: Site, page: Page, watch: Watch) -> None:
    watch.attach(page)
    open_table(page, site.url)
    # Before any deal ends the sheet says so.
    new_game(page, **SESSION)
    page.locator("#match-score").click()
    expect(page.locator(SHEET)).to_be_visible()
    expect(page.locator("#sheet-empty")).to_have_text(EN["sheet.none"])
    page.locator(f"{SHEET} [data-action='sheet-close']").click()
    expect(page.locator(SHEET)).to_be_hidden()
    # A played deal, then resignations: the first Bummerl is over and the second one is under way.
    view = play_deals(page, 4)
    sheet = view["sheet"]
    assert len(sheet["deals"]) >= 4 and len(sheet["bummerls"]) >= 1
    assert "resigned" in {deal["code"] for deal in sheet["deals"][1:]}
    assert len({deal["match"] for deal in sheet["deals"]}) >= 2
    # From the end-of-deal panel.
    page.locator("#result [data-control='sheet']").click()
    expect(page.locator(SHEET)).to_be_visible()
    check_sheet(page, view)
    expect(page.locator(f"{SHEET} #sheet-bummerls caption")).to_have_text(EN["sheet.matches"])
    won = view["match"]["matches_won"]
    expect(page.locator(f"{SHEET} .sheet-won")).to_have_text(
        EN["result.matchesWon"].format(me=won[0], opp=won[1], target=2)
    )
    axe_check(page, "the score sheet")
    # A click on the backdrop closes it (the window's left edge is outside the dialog).
    page.mouse.click(2, 400)
    expect(page.locator(SHEET)).to_be_hidden()
    # From the top bar, the same sheet; it is rebuilt each time.
    page.locator("#match-score").click()
    check_sheet(page, view)
    assert page.locator(SHEET).count() == 1


def test_the_sheet_by_keyboard(site: Site, page: Page, watch: Watch) -> None:
    watch.attach(page)
    open_table(page, site.url)
    view = play_deals(page, 2)
    # The top bar's score is in the Tab order, just before "New game", and named as the score sheet.
    page.locator("#new-game").focus()
    page.keyboard.press("Shift+Tab")
    assert focused(page)["id"] == "match-score", focused(page)
    name = page.locator("#match-score").evaluate("e => e.textContent")
    assert name.startswith(f"{EN['sheet.title']}: {EN['seat.you']}")
    page.keyboard.press("Enter")
    expect(page.locator(SHEET)).to_be_visible()
    # The focus starts in the dialog on its close button, Tab stays inside, Escape closes and gives it back.
    assert focused(page)["action"] == "sheet-close" and focused(page)["inDialog"]
    for _ in range(5):
        page.keyboard.press("Tab")
        assert focused(page)["inDialog"], focused(page)
    check_sheet(page, view)
    page.keyboard.press("Escape")
    expect(page.locator(SHEET)).to_be_hidden()
    assert focused(page)["id"] == "match-score"
    # Space opens it too; Enter on the close button shuts it.
    page.keyboard.press(" ")
    expect(page.locator(SHEET)).to_be_visible()
    page.keyboard.press("Enter")
    expect(page.locator(SHEET)).to_be_hidden()


def test_the_sheet_fits_a_phone(site: Site, phone_context: BrowserContext, watch: Watch) -> None:
    page = phone_context.new_page()
    watch.attach(page)
    page.set_viewport_size({"width": 390, "height": 844})
    open_table(page, site.url)
    view = play_deals(page, 5)
    for width, height in ((390, 844), (320, 568)):  # one page, turned from phone to smaller phone
        page.set_viewport_size({"width": width, "height": height})
        the_sheet_fits(page, view, width, height)


def the_sheet_fits(page: Page, view: dict[str, Any], width: int, height: int) -> None:
    page.locator("#match-score").click()
    expect(page.locator(SHEET)).to_be_visible()
    check_sheet(page, view)
    box = page.locator(SHEET).bounding_box()
    assert box is not None and box["x"] >= 0 and box["x"] + box["width"] <= width, box
    assert box["y"] >= 0 and box["y"] + box["height"] <= height, box
    wide = page.evaluate(
        f"() => {{ const d = document.querySelector('{SHEET}'); return d.scrollWidth - d.clientWidth; }}"
    )
    assert wide <= 0, f"the sheet is {wide} px wider than its dialog at {width} px"
    # Every cell is inside the dialog (no column cut off), and the close button stays in reach when it scrolls.
    right = page.locator(f"{SHEET} table").evaluate_all(
        "els => Math.max(...els.map(e => e.getBoundingClientRect().right))"
    )
    assert right <= box["x"] + box["width"], right
    page.locator(SHEET).evaluate("d => { d.scrollTop = d.scrollHeight; }")
    close = page.locator(f"{SHEET} [data-action='sheet-close']").bounding_box()
    assert close is not None and close["y"] >= box["y"] - 1 and close["y"] + close["height"] <= box["y"] + box["height"]
    assert_fits_a_phone(page, f"the score sheet at {width} px")
    page.locator(f"{SHEET} [data-action='sheet-close']").click()
    expect(page.locator(SHEET)).to_be_hidden()


def test_the_sheet_keeps_the_sessions_bummerls_across_matches(site: Site, page: Page, watch: Watch) -> None:
    """A match won, a new match (one tap), a match lost: the sheet of the new game still tallies both, as on
    paper; a reload keeps the tally and counts nothing twice."""
    watch.attach(page)
    open_table(page, site.url)
    new_game(page, **SCRIPTED_AT20, rules={"match_target": 1})
    for step in ("exchange", "marry:H", "close", "KH", "AH", "TH", "claim"):
        do(page, step)
    assert phase(page) == "match_over"
    new_game(page, preset="KLUB20", seed=3, dealer=1, rules={"match_target": 1})
    do(page, "resign")
    assert phase(page) == "match_over"

    def tally() -> list[str]:
        page.locator("#match-score").click()
        sheet = page.locator("#sheet-dialog")
        expect(sheet).to_be_visible()
        expect(page.locator("#sheet-tally-won")).to_have_text("Won: you 1, the computer 1")
        rows: list[str] = page.locator("#sheet-tally tbody tr").evaluate_all(
            "rows => rows.map(r => r.dataset.winner + ' ' + r.innerText.replace(/\\s+/g, ' ').trim())"
        )
        page.keyboard.press("Escape")
        expect(sheet).to_have_count(0)
        return rows

    rows = tally()
    assert [row.split(" ")[0] for row in rows] == ["me", "opp"], rows
    assert "Austrian Schnapsen" in rows[0] and rows[0].endswith("You 1 0"), rows
    assert "Snapszer Klub" in rows[1] and rows[1].endswith("Computer 0 1"), rows
    # The reload alone: a navigation on top of it would cancel the requests of its boot, which Firefox reports
    # as a page error ("Failed to load ''. A ServiceWorker intercepted the request ...": ci47).
    page.reload()
    wait_ready(page, BOOT_TIMEOUT_MS)
    assert tally() == rows
