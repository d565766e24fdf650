"""The JSON protocol: every command, every error code, and no state change on failure."""

from __future__ import annotations

import json
from typing import Any

import pytest

from py_engine.core.actions import action_name
from py_engine.core.errors import RECORD_ERROR_REASONS, NotYourTurnError
from py_engine.core.rules import PRESET_IDS, PRESETS
from py_engine.service.protocol import Engine, handle

from .scenario import make_deck, record_reads, rules_of


def call(engine: Engine, **req: Any) -> dict[str, Any]:
    req.setdefault("v", 1)
    req.setdefault("id", 7)
    out: dict[str, Any] = json.loads(engine.handle(json.dumps(req)))
    assert out["v"] == 1
    return out


def error_code(response: dict[str, Any]) -> str:
    assert response["ok"] is False, response
    assert response["error"]["message"]
    return str(response["error"]["code"])


@pytest.fixture
def engine() -> Engine:
    return Engine()


AT20_DECK = make_deck(
    rules_of("AT20"), ["JH", "QH", "AD", "TD", "KD"], ["AC", "TC", "KC", "QC", "JC"], "KH", ["AS", "TS"]
)


def new_at20(engine: Engine) -> str:
    r = call(engine, cmd="new_game", preset="AT20", seed=1, dealer=0, deck=AT20_DECK)
    assert r["ok"], r
    return str(r["game"])


def test_presets_lists_all_eight(engine: Engine) -> None:
    r = call(engine, cmd="presets")
    assert [p["id"] for p in r["presets"]] == list(PRESET_IDS)
    assert all(p["name"] and p["rules"]["id"] == p["id"] for p in r["presets"])
    # the levels a table offers and the default: the engine's (the page's copy: the next test)
    assert r["levels"] == [1, 2, 3, 4, 5] and r["default_level"] in r["levels"]
    for level in r["levels"]:
        seating = {"mode": "computer", "levels": [None, level]}
        started = call(engine, cmd="table_new", preset="AT20", seed=1, seating=seating)
        assert started["seating"]["levels"] == [None, level]


def test_the_page_starts_with_the_engines_levels_and_default_level(engine: Engine) -> None:
    """The page reads its settings from storage before the engine has started, so it keeps the levels and the
    default level itself (web/screens/settings.js): the engine's. A table and an ai_move without a level play it."""
    import re
    from pathlib import Path

    from py_engine.ai import Request
    from py_engine.service.defaults import DEFAULT_LEVEL

    page = (Path(__file__).resolve().parent.parent / "web" / "screens" / "settings.js").read_text(encoding="utf-8")
    default = re.search(r"^export const DEFAULT_LEVEL = (\d+);$", page, re.M)
    levels = re.search(r"^export const LEVELS = \[([\d, ]+)\];$", page, re.M)
    r = call(engine, cmd="presets")
    assert default and int(default.group(1)) == r["default_level"] == DEFAULT_LEVEL
    assert levels and [int(v) for v in levels.group(1).split(",")] == r["levels"]
    started = call(engine, cmd="table_new", preset="AT20", seed=1, seating={"mode": "computer"})
    assert started["seating"]["levels"] == [None, DEFAULT_LEVEL]
    assert Request().level == DEFAULT_LEVEL


def test_new_game_view_and_legal(engine: Engine) -> None:
    game = new_at20(engine)
    v = call(engine, cmd="view", game=game, seat=1)["view"]
    assert v["hand"] == ["QH", "JH", "AD", "TD", "KD"]
    assert v["trump_card"] == "KH" and v["talon_count"] == 9 and v["to_act"] == 1
    assert call(engine, cmd="legal", game=game, seat=1)["actions"] == [
        "close", "exchange", "play:AD", "play:JH", "play:KD", "play:QH", "play:TD",
    ]  # fmt: skip
    assert call(engine, cmd="legal", game=game, seat=0)["actions"] == []


def test_act_returns_events_and_view(engine: Engine) -> None:
    game = new_at20(engine)
    r = call(engine, cmd="act", game=game, seat=1, action="exchange")
    assert r["ok"]
    assert r["events"] == [{"type": "exchange", "seat": 1, "took": "KH", "gave": "JH"}]
    assert r["view"]["trump_card"] == "JH"
    assert "marry:H" in r["view"]["legal"]
    r = call(engine, cmd="act", game=game, seat=1, action="marry:H")
    assert r["events"][0]["type"] == "marriage" and r["events"][0]["points"] == 40
    opp = call(engine, cmd="view", game=game, seat=0)["view"]
    assert opp["opponent_known"] == ["KH", "QH"]


def test_draw_events_hide_the_opponents_card(engine: Engine) -> None:
    game = new_at20(engine)
    call(engine, cmd="act", game=game, seat=1, action="play:AD")
    r = call(engine, cmd="act", game=game, seat=0, action="play:JC", observer=1)
    draws = [e for e in r["events"] if e["type"] == "draw"]
    assert draws == [
        {"type": "draw", "seat": 1, "face_up": False, "card": "AS"},
        {"type": "draw", "seat": 0, "face_up": False},
    ]


def test_error_codes(engine: Engine) -> None:
    game = new_at20(engine)
    assert error_code(json.loads(engine.handle("{not json"))) == "bad_json"
    assert json.loads(engine.handle("{not json"))["id"] is None
    assert error_code(call(engine, cmd="view", game=game)) == "bad_request"
    assert error_code(call(engine, cmd="view", game=game, seat=2)) == "bad_request"
    assert error_code(call(engine, cmd="view", game=game, seat=True)) == "bad_request"
    assert error_code(call(engine, v=2, cmd="presets")) == "unsupported_version"
    for version in (True, 1.0):  # the integer 1 itself
        assert error_code(call(engine, v=version, cmd="presets")) == "unsupported_version"
    assert error_code(call(engine, cmd="fly")) == "unknown_command"
    assert error_code(call(engine, cmd="new_game", preset="XX")) == "unknown_preset"
    assert error_code(call(engine, cmd="new_game", preset="AT20", rules={"deck": 24})) == "bad_rules"
    assert error_code(call(engine, cmd="new_game", preset="AT20", rules={"nonsense": 1})) == "bad_rules"
    assert error_code(call(engine, cmd="new_game", preset="AT20", rules={"resign": "yes"})) == "bad_rules"
    assert error_code(call(engine, cmd="new_game", preset="AT20", deck=["AH"] * 20)) == "bad_request"
    assert error_code(call(engine, cmd="view", game="nope", seat=0)) == "unknown_game"
    assert error_code(call(engine, cmd="act", game=game, seat=1, action="play:ZZ")) == "bad_action"
    assert error_code(call(engine, cmd="act", game=game, seat=1, action="jump")) == "bad_action"
    assert error_code(call(engine, cmd="act", game=game, seat=1, action="play:AC")) == "illegal_action"
    assert error_code(call(engine, cmd="act", game=game, seat=0, action="play:AC")) == "not_your_turn"
    assert error_code(call(engine, cmd="load", record={"format": "x"})) == "bad_record"
    assert json.loads(engine.handle(json.dumps({"v": 1, "id": [1, 2], "cmd": "fly"})))["id"] == [1, 2]


def test_illegal_action_message_says_why(engine: Engine) -> None:
    game = new_at20(engine)
    r = call(engine, cmd="act", game=game, seat=1, action="marry:C")
    assert "king and the queen" in r["error"]["message"]
    r = call(engine, cmd="act", game=game, seat=1, action="pass")
    assert "final trick" in r["error"]["message"]


def test_failed_requests_change_nothing(engine: Engine) -> None:
    game = new_at20(engine)
    before = [call(engine, cmd="view", game=game, seat=s)["view"] for s in (0, 1)]
    record = call(engine, cmd="save", game=game)["record"]
    for bad in ("play:AC", "pass", "claim", "next", "marry:D", "play:XX", 5):
        call(engine, cmd="act", game=game, seat=1, action=bad)
        call(engine, cmd="act", game=game, seat=0, action=bad)
    assert [call(engine, cmd="view", game=game, seat=s)["view"] for s in (0, 1)] == before
    assert call(engine, cmd="save", game=game)["record"] == record


def test_save_load_round_trip(engine: Engine) -> None:
    game = new_at20(engine)
    for seat, action in [(1, "exchange"), (1, "play:AD"), (0, "play:JC")]:
        assert call(engine, cmd="act", game=game, seat=seat, action=action)["ok"]
    record = call(engine, cmd="save", game=game)["record"]
    loaded = call(engine, cmd="load", record=record)
    assert loaded["ok"] and loaded["game"] != game
    for seat in (0, 1):
        assert (
            call(engine, cmd="view", game=loaded["game"], seat=seat)["view"]
            == call(engine, cmd="view", game=game, seat=seat)["view"]
        )


def test_load_refuses_records_that_do_not_replay(engine: Engine) -> None:
    game = new_at20(engine)
    call(engine, cmd="act", game=game, seat=1, action="play:AD")
    record = call(engine, cmd="save", game=game)["record"]
    n_games = len(engine.games)
    bad_action = json.loads(json.dumps(record))
    bad_action["deals"][0]["actions"][0] = [1, "play:AC"]
    r = call(engine, cmd="load", record=bad_action)
    assert error_code(r) == "bad_record" and "deal 1, action 1" in r["error"]["message"]
    wrong_seat = json.loads(json.dumps(record))
    wrong_seat["deals"][0]["actions"][0] = [0, "play:AD"]
    assert error_code(call(engine, cmd="load", record=wrong_seat)) == "bad_record"
    bad_deck = json.loads(json.dumps(record))
    bad_deck["deals"][0]["deck"][0] = "AC"
    assert error_code(call(engine, cmd="load", record=bad_deck)) == "bad_record"
    bad_rules = json.loads(json.dumps(record))
    bad_rules["rules"]["deck"] = 24
    assert error_code(call(engine, cmd="load", record=bad_rules)) == "bad_record"
    for broken in (None, [], {"format": "py_engine/record", "version": 9}, {**record, "deals": []}):
        assert error_code(call(engine, cmd="load", record=broken)) == "bad_record"
    assert len(engine.games) == n_games


def test_a_refused_record_says_why_for_the_page(engine: Engine) -> None:
    """Each bad_record carries detail {reason, values}: the page says it in the player's language."""
    game = new_at20(engine)
    call(engine, cmd="act", game=game, seat=1, action="play:AD")
    record = call(engine, cmd="save", game=game)["record"]

    def changed(**fields: Any) -> dict[str, Any]:
        copy: dict[str, Any] = json.loads(json.dumps(record))
        copy.update(fields)
        return copy

    def detail(bad: Any) -> dict[str, Any]:
        answer = call(engine, cmd="load", record=bad)
        assert error_code(answer) == "bad_record", answer
        found: dict[str, Any] = answer["error"]["detail"]
        return found

    deal = record["deals"][0]
    cases: list[tuple[Any, str, dict[str, int]]] = [
        ([], "not_record", {}),
        (changed(format="something else"), "not_record", {}),
        (changed(version=2), "version", {}),
        (changed(rules={**record["rules"], "id": "XX99"}), "rules", {}),
        (changed(seed="seven"), "damaged", {}),
        (changed(deals=[]), "damaged", {}),
        (changed(deals=[{**deal, "dealer": 3}]), "damaged", {"deal": 1}),
        (changed(deals=[{**deal, "deck": deal["deck"][:-1]}]), "damaged", {"deal": 1}),
        (changed(deals=[{**deal, "actions": [[1]]}]), "damaged", {"deal": 1, "action": 1}),
        (changed(deals=[{**deal, "actions": [[1, "play:AC"]]}]), "no_replay", {"deal": 1, "action": 1}),
        (changed(deals=[{**deal, "actions": [[1, "next"]]}]), "no_replay", {"deal": 1, "action": 1}),
        (changed(deals=[deal, deal]), "no_replay", {"deal": 2}),
    ]
    for bad, reason, values in cases:
        assert detail(bad) == {"reason": reason, "values": values}, (reason, values)
    assert {reason for _, reason, _ in cases} == set(RECORD_ERROR_REASONS)


def test_ai_move_and_hint_are_legal(engine: Engine) -> None:
    game = new_at20(engine)
    hint = call(engine, cmd="hint", game=game, seat=1)
    legal = call(engine, cmd="legal", game=game, seat=1)["actions"]
    assert sorted(h["action"] for h in hint["ranking"]) == legal
    r = call(engine, cmd="ai_move", game=game, seat=1, seed=3, observer=0)
    assert r["ok"] and r["action"] in legal
    assert r["view"]["seat"] == 0
    assert "stats" not in r  # not to the other seat (see test_no_answer_tells_that_the_computers_move_was_forced)
    assert error_code(call(engine, cmd="ai_move", game=game, seat=0)) == "not_your_turn"


def test_no_answer_tells_that_the_computers_move_was_forced(engine: Engine) -> None:
    """A forced move (one legal card) searches nothing: its iterations would tell the other seat so. Neither
    the page's table_computer nor ai_move with an observer at the other seat carries the search's stats."""
    table = call(engine, cmd="table_new", preset="AT20", seed=3, seating={"mode": "watch", "levels": [2, 2]})
    handle, kinds = table["table"], set()
    for step in range(200):
        if table["view"]["game_over"]:
            break
        match = engine.tables[handle].match
        seat = match.deal.to_act
        forced = len([a for a in match.legal(seat) if action_name(a) not in ("claim", "pass", "resign")]) == 1
        table = call(engine, cmd="table_computer", table=handle, seed=step, timed=False, iterations=30)
        assert table["ok"], table
        assert "stats" not in table and "iterations" not in json.dumps(table), table
        kinds.add(forced)
    assert kinds == {True, False}  # both kinds of move were made
    for observer, shown in ((0, False), (1, True), (None, True)):
        game = new_at20(engine)
        moved = call(engine, cmd="ai_move", game=game, seat=1, seed=3, iterations=20, observer=observer)
        assert moved["ok"] and ("stats" in moved) == shown, moved
        if shown:  # the tools' own: the computer's side asks
            assert set(moved["stats"]) >= {"iterations", "ms"}


def test_computer_errors_keep_their_meaning(engine: Engine, monkeypatch: pytest.MonkeyPatch) -> None:
    """An unknown level is a bad request, a seat off turn is refused as such, and a failing search is
    the engine's own error, never "not your turn"."""
    game = new_at20(engine)
    before = call(engine, cmd="view", game=game, seat=1)["view"]
    for level in (9, "grandmaster", 0):
        refused = call(engine, cmd="ai_move", game=game, seat=1, level=level)
        assert error_code(refused) == "bad_request"
        assert "unknown level" in refused["error"]["message"]
    off_turn = call(engine, cmd="ai_move", game=game, seat=0, level=3, seed=1)
    assert error_code(off_turn) == "not_your_turn"
    from py_engine.ai import player

    def failing(*args: Any, **kwargs: Any) -> Any:
        raise ValueError("a bug in the search")

    monkeypatch.setattr(player, "search", failing)
    failed = call(engine, cmd="ai_move", game=game, seat=1, level=3, seed=1)
    assert error_code(failed) == "internal_error"
    assert "a bug in the search" in failed["error"]["message"]
    assert error_code(call(engine, cmd="hint", game=game, seat=1, seed=1)) == "internal_error"

    def refusing(*args: Any, **kwargs: Any) -> Any:
        raise NotYourTurnError("an engine refusal from inside the search")

    monkeypatch.setattr(player, "search", refusing)
    assert error_code(call(engine, cmd="ai_move", game=game, seat=1, level=3, seed=1)) == "internal_error"
    assert call(engine, cmd="view", game=game, seat=1)["view"] == before  # nothing was played


def test_search_limits_must_be_positive_and_a_refusal_changes_nothing(engine: Engine) -> None:
    game = new_at20(engine)
    before = call(engine, cmd="view", game=game, seat=1)["view"]
    for bad in ({"iterations": 0}, {"iterations": -5}, {"budget_ms": 0}, {"budget_ms": -10}, {"iterations": 1.5}):
        refused = call(engine, cmd="ai_move", game=game, seat=1, **bad)
        assert error_code(refused) == "bad_request"
        name = next(iter(bad))
        assert f"argument {name!r} must be a positive" in refused["error"]["message"]
        assert call(engine, cmd="view", game=game, seat=1)["view"] == before
    for budget in (0, -1, "fast", 600_000):
        assert error_code(call(engine, cmd="hint", game=game, seat=1, budget_ms=budget)) == "bad_request"
    assert error_code(call(engine, cmd="ai_move", game=game, seat=1, level=2, iterations=10**9)) == "bad_request"
    assert call(engine, cmd="view", game=game, seat=1)["view"] == before
    moved = call(engine, cmd="ai_move", game=game, seat=1, iterations=1, seed=2)
    assert moved["ok"] and moved["stats"]["iterations"] <= 1


def test_single_deal_game_over(engine: Engine) -> None:
    r = call(engine, cmd="new_game", preset="KLUB20", seed=4, match=False)
    game = r["game"]
    to_act = r["view"]["to_act"]
    resigned = call(engine, cmd="act", game=game, seat=to_act, action="resign")
    assert [e["type"] for e in resigned["events"]] == ["resign", "deal_end", "score"]
    assert resigned["events"][0] == {"type": "resign", "seat": to_act}
    v = call(engine, cmd="view", game=game, seat=0)["view"]
    assert v["game_over"] is True and v["phase"] == "deal_over" and v["legal"] == []
    assert v["deal_result"]["code"] == "resigned"
    assert error_code(call(engine, cmd="act", game=game, seat=0, action="next")) == "game_over"


def test_close_game(engine: Engine) -> None:
    game = new_at20(engine)
    assert call(engine, cmd="close_game", game=game)["ok"]
    assert error_code(call(engine, cmd="view", game=game, seat=0)) == "unknown_game"


def test_module_level_handle_never_raises() -> None:
    for text in ("", "null", "[]", '{"v":1}', '{"v":1,"cmd":"new_game","preset":5}', "\u0000"):
        out = json.loads(handle(text))
        assert out["ok"] is False


def test_undo_takes_back_the_seats_last_action_and_what_followed(engine: Engine) -> None:
    game = new_at20(engine)
    start = call(engine, cmd="view", game=game, seat=1)["view"]
    assert error_code(call(engine, cmd="undo", game=game, seat=1)) == "illegal_action"
    call(engine, cmd="act", game=game, seat=1, action="play:AD")
    call(engine, cmd="act", game=game, seat=0, action="play:JC")
    after_trick = call(engine, cmd="view", game=game, seat=1)["view"]
    r = call(engine, cmd="undo", game=game, seat=0)
    assert r["undone"] == 1
    v = call(engine, cmd="view", game=game, seat=1)["view"]
    assert v["trick"] == [{"seat": 1, "card": "AD"}] and v != after_trick
    r = call(engine, cmd="undo", game=game, seat=1)
    assert r["undone"] == 1
    assert call(engine, cmd="view", game=game, seat=1)["view"] == start
    # play continues as if nothing had happened
    assert call(engine, cmd="act", game=game, seat=1, action="play:AD")["ok"]


def test_review_shows_a_finished_deal_with_every_card(engine: Engine) -> None:
    r = call(engine, cmd="new_game", preset="AT20", seed=9, dealer=0, deck=AT20_DECK)
    game = r["game"]
    assert error_code(call(engine, cmd="review", game=game)) == "illegal_action"
    while True:
        v = call(engine, cmd="view", game=game, seat=0)["view"]
        if v["phase"] in ("deal_over", "match_over"):
            break
        seat = v["to_act"]
        assert call(engine, cmd="ai_move", game=game, seat=seat, level="heuristic", seed=1)["ok"]
    record = call(engine, cmd="save", game=game)["record"]
    r = call(engine, cmd="review", game=game, evaluate=1, budget_ms=50)
    review = r["review"]
    assert review["start"]["hands"][1] == sorted(["JH", "QH", "AD", "TD", "KD"], key=AT20_ORDER.index)
    assert review["start"]["trump_card"] == "KH"
    actions = record["deals"][0]["actions"]
    assert [[s["seat"], s["action"]] for s in review["steps"]] == actions
    assert review["steps"][-1]["state"]["to_act"] is None
    assert review["result"] == {k: v["deal_result"][k] for k in review["result"]}
    evaluated = [s for s in review["steps"] if "ranking" in s]
    assert evaluated and all(s["seat"] == 1 for s in evaluated)
    assert all(isinstance(s["clearly_worse"], bool) for s in evaluated)


AT20_ORDER = [f"{r}{s}" for s in "HDCS" for r in "ATKQJ9"]


def test_check_rules_answers_the_complete_rules_or_says_why_not(engine: Engine) -> None:
    ok = call(engine, cmd="check_rules", preset="HU24", rules={"resign": True, "match_target": 11})
    assert ok["ok"] and ok["rules"]["id"] == "HU24" and ok["rules"]["resign"] is True
    assert ok["rules"]["match_target"] == 11 and ok["rules"]["deck"] == 24
    assert call(engine, cmd="check_rules", preset="AT20")["rules"] == PRESETS["AT20"].to_dict()
    refused = {
        "deck_hand_size": ({"deck": 24}, {"deck": 24, "hand_size": 6}),
        "deck_deal_pattern": ({"deck": 24, "hand_size": 6}, {"deck": 24, "deal_pattern": "33T"}),
        "marriage_auto_king": ({"marriage_auto": True, "marriage_lead_card": "king"}, {}),
        "bad_value": ({"resign": "yes"}, {"param": "resign"}),
        "unknown_parameter": ({"nonsense": 1}, {"param": "nonsense"}),
    }
    for reason, (overrides, values) in refused.items():
        for cmd in ("check_rules", "new_game"):
            answer = call(engine, cmd=cmd, preset="AT20", rules=overrides)
            assert error_code(answer) == "bad_rules"
            assert answer["error"]["detail"] == {"reason": reason, "values": values}, (cmd, overrides)
    assert error_code(call(engine, cmd="check_rules", preset="XX")) == "unknown_preset"
    assert not engine.games  # checking rules starts no game


def test_the_computer_player_is_imported_on_first_use_and_by_warm_up() -> None:
    """The browser draws its first table before the computer player is imported (web/engine/worker.js)."""
    import importlib
    import sys

    ours = {name: module for name, module in sys.modules.items() if name.split(".")[0] == "py_engine"}
    for name in ours:
        del sys.modules[name]
    try:
        fresh = importlib.import_module("py_engine.service.protocol")
        lazy = (
            "py_engine.ai",
            "py_engine.service.review",
            "py_engine.ai.player",
            "py_engine.ai.ismcts",
            "py_engine.service.puzzles",
        )
        assert not [name for name in lazy if name in sys.modules]
        engine = fresh.Engine()
        game = call(engine, cmd="new_game", preset="AT20", seed=3)["game"]
        assert call(engine, cmd="view", game=game, seat=0)["ok"]
        assert not [name for name in lazy if name in sys.modules]
        fresh.warm_up()
        assert all(name in sys.modules for name in lazy)
    finally:
        for name in [name for name in sys.modules if name.split(".")[0] == "py_engine"]:
            del sys.modules[name]
        sys.modules.update(ours)


def test_an_untimed_top_level_move_searches_its_fixed_count(engine: Engine) -> None:
    """``timed: false`` (the page's test mode) reaches the search: level 5 runs its fixed iterations, whatever the
    clock says (before, it stopped on its 1 s budget: 2,544 iterations in 953 ms in a page)."""
    from py_engine.ai.player import LEVELS

    level = LEVELS["5"]
    fixed = {level.iterations_for(20, False), level.reading_iterations_for(20, False)}
    game = call(engine, cmd="new_game", preset="AT20", seed=3, dealer=1)["game"]
    move = call(engine, cmd="ai_move", game=game, seat=0, level=5, seed=1, timed=False)
    assert move["stats"]["iterations"] in fixed, move["stats"]
    seat = move["view"]["to_act"]  # after a marriage, seat 0 again
    timed = call(engine, cmd="ai_move", game=game, seat=seat, level=5, seed=1, budget_ms=50)
    assert timed["stats"]["iterations"] not in fixed, timed["stats"]  # the clock stops a timed one


def test_a_move_budget_counts_from_the_request() -> None:
    """What importing the computer player took on the first move is taken from that move's search, which keeps
    at least SEARCH_FLOOR of its budget."""
    import time

    from py_engine.ai.player import SEARCH_FLOOR, SEARCH_SHARE, search_seconds

    # However long this process waits for a CPU between the calls (``took``), the bounds hold.
    now = time.perf_counter()
    fresh, late, very_late = (search_seconds(1000, now - before) for before in (0.0, 0.3, 5.0))
    took = time.perf_counter() - now
    assert max(SEARCH_FLOOR, SEARCH_SHARE - took) <= fresh <= SEARCH_SHARE
    assert max(SEARCH_FLOOR, SEARCH_SHARE - 0.3 - took) <= late <= SEARCH_SHARE - 0.3
    assert very_late == 1000 / 1000 * SEARCH_FLOOR


def test_the_top_level_reads_the_play_of_a_new_loaded_or_undone_game(
    engine: Engine, monkeypatch: pytest.MonkeyPatch
) -> None:
    read = record_reads(monkeypatch)
    game = new_at20(engine)
    for seat, action in [(1, "play:AD"), (0, "play:JC")]:  # seat 1 leads again, after seat 0's play
        assert call(engine, cmd="act", game=game, seat=seat, action=action)["ok"]
    assert call(engine, cmd="ai_move", game=game, seat=1, level=5, iterations=30, seed=1)["ok"]
    loaded = call(engine, cmd="load", record=call(engine, cmd="save", game=game)["record"])["game"]
    assert call(engine, cmd="ai_move", game=loaded, seat=0, level=5, iterations=30, seed=1)["ok"]
    assert call(engine, cmd="undo", game=loaded, seat=0)["ok"]
    assert call(engine, cmd="ai_move", game=loaded, seat=0, level=5, iterations=30, seed=1)["ok"]
    assert [r for r, _ in read] == [True, True, True]  # the deal's story survives the game's start, a load and an undo


# ------------------------------------------------------------- hardening


def _answer(text: str) -> dict[str, Any]:
    return dict(json.loads(handle(text)))


@pytest.mark.parametrize(
    "field, value",
    [("dealer", 0.0), ("dealer", 1.0), ("seat", 0.0), ("seat", True), ("rules_id", ["AT20"]), ("rules_id", {"a": 1})],
)
def test_a_tampered_record_is_bad_record_not_internal_error(field: str, value: Any) -> None:
    game = _answer(json.dumps({"v": 1, "cmd": "new_game", "preset": "AT20", "seed": 1}))["game"]
    record = _answer(json.dumps({"v": 1, "cmd": "save", "game": game}))["record"]
    actions = _answer(json.dumps({"v": 1, "cmd": "legal", "game": game, "seat": record["deals"][0]["dealer"] ^ 1}))
    record["deals"][0]["actions"] = [[record["deals"][0]["dealer"] ^ 1, actions["actions"][0]]]
    if field == "dealer":
        record["deals"][0]["dealer"] = value
    elif field == "seat":
        record["deals"][0]["actions"][0][0] = value
    else:
        record["rules"]["id"] = value
    answer = _answer(json.dumps({"v": 1, "id": 7, "cmd": "load", "record": record}))
    assert answer["ok"] is False and answer["error"]["code"] == "bad_record", answer


def test_deeply_nested_json_is_a_clear_bad_request() -> None:
    for depth in (1_000, 100_000):
        for text in ("[" * depth + "]" * depth, '{"v": 1, "cmd": "presets", "x": ' + "[" * depth + "]" * depth + "}"):
            answer = _answer(text)
            assert answer["error"]["code"] == "bad_request", answer
            assert answer["error"]["message"] == "the request is nested more than 64 deep"
    assert _answer('{"v": 1, "cmd": "presets", "x": ' + "[" * 50 + "]" * 50 + "}")["ok"] is True


def strict_json(text: str) -> dict[str, Any]:
    answer: dict[str, Any] = json.loads(text, parse_constant=lambda c: pytest.fail(f"non-standard JSON answered: {c}"))
    return answer


def test_nan_and_infinity_are_not_json() -> None:
    for constant in ("NaN", "Infinity", "-Infinity"):
        answer = strict_json(handle('{"v": 1, "id": ' + constant + ', "cmd": "presets"}'))
        assert answer["error"]["code"] == "bad_json" and answer["id"] is None


def test_an_id_too_large_for_json_is_refused_and_any_other_echoed_as_read() -> None:
    for id_text in ("1e400", "-1e400", "[1, 1e999]", '{"a": -1e309}'):
        answer = strict_json(handle('{"v": 1, "id": ' + id_text + ', "cmd": "presets"}'))
        assert answer["ok"] is False and answer["id"] is None, answer
        assert answer["error"]["code"] == "bad_request" and "'id'" in answer["error"]["message"]
    # Finite numbers come back as the same double (shortest form); integers exactly, however long.
    for id_text, echoed in (("0.1", "0.1"), ("1e308", "1e+308"), ("1.00000000000000001", "1.0"), ("1" * 30, "1" * 30)):
        text = handle('{"v": 1, "id": ' + id_text + ', "cmd": "presets"}')
        assert text.startswith('{"v":1,"id":' + echoed + ',"ok":true'), text[:60]


def test_answers_never_hold_nan(monkeypatch: pytest.MonkeyPatch) -> None:
    engine = Engine()
    monkeypatch.setitem(engine._commands, "presets", lambda req: {"value": float("nan")})
    answer = strict_json(engine.handle('{"v": 1, "id": 3, "cmd": "presets"}'))
    assert answer["error"]["code"] == "internal_error" and answer["id"] == 3


def test_a_seed_is_a_json_safe_integer(engine: Engine) -> None:
    for seed in (2**53, -(2**53), 10**30):
        assert error_code(call(engine, cmd="new_game", preset="AT20", seed=seed)) == "bad_request"
    game = call(engine, cmd="new_game", preset="AT20", seed=2**53 - 1)["game"]
    assert call(engine, cmd="save", game=game)["record"]["seed"] == 2**53 - 1


def _finished_deal(engine: Engine, preset: str, seed: int) -> str:
    """A single-deal game played to its end, each seat leading or following with its first card; its handle."""
    game = call(engine, cmd="new_game", preset=preset, seed=seed, match=False)["game"]
    while not (view := call(engine, cmd="view", game=game, seat=0)["view"])["game_over"]:
        seat = view["to_act"] if view["to_act"] is not None else 0
        legal = call(engine, cmd="legal", game=game, seat=seat)["actions"]
        action = next((a for a in legal if a.startswith("play:")), legal[0])
        assert call(engine, cmd="act", game=game, seat=seat, action=action)["ok"]
    return game


def _bare(step: dict[str, Any]) -> dict[str, Any]:
    return {k: v for k, v in step.items() if k not in ("ranking", "clearly_worse", "exact")}


def test_a_review_is_evaluated_in_parts_each_within_the_cap(monkeypatch: pytest.MonkeyPatch) -> None:
    from py_engine.service import review

    budgets: list[list[int | None]] = []
    real_rank = review.rank_exactly

    def recording(match: Any, seat: int, settings: Any, **options: Any) -> Any:
        budgets[-1].append(settings.budget_ms)
        return real_rank(match, seat, type(settings)(budget_ms=1, seed=settings.seed), **options)

    monkeypatch.setattr(review, "rank_exactly", recording)
    engine = Engine()
    game = _finished_deal(engine, "HU24", 3)
    largest = review.MAX_REVIEW_MS
    assert error_code(call(engine, cmd="review", game=game, evaluate=0, budget_ms=largest + 1)) == "bad_request"
    assert error_code(call(engine, cmd="review", game=game, evaluate=0, from_step=-1)) == "bad_request"
    budgets.append([])
    whole = call(engine, cmd="review", game=game, evaluate=0, budget_ms=1)["review"]
    assert whole["next_step"] is None
    evaluated = [i for i, step in enumerate(whole["steps"]) if "ranking" in step]
    assert len(evaluated) > 2
    # At 700 ms a decision, two fit in one request: the rest is asked for from next_step on.
    parts: list[list[int]] = []
    start = 0
    while start is not None:
        budgets.append([])
        answer = call(engine, cmd="review", game=game, evaluate=0, budget_ms=700, from_step=start)["review"]
        assert sum(b or 0 for b in budgets[-1]) <= largest
        parts.append([i for i, step in enumerate(answer["steps"]) if "ranking" in step])
        assert [_bare(step) for step in answer["steps"]] == [_bare(step) for step in whole["steps"]]
        start = answer["next_step"]
    assert [len(p) for p in parts[:-1]] == [2] * (len(parts) - 1) and 1 <= len(parts[-1]) <= 2
    assert [i for part in parts for i in part] == evaluated


def test_the_tables_computer_and_hint_count_their_budget_from_the_request(monkeypatch: pytest.MonkeyPatch) -> None:
    """table_computer and table_hint pass the request's arrival to the search, which takes what the request spent
    before it (the first one imports the computer player) from the budget, but keeps at least SEARCH_FLOOR of it.
    The table cuts nothing itself: the level's budget and the hint's come from the level and BUDGETS."""
    import time

    from py_engine.ai import player
    from py_engine.ai.player import LEVELS, SEARCH_FLOOR, SEARCH_SHARE
    from py_engine.service.defaults import BUDGETS
    from py_engine.service.match import Match
    from py_engine.service.table import Seating, Table

    searched: list[float | None] = []
    called: list[float] = []  # when each search was asked for
    real_search = player.search

    def search(*args: Any, **options: Any) -> Any:
        searched.append(options["budget_s"])
        called.append(time.perf_counter())
        return real_search(*args, **{**options, "budget_s": None, "iterations": 50, "reading_iterations": 50})

    monkeypatch.setattr(player, "search", search)
    table = Table(Match(rules=PRESETS["AT20"], seed=3, dealer=1), Seating.from_json({}))
    table.hint(started=time.perf_counter() - 0.4)
    table.act(0, next(a for a in table.show()["view"]["legal"] if a.startswith("play:")))
    asked = time.perf_counter()
    table.computer_move(5, started=asked - 0.2)
    took = called[1] - asked  # however long this process waited for a CPU before the search
    assert searched[0] == BUDGETS.hint_ms / 1000 * SEARCH_FLOOR  # 400 ms of 700 spent: the floor
    level5 = LEVELS["5"].budget_ms
    assert level5 is not None and searched[1] is not None
    share = level5 / 1000 * SEARCH_SHARE
    assert max(level5 / 1000 * SEARCH_FLOOR, share - 0.2 - took) <= searched[1] <= share - 0.2
