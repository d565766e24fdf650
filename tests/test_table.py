"""The table layer (py_engine/service/table.py) through the page's entry point, ``handle_page``.

The privacy policy: for every mode and every viewer, in random games, no
field of anything the page receives holds a card its viewer may not see.
And the rights: who may act, undo, ask for hints, see which seat, save.
"""

from __future__ import annotations

import json
import random
import re
from typing import Any

import pytest

from py_engine.core.cards import CARD_NAMES, KING, QUEEN, card_of
from py_engine.core.events import DealStarted, Draw, Exchange
from py_engine.service.match import Match
from py_engine.service.protocol import PAGE_COMMANDS, Engine
from py_engine.service.table import Table

CARD = re.compile(r"(?<![A-Za-z0-9])([AKQJT9][HDCS])(?![A-Za-z0-9])")


class Page:
    """A page talking to one engine through ``handle_page`` only."""

    def __init__(self) -> None:
        self.engine = Engine()

    def ask(self, **request: Any) -> dict[str, Any]:
        return dict(json.loads(self.engine.handle_page(json.dumps({"v": 1, "id": 1, **request}))))

    def ok(self, **request: Any) -> dict[str, Any]:
        answer = self.ask(**request)
        assert answer["ok"], answer
        return answer

    def table(self, handle: str) -> Table:
        return self.engine.tables[handle]


def cards_in(value: Any) -> set[str]:
    """Every card code written anywhere in a JSON value (also inside texts such as "play:QH")."""
    return set(CARD.findall(json.dumps(value)))


def may_see(match: Match, seat: int, both_hands: bool) -> set[str]:
    """The cards of the deal in play that ``seat`` has seen (all of them once the deal is over)."""
    deal = match.deal
    if deal.over:
        return set(CARD_NAMES)
    seen = 0
    for _, lead, answer, _ in deal.history:
        seen |= 1 << lead | 1 << answer
    if deal.lead >= 0:
        seen |= 1 << deal.lead
    seen |= deal.hands[seat] | deal.known[0] | deal.known[1]
    if both_hands:
        seen |= deal.hands[1 - seat]
    if deal.upcard >= 0:
        seen |= 1 << deal.upcard
    for _, suit, _ in deal.marriages:
        seen |= 1 << card_of(suit, KING) | 1 << card_of(suit, QUEEN)
    start = max(i for i, e in enumerate(match.events) if isinstance(e, DealStarted))
    for event in match.events[start:]:
        if isinstance(event, Exchange):
            seen |= 1 << event.took | 1 << event.gave
        if isinstance(event, Draw) and event.seat == seat:
            seen |= 1 << event.card
        if isinstance(event, DealStarted):
            seen |= event.hands[seat] | 1 << event.trump_card  # the trump card turned up at the deal
    return {CARD_NAMES[c] for c in range(len(CARD_NAMES)) if seen >> c & 1}


def check_private(page: Page, handle: str, answer: dict[str, Any], seat: int | None, both_hands: bool) -> None:
    """Nothing in ``answer`` shows a card that ``seat`` (None: nobody, a device changing hands) may not see."""
    match = page.table(handle).match
    allowed = may_see(match, seat, both_hands) if seat is not None else set()
    frames = answer.get("frames", [])
    for frame in frames:
        view = frame["view"]
        if view["deal_result"] is None:  # a finished deal's views show everything
            assert cards_in(view) <= allowed, (cards_in(view) - allowed, frame)
        if frame["event"]["type"] not in ("deal_end",):
            assert cards_in(frame["event"]) <= allowed | finished_cards(frame), frame
    rest = {k: v for k, v in answer.items() if k != "frames"}
    assert cards_in(rest) <= allowed, (cards_in(rest) - allowed, rest)


def finished_cards(frame: dict[str, Any]) -> set[str]:
    """The cards of a frame whose deal is over (a trick or draw event of a deal that ended in it)."""
    return cards_in(frame["view"]) if frame["view"]["deal_result"] else set()


def random_game(mode: str, preset: str, seed: int, ranked: bool = False) -> tuple[Page, str, list[dict[str, Any]]]:
    """Play a whole random game as the page would; check every answer. Returns the page, the table, the answers."""
    rng = random.Random(seed)
    page = Page()
    seating = {"mode": mode, "ranked": ranked, "names": ["Ann", "Bob"], "levels": [1, 1]}
    answer = page.ok(cmd="table_new", preset=preset, seed=seed, seating=seating, match=rng.random() < 0.5)
    handle = answer["table"]
    answers = [answer]
    viewer: int | None = {"computer": 0, "watch": 0, "hotseat": None}[mode]
    check_private(page, handle, answer, viewer, mode == "watch")
    for _ in range(400):
        view, may, handover = answer["view"], answer["may"], answer["handover"]
        if view is not None and view["game_over"]:
            break
        if mode == "hotseat" and handover is not None:
            if handover["claim"] is not None and rng.random() < 0.05:
                viewer = handover["claim"]
                answer = page.ok(cmd="table_act", table=handle, seat=viewer, action="claim")
            else:
                viewer = handover["seat"]
                answer = page.ok(cmd="table_take", table=handle, seat=viewer)
        elif may["computer_move"]:
            answer = page.ok(cmd="table_computer", table=handle, seed=rng.randrange(1000), timed=False)
        elif may["undo"] and rng.random() < 0.1:
            answer = page.ok(cmd="table_undo", table=handle)
        elif may["claim_for_other"] and rng.random() < 0.05:
            assert viewer is not None
            viewer = 1 - viewer
            answer = page.ok(cmd="table_act", table=handle, seat=viewer, action="claim")
        else:
            assert view is not None and view["legal"], answer
            seat = view["seat"]
            answer = page.ok(cmd="table_act", table=handle, seat=seat, action=rng.choice(view["legal"]))
        answers.append(answer)
        check_private(page, handle, answer, viewer, mode == "watch")
    return page, handle, answers


@pytest.mark.parametrize("mode", ["computer", "hotseat", "watch"])
@pytest.mark.parametrize("preset", ["AT20", "HU24", "DE24", "PL24"])
def test_nothing_a_viewer_receives_shows_a_card_it_may_not_see(mode: str, preset: str) -> None:
    for seed in range(3):
        _page, _handle, answers = random_game(mode, preset, seed)
        assert len(answers) > 3
        # and a game always ends or goes on: the table was never stuck
        final = answers[-1]
        assert final["view"] is None or final["view"]["game_over"] or len(answers) == 401


def test_the_checker_sees_a_leak() -> None:
    """The privacy check fails on a view that holds the computer's hand."""
    page = Page()
    answer = page.ok(cmd="table_new", preset="AT20", seed=1, seating={"mode": "computer"})
    hidden = page.table(answer["table"]).match.deal.hands[1]
    shown = [CARD_NAMES[c] for c in range(len(CARD_NAMES)) if hidden >> c & 1]
    leaked = {**answer, "view": {**answer["view"], "opponent_shown": shown}}
    check_private(page, answer["table"], answer, 0, False)
    with pytest.raises(AssertionError):
        check_private(page, answer["table"], leaked, 0, False)


def test_watching_shows_both_hands_and_never_the_talon() -> None:
    page = Page()
    answer = page.ok(cmd="table_new", preset="AT20", seed=5, seating={"mode": "watch", "levels": [2, 3]})
    view = answer["view"]
    deal = page.table(answer["table"]).match.deal
    assert set(view["opponent_shown"]) == {CARD_NAMES[c] for c in range(len(CARD_NAMES)) if deal.hands[1] >> c & 1}
    face_down = {CARD_NAMES[c] for c in deal.talon[deal.talon_pos : -1]}
    assert not cards_in(answer) & face_down
    assert answer["may"] == {"undo": False, "hint": False, "claim_for_other": False, "computer_move": True}
    assert page.ask(cmd="table_act", table=answer["table"], seat=0, action="play:AH")["error"]["code"] == "bad_request"
    assert page.ask(cmd="table_hint", table=answer["table"])["error"]["code"] == "bad_request"


def test_against_the_computer_the_page_plays_seat_0_only() -> None:
    page = Page()
    answer = page.ok(cmd="table_new", preset="AT20", seed=2, dealer=1, seating={"mode": "computer"})
    handle = answer["table"]
    assert answer["view"]["seat"] == 0 and answer["view"]["opponent_shown"] is None
    refused = page.ask(cmd="table_act", table=handle, seat=1, action=answer["view"]["legal"][0])
    assert refused["error"]["code"] == "bad_request"
    moved = page.ok(cmd="table_act", table=handle, seat=0, action=answer["view"]["legal"][0])
    assert moved["save"] is True and moved["frames"][0]["event"]["seat"] == 0
    assert moved["view"]["seat"] == 0


def test_frames_end_where_the_view_is() -> None:
    """The last frame's cards are those of the final view: the animation arrives where the table is."""
    for seed in range(4):
        _, _, answers = random_game("computer", "AT20", seed)
        for answer in answers:
            frames = answer.get("frames")
            view = answer["view"]
            if (
                not frames
                or view is None
                or view["deal_result"]
                or any(f["event"]["type"] in ("deal", "next") for f in frames)
            ):
                continue
            last = frames[-1]["view"]
            for key in ("hand", "trick", "my_tricks", "opponent_tricks", "talon_count", "trump_card", "closed_by"):
                assert last[key] == view[key] or sorted(last[key]) == sorted(view[key]), (key, last[key], view[key])
            assert last["opponent_hand_count"] == view["opponent_hand_count"]
            assert [m["suit"] for m in last["marriages"]] == [m["suit"] for m in view["marriages"]]


CARD_FIELDS = (
    "hand",
    "opponent_hand_count",
    "opponent_known",
    "opponent_shown",
    "trick",
    "last_trick",
    "my_tricks",
    "opponent_tricks",
    "talon_count",
    "trump_card",
    "closed_trump_card",
    "closed_by",
    "marriages",
    "declared",
    "declared_cards",
)


@pytest.mark.parametrize("mode", ["computer", "watch"])
def test_frames_are_the_deal_after_each_event(mode: str) -> None:
    """Each frame shows the cards where the deal had them right after its event, and the last one the view's."""
    for seed in range(3):
        _, _, answers = random_game(mode, "HU24", seed)
        for answer in answers:
            frames, view = answer.get("frames") or [], answer["view"]
            if not frames or any(f["event"]["type"] in ("deal", "next") for f in frames):
                continue
            for frame in frames:
                event, cards = frame["event"], frame["view"]
                assert cards["legal"] == [] and cards["sheet"] is None
                mine = event.get("seat") == cards["seat"]
                if event["type"] == "play":
                    assert {"seat": event["seat"], "card": event["card"]} in cards["trick"]
                    assert event["card"] not in cards["hand"] + cards["opponent_known"]
                elif event["type"] == "draw" and mine:
                    assert event["card"] in cards["hand"]
                elif event["type"] == "trick":
                    assert cards["trick"] == [] and event["cards"] in cards["my_tricks"] + cards["opponent_tricks"]
            if view is not None and not view["deal_result"]:
                assert {k: frames[-1]["view"][k] for k in CARD_FIELDS} == {k: view[k] for k in CARD_FIELDS}


def test_two_players_change_hands_and_see_only_their_own_seat() -> None:
    page = Page()
    answer = page.ok(cmd="table_new", preset="AT20", seed=3, seating={"mode": "hotseat", "names": ["Ann", "Bob"]})
    handle = answer["table"]
    assert answer["view"] is None and answer["handover"]["seat"] in (0, 1)
    first = answer["handover"]["seat"]
    assert page.ask(cmd="table_take", table=handle, seat=1 - first)["error"]["code"] == "not_your_turn"
    taken = page.ok(cmd="table_take", table=handle, seat=first)
    assert taken["view"]["seat"] == first and taken["handover"] is None
    card = next(a for a in taken["view"]["legal"] if a.startswith("play:"))
    assert page.ask(cmd="table_act", table=handle, seat=1 - first, action="close")["error"]["code"] == "not_your_turn"
    played = page.ok(cmd="table_act", table=handle, seat=first, action=card)
    assert played["view"] is None and played["handover"]["seat"] == 1 - first
    assert all(frame["view"]["seat"] == first for frame in played["frames"])


def test_ranked_games_have_no_undo_or_hint() -> None:
    page = Page()
    answer = page.ok(cmd="table_new", preset="AT20", seed=4, dealer=1, seating={"mode": "computer", "ranked": True})
    handle = answer["table"]
    page.ok(cmd="table_act", table=handle, seat=0, action=answer["view"]["legal"][0])
    assert page.ask(cmd="table_undo", table=handle)["error"]["code"] == "bad_request"
    assert page.ask(cmd="table_hint", table=handle)["error"]["code"] == "bad_request"
    assert page.ok(cmd="table_show", table=handle)["may"]["undo"] is False


def test_undo_takes_back_the_person_s_move_within_the_deal() -> None:
    page = Page()
    answer = page.ok(cmd="table_new", preset="AT20", seed=4, dealer=1, seating={"mode": "computer"})
    handle = answer["table"]
    before = answer["view"]
    assert answer["may"]["undo"] is False  # nothing to take back yet
    moved = page.ok(cmd="table_act", table=handle, seat=0, action=before["legal"][0])
    assert moved["may"]["undo"] is True
    undone = page.ok(cmd="table_undo", table=handle)
    assert undone["view"]["hand"] == before["hand"] and undone["save"] is True


@pytest.mark.parametrize(
    "command",
    sorted(
        {
            "save",
            "load",
            "view",
            "legal",
            "act",
            "ai_move",
            "hint",
            "undo",
            "review",
            "new_game",
            "table_save",
            "table_restore",
            "close_game",
        }
    ),
)
def test_the_page_cannot_ask_for_a_bare_seat_or_a_record(command: str) -> None:
    assert command not in PAGE_COMMANDS
    answer = Page().ask(cmd=command, game="g1", seat=1, table="t1")
    assert (
        answer["ok"] is False
        and answer["error"]["code"] == "bad_request"
        and "not for the page" in answer["error"]["message"]
    )


def test_export_leaves_out_the_deal_in_play_and_the_seed() -> None:
    page, handle, _answers = random_game("computer", "AT20", 7)
    table = page.table(handle)
    exported = page.ok(cmd="table_export", table=handle)["record"]
    assert exported["players"]["mode"] == "computer"
    # the game is over at the end of random_game: every deal is there, and the seed
    assert exported["seed"] == table.match.seed and len(exported["deals"]) == len(table.match.records)
    fresh = Page()
    started = fresh.ok(cmd="table_new", preset="AT20", seed=8, dealer=1, seating={"mode": "computer"})
    assert fresh.ask(cmd="table_export", table=started["table"])["error"]["code"] == "nothing_finished"


def test_save_and_restore_keep_the_seating_and_the_device_holder() -> None:
    page = Page()
    answer = page.ok(cmd="table_new", preset="HU24", seed=9, seating={"mode": "hotseat", "names": ["A", "B"]})
    handle = answer["table"]
    page.ok(cmd="table_take", table=handle, seat=answer["handover"]["seat"])
    saved = json.loads(page.engine.handle(json.dumps({"v": 1, "cmd": "table_save", "table": handle})))["saved"]
    restored = json.loads(page.engine.handle(json.dumps({"v": 1, "cmd": "table_restore", "saved": saved})))
    assert restored["ok"] and restored["seating"]["names"] == ["A", "B"]
    assert restored["view"]["seat"] == answer["handover"]["seat"]
    damaged = json.loads(page.engine.handle(json.dumps({"v": 1, "cmd": "table_restore", "saved": {"record": 3}})))
    assert damaged["error"]["code"] == "bad_record"


def test_review_evaluates_several_seats_in_one_call() -> None:
    page, handle, _ = random_game("hotseat", "AT20", 11)
    review = page.ok(cmd="table_review", table=handle, deal=0, evaluate=[0, 1], budget_ms=5)["review"]
    evaluated = {step["seat"] for step in review["steps"] if "ranking" in step}
    assert evaluated == {0, 1}
    assert page.ask(cmd="table_review", table=handle, deal=99)["error"]["code"] == "bad_request"


def test_a_review_says_what_each_marriage_is_worth() -> None:
    """The page words the computer's preferred marriage from the review itself (it knows no rule)."""
    page, handle, _ = random_game("computer", "AT20", 0)
    review = page.ok(cmd="table_review", table=handle, deal=0)["review"]
    trump = review["trump_suit"]
    offers = review["marriage_offers"]
    assert set(offers) == {"H", "D", "C", "S"}
    assert all(offer["points"] == (40 if suit == trump else 20) for suit, offer in offers.items())
    assert offers["H"]["cards"] == ["KH", "QH"]


def test_untimed_computer_moves_search_the_levels_fixed_count(monkeypatch: pytest.MonkeyPatch) -> None:
    """The page's test mode (``timed: false``) reaches the search: level 5 runs its iterations, not its clock."""
    from py_engine import ai
    from py_engine.ai.player import LEVELS

    requests: list[Any] = []
    decisions: list[Any] = []
    choose = ai.choose

    def spy(match: Match, seat: int, request: Any, **kw: Any) -> Any:
        requests.append(request)
        decision = choose(match, seat, request, **kw)
        decisions.append(decision)
        return decision

    monkeypatch.setattr(ai, "choose", spy)
    page = Page()
    handle = page.ok(cmd="table_new", preset="AT20", seed=3, seating={"mode": "computer", "levels": [None, 5]})["table"]
    for _ in range(12):
        answer = page.ask(cmd="table_computer", table=handle, seed=1, timed=False)
        if not answer["ok"]:
            view = page.ok(cmd="table_show", table=handle)["view"]
            page.ok(cmd="table_act", table=handle, seat=0, action=view["legal"][0])
    searched = [d.stats["iterations"] for d in decisions if d.stats.get("iterations")]
    assert requests and all(r.clock is False for r in requests)
    level = LEVELS["5"]
    fixed = {level.iterations_for(20, False), level.reading_iterations_for(20, False)}
    assert searched and set(searched) <= fixed, searched  # a count, not what the clock allowed
