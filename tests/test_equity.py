"""Playing the score: the chance to win the match, and the search's rewards by it."""

from __future__ import annotations

import functools
from dataclasses import replace

import pytest

from lab import score_gaps
from py_engine.ai import service as ai_service
from py_engine.ai.equity import MatchEquity, Outcomes, equity_for, score_utility, score_values
from py_engine.ai.ismcts import Utility
from py_engine.core.rules import PRESET_IDS, PRESETS
from py_engine.core.scoring import DealResult
from py_engine.service.match import Match

from .scenario import record_searches

#: A model with a tie, the forehand a little stronger than the dealer.
MODEL = Outcomes((0.30, 0.14, 0.06), (0.28, 0.12, 0.05), 0.05)


def iterated(equity: MatchEquity, target: int, rounds: int = 400) -> dict[tuple[int, int, int, bool], float]:
    """The chances by plain value iteration over every state (an independent check of the recursion)."""
    states = [
        (a, b, c, d)
        for a in range(1, target + 1)
        for b in range(1, target + 1)
        for c in range(target + 1)
        for d in (True, False)
    ]
    value = dict.fromkeys(states, 0.5)

    def get(a: int, b: int, c: int, d: bool) -> float:
        if a <= 0:
            return 1.0
        if b <= 0:
            return 0.0
        return value[(a, b, min(c, target), d)]

    for _ in range(rounds):
        for a, b, c, d in states:
            mine = MODEL.dealer if d else MODEL.forehand
            theirs = MODEL.forehand if d else MODEL.dealer
            total = 0.0
            for points in (1, 2, 3):
                total += mine[points - 1] * get(a - points - c, b, 0, equity.after_win(True, d))
                total += theirs[points - 1] * get(a, b - points - c, 0, equity.after_win(False, d))
            total += MODEL.tie * get(a, b, c + 1 if equity.carry_over else c, not d)
            value[(a, b, c, d)] = total
    return value


@pytest.mark.parametrize("next_dealer", ["alternate", "winner", "loser"])
@pytest.mark.parametrize("carry_over", [True, False])
def test_the_chance_to_win_the_match_is_the_models_exact_value(next_dealer: str, carry_over: bool) -> None:
    equity = MatchEquity(MODEL, next_dealer, carry_over)
    for (a, b, c, d), expected in iterated(equity, 7).items():
        assert equity.chance(a, b, c, d) == pytest.approx(expected, abs=1e-9)


def test_the_two_seats_chances_add_up_to_one_and_fall_with_what_a_seat_needs() -> None:
    for preset_id in PRESET_IDS:
        rules = PRESETS[preset_id]
        equity = equity_for(rules)
        for mine in range(1, 8):
            for theirs in range(1, 8):
                for carry in (0, 1, 2):
                    for i_deal in (True, False):
                        chance = equity.chance(mine, theirs, carry, i_deal)
                        assert chance + equity.chance(theirs, mine, carry, not i_deal) == pytest.approx(1.0)
                        if mine < 7:
                            assert chance >= equity.chance(mine + 1, theirs, carry, i_deal) - 1e-12
        assert 0.45 < equity.chance(7, 7, 0, False) < 0.55  # about even at the start


def test_at_six_all_one_game_point_is_as_good_as_three() -> None:
    values = score_values(PRESETS["AT20"], 1, 1, 0, True)
    assert values is not None
    won, lost = values[1:4], values[5:8]
    assert won == (1.0, 1.0, 1.0) and lost == (-1.0, -1.0, -1.0)


def test_behind_nought_to_six_a_risky_three_beats_a_safe_single_point() -> None:
    values = score_values(PRESETS["AT20"], 7, 1, 0, False)
    assert values is not None
    win1, win3, lose = values[1], values[3], values[5]
    assert lose == values[6] == values[7] == -1.0 and win3 == 1.0
    assert (win3 + lose) / 2 > win1  # a close that wins three or loses, half and half, beats one sure point
    deal_only = Utility(0, (7, 1), 0)  # the game-point reward at 0:6: indifferent between the two
    one = deal_only(DealResult(0, 1, "", "")), deal_only(DealResult(0, 3, "", "")), deal_only(DealResult(1, 1, "", ""))
    assert (one[1] + one[2]) / 2 == pytest.approx(one[0])


def test_a_carried_point_makes_a_single_point_enough() -> None:
    values = score_values(PRESETS["DE24"], 2, 4, 1, True)  # 5:3 with a point carried over: one point wins
    assert values is not None and values[1] == values[3] == 1.0
    assert values[8] > values[5]  # a tie (another point carried over) is better than losing one


def test_the_search_values_results_by_the_match_only_where_its_config_plays_the_score(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    searched = record_searches(monkeypatch)
    match = Match(PRESETS["AT20"], 3)
    match.scores = [0, 6]  # the seat to act is behind 0:6 (a score the protocol's match holds)
    seat = match.deal.to_act
    match.scores = [6, 0] if seat == 1 else [0, 6]
    request = ai_service.Request(level="5", iterations=30, seed=1)
    ai_service.choose(match, seat, request)
    ai_service.choose(match, seat, ai_service.Request(level="4", iterations=30, seed=1))
    ai_service.rank(match, seat, ai_service.Request(budget_ms=50, seed=1))
    top, level4, hint = (s.utility for s in searched)
    assert top.needs[seat] == 7 and top.needs[1 - seat] == 1
    assert top.values == score_values(PRESETS["AT20"], 7, 1, 0, match.deal.dealer == seat)
    assert level4.values is None  # the lower levels play the deal
    assert hint.values is None  # hints and reviews show game points
    assert score_utility(Utility(seat, (1, 1), 0), match.deal).values is not None


def test_the_outcomes_command_measures_shares_that_add_up_to_one(capsys: pytest.CaptureFixture[str]) -> None:
    from lab import outcomes

    measured = outcomes.measure(PRESETS["DE24"], 60, "heuristic", 3)
    assert sum(measured.forehand) + sum(measured.dealer) + measured.tie == pytest.approx(1.0, abs=1e-3)
    assert outcomes.main(["--deals", "10", "AT20"]) == 0
    assert capsys.readouterr().out.startswith('    "AT20": Outcomes((')
    with pytest.raises(SystemExit):
        outcomes.main(["XX99"])


def test_the_deal_only_and_score_aware_rewards_differ_only_where_the_cap_misses_the_match() -> None:
    rules = PRESETS["AT20"]
    assert score_gaps.deal_only_values(7, 7, 0) == pytest.approx((1 / 3, 1 / 3, 2 / 3, 1, -1 / 3, -1 / 3, -2 / 3, -1))
    assert score_gaps.largest_gap(rules, 7, 7, 0, False) < 0.02  # 0:0: nearly the same rewards
    assert score_gaps.largest_gap(rules, 1, 1, 0, False) == 0.0  # 6:6: every win (and loss) alike for both
    assert score_gaps.largest_gap(rules, 3, 1, 0, False) > 0.3  # 4:6: one point is worth little, two a lot


def test_the_model_matches_play_as_many_deals_as_a_direct_recursion_expects() -> None:
    rules = replace(PRESETS["HU24"], match_target=5)
    equity = equity_for(rules)
    assert equity.carry_over  # a tie carries a point over
    outcomes = equity.outcomes
    target = rules.match_target

    @functools.cache
    def deals_from(zero: int, one: int, carry: int, zero_deals: bool, depth: int) -> float:
        if zero >= target or one >= target or depth == 0:
            return 0.0
        zero_odds = outcomes.dealer if zero_deals else outcomes.forehand
        one_odds = outcomes.forehand if zero_deals else outcomes.dealer
        expected = 1.0 + outcomes.tie * deals_from(zero, one, carry + 1, not zero_deals, depth - 1)
        for points in (1, 2, 3):
            won = deals_from(zero + points + carry, one, 0, equity.after_win(True, zero_deals), depth - 1)
            lost = deals_from(zero, one + points + carry, 0, equity.after_win(False, zero_deals), depth - 1)
            expected += zero_odds[points - 1] * won + one_odds[points - 1] * lost
        return expected

    reach = score_gaps.expected_deals(rules)
    assert reach[0, 0, 0, True] == pytest.approx(0.5)
    assert sum(reach.values()) == pytest.approx((deals_from(0, 0, 0, True, 60) + deals_from(0, 0, 0, False, 60)) / 2)
    gaps = score_gaps.decision_gaps(rules, reach)
    shares = [score_gaps.share_above(gaps, threshold) for threshold in (0.1, 0.2, 0.3)]
    assert 1.0 >= shares[0] >= shares[1] >= shares[2] >= 0.0


def test_the_score_gaps_command_prints_a_table_and_the_shares(capsys: pytest.CaptureFixture[str]) -> None:
    assert score_gaps.main(["AT20"]) == 0
    out = capsys.readouterr().out
    assert len([line for line in out.splitlines() if line[:4].strip().isdigit()]) == 7
    assert out.count("decisions at scores where a reward differs") == 3
    assert "a model match reaches a score where one differs by more than 0.2" in out


def test_the_first_score_with_a_gap_is_reached_at_most_once_and_never_at_nought_all() -> None:
    rules = PRESETS["AT20"]
    first = score_gaps.first_reached(rules, 0.2)
    assert 0.0 < sum(first.values()) <= 1.0 and (0, 0) not in first

    def gapped(a: int, b: int) -> bool:
        seats = ((7 - a, 7 - b), (7 - b, 7 - a))
        return any(score_gaps.largest_gap(rules, m, t, 0, deal) > 0.2 for m, t in seats for deal in (True, False))

    assert all(gapped(a, b) for a, b in first)
    assert score_gaps.first_reached(rules, -1.0) == {(0, 0): pytest.approx(1.0)}  # every score counts: 0:0 first


def test_the_changed_moves_are_counted_at_decisions_with_a_choice_and_repeat_exactly() -> None:
    rules = PRESETS["AT20"]
    positions = score_gaps.sample_positions(rules, 4, seed=3)
    assert len(positions) == 4
    assert all(seat == deal.to_act and len(deal.legal_actions(seat)) > 1 for deal, seat in positions)
    counted = score_gaps.moves_changed(rules, (5, 5), 4, seed=3, iterations=60)
    assert all(0 <= count <= 4 for count in counted)
    assert score_gaps.moves_changed(rules, (5, 5), 4, seed=3, iterations=60) == counted
