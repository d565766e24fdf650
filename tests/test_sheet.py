"""The score sheet (``view.sheet``): every finished deal and every finished match (Bummerl) of a game.

It is built by :class:`~py_engine.service.match.Match` as the deals end, so a
game restored or undone by replaying its record has the same sheet; the page
only draws it (docs/protocol.md, "Views").
"""

from __future__ import annotations

import json
import random
from typing import Any

import pytest

from py_engine.core.actions import CLAIM, NEXT, parse_action
from py_engine.core.rules import PRESET_IDS, preset, rules_from_dict
from py_engine.service.match import Match
from py_engine.service.protocol import Engine
from py_engine.service.record import load_record
from py_engine.service.views import view

RESIGN = parse_action("resign")


def play(match: Match, seed: int, claims: bool = True, until: int | None = None) -> list[dict[str, Any]]:
    """Random legal moves until the game is over (or ``until`` deals are finished); returns each finished deal's
    view (seat 0), taken right when it ended. Without ``claims`` nobody claims or resigns (the cards run out)."""
    rng = random.Random(seed)
    ends = []
    while not match.finished and (until is None or len(ends) < until):
        seat = match.to_act()
        if seat is None:
            match.act(0, NEXT)
            continue
        legal = match.legal(seat)
        if not claims:
            legal = [a for a in legal if a not in (CLAIM, RESIGN)] or legal
        match.act(seat, rng.choice(legal))
        if match.deal.over:
            ends.append(view(match, 0))
    return ends


def check_sheet(match: Match, ends: list[dict[str, Any]]) -> dict[str, Any]:
    """The sheet agrees line by line with the deals' ends and the matches' scores."""
    sheet = view(match, 0)["sheet"]
    assert len(sheet["deals"]) == len(ends)
    for line, end in zip(sheet["deals"], ends, strict=True):
        result = end["deal_result"]
        for key in ("winner", "game_points", "code", "basis", "by", "carry_over"):
            assert line[key] == result[key], (key, line, result)
        assert line["match"] == end["match"]["match_number"]
        assert line["deal"] == end["match"]["deal_number"]
        assert line["dealer"] == end["dealer"]
        assert line["scores"] == end["match"]["scores"]
    # Each match's lines add up to its score (an excess over the target is dropped), and a Bummerl line closes it.
    target = match.rules.match_target
    for bummerl in sheet["bummerls"]:
        lines = [line for line in sheet["deals"] if line["match"] == bummerl["match"]]
        assert bummerl["deals"] == len(lines)
        totals = [0, 0]
        for line in lines:
            if line["winner"] is not None:
                totals[line["winner"]] = min(target, totals[line["winner"]] + line["game_points"] + line["carried"])
            else:
                assert line["carried"] == 0
        assert bummerl["scores"] == totals == (lines[-1]["scores"] if lines else [0, 0])
        if bummerl["ended"] is None:
            assert bummerl["winner"] is not None and totals[bummerl["winner"]] == target
    won = [sum(b["winner"] == seat for b in sheet["bummerls"]) for seat in (0, 1)]
    assert won == view(match, 0)["match"]["matches_won"]
    return sheet


@pytest.mark.parametrize("preset_id", PRESET_IDS)
def test_the_sheet_follows_every_deal_of_a_game(preset_id: str) -> None:
    for seed in range(3):
        match = Match(preset(preset_id), seed)
        ends = play(match, seed, claims=seed != 1)
        sheet = check_sheet(match, ends)
        assert sheet["deals"], "a whole game has finished deals"
        assert [b["match"] for b in sheet["bummerls"]] == list(range(1, len(sheet["bummerls"]) + 1))
        assert len(sheet["bummerls"]) >= match.rules.session_bummerls


def test_a_session_of_bummerls_lists_each_match() -> None:
    rules = rules_from_dict({**preset("SZLI20").to_dict(), "match_target": 3, "session_bummerls": 3})
    match = Match(rules, 11)
    ends = play(match, 11)
    sheet = check_sheet(match, ends)
    assert match.session_over
    winners = [b["winner"] for b in sheet["bummerls"]]
    assert 3 <= len(winners) <= 5 and max(winners.count(0), winners.count(1)) == 3
    # The deals are numbered afresh in each match, and the match numbers follow the Bummerls.
    for number in range(1, len(winners) + 1):
        deals = [line["deal"] for line in sheet["deals"] if line["match"] == number]
        assert deals == list(range(1, len(deals) + 1))


def test_a_carried_point_goes_with_the_next_won_deal() -> None:
    # DE24: a tie on points carries 1 game point to the winner of the next deal that scores.
    match = Match(preset("DE24"), 95)
    ends = play(match, 95, claims=False)
    sheet = check_sheet(match, ends)
    codes = [line["code"] for line in sheet["deals"]]
    tie = codes.index("tie_carry_over")
    assert sheet["deals"][tie]["winner"] is None and sheet["deals"][tie]["carry_over"] is True
    after = sheet["deals"][tie + 1]
    assert after["winner"] is not None and after["carried"] == 1
    assert after["scores"][after["winner"]] == sheet["deals"][tie]["scores"][after["winner"]] + after["game_points"] + 1


def test_a_game_ended_early_closes_its_match_on_the_sheet() -> None:
    match = Match(preset("AT20"), 4)
    ends = play(match, 4, until=2)
    assert match.deal.over and not match.match_over  # this seed leaves the match open after two deals
    match.act(0, NEXT)
    match.forfeit(0, "resigned")
    sheet = check_sheet(match, ends)
    assert sheet["bummerls"] == [
        {
            "match": 1,
            "winner": 1,
            "scores": ends[-1]["match"]["scores"],
            "deals": 2,
            "ended": {"seat": 0, "reason": "resigned"},
        }
    ]
    # Abandoned by both: nobody wins it.
    match = Match(preset("AT20"), 4)
    match.forfeit(None, "abandoned")
    assert view(match, 1)["sheet"] == {
        "deals": [],
        "bummerls": [
            {"match": 1, "winner": None, "scores": [0, 0], "deals": 0, "ended": {"seat": None, "reason": "abandoned"}}
        ],
    }


def test_a_forfeit_between_two_matches_loses_the_next_one() -> None:
    rules = rules_from_dict({**preset("SZLI20").to_dict(), "match_target": 1})
    match = Match(rules, 2)
    ends = play(match, 2, until=1)
    assert match.match_over and not match.finished
    match.forfeit(match.match_winner, "time")
    sheet = check_sheet(match, ends)
    first, second = sheet["bummerls"]
    assert first["match"] == 1 and first["ended"] is None and first["deals"] == 1
    assert second == {
        "match": 2,
        "winner": 1 - first["winner"],
        "scores": [0, 0],
        "deals": 0,
        "ended": {"seat": first["winner"], "reason": "time"},
    }


def test_a_replayed_record_has_the_same_sheet() -> None:
    """Saving, restoring, undoing and reviewing replay the record: the sheet comes back the same."""
    rules = rules_from_dict({**preset("SZLI20").to_dict(), "match_target": 2})
    match = Match(rules, 8)
    play(match, 8)
    replayed = load_record(match.record())
    assert view(replayed, 0)["sheet"] == view(match, 0)["sheet"]
    assert view(replayed, 1)["sheet"] == view(match, 1)["sheet"]  # absolute seats: the same for both viewers


def test_only_the_answers_view_carries_the_sheet() -> None:
    """Frames' views have ``sheet: null``; the answer's view has the whole sheet, through the page's entry point."""
    engine = Engine()

    def ask(**request: Any) -> dict[str, Any]:
        answer = json.loads(engine.handle_page(json.dumps({"v": 1, "id": 1, **request})))
        assert answer["ok"], answer
        return dict(answer)

    seating = {"mode": "watch", "levels": [1, 1]}
    answer = ask(cmd="table_new", preset="KLUB20", seed=6, seating=seating)
    handle = answer["table"]
    assert answer["view"]["sheet"] == {"deals": [], "bummerls": []}
    deals = 0
    for step in range(300):
        if answer["view"]["game_over"] or deals >= 3:
            break
        answer = ask(cmd="table_computer", table=handle, seed=step, timed=False, iterations=20)
        assert all(frame["view"]["sheet"] is None for frame in answer["frames"])
        sheet = answer["view"]["sheet"]
        assert sheet == view(engine.tables[handle].match, 0)["sheet"]
        deals = len(sheet["deals"])
    assert deals >= 3
