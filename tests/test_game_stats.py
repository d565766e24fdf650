"""The statistics of games against the computer (py_engine/service/game_stats.py, the ``stats_*`` commands).

What a finished deal and match count (once), the Elo rating, the assisted
rule, and the refusal of malformed requests. The numbers are the ones the
page's statistics had before the engine decided them.
"""

from __future__ import annotations

import copy
import json
from typing import Any

import pytest

from py_engine.core.rules import PRESETS
from py_engine.service import game_stats as gs
from py_engine.service.protocol import Engine

HU24 = PRESETS["HU24"].to_dict()
AT20 = PRESETS["AT20"].to_dict()


def finished(
    *,
    match: int = 1,
    deal: int = 1,
    winner: int | None = 0,
    points: int = 1,
    basis: str = "simple",
    rules: dict[str, Any] | None = None,
    closed_by: int | None = None,
    marriages: list[dict[str, Any]] | None = None,
    match_winner: int | None = None,
) -> dict[str, Any]:
    """A view of a finished deal, as the engine sends it to seat 0 (the fields a record reads)."""
    return {
        "seat": 0,
        "rules": rules or HU24,
        "phase": "deal_over" if match_winner is None else "match_over",
        "match": {"match_number": match, "deal_number": deal, "winner": match_winner},
        "deal_result": {"winner": winner, "game_points": points, "basis": basis, "code": "auto"},
        "closed_by": closed_by,
        "marriages": marriages or [],
    }


def ask(engine: Engine, **request: Any) -> dict[str, Any]:
    answer: dict[str, Any] = json.loads(engine.handle_page(json.dumps({"v": 1, **request})))
    return answer


def started(counted: bool = True) -> dict[str, Any]:
    return gs.begin(gs.empty_stats(0), counted)


def test_the_elo_expectation_and_update() -> None:
    assert gs.expected_score(1200, 3) == 0.5
    assert gs.expected_score(1200, 5) == pytest.approx(1 / 11)
    assert gs.expected_score(1600, 1) == pytest.approx(1 / (1 + 10**-2))
    assert gs.expected_score(1000, 9) == gs.expected_score(1000, 3)  # an unknown level counts as 3
    assert gs.rated_after(1200, 3, True) == 1216
    assert gs.rated_after(1200, 3, False) == 1184
    assert gs.rated_after(1200, 5, True) == pytest.approx(1200 + 32 * (10 / 11))
    assert gs.rated_after(1200, 1, False) == pytest.approx(1200 - 32 * (1 / (1 + 10**-1)))


def test_a_finished_deal_is_counted_once_in_its_rule_set_and_level() -> None:
    start = started()
    view = finished(
        deal=2, winner=0, points=2, basis="schneider", closed_by=0,
        marriages=[{"seat": 0, "points": 20}, {"seat": 1, "points": 40}],
    )  # fmt: skip
    after = gs.record(start, view, 3, 1000)
    assert after is not start
    assert after["current"]["recorded"] == ["1.2"]
    assert after["buckets"]["HU24|3"] == {
        "preset": "HU24",
        "custom": False,
        "level": 3,
        "deals": {"won": 1, "lost": 0, "none": 0},
        "matches": {"won": 0, "lost": 0},
        "points": {"won": 2, "lost": 0},
        "basis": {"schneider": {"won": 1, "lost": 0}},
        "closes": {"made": 1, "won": 1},
        "marriages": {"count": 1, "points": 20},
    }
    assert after["rating"] == gs.START_RATING and after["rated"] == 0
    assert gs.record(after, view, 3, 1000) is after  # the same deal again (a reload) changes nothing
    assert start["buckets"] == {} and start["current"]["recorded"] == []


def test_a_lost_deal_a_deal_without_a_winner_and_a_deal_in_play() -> None:
    s = started()
    s = gs.record(s, finished(deal=1, winner=1, points=3, basis="schwarz", closed_by=0), 3, 0)
    s = gs.record(s, finished(deal=2, winner=None, basis="none"), 3, 0)
    b = s["buckets"]["HU24|3"]
    assert b["deals"] == {"won": 0, "lost": 1, "none": 1}
    assert b["points"] == {"won": 0, "lost": 3}
    assert b["basis"] == {"schwarz": {"won": 0, "lost": 1}}
    assert b["closes"] == {"made": 1, "won": 0}
    assert gs.record(s, {**finished(deal=3), "deal_result": None}, 3, 0) is s


def test_a_won_match_raises_the_rating_and_is_remembered() -> None:
    after = gs.record(started(), finished(deal=5, match_winner=0), 5, 777)
    assert after["buckets"]["HU24|5"]["matches"] == {"won": 1, "lost": 0}
    rating = gs.rated_after(gs.START_RATING, 5, True)
    assert after["rating"] == rating and after["rated"] == 1
    assert after["history"] == [{"t": 777, "rating": rating, "level": 5, "won": True}]
    lost = gs.record(after, finished(match=2, deal=1, winner=1, match_winner=1), 3, 1000)
    assert lost["buckets"]["HU24|3"]["matches"] == {"won": 0, "lost": 1}
    assert lost["rating"] == gs.rated_after(rating, 3, False)
    assert lost["rated"] == 2 and len(lost["history"]) == 2


def test_an_assisted_match_counts_in_the_totals_but_not_in_the_rating() -> None:
    assisted = gs.mark_assisted(started())
    assert assisted["current"]["assisted"] is True
    assert gs.mark_assisted(assisted) is assisted
    after = gs.record(assisted, finished(match_winner=0), 3, 0)
    assert after["buckets"]["HU24|3"]["matches"] == {"won": 1, "lost": 0}
    assert after["rating"] == gs.START_RATING and after["rated"] == 0 and after["history"] == []


def test_a_game_that_does_not_count_records_its_deals_but_no_numbers() -> None:
    after = gs.record(started(counted=False), finished(match_winner=0), 3, 0)
    assert after["current"]["recorded"] == ["1.1"]
    assert after["buckets"] == {} and after["rated"] == 0


def test_changed_rules_count_apart_from_their_preset() -> None:
    assert not gs.is_custom(HU24)
    assert gs.is_custom({**HU24, "resign": not HU24["resign"]})
    assert gs.is_custom({**HU24, "id": "XX24"})
    after = gs.record(gs.empty_stats(0), finished(rules={**HU24, "match_target": 3}), 3, 0)
    assert list(after["buckets"]) == ["HU24*|3"] and after["buckets"]["HU24*|3"]["custom"] is True
    assert gs.bucket_key("HU24", True, 3) == "HU24*|3"
    assert gs.deal_key(finished(match=4, deal=9)) == "4.9"


def test_the_commands_count_a_finished_deal_once_and_only_against_the_computer() -> None:
    engine = Engine()
    stats = ask(engine, cmd="stats_begin", stats=gs.empty_stats(0))["stats"]
    assert stats["current"] == {"recorded": [], "counted": True}
    view = finished(deal=1, winner=0, points=2)
    record = {"cmd": "stats_record", "view": view, "level": 3, "mode": "computer", "now": 5}
    answer = ask(engine, **record, stats=stats)
    assert answer["ok"] and answer["changed"]
    stats = answer["stats"]
    again = ask(engine, **record, stats=stats)
    assert not again["changed"] and again["stats"] == stats
    # Two people at one device, or the computer against itself: nothing counts.
    for mode in ("hotseat", "watch", "online"):
        other = ask(engine, **{**record, "mode": mode, "view": finished(deal=2)}, stats=stats)
        assert not other["changed"] and other["stats"] == stats
        assert not ask(engine, cmd="stats_assisted", stats=stats, mode=mode)["changed"]
    assisted = ask(engine, cmd="stats_assisted", stats=stats, mode="computer")
    assert assisted["changed"] and assisted["stats"]["current"]["assisted"] is True
    stats = ask(engine, **{**record, "view": finished(deal=2, match_winner=0)}, stats=assisted["stats"])["stats"]
    assert stats["buckets"]["HU24|3"]["deals"] == {"won": 2, "lost": 0, "none": 0}
    assert stats["buckets"]["HU24|3"]["matches"] == {"won": 1, "lost": 0}
    assert stats["rated"] == 0  # assisted
    assert stats["current"]["recorded"] == ["1.1", "1.2"]
    tutorial = ask(engine, cmd="stats_begin", stats=stats, counted=False)["stats"]
    assert tutorial["current"] == {"recorded": [], "counted": False}


def test_a_real_view_of_a_finished_deal_is_counted() -> None:
    engine = Engine()

    def tool(**request: Any) -> dict[str, Any]:
        answer: dict[str, Any] = json.loads(engine.handle(json.dumps({"v": 1, **request})))
        assert answer["ok"], answer
        return answer

    game = tool(cmd="new_game", preset="AT20", seed=3)["game"]
    view = tool(cmd="view", game=game, seat=0)["view"]
    while not view["deal_result"]:
        seat = view["to_act"]
        action = tool(cmd="legal", game=game, seat=seat)["actions"][0]
        view = tool(cmd="act", game=game, seat=seat, action=action, observer=0)["view"]
    stats = gs.begin(gs.empty_stats(0), True)
    answer = ask(engine, cmd="stats_record", stats=stats, view=view, level=1, mode="computer", now=1)
    assert answer["changed"]
    bucket = answer["stats"]["buckets"]["AT20|1"]
    assert sum(bucket["deals"].values()) == 1


@pytest.mark.parametrize(
    ("change", "message"),
    [
        (lambda r: r.pop("stats"), "missing argument 'stats'"),
        (lambda r: r.update(stats=[]), "argument 'stats': not an object"),
        (lambda r: r["stats"].update(schema=1), "argument 'stats': schema 1"),
        (lambda r: r["stats"].update(rating=float("nan")), "bad_json"),
        (lambda r: r["stats"].update(rating=9000), "argument 'stats': rating is not a rating 0-5000"),
        (
            lambda r: r["stats"]["buckets"].update({"HU24|3": {"preset": "HU24", "custom": False, "level": 2}}),
            "argument 'stats': buckets[HU24|3]",
        ),
        (
            lambda r: r["stats"].update(current={"recorded": ["x"], "counted": True}),
            "argument 'stats': current is damaged",
        ),
        (lambda r: r["stats"]["history"].append({"t": "soon"}), "argument 'stats': a history point is damaged"),
        (lambda r: r.update(view=[]), "argument 'view' must be a view"),
        (lambda r: r["view"]["match"].pop("deal_number"), "argument 'view': match.match_number"),
        (lambda r: r["view"]["deal_result"].update(winner=2), "argument 'view': deal_result.winner"),
        (lambda r: r.update(level=7), "argument 'level' must be a level 0-5"),
        (lambda r: r.update(level="3"), "argument 'level' must be a level 0-5"),
        (lambda r: r.update(now=-1), "argument 'now' must be a time"),
        (lambda r: r.pop("mode"), "missing argument 'mode'"),
    ],
)
def test_a_malformed_request_is_refused_in_words_and_changes_nothing(change: Any, message: str) -> None:
    engine = Engine()
    stats = gs.record(started(), finished(deal=1, winner=0, points=2), 3, 0)
    request: dict[str, Any] = {
        "v": 1,
        "cmd": "stats_record",
        "stats": copy.deepcopy(stats),
        "view": finished(deal=2, match_winner=0),
        "level": 3,
        "mode": "computer",
        "now": 10,
    }
    change(request)
    sent = copy.deepcopy(request)
    answer = json.loads(engine.handle_page(json.dumps(request)))
    assert answer["ok"] is False
    error = answer["error"]
    assert message in (error["code"] if message == "bad_json" else error["message"]), error
    assert error["code"] in ("bad_request", "bad_json")
    assert request == sent or message == "bad_json"  # the request was not changed
    assert engine.tables == {} and engine.games == {}
    # The statistics the page still holds are the ones it had: a good request then answers as before.
    good = ask(
        engine, cmd="stats_record", stats=stats, view=finished(deal=2, match_winner=0), level=3, mode="computer", now=10
    )
    assert good["ok"] and good["stats"]["rated"] == 1


def test_a_history_and_the_recorded_deals_are_kept_short() -> None:
    stats = started()
    stats["history"] = [{"t": i, "rating": 1200, "level": 3, "won": True} for i in range(gs.HISTORY_LIMIT)]
    stats["current"]["recorded"] = [f"1.{i}" for i in range(gs.RECORDED_LIMIT)]
    after = gs.record(stats, finished(match=2, deal=1, match_winner=0), 3, 99)
    assert len(after["history"]) == gs.HISTORY_LIMIT and after["history"][-1]["t"] == 99
    assert len(after["current"]["recorded"]) == gs.RECORDED_LIMIT and after["current"]["recorded"][-1] == "2.1"
    assert gs.check_stats(after) is after
