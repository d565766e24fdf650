"""Expert endgames: among the moves the exact solver ties, the one with the most chances, then the most margin."""

from __future__ import annotations

import itertools
import random
from collections.abc import Sequence

import pytest

from py_engine.ai.heuristic import claim_choice
from py_engine.ai.ismcts import MARGIN, Utility, exact_ranking, known_exactly
from py_engine.ai.player import decide, level_named
from py_engine.ai.solver import best_actions, solve
from py_engine.core.actions import CLAIM, action_name, parse_action
from py_engine.core.cards import SUITS, deck_cards, mask_of, parse_card
from py_engine.core.deal import Deal
from py_engine.core.rules import PRESET_IDS, PRESETS
from py_engine.core.scoring import schneider_points

from .test_ai import positions


def endgame(
    preset_id: str,
    hands: tuple[Sequence[str], Sequence[str]],
    trump: str,
    leader: int,
    card_points: tuple[int, int],
    tricks: tuple[int, int],
) -> Deal:
    """A deal after the talon is exhausted with exactly these hands, points and tricks, ``leader`` to lead."""
    rules = PRESETS[preset_id]
    deal = Deal(rules, deck_cards(rules.deck), 0)
    held = [mask_of([parse_card(card) for card in hand]) for hand in hands]
    suit = SUITS.index(trump)
    deal.hands = held
    deal.trump = suit
    deal.upcard = next(c for c in deck_cards(rules.deck) if c // 6 == suit and not (held[0] | held[1]) >> c & 1)
    deal.talon_pos = len(deal.talon)
    deal.exhausted = True
    deal.card_points = list(card_points)
    deal.tricks = list(tricks)
    deal.tricks_done = sum(tricks)
    deal.leader = deal.to_act = deal.last_winner = leader
    deal.strict_from = 0
    return deal


def _reference(deal: Deal, seat: int, utility: Utility, margin: float) -> float:
    """Plain minimax over ``Deal`` whose ends are worth ``margin`` per Schneider point of difference."""
    while deal.result is None and (claim := claim_choice(deal)) is not None:
        deal = deal.clone()
        deal.apply(claim[1], claim[0])
    if deal.result is not None:
        return utility(deal.result) + margin * (schneider_points(deal, seat) - schneider_points(deal, 1 - seat))
    values = []
    for action in deal.legal_actions():
        if action < CLAIM:
            child = deal.clone()
            child.apply(action)
            values.append(_reference(child, seat, utility, margin))
    return max(values) if deal.to_act == seat else min(values)


@pytest.mark.parametrize("preset_id", PRESET_IDS)
def test_the_solver_with_a_margin_is_minimax_with_the_margin_at_every_end(preset_id: str) -> None:
    checked = 0
    for deal in positions(preset_id, 6, 300):
        if not deal.strict or (deal.hands[0] | deal.hands[1]).bit_count() > 8:
            continue
        utility = Utility(deal.to_act, (5, 3), 1)
        table: dict[object, object] = {}
        expected = _reference(deal, utility.seat, utility, 0.001)
        assert solve(deal, utility.seat, utility, table, margin=0.001) == pytest.approx(expected)
        assert solve(deal, utility.seat, utility, {}) == pytest.approx(_reference(deal, utility.seat, utility, 0.0))
        checked += 1
    assert checked >= 10


def _chances(deal: Deal, seat: int, utility: Utility) -> float:
    """The reference of :func:`chances`, by plain minimax."""
    while deal.result is None and (claim := claim_choice(deal)) is not None:
        deal = deal.clone()
        deal.apply(claim[1], claim[0])
    if deal.result is not None:
        return utility(deal.result)
    children = []
    for action in deal.legal_actions():
        if action < CLAIM:
            child = deal.clone()
            child.apply(action)
            children.append((child, _reference(child, seat, utility, 0.0)))
    if deal.to_act != seat:
        return sum(value for _, value in children) / len(children)
    best = max(value for _, value in children)
    return max(_chances(child, seat, utility) for child, value in children if value >= best - 1e-9)


@pytest.mark.parametrize("preset_id", ["AT20", "HU24", "DE24", "KLUB20"])
def test_the_expert_orders_the_tied_best_moves_by_chances_then_margin_and_keeps_the_values(preset_id: str) -> None:
    reordered = 0
    rng = random.Random(3)
    for deal in positions(preset_id, 21, 1500):
        if not deal.exhausted or deal.cards_in_hands() > 8:
            continue
        seat = deal.to_act
        utility = Utility(seat, (rng.randint(1, 7), rng.randint(1, 7)), rng.randint(0, 1))
        plain = best_actions(deal, seat, utility, {})
        expert = exact_ranking(deal, seat, utility, expert=True)
        assert sorted(expert) == sorted(plain)  # the same actions with the same exact values
        best = plain[0][1]
        tied = [action for action, value in expert if value >= best - 1e-9]
        keys = []
        for action in tied:
            child = deal.clone()
            child.apply(action)
            keys.append((_chances(child, seat, utility), _reference(child, seat, utility, MARGIN)))
        for earlier, later in itertools.pairwise(keys):
            assert earlier[0] >= later[0] - 1e-9
            assert earlier[0] > later[0] + 1e-9 or earlier[1] >= later[1] - 1e-12
        reordered += expert[0][0] != plain[0][0]
    assert reordered >= 3


def test_losing_anyway_it_leads_the_card_that_lets_a_fallible_opponent_go_wrong() -> None:
    # Diamonds trump. Seat 1, on 26 card points, loses two game points against best play whatever it
    # leads: a club is trumped by the queen of diamonds (75, seat 1 Schneider). The king of spades must
    # be followed by the queen or the jack of spades: the queen lifts seat 1 to 33, out of Schneider
    # (one game point), the jack leaves it on 32. Only the king gives seat 0 a way to go wrong.
    deal = endgame("AT20", (["QD", "QS", "JS"], ["AC", "TC", "KS"]), "D", 1, (61, 26), (5, 2))
    utility = Utility(1)
    plain = best_actions(deal, 1, utility, {})
    assert all(value == pytest.approx(-2 / 3) for _, value in plain)  # every lead loses two game points
    expert = exact_ranking(deal, 1, utility, expert=True)
    assert action_name(expert[0][0]) == "play:KS"
    after = {action_name(a): _chances(_after(deal, a), 1, utility) for a, _ in plain}
    assert after["play:KS"] > after["play:AC"] and after["play:KS"] > after["play:TC"]


def test_winning_anyway_it_keeps_the_most_points_from_the_opponent() -> None:
    # Hearts trump. Seat 0, on 56, wins one game point whatever it leads; the opponent cannot go wrong
    # either way, so the lead that keeps the most card points from it comes first.
    deal = endgame("AT20", (["TH", "QD", "TC"], ["JD", "QC", "JC"]), "H", 0, (56, 34), (5, 2))
    utility = Utility(0)
    plain = best_actions(deal, 0, utility, {})
    assert all(value == pytest.approx(1 / 3) for _, value in plain)
    expert = exact_ranking(deal, 0, utility, expert=True)
    margins = {action_name(a): _reference(_after(deal, a), 0, utility, MARGIN) for a, _ in plain}
    assert action_name(expert[0][0]) == max(margins, key=margins.__getitem__) == "play:QD"
    assert len(set(margins.values())) > 1


def test_the_top_level_plays_endgames_as_the_expert_and_the_others_by_the_plain_order() -> None:
    deal = endgame("AT20", (["QD", "QS", "JS"], ["AC", "TC", "KS"]), "D", 1, (61, 26), (5, 2))
    assert known_exactly(deal)
    top = decide(deal, 1, level_named("5"), random.Random(1), Utility(1))
    assert action_name(top.action) == "play:KS" and top.stats["exact"]
    plain = decide(deal, 1, level_named("5"), random.Random(1), Utility(1), config=level_named("4").config_for(20))
    assert plain.action == best_actions(deal, 1, Utility(1), {})[0][0] != parse_action("play:KS")


def _after(deal: Deal, action: int) -> Deal:
    child = deal.clone()
    child.apply(action)
    return child


def test_the_endgames_command_compares_the_two_on_the_same_positions(capsys: pytest.CaptureFixture[str]) -> None:
    from lab import endgames

    assert endgames.main(["--positions", "12", "--seed", "2"]) == 0
    lines = capsys.readouterr().out.splitlines()
    assert lines[0].startswith("endgames AT20: level 5's exact play against heuristic, ")
    assert lines[2].startswith("difference ") and "game points per deal" in lines[2]
    deal = endgames.endgame(PRESETS["AT20"], 2_000_003)
    if deal is not None:  # finishing a position is a function of its seed
        seat = deal.to_act
        assert endgames.finish(deal, seat, True, "heuristic", 5) == endgames.finish(deal, seat, True, "heuristic", 5)
