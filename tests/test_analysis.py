"""The analysis board: positions replayed by the engine, variations, and values equal to the engine's own."""

from __future__ import annotations

import json
import random
from typing import Any

import pytest

from py_engine.ai import OpenCards, Request, match_utility, rank_exactly
from py_engine.ai.heuristic import after_claims, claim_choice, rollout_action
from py_engine.ai.ismcts import Utility
from py_engine.ai.solver import best_actions, solve
from py_engine.core.actions import CLAIM, CLOSE, action_name
from py_engine.core.deal import Deal
from py_engine.core.rules import PRESETS
from py_engine.puzzles import catalogue
from py_engine.service import links
from py_engine.service.analysis import MAX_NODES, AnalysisError, Board
from py_engine.service.protocol import PAGE_COMMANDS, Engine
from py_engine.service.record import load_record

from .test_links import played_match


def call(engine: Engine, page: bool = True, **req: Any) -> dict[str, Any]:
    req.setdefault("v", 1)
    req.setdefault("id", 3)
    text = json.dumps(req)
    out: dict[str, Any] = json.loads(engine.handle_page(text) if page else engine.handle(text))
    return out


def finished_table(engine: Engine, preset_id: str = "AT20", seed: int = 5, deals: int = 1) -> str:
    """A watched game whose first ``deals`` deals are over (the computer at its quickest)."""
    table = call(engine, cmd="table_new", preset=preset_id, seed=seed, seating={"mode": "watch", "levels": [1, 1]})
    handle = str(table["table"])
    done = 0
    while done < deals:
        answer = call(engine, cmd="table_computer", table=handle, seed=1, timed=False)
        assert answer["ok"], answer
        if answer["view"]["deal_result"]:
            done += 1
    return handle


def reviewed_whole(engine: Engine, table: str, evaluate: list[int], budget_ms: int) -> dict[str, Any]:
    """Deal 0's review with every decision evaluated, asked for in parts as the page does.

    One request stops at MAX_REVIEW_MS of search (by the clock: on a busy machine it gets through fewer
    decisions) and says where to go on (``next_step``)."""
    ask: dict[str, Any] = {"cmd": "table_review", "table": table, "deal": 0}
    ask.update(evaluate=evaluate, budget_ms=budget_ms)
    review = call(engine, **ask)["review"]
    steps = review["steps"]
    while review["next_step"] is not None:
        start = review["next_step"]
        review = call(engine, **ask, from_step=start)["review"]
        steps[start:] = review["steps"][start:]
    return {**review, "steps": steps}


def test_the_board_opens_only_on_a_finished_deal_and_shows_the_deal_as_played() -> None:
    engine = Engine()
    table = call(engine, cmd="table_new", preset="AT20", seed=3, seating={"mode": "watch"})["table"]
    refused = call(engine, cmd="analysis_open", table=table, deal=0)
    assert refused["error"]["code"] == "bad_link" and refused["error"]["detail"]["reason"] == "unfinished"
    assert call(engine, cmd="link_make", table=table, deal=0)["error"]["detail"]["reason"] == "unfinished"
    assert not engine.boards
    table = finished_table(engine)
    opened = call(engine, cmd="analysis_open", table=table, deal=0)
    review = call(engine, cmd="table_review", table=table, deal=0)["review"]
    board = opened["board"]
    assert opened["trump_suit"] == review["trump_suit"] and opened["moves"] == len(review["steps"])
    assert opened["position"]["state"] == review["start"] and opened["position"]["node"] == 0
    node = 0
    for number, step in enumerate(review["steps"], start=1):
        shown = call(engine, cmd="analysis_show", board=board, node=node)["position"]
        assert shown["played"] == step["action"]
        assert {"seat": step["seat"], "action": step["action"]} in shown["options"]
        tree = {n["id"]: n for n in opened["tree"]}
        node = next(c for c in tree[node]["children"] if tree[c]["main"])
        after = call(engine, cmd="analysis_show", board=board, node=node)["position"]
        assert after["state"] == step["state"] and after["events"] == step["events"] and after["ply"] == number
    assert after["over"] and after["result"] == review["result"] and after["options"] == []


def test_variations_grow_a_tree_and_bad_moves_change_nothing() -> None:
    engine = Engine()
    table = finished_table(engine, "HU24", seed=8)
    opened = call(engine, cmd="analysis_open", table=table, deal=0)
    board = opened["board"]
    start = opened["position"]
    other = next(o for o in start["options"] if o["action"] != start["played"])
    played = call(engine, cmd="analysis_play", board=board, node=0, **other)
    branch = played["node"]
    assert not played["position"]["main"] and played["position"]["ply"] == 1
    assert played["position"]["events"][0]["type"] in ("play", "marriage", "exchange", "close")
    again = call(engine, cmd="analysis_play", board=board, node=0, **other)
    assert again["node"] == branch and len(again["tree"]) == len(played["tree"])
    tree_before = played["tree"]
    for bad in (
        {"node": branch, "seat": 0, "action": "play:XX"},
        {"node": branch, "action": "marry:Q"},
        {"node": 999, "action": "close"},
        {"node": "1", "action": "close"},
        {"node": branch, "seat": 2, "action": "close"},
        {"node": branch, "seat": 1 - played["position"]["to_act"], "action": "close"},
    ):
        answer = call(engine, cmd="analysis_play", board=board, **bad)
        assert not answer["ok"], bad
        assert answer["error"]["code"] in ("bad_action", "bad_request", "not_your_turn", "illegal_action"), answer
    # Illegal: a card not in hand.
    hand = played["position"]["state"]["hands"][played["position"]["to_act"]]
    missing = next(c for c in ("AH", "TH", "KH", "QH", "JH", "9H", "AS") if c not in hand)
    assert call(engine, cmd="analysis_play", board=board, node=branch, action=f"play:{missing}")["ok"] is False
    assert engine.boards[board].tree() == tree_before
    # Play the variation on to the end of the deal, each move as the seat on turn.
    node = branch
    while True:
        position = call(engine, cmd="analysis_show", board=board, node=node)["position"]
        if position["over"]:
            break
        move = position["options"][-1]
        node = call(engine, cmd="analysis_play", board=board, node=node, **move)["node"]
    assert position["result"]["code"]
    assert call(engine, cmd="analysis_remove", board=board, node=1)["error"]["code"] == "bad_request"
    removed = call(engine, cmd="analysis_remove", board=board, node=branch)
    assert removed["node"] == 0 and removed["tree"] == opened["tree"]
    assert call(engine, cmd="analysis_show", board=board, node=branch)["error"]["code"] == "bad_request"
    assert call(engine, cmd="analysis_close", board=board) == {"v": 1, "id": 3, "ok": True}
    assert call(engine, cmd="analysis_show", board=board, node=0)["error"]["code"] == "unknown_game"


def test_a_board_keeps_a_bounded_number_of_positions(monkeypatch: pytest.MonkeyPatch) -> None:
    from py_engine.service import analysis

    board = Board(links.deal_link(played_match("AT20", 1), 0))
    monkeypatch.setattr(analysis, "MAX_NODES", len(board.nodes) + 1)
    assert MAX_NODES >= 1000
    options = board.position(0)["options"]
    played = board.position(0)["played"]
    fresh = [o for o in options if o["action"] != played]
    board.play(0, fresh[0]["seat"], fresh[0]["action"])
    with pytest.raises(AnalysisError):
        board.play(0, fresh[1]["seat"], fresh[1]["action"])


def test_links_open_the_board_at_their_position() -> None:
    engine = Engine()
    table = finished_table(engine, "DE24", seed=2)
    opened = call(engine, cmd="analysis_open", table=table, deal=0, seat=1)
    board = opened["board"]
    tree = {n["id"]: n for n in opened["tree"]}
    node = next(c for c in tree[0]["children"] if tree[c]["main"])
    node = next(c for c in tree[node]["children"] if tree[c]["main"])
    shown = call(engine, cmd="analysis_show", board=board, node=node)["position"]
    other = next(o for o in shown["options"] if o["action"] != shown["played"])
    branch = call(engine, cmd="analysis_play", board=board, node=node, **other)
    text = call(engine, cmd="link_make", board=board, node=branch["node"])["link"]
    reopened = call(engine, cmd="link_open", link=text)
    assert reopened["kind"] == "deal" and reopened["seat"] == 1
    assert reopened["position"]["state"] == branch["position"]["state"] and reopened["position"]["ply"] == 3
    assert not reopened["position"]["main"]
    at_step = call(engine, cmd="analysis_open", table=table, deal=0, step=2)["position"]
    assert at_step["ply"] == 2 and at_step["main"] and at_step["state"] == shown["state"]
    on_main = call(engine, cmd="link_make", table=table, deal=0, step=2)["link"]
    assert call(engine, cmd="link_open", link=on_main)["position"]["state"] == shown["state"]
    assert call(engine, cmd="link_make", table=table, deal=0, step=999)["error"]["code"] == "bad_link"
    puzzle_id = catalogue.builtin()[0].id
    puzzle = call(engine, cmd="link_make", puzzle=puzzle_id)["link"]
    assert call(engine, cmd="link_open", link=puzzle) == {
        "v": 1,
        "id": 3,
        "ok": True,
        "kind": "puzzle",
        "puzzle": puzzle_id,
    }
    for damaged, reason in (("deal=1.AAAA", "damaged"), ("deal=9.AAAA", "version"), ("join=x", "not_link")):
        error = call(engine, cmd="link_open", link=damaged)["error"]
        assert error["code"] == "bad_link" and error["detail"]["reason"] == reason
    assert len(engine.boards) == 4
    assert {"analysis_open", "analysis_evaluate", "link_open", "link_make"} <= PAGE_COMMANDS


def test_values_from_what_the_mover_knew_equal_the_engines_own() -> None:
    """The board's evaluation of a position is rank_exactly's on the same position, replayed as the review does."""
    engine = Engine()
    table = finished_table(engine, "AT20", seed=11, deals=2)
    record = engine.tables[table].match.record()
    opened = call(engine, cmd="analysis_open", table=table, deal=1)
    board = opened["board"]
    tree = {n["id"]: n for n in opened["tree"]}
    entry = record["deals"][1]
    node = 0
    checked = 0
    for number, (seat, _) in enumerate(entry["actions"]):
        if number in (0, 3, 6):
            answer = call(
                engine, cmd="analysis_evaluate", board=board, node=node, iterations=120, budget_ms=2000, seed=4
            )["evaluation"]
            replay = load_record(
                {**record, "deals": [record["deals"][0], {**entry, "actions": entry["actions"][:number]}]}
            )
            if len(replay.legal(seat)) > 1:
                ranking, exact = rank_exactly(
                    replay, seat, Request(budget_ms=2000, iterations=120, seed=4), every_action=True
                )
                expected = [{"action": action_name(a), "value": v, "exact": a in exact} for a, v in ranking]
                assert answer["seat"] == seat and answer["ranking"] == expected
                checked += 1
        node = next(c for c in tree[node]["children"] if tree[c]["main"])
    assert checked >= 2


def test_exact_values_equal_the_reviews() -> None:
    """Where the review's values are exact (the solved endgame), the board gives the same, whatever the budget."""
    engine = Engine()
    table = finished_table(engine, "AT20", seed=21)
    review = reviewed_whole(engine, table, evaluate=[0, 1], budget_ms=50)
    opened = call(engine, cmd="analysis_open", table=table, deal=0)
    tree = {n["id"]: n for n in opened["tree"]}
    node = 0
    compared = 0
    for step in review["steps"]:
        if step.get("exact"):
            answer = call(engine, cmd="analysis_evaluate", board=opened["board"], node=node, budget_ms=60)["evaluation"]
            exact = {e["action"]: e["value"] for e in answer["ranking"] if e["exact"]}
            for entry in step["ranking"]:
                if entry["action"] in exact and entry["action"] in (step["action"], step["ranking"][0]["action"]):
                    assert exact[entry["action"]] == entry["value"]
                    compared += 1
        node = next(c for c in tree[node]["children"] if tree[c]["main"])
    assert compared >= 1


def _minimax(deal: Deal, seat: int, utility: Utility) -> float:
    """Plain minimax over the deal itself while cards are drawn, every card known (no table, no pruning), then the
    solver (checked against plain minimax in test_ai.py): the reference."""
    deal = after_claims(deal)
    if deal.result is not None:
        return utility(deal.result)
    if deal.strict:
        return solve(deal, seat, utility, {})
    values = []
    for action in deal.legal_actions():
        if action >= CLAIM:
            continue
        child = deal.clone()
        child.apply(action)
        values.append(_minimax(child, seat, utility))
    return max(values) if deal.to_act == seat else min(values)


@pytest.mark.parametrize("preset_id", ["AT20", "HU24", "PL24", "KLUB20"])
def test_all_card_values_are_the_exact_minimax(preset_id: str) -> None:
    """Late in the open talon, the all-cards values are exact and equal a plain minimax; once nothing is drawn,
    the solver's."""
    checked = 0
    for seed in range(3):
        rng = random.Random(seed)
        deal = Deal(PRESETS[preset_id], _pack(preset_id, seed), seed % 2)
        while deal.result is None and not deal.strict and (deal.face_down_left > 2 or deal.lead >= 0):
            claim = claim_choice(deal)
            if claim is not None:
                deal.apply(claim[1], claim[0])
            else:
                deal.apply(rollout_action(deal, rng, 0.2, False))
        if deal.result is not None or deal.strict:
            continue
        seat = deal.to_act
        utility = Utility(seat)
        actions = [a for a in deal.legal_actions() if a < CLAIM]
        ranking, exact, _ = OpenCards(seat, utility).rank(deal, actions, 60.0, rng)
        assert exact == set(actions)
        for action, value in ranking:
            child = deal.clone()
            child.apply(action)
            assert value == pytest.approx(_minimax(child, seat, utility), abs=1e-4)
            checked += 1
        # Closed now: the solver's values.
        if CLOSE in deal.legal_actions():
            closed = deal.clone()
            closed.apply(CLOSE)
            closed = after_claims(closed)
            if closed.result is None and closed.to_act == seat:
                moves = [a for a in closed.legal_actions() if a < CLAIM]
                ranking, exact, _ = OpenCards(seat, utility).rank(closed, moves, 60.0, rng)
                expected = dict(best_actions(closed, seat, utility, {}))
                assert {a: v for a, v in ranking} == pytest.approx({a: round(v, 4) for a, v in expected.items()})
                assert solve(closed, seat, utility, {}) == pytest.approx(max(expected.values()))
    assert checked >= 3


def _pack(preset_id: str, seed: int) -> list[int]:
    from py_engine.core.cards import deck_cards

    cards = deck_cards(PRESETS[preset_id].deck)
    random.Random(seed).shuffle(cards)
    return cards


def test_all_card_evaluation_through_the_protocol() -> None:
    engine = Engine()
    table = finished_table(engine, "AT20", seed=13)
    opened = call(engine, cmd="analysis_open", table=table, deal=0)
    board = opened["board"]
    tree = {n["id"]: n for n in opened["tree"]}
    last_decision = None
    node = 0
    while tree[node]["children"]:
        position = call(engine, cmd="analysis_show", board=board, node=node)["position"]
        if position["state"]["talon"] == [] and len(position["options"]) > 1:
            last_decision = node
        node = next(c for c in tree[node]["children"] if tree[c]["main"])
    assert last_decision is not None
    answer = call(engine, cmd="analysis_evaluate", board=board, node=last_decision, all_cards=True, budget_ms=500)
    evaluation = answer["evaluation"]
    assert evaluation["all_cards"] and evaluation["exact"] and evaluation["ranking"]
    mover = call(engine, cmd="analysis_evaluate", board=board, node=last_decision, budget_ms=100)["evaluation"]
    if mover["exact"]:  # the talon used up and few cards left: both are the solver's values
        assert {e["action"]: e["value"] for e in mover["ranking"]} == {
            e["action"]: e["value"] for e in evaluation["ranking"]
        }
    # Early in the deal, in a moment: exact where the minimax ended, else estimated and said so.
    early = call(engine, cmd="analysis_evaluate", board=board, node=0, all_cards=True, budget_ms=200)["evaluation"]
    assert early["ranking"] and all(isinstance(e["exact"], bool) for e in early["ranking"])
    assert early["exact"] == all(e["exact"] for e in early["ranking"])
    over = call(engine, cmd="analysis_evaluate", board=board, node=node, all_cards=True)["evaluation"]
    assert over["ranking"] == [] and over["seat"] is None
    for bad in ({"budget_ms": 0}, {"budget_ms": 2001}, {"all_cards": "yes"}, {"iterations": -1}, {"node": None}):
        args = {"board": board, "node": last_decision, **bad}
        assert call(engine, cmd="analysis_evaluate", **args)["error"]["code"] == "bad_request", bad


def test_match_context_of_a_later_deal_carries_into_the_values() -> None:
    match = played_match("AT20", 9, deals=3)
    link = links.deal_link(match, 2)
    board = Board(link)
    replay = board.replay(0)
    assert replay.scores == list(link.scores) and replay.carry == link.carry
    before = load_record(
        {**match.record(), "deals": [*match.record()["deals"][:2], {**match.record()["deals"][2], "actions": []}]}
    )
    seat = replay.deal.to_act
    assert match_utility(seat, replay.scores, 7, replay.carry) == match_utility(seat, before.scores, 7, before.carry)
