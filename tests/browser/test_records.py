"""Record files and the review screen: export, import, stepping through a deal, the computer's opinions."""

from __future__ import annotations

import json
import re
from typing import Any

import pytest
from playwright.sync_api import FilePayload, Page, expect

from py_engine.core.actions import parse_action
from py_engine.core.cards import parse_card
from py_engine.core.rules import PRESETS
from py_engine.service.match import Match
from py_engine.service.record import load_record
from py_engine.service.review import review_deal

from .conftest import STEP_TIMEOUT_MS, TEST_QUERY, Site, Watch
from .helpers import (
    OVER,
    PAGE_LANGUAGE_JS,
    Oracle,
    check_no_leak,
    do,
    messages,
    new_game,
    open_table,
    phase,
    step_count,
)
from .modes_helpers import SCRIPTED_AT20, set_preferences
from .test_i18n_deck import LANGUAGES, choose, no_missing_keys, words

pytestmark = pytest.mark.browser

REVIEW = "#review-dialog"


def play_scripted_deal(page: Page) -> int:
    """Exchange, marriage, close, three tricks and a claim (AT20, seat 0 leads); returns the first message's index."""
    set_preferences(page, mode="computer", ranked=False)
    start = new_game(page, **SCRIPTED_AT20)
    for move in ("exchange", "marry:H", "close", "KH", "AH", "TH", "claim"):
        do(page, move)
    assert phase(page) in OVER
    return start


def open_review_from_result(page: Page) -> None:
    page.locator("#result [data-control='review']").click()
    wait_review(page)


def wait_review(page: Page) -> None:
    dialog = page.locator(REVIEW)
    expect(dialog).to_be_visible()
    expect(dialog).to_have_attribute("data-loaded", "1", timeout=STEP_TIMEOUT_MS)
    expect(dialog).to_have_attribute("data-evaluated", "1", timeout=STEP_TIMEOUT_MS * 4)


HANDS = "[0, 1].map(s => [...document.querySelectorAll(`#review-hand-${s} [data-card]`)].map(e => e.dataset.card))"


def review_content(page: Page) -> dict[str, Any]:
    """The moves and the cards as dealt, as the review screen shows them."""
    page.keyboard.press("Home")
    expect(page.locator(REVIEW)).to_have_attribute("data-step", "0")
    content: dict[str, Any] = page.evaluate(
        """() => ({
            moves: [...document.querySelectorAll('#review-moves li[data-step]')]
                .map(li => [Number(li.dataset.seat), li.dataset.action]),
            hands: HANDS,
            talon: [...document.querySelectorAll('#review-talon [data-card]')].map(e => e.dataset.card),
        })""".replace("HANDS", HANDS)
    )
    return content


def shown_state(page: Page) -> dict[str, Any]:
    state: dict[str, Any] = page.evaluate(
        """() => ({
            step: Number(document.querySelector('#review-dialog').dataset.step),
            hands: HANDS,
            trick: [...document.querySelectorAll('#review-trick [data-card]')].map(e => e.dataset.card),
        })""".replace("HANDS", HANDS)
    )
    return state


def as_sent(review: Any) -> dict[str, Any]:
    """A review as the page receives it: JSON (a pair of hands is a tuple in Python, an array in JSON)."""
    sent: dict[str, Any] = json.loads(json.dumps(review))
    return sent


def expected_state(review: dict[str, Any], step: int) -> dict[str, Any]:
    snapshot = review["start"] if step == 0 else review["steps"][step - 1]["state"]
    trick = [entry["card"] for entry in snapshot["trick"]]
    if step:
        taken = [e for e in review["steps"][step - 1]["events"] if e["type"] == "trick"]
        if taken:
            trick = taken[0]["cards"]
    return {"step": step, "hands": snapshot["hands"], "trick": trick}


def export_text(page: Page) -> str:
    before = page.evaluate("window.__test.exported()")
    page.locator("#result [data-control='export']").click()
    page.wait_for_function("before => window.__test.exported() !== before", arg=before, timeout=STEP_TIMEOUT_MS)
    text: str = page.evaluate("window.__test.exported()")
    return text


def import_file(page: Page, text: str, name: str = "record.json") -> None:
    page.locator("#open-settings").click()
    expect(page.locator("#settings-dialog")).to_be_visible()
    upload: FilePayload = {"name": name, "mimeType": "application/json", "buffer": text.encode()}
    page.set_input_files("#import-file", files=[upload])


def test_export_then_import_replays_identically(site: Site, page: Page, watch: Watch) -> None:
    watch.attach(page)
    open_table(page, site.url)
    start = play_scripted_deal(page)
    open_review_from_result(page)
    original = review_content(page)
    assert original["moves"][:3] == [[0, "exchange"], [0, "marry:H"], [0, "close"]]
    assert sorted(original["hands"][1]) == sorted(["AC", "TC", "KC", "QC", "JC"])
    page.locator("#review-close").click()
    expect(page.locator(REVIEW)).to_be_hidden()

    text = export_text(page)
    record = json.loads(text)
    assert record["format"] == "py_engine/record" and len(record["deals"]) == 1
    assert record["seed"] == 0, "the match goes on: its seed would tell the next deals' cards"
    assert record["players"]["mode"] == "computer"
    check_no_leak(messages(page, start), Oracle(SCRIPTED_AT20))
    # The file replays in the engine to the same deal.
    assert load_record(record).deal.over

    # A new game, then the file: its review shows the same cards and moves, and the game in play is untouched.
    new_game(page, preset="DE24", seed=8, dealer=0)
    view = page.evaluate("window.__test.view()")
    import_file(page, text)
    wait_review(page)
    assert review_content(page) == original
    page.keyboard.press("Escape")
    expect(page.locator(REVIEW)).to_be_hidden()
    assert page.evaluate("window.__test.view()") == view


@pytest.mark.page_logic
def test_the_export_leaves_out_the_deal_in_play(site: Site, page: Page, watch: Watch) -> None:
    watch.attach(page)
    open_table(page, site.url)
    start = play_scripted_deal(page)
    do(page, "next")
    assert phase(page) not in OVER
    oracle = Oracle(SCRIPTED_AT20)
    check_no_leak(messages(page, start), oracle)
    # Deal 2 is in play: the end-of-deal panel is gone, but the worker is asked directly.
    game = page.evaluate("window.__test.game()")
    answer = page.evaluate("table => window.__test.request({cmd: 'table_export', table})", game)
    assert answer["ok"], answer
    record = answer["result"]["record"]
    # Deal 1 only (the same 20 card names, so checked by structure): its pack and moves, and no seed.
    assert [d["deck"] for d in record["deals"]] == [SCRIPTED_AT20["deck"]]
    assert record["deals"][0]["actions"] == oracle.match.record()["deals"][0]["actions"]
    assert record["seed"] == 0 != oracle.match.record()["seed"]
    # The deal in play cannot be reviewed (every card would show); the finished one can.
    refused = page.evaluate("table => window.__test.request({cmd: 'table_review', table, deal: 1})", game)
    assert refused["ok"] is False and "still being played" in refused["message"]
    finished = page.evaluate("table => window.__test.request({cmd: 'table_review', table, deal: 0})", game)
    assert finished["ok"] and finished["result"]["review"]["start"]["hands"][1] == ["AC", "TC", "KC", "QC", "JC"]


@pytest.mark.page_logic
def test_malformed_or_unreplayable_import_is_refused_and_changes_nothing(site: Site, page: Page, watch: Watch) -> None:
    watch.attach(page)
    open_table(page, site.url)
    play_scripted_deal(page)
    good = json.loads(export_text(page))
    do(page, "next")
    view = page.evaluate("window.__test.view()")
    steps = step_count(page)
    error = page.locator("#import-error")

    import_file(page, "{ this is not JSON", name="broken.json")
    expect(error).to_be_visible()
    expect(error).to_have_text("This file is not a game record.")
    expect(page.locator(REVIEW)).to_be_hidden()

    # Valid JSON whose moves do not replay: an illegal card in the first trick.
    bad = json.loads(json.dumps(good))
    bad["deals"][0]["actions"][3] = [0, "play:JD"]
    page.locator("#settings-dialog [data-action='settings-save']").click()
    import_file(page, json.dumps(bad), name="bad.json")
    expect(error).to_be_visible()
    # Said in words, the engine's own (English, technical) words small beneath.
    expect(error).to_have_attribute("data-reason", "no_replay")
    expect(error).to_contain_text("Deal 1 of this record does not follow the rules, so the record cannot be replayed.")
    expect(error.locator("small.error-detail")).to_contain_text("deal 1, action 4")
    expect(page.locator(REVIEW)).to_be_hidden()

    page.locator("#settings-dialog [data-action='settings-save']").click()
    assert page.evaluate("window.__test.view()") == view
    assert step_count(page) == steps
    # ...and the game in play still goes on.
    cards = page.locator("#my-hand .card[data-legal='1']")
    if cards.count():
        do(page, str(cards.first.get_attribute("data-card")))
        assert step_count(page) > steps


@pytest.mark.page_logic
def test_review_steps_forward_and_back(site: Site, page: Page, watch: Watch) -> None:
    watch.attach(page)
    open_table(page, site.url)
    play_scripted_deal(page)
    record = json.loads(export_text(page))
    expected = as_sent(review_deal(load_record(record), 1))
    open_review_from_result(page)
    dialog = page.locator(REVIEW)
    total = len(expected["steps"])
    expect(dialog).to_have_attribute("data-total", str(total))
    expect(page.locator("#review-first")).to_be_disabled()  # it opens as dealt
    assert shown_state(page) == expected_state(expected, 0)
    # Forward with the button, then the arrow keys, back with the arrow key and the button.
    page.locator("#review-next").click()
    state = shown_state(page)
    assert state == expected_state(expected, 1)
    assert "KH" in state["hands"][0] and "JH" not in state["hands"][0]  # the exchange took the King of trumps
    for _ in range(4):
        page.keyboard.press("ArrowRight")
    assert shown_state(page) == expected_state(expected, 5)
    assert len(shown_state(page)["trick"]) == 2, "the fifth move finishes the first trick"
    page.keyboard.press("ArrowLeft")
    assert shown_state(page) == expected_state(expected, 4)
    assert shown_state(page)["trick"] == ["KH"]
    page.locator("#review-prev").click()
    assert shown_state(page) == expected_state(expected, 3)
    page.locator("#review-last").click()
    assert shown_state(page) == expected_state(expected, total)
    page.keyboard.press("End")
    expect(dialog).to_have_attribute("data-step", str(total))
    page.keyboard.press("Home")
    assert shown_state(page) == expected_state(expected, 0)
    # A move in the list jumps there.
    page.locator("#review-moves li[data-step='6'] button").click()
    assert shown_state(page) == expected_state(expected, 6)


# KLUB20, one deal, seat 0 leads with the Ace, Ten, King and Queen of trumps (hearts) and the Ace of spades.
STRONG_KLUB20 = {
    "preset": "KLUB20",
    "seed": 3,
    "dealer": 1,
    "match": False,
    "deck": [
        *("AH", "TH", "KH"),
        *("AC", "TC", "KC"),
        "JH",
        *("QH", "AS"),
        *("QC", "JC"),
        *("TS", "KS", "QS", "JS", "AD", "TD", "KD", "QD", "JD"),
    ],
}


@pytest.mark.page_logic
def test_review_marks_a_clearly_worse_decision(site: Site, page: Page, watch: Watch) -> None:
    watch.attach(page)
    open_table(page, site.url)
    set_preferences(page, mode="computer", ranked=False)
    new_game(page, **STRONG_KLUB20)
    do(page, "resign")  # resigning with the best cards of the deal
    assert phase(page) in OVER
    open_review_from_result(page)
    move = page.locator("#review-moves li[data-step='1']")
    expect(move).to_have_attribute("data-action", "resign")
    expect(move).to_have_attribute("data-evaluated", "1")
    expect(move).to_have_attribute("data-worse", "1")
    page.locator("#review-next").click()
    text = page.locator("#review-move")
    # Resigning gave away 3 game points, exactly; the computer's choice is an estimate: "about", on average,
    # in whole game points (the sentence goes on in lower case).
    expect(text).to_contain_text(re.compile(r"The computer would [a-z][^:]*: about \d game points better on average\."))
    assert "4.0" not in text.inner_text() and "6.0" not in text.inner_text()


#: Closes the review the moment its first answer is shown, when its evaluation has just been asked for;
#: ``window.__closedEvaluated`` keeps whether the evaluation had come by then.
CLOSE_WHEN_LOADED = """() => {
    delete window.__closedEvaluated;
    const dialog = document.querySelector('#review-dialog');
    const observer = new MutationObserver(() => {
        if (dialog.dataset.loaded !== '1') return;
        observer.disconnect();
        window.__closedEvaluated = dialog.dataset.evaluated;
        dialog.close();
    });
    observer.observe(dialog, {attributes: true, attributeFilter: ['data-loaded']});
}"""


@pytest.mark.page_logic
def test_review_closed_while_evaluating_leaves_no_error(site: Site, page: Page, watch: Watch) -> None:
    watch.attach(page)
    open_table(page, site.url)
    play_scripted_deal(page)
    dialog = page.locator(REVIEW)
    # Closed as soon as it evaluates, reopened at once, twice: a late answer must not land in the next review.
    for _ in range(2):
        page.evaluate(CLOSE_WHEN_LOADED)
        page.locator("#result [data-control='review']").click()
        page.wait_for_function("() => window.__closedEvaluated !== undefined", timeout=STEP_TIMEOUT_MS)
        assert page.evaluate("window.__closedEvaluated") == "0", "closed while evaluating"
        expect(dialog).to_be_hidden()
    open_review_from_result(page)
    expect(dialog).to_have_attribute("data-step", "0")
    expect(page.locator("#review-moves li[data-evaluated='1']").first).to_be_attached()
    page.keyboard.press("Escape")
    expect(dialog).to_be_hidden()
    # The game goes on.
    steps = step_count(page)
    do(page, "next")
    assert phase(page) not in OVER and step_count(page) > steps


def review_parts(page: Page) -> int:
    """How many evaluated parts of reviews the worker has answered."""
    return sum('"ranking"' in m and '"next_step"' in m for m in messages(page))


@pytest.mark.page_logic
def test_a_review_evaluates_in_parts_and_stops_asking_when_closed(site: Site, page: Page, watch: Watch) -> None:
    # 1 s a decision: at most two decisions in each request of at most 2 s, so the table is answered in between.
    watch.attach(page)
    open_table(page, site.url, TEST_QUERY + "&review_ms=1000")
    play_scripted_deal(page)
    record = json.loads(export_text(page))
    full = review_deal(load_record(record), 1, (0,), 1)
    decisions = sum("ranking" in step for step in full["steps"])
    assert decisions > 4, "more decisions than two parts hold"
    dialog = page.locator(REVIEW)
    evaluated = page.locator("#review-moves li[data-evaluated='1']")
    page.locator("#result [data-control='review']").click()
    expect(dialog).to_have_attribute("data-evaluated", "1", timeout=STEP_TIMEOUT_MS * 2)
    expect(evaluated).to_have_count(decisions)
    assert review_parts(page) >= (decisions + 1) // 2
    page.keyboard.press("Escape")

    # Closed after its first part: at most the part on its way is answered, and the game goes on.
    page.locator("#result [data-control='review']").click()
    expect(dialog).to_have_attribute("data-loaded", "1", timeout=STEP_TIMEOUT_MS)  # the list drawn anew, unevaluated
    expect(evaluated.first).to_be_attached(timeout=STEP_TIMEOUT_MS)
    page.keyboard.press("Escape")
    expect(dialog).to_be_hidden()
    at_close = review_parts(page)
    assert evaluated.count() < decisions, "closed while evaluating"
    steps = step_count(page)
    do(page, "next")
    assert phase(page) not in OVER and step_count(page) > steps
    game = page.evaluate("window.__test.game()")
    assert page.evaluate("table => window.__test.request({cmd: 'table_show', table})", game)["ok"]
    assert review_parts(page) <= at_close + 1


def test_review_groups_the_moves_by_trick_and_names_trumps(site: Site, page: Page, watch: Watch) -> None:
    """Exchange, marriage and close come with the trick they precede; the claim after the last trick stands alone."""
    watch.attach(page)
    open_table(page, site.url)
    play_scripted_deal(page)
    record = json.loads(export_text(page))
    expected = as_sent(review_deal(load_record(record), 1))
    open_review_from_result(page)
    trumps = page.locator("#review-trumps")
    expect(trumps).to_have_attribute("data-suit", "H")
    expect(trumps).to_have_text("Trumps: hearts")
    groups: list[dict[str, Any]] = page.evaluate(
        """() => [...document.querySelectorAll('#review-moves > li.review-group')].map(group => ({
            trick: group.dataset.trick,
            head: group.querySelector('.review-group-head').textContent.trim(),
            actions: [...group.querySelectorAll('li[data-step]')].map(li => li.dataset.action),
            steps: [...group.querySelectorAll('li[data-step]')].map(li => Number(li.dataset.step)),
        }))"""
    )
    actions = [step["action"] for step in expected["steps"]]
    assert [g["trick"] for g in groups] == ["1", "2", "3", "end"]
    assert groups[0]["actions"] == ["exchange", "marry:H", "close", "play:KH", actions[4]]
    assert [g["actions"] for g in groups[1:]] == [actions[5:7], actions[7:9], ["claim"]]
    assert [n for g in groups for n in g["steps"]] == list(range(1, len(actions) + 1))
    # The heading: the trick's number, who took it and its points (you took all three here).
    taken = [e for step in expected["steps"] for e in step["events"] if e["type"] == "trick"]
    assert all(t["winner"] == 0 for t in taken)
    for group, trick in zip(groups[:3], taken, strict=True):
        assert group["head"] == f"Trick {group['trick']} You: {trick['points']} points"
    assert groups[3]["head"] == "End of the deal"
    # The moves after a colon go on in lower case (a card keeps its name).
    assert page.locator("#review-moves li[data-step='3']").inner_text().strip() == "You: talon closed"
    # Stepping still goes move by move, and the list marks the move shown.
    page.locator("#review-moves li[data-step='4'] button").click()
    expect(page.locator("#review-moves li[data-step='4']")).to_have_class(re.compile(r"\bcurrent\b"))
    expect(page.locator("#review-moves li.current")).to_have_count(1)


@pytest.mark.page_logic
def test_review_says_the_difference_in_whole_game_points(site: Site, page: Page, watch: Watch) -> None:
    """Exact differences in whole game points; estimates as "about" a whole number, half, or less than half."""
    watch.attach(page)
    open_table(page, site.url)
    said = (
        "async (cases) => {"
        + PAGE_LANGUAGE_JS
        + "const review = await import('./screens/review.js');"
        + "return cases.map(([gap, exact]) => review.differenceWords(gap, exact)); }"
    )
    cases = [[1.0002, True], [2.0, True], [1.2, False], [1.6, False], [0.5, False], [0.1, False], [0.9, True]]
    for language in LANGUAGES:
        choose(page, language=language)
        w = words(language)
        two = "few" if language in ("ro", "pl", "sr") else "other"
        assert page.evaluate(said, cases) == [
            w["modes.review.diff.exact"]["one"].replace("{n}", "1"),
            w["modes.review.diff.exact"][two].replace("{n}", "2"),
            w["modes.review.diff.about"]["one"].replace("{n}", "1"),
            w["modes.review.diff.about"][two].replace("{n}", "2"),
            w["modes.review.diff.half"],
            w["modes.review.diff.small"],
            w["modes.review.diff.exact"]["one"].replace("{n}", "1"),
        ], language
        # The phrases go inside a sentence: none starts with a capital letter.
        for key in [k for k in w if k.startswith(("modes.review.diff.", "modes.review.do.", "modes.move."))]:
            texts = w[key].values() if isinstance(w[key], dict) else [w[key]]
            for text in texts:
                first = text.lstrip("{").split("}")[0] if text.startswith("{") else text
                assert text.startswith("{") or not first[0].isupper() or language == "de", (language, key, text)
    no_missing_keys(page)


def test_a_refused_record_is_explained_in_the_players_language(site: Site, page: Page, watch: Watch) -> None:
    """Hungarian: each refusal in a Hungarian sentence, the engine's English words only small beneath it."""
    watch.attach(page)
    open_table(page, site.url)
    choose(page, language="hu")
    w = words("hu")
    good = record_at20()
    error = page.locator("#import-error")
    broken = json.loads(json.dumps(good))
    broken["deals"][0]["actions"][1] = [1, "play:QS"]
    cases = [
        (broken, "no_replay", w["modes.import.error.no_replay"].replace("{deal}", "1")),
        ({**good, "version": 7}, "version", w["modes.import.error.version"]),
        ({**good, "rules": {**good["rules"], "id": "XX99"}}, "rules", w["modes.import.error.rules"]),
        ({**good, "deals": []}, "damaged", w["modes.import.error.damaged"]),
        ({"format": "a shopping list"}, "not_record", w["modes.import.error.not_record"]),
    ]
    for record, reason, sentence in cases:
        import_file(page, json.dumps(record))
        expect(error).to_have_attribute("data-reason", reason)
        expect(error).to_be_visible()
        shown = error.evaluate("e => [e.firstChild.textContent, e.querySelector('small')?.textContent ?? '']")
        assert shown[0] == sentence, (reason, shown)
        assert shown[1], "the engine's words beneath"
        page.keyboard.press("Escape")
        expect(page.locator("#settings-dialog")).to_be_hidden()
    no_missing_keys(page)


def record_at20() -> dict[str, Any]:
    """A record to damage: AT20 as SCRIPTED_AT20 deals it, the first trick played."""
    deck = [parse_card(code) for code in SCRIPTED_AT20["deck"]]
    match = Match(PRESETS["AT20"], SCRIPTED_AT20["seed"], dealer=SCRIPTED_AT20["dealer"], deck=deck)
    for seat, action in ((0, "play:AH"), (1, "play:AC")):
        match.act(seat, parse_action(action))
    record: dict[str, Any] = match.record()
    return record
