"""Ways to play in the browser: two players on one device, watching the computer, undo, hints, the ranked switch."""

from __future__ import annotations

import re
from typing import Any

import pytest
from playwright.sync_api import Page, expect

from .conftest import BOOT_TIMEOUT_MS, STEP_TIMEOUT_MS, Site, Watch
from .helpers import (
    TABLE,
    Oracle,
    actions,
    answer_question,
    check_no_leak,
    do,
    dom_cards,
    legal_cards,
    messages,
    new_game,
    open_table,
    phase,
    step_count,
    table_data,
    wait_ready,
)
from .modes_helpers import (
    SCRIPTED_AT20,
    assert_no_hand_shown,
    check_messages,
    hand,
    known,
    meta,
    my_hand,
    set_preferences,
    take_over,
    talon,
    wait_step,
)

pytestmark = pytest.mark.browser

NAMES = ["Anna", "Béla"]


def start_hotseat(page: Page, options: dict[str, Any]) -> tuple[Oracle, int]:
    set_preferences(page, mode="hotseat", names=NAMES, ranked=False)
    start = new_game(page, **options)
    return Oracle(options), start


@pytest.mark.page_logic
def test_hotseat_hand_over_hides_the_previous_hand(site: Site, page: Page, watch: Watch) -> None:
    watch.attach(page)
    open_table(page, site.url)
    oracle, start = start_hotseat(page, SCRIPTED_AT20)
    assert meta(page)["mode"] == "hotseat"
    # A new deal opens on the hand-over screen for the player who leads (seat 0, Anna): no hand shown yet.
    expect(page.locator("#handover-title")).to_contain_text("Anna")
    check_messages(messages(page, start), oracle)
    assert_no_hand_shown(page, oracle)
    take_over(page, 0, "Anna")
    assert my_hand(page) == hand(oracle, 0)
    assert not dom_cards(page) & hand(oracle, 1), "Anna sees Béla's cards"
    expect(page.locator(".seat-me .seat-name")).to_have_text("Anna")
    expect(page.locator(".seat-opponent .seat-name")).to_have_text("Béla")

    do(page, "AH")  # Anna leads; Béla is next
    check_messages(messages(page, start), oracle)
    expect(page.locator("#handover-title")).to_contain_text("Béla")
    assert_no_hand_shown(page, oracle)
    expect(page.locator("#trick [data-card='AH']")).to_be_visible()  # what is on the table stays

    take_over(page, 1, "Béla")
    check_messages(messages(page, start), oracle)
    assert my_hand(page) == hand(oracle, 1)
    assert not dom_cards(page) & hand(oracle, 0), "Béla sees Anna's cards"
    expect(page.locator(".seat-me .seat-name")).to_have_text("Béla")
    assert set(legal_cards(page)) == {"AC", "TC", "KC", "QC", "JC"}  # no heart to follow: anything goes

    do(page, "JC")  # Anna wins the trick and leads again: the device goes back to her
    check_messages(messages(page, start), oracle)
    expect(page.locator("#handover-title")).to_contain_text("Anna")
    assert_no_hand_shown(page, oracle)
    take_over(page, 0, "Anna")
    assert my_hand(page) == hand(oracle, 0)
    assert not dom_cards(page) & hand(oracle, 1)

    # A reload keeps the game, the names and the privacy: back on the hand-over screen.
    do(page, "TH")
    page.reload()
    wait_ready(page, BOOT_TIMEOUT_MS)
    assert meta(page)["names"] == NAMES
    expect(page.locator("#handover-title")).to_contain_text("Béla")
    oracle.follow([{"type": "play", "seat": 0, "card": "TH"}])
    assert_no_hand_shown(page, oracle)
    take_over(page, 1, "Béla")
    assert my_hand(page) == hand(oracle, 1)


@pytest.mark.page_logic
def test_hotseat_plays_a_whole_deal_without_revealing_a_hand(site: Site, page: Page, watch: Watch) -> None:
    watch.attach(page)
    open_table(page, site.url)
    options = {"preset": "HU24", "seed": 4242, "dealer": 0}
    oracle, start = start_hotseat(page, options)
    moves = claims = 0
    while phase(page) not in ("deal_over", "match_over"):
        if table_data(page)["handover"] == "1":
            assert_no_hand_shown(page, oracle)
            # The player handing over may still claim 66 exactly while the engine lets them.
            handing_over = 1 - int(table_data(page)["handoverSeat"])
            may_claim = "claim" in oracle.legal_of(handing_over)
            claim = page.locator("[data-control='handover-claim']")
            expect(claim).to_be_visible() if may_claim else expect(claim).to_be_hidden()
            claims += may_claim
            seat = int(table_data(page)["handoverSeat"])
            take_over(page, seat, NAMES[seat])
            other_claim = page.locator("[data-control='other-claim']")
            if page.evaluate("window.__test.may()")["claim_for_other"]:
                expect(other_claim).to_be_visible()
                expect(other_claim).to_contain_text(NAMES[1 - seat])
                claims += 1
            else:
                expect(other_claim).to_be_hidden()
        seat = int(table_data(page)["seat"])
        assert my_hand(page) == hand(oracle, seat)
        assert not dom_cards(page) & (hand(oracle, 1 - seat) - known(oracle, 1 - seat))
        cards = legal_cards(page)
        offered = actions(page)
        choice = cards[0] if cards else ("pass" if "pass" in offered else next(a for a in offered if a != "next"))
        do(page, choice)
        check_messages(messages(page, start), oracle)
        moves += 1
        assert moves < 60, "the deal does not end"
    assert oracle.checked > 20
    assert claims > 0, "HU24 opens the loser's claim window after a trick: a claim button should have shown"
    # The end of the deal is for both to see: every card is revealed, and the next deal opens on the hand-over screen.
    expect(page.locator("#result")).to_be_visible()
    if "next" in actions(page):
        do(page, "next")
        check_messages(messages(page, start), oracle)
        assert_no_hand_shown(page, oracle)


@pytest.mark.page_logic
@pytest.mark.parametrize("control", ["handover-claim", "other-claim"])
def test_hotseat_claim_out_of_turn(site: Site, page: Page, watch: Watch, control: str) -> None:
    """HU24 (claims "any time" after a trick): the trick's loser may claim on the hand-over screen or later."""
    watch.attach(page)
    open_table(page, site.url)
    options = {"preset": "HU24", "seed": 4242, "dealer": 0}
    oracle, start = start_hotseat(page, options)
    button = page.locator(f"[data-control='{control}']")
    for _ in range(40):
        if table_data(page)["handover"] == "1" and not button.is_visible():
            seat = int(table_data(page)["handoverSeat"])
            take_over(page, seat, NAMES[seat])
        if button.is_visible():
            break
        cards = legal_cards(page)
        do(page, cards[0] if cards else "pass")
        check_messages(messages(page, start), oracle)
    else:
        pytest.fail(f"no {control} button in 40 moves")
    bottom = int(table_data(page)["seat"])
    claimer = bottom if control == "handover-claim" else 1 - bottom
    expect(button).to_contain_text(NAMES[claimer])
    steps = step_count(page)
    button.click()
    answer_question(page, "claim")
    wait_step(page, steps)
    assert phase(page) in ("deal_over", "match_over")
    check_messages(messages(page, start), oracle)
    # The claim was the claimer's (right or wrong), and the table now shows the deal from their side.
    assert table_data(page)["seat"] == str(claimer)
    expect(page.locator("#result")).to_have_attribute("data-code", re.compile("^(claim_66|wrong_claim)$"))
    assert page.evaluate("window.__test.view()")["deal_result"]["by"] == 0


def watch_game(page: Page, options: dict[str, Any], pace: str = "fast") -> None:
    """Start a game that the computer plays against itself, both seats at level 1 (quick moves)."""
    set_preferences(page, mode="watch", watchLevel=1)
    page.evaluate("settings => window.__test.setSettings(settings)", {"pace": pace})
    page.evaluate("options => window.__test.newGame(options)", options)


def level_one(page: Page) -> None:
    """The computer's level (the settings) is 1 from the first page load on."""
    page.add_init_script(
        "if (location.protocol === 'http:') localStorage.setItem('sixty-six.settings.v1', JSON.stringify({level: 1}))"
    )


def wait_steps(page: Page, at_least: int) -> None:
    page.wait_for_function(
        "n => Number(document.querySelector('#table').dataset.step) >= n", arg=at_least, timeout=STEP_TIMEOUT_MS * 4
    )


@pytest.mark.page_logic
def test_watch_mode_plays_on_by_itself_showing_both_hands_not_the_talon(site: Site, page: Page, watch: Watch) -> None:
    watch.attach(page)
    level_one(page)
    open_table(page, site.url)
    options = {"preset": "HU24", "seed": 99, "dealer": 1}
    start = page.evaluate("window.__test.messages.length")
    watch_game(page, options)
    oracle = Oracle(options)
    expect(page.locator(TABLE)).to_have_attribute("data-mode", "watch")
    assert meta(page)["levels"] == [1, 1]
    pause = page.locator("[data-control='pause']")
    # Nobody touches anything, and the game goes on; every so often it is paused to look at the table.
    for _ in range(4):
        wait_steps(page, step_count(page) + 2)
        pause.click()
        expect(page.locator(TABLE)).to_have_attribute("data-watch-paused", "1")
        wait_ready(page)
        check_messages(messages(page, start), oracle, watching=True)
        shown = dom_cards(page)
        assert not shown & talon(oracle), "the face-down talon is shown"
        if phase(page) in ("deal_over", "match_over"):
            break
        view = page.evaluate("window.__test.view()")
        # Both hands face up (the watcher is no player); nothing to press.
        assert set(view["opponent_shown"]) == hand(oracle, 1) <= shown
        assert set(view["hand"]) == hand(oracle, 0) <= shown
        assert page.locator("#my-hand .card[data-legal='1']").count() == 0
        pause.click()
        expect(page.locator(TABLE)).to_have_attribute("data-watch-paused", "0")
    assert oracle.checked >= 5
    expect(page.locator("#watch-bar")).to_be_visible()
    # The end of the deal shows for a moment, then the next deal is dealt, still with nobody's help.
    if table_data(page)["watchPaused"] == "1":
        pause.click()
    page.wait_for_function(
        "() => { const v = window.__test.view(); return v && v.match.deal_number >= 2 && !v.deal_result; }",
        timeout=STEP_TIMEOUT_MS * 6,
    )
    pause.click()
    wait_ready(page)
    check_messages(messages(page, start), oracle, watching=True)
    assert oracle.match.deal_number == 2
    assert not dom_cards(page) & talon(oracle)


@pytest.mark.page_logic
def test_watch_speed_pause_and_step(site: Site, page: Page, watch: Watch) -> None:
    watch.attach(page)
    level_one(page)
    open_table(page, site.url)
    watch_game(page, {"preset": "AT20", "seed": 5, "dealer": 0}, pace="fast")
    first = step_count(page)
    wait_steps(page, first + 2)
    page.locator("[data-control='pause']").click()
    expect(page.locator(TABLE)).to_have_attribute("data-watch-paused", "1")
    wait_ready(page)
    paused_at = step_count(page)
    # One move at a time while paused: exactly one engine answer per press, and no more.
    for n in (1, 2):
        page.locator("[data-control='step']").click()
        wait_step(page, paused_at + n - 1)
        assert step_count(page) == paused_at + n
    expect(page.locator(TABLE)).to_have_attribute("data-watch-paused", "1")
    # The page notes when each move ends (its own clock: no polling delay in the measurement).
    page.evaluate(
        """() => {
            window.stepTimes = [];
            const table = document.querySelector('#table');
            new MutationObserver((records) => {
                if (records.some((r) => r.oldValue !== table.dataset.step)) window.stepTimes.push(performance.now());
            }).observe(table, {attributeFilter: ['data-step'], attributeOldValue: true});
        }"""
    )

    def gap_between_next_two_moves() -> float:
        # One read of both: a move between two reads would leave one time short.
        at, seen = page.evaluate(
            "() => [Number(document.querySelector('#table').dataset.step), window.stepTimes.length]"
        )
        wait_steps(page, at + 2)
        times: list[float] = page.evaluate("seen => window.stepTimes.slice(seen)", seen)
        return (times[-1] - times[-2]) / 1000

    # Relaxed: at least its pause passes between two moves (the pace is the settings' one).
    page.locator("#watch-speed").select_option("relaxed")
    expect(page.locator(TABLE)).to_have_attribute("data-watch-speed", "relaxed")
    assert page.evaluate("window.__test.settings()")["pace"] == "relaxed"
    page.locator("[data-control='pause']").click()
    expect(page.locator(TABLE)).to_have_attribute("data-watch-paused", "0")
    slow = gap_between_next_two_moves()
    assert slow >= 2.35  # the relaxed pause is 2.4 s (a timer may fire a millisecond early)
    # Fast: the next move comes well before a slow pause would have ended.
    page.locator("#watch-speed").select_option("fast")
    expect(page.locator(TABLE)).to_have_attribute("data-watch-speed", "fast")
    fast = gap_between_next_two_moves()
    assert fast < 2.35 <= slow


@pytest.mark.page_logic
def test_undo_restores_the_state_before_your_move(site: Site, page: Page, watch: Watch) -> None:
    watch.attach(page)
    open_table(page, site.url)
    set_preferences(page, mode="computer", ranked=False)
    new_game(page, **SCRIPTED_AT20)
    undo = page.locator("[data-control='undo']")
    expect(undo).to_be_visible()
    expect(undo).to_be_disabled()  # nothing of yours to take back yet
    before = page.evaluate("window.__test.view()")
    do(page, "AH")  # the computer answers, you draw and lead again
    after = page.evaluate("window.__test.view()")
    assert after["tricks_played"] == 1 and after != before
    expect(undo).to_be_enabled()
    steps = step_count(page)
    undo.click()
    wait_step(page, steps)
    assert page.evaluate("window.__test.view()") == before
    assert my_hand(page) == set(before["hand"])
    expect(page.locator("#trick .card")).to_have_count(0)
    expect(undo).to_be_disabled()
    # The game goes on from there, and the taken-back move can be made again.
    do(page, "AH")
    assert page.evaluate("window.__test.view()")["tricks_played"] == 1


@pytest.mark.page_logic
def test_hint_highlights_a_legal_action(site: Site, page: Page, watch: Watch) -> None:
    watch.attach(page)
    open_table(page, site.url)
    set_preferences(page, mode="computer", ranked=False)
    start = new_game(page, **SCRIPTED_AT20)
    steps = step_count(page)
    page.locator("[data-control='hint']").click()
    wait_step(page, steps)
    hinted = page.locator("#table [data-hint='1']")
    expect(hinted).to_have_count(1)
    view = page.evaluate("window.__test.view()")
    card = hinted.get_attribute("data-card")
    action = f"play:{card}" if card else hinted.get_attribute("data-action")
    assert action in view["legal"]
    expect(page.locator("#hint-text")).to_contain_text("Hint:")
    # The hint comes from seat 0's knowledge: nothing the worker sent names the computer's hidden cards.
    check_no_leak(messages(page, start), Oracle(SCRIPTED_AT20))
    # Acting clears it.
    do(page, str(card or action))
    expect(page.locator("#table [data-hint='1']")).to_have_count(0)


@pytest.mark.page_logic
def test_ranked_game_has_no_undo_and_no_hint(site: Site, page: Page, watch: Watch) -> None:
    watch.attach(page)
    open_table(page, site.url)
    set_preferences(page, mode="computer", ranked=True)
    new_game(page, **SCRIPTED_AT20)
    assert meta(page)["ranked"] is True
    expect(page.locator("#ranked-badge")).to_be_visible()
    expect(page.locator("[data-control='undo']")).to_be_hidden()
    expect(page.locator("[data-control='hint']")).to_be_hidden()
    do(page, "AH")
    # The worker refuses them too: the flag is stored with the game, not only in the page.
    for payload in ({"cmd": "table_undo"}, {"cmd": "table_hint"}):
        answer = page.evaluate("payload => window.__test.request({...payload, table: window.__test.game()})", payload)
        assert answer["ok"] is False and answer["code"] == "bad_request", answer
    # ...and after a reload the game is still ranked.
    page.reload()
    wait_ready(page, BOOT_TIMEOUT_MS)
    assert meta(page)["ranked"] is True
    expect(page.locator("[data-control='hint']")).to_be_hidden()
