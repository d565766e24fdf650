"""Where playing the score changes the search's rewards: ``python -m lab.score_gaps AT20``.

The deal-only search values a result by its game points capped at what the
winner still needs (:class:`~py_engine.ai.ismcts.Utility`); the score-aware
one by the chance to win the match after it (:func:`~py_engine.ai.equity.score_values`).
Scaled alike (winning three +1, losing three -1: a scaling that changes no
choice between actions of known mean reward, though the tree's exploration
weighs a narrower range less), they differ only where the cap misses what
the match asks. For a preset this prints, for the seat that leads the
deal, the largest difference over the results (winning or
losing 1, 2 or 3 game points) at every score, and the share of the
decisions that matches between two equal players of the model
(:class:`~py_engine.ai.equity.MatchEquity`) make from 0:0 at scores where
that difference exceeds 0.1, 0.2 and 0.3, and the chance that such a
match ever reaches a score where it exceeds 0.2, by the score first
reached (where a head to head from that score says what playing it gains).

``--moves N --score X:Y`` also asks how often the difference changes level
5's move: at N positions of rule-of-thumb deals (about one decision in
seven, two or more legal moves), with the seat at X and its opponent at Y,
it counts the moves that the score-aware search chooses otherwise than the
deal-only one with the same random numbers, and, for scale, the moves that
the deal-only search chooses otherwise with other random numbers.
"""

from __future__ import annotations

import argparse
import functools
import random
import sys
from collections.abc import Callable
from dataclasses import replace

from py_engine.ai.equity import equity_for, scaled, score_values
from py_engine.ai.ismcts import Utility
from py_engine.ai.player import decide, forced_decision, level_named, seat_to_decide
from py_engine.core.deal import Deal
from py_engine.core.rules import PRESET_IDS, PRESETS, Rules
from py_engine.core.scoring import DealResult
from py_engine.service.match import Match

#: A state between two deals: (seat 0's score, seat 1's score, carried-over points, whether seat 0 deals).
State = tuple[int, int, int, bool]


def deal_only_values(mine: int, theirs: int, carry: int) -> tuple[float, ...]:
    """The deal-only rewards of winning 0-3 game points and of losing 0-3 (as ``score_values`` orders them),
    scaled so that winning three is +1 and losing three -1."""
    utility = Utility(0, (mine, theirs), carry)
    won = [utility(DealResult(0, max(1, points), "", "", None)) for points in range(4)]
    lost = [utility(DealResult(1, max(1, points), "", "", None)) for points in range(4)]
    return scaled(won, lost)


def largest_gap(rules: Rules, mine: int, theirs: int, carry: int, i_deal: bool) -> float:
    """The largest difference between the two scaled rewards over the results with 1-3 game points, for
    a seat that needs ``mine`` against ``theirs`` (0 where every result decides the match alike)."""
    aware = score_values(rules, mine, theirs, carry, i_deal)
    if aware is None:
        return 0.0
    capped = deal_only_values(mine, theirs, carry)
    results = (1, 2, 3, 5, 6, 7)
    return max(abs(aware[i] - capped[i]) for i in results)


def _after_deal(rules: Rules, state: State) -> list[tuple[State, float]]:
    """The states after a model deal played at ``state`` with their chances (ended matches left out)."""
    equity = equity_for(rules)
    outcomes = equity.outcomes
    zero, one, carry, zero_deals = state
    zero_odds = outcomes.dealer if zero_deals else outcomes.forehand
    one_odds = outcomes.forehand if zero_deals else outcomes.dealer
    following: list[tuple[State, float]] = []
    for points, (p_zero, p_one) in enumerate(zip(zero_odds, one_odds, strict=True), start=1):
        following.append(((zero + points + carry, one, 0, equity.after_win(True, zero_deals)), p_zero))
        following.append(((zero, one + points + carry, 0, equity.after_win(False, zero_deals)), p_one))
    tied_carry = carry + 1 if equity.carry_over else carry
    following.append(((zero, one, tied_carry, not zero_deals), outcomes.tie))
    target = rules.match_target
    return [(after, chance) for after, chance in following if after[0] < target and after[1] < target]


def _flow(rules: Rules, stops: Callable[[State], bool]) -> dict[State, float]:
    """How often a model match from 0:0 (the first dealer by a coin) plays a deal at each state, two equal
    players whose deals end as the preset's outcome model says; a match stops at a state where ``stops``."""
    reach: dict[State, float] = {}
    mass: dict[State, float] = {(0, 0, 0, True): 0.5, (0, 0, 0, False): 0.5}
    while sum(mass.values()) > 1e-12:
        following: dict[State, float] = {}
        for state, chance in mass.items():
            reach[state] = reach.get(state, 0.0) + chance
            if stops(state):
                continue
            for after, p in _after_deal(rules, state):
                following[after] = following.get(after, 0.0) + chance * p
        mass = following
    return reach


def expected_deals(rules: Rules) -> dict[State, float]:
    """The expected number of deals that a model match from 0:0 plays at each state (:func:`_flow`)."""
    return _flow(rules, lambda state: False)


def decision_gaps(rules: Rules, reach: dict[State, float]) -> list[tuple[float, float]]:
    """(largest gap for the deciding seat, expected decisions) for both seats at every state reached."""
    target = rules.match_target
    return [
        (largest_gap(rules, target - mine, target - theirs, carry, i_deal), deals)
        for (zero, one, carry, zero_deals), deals in reach.items()
        for mine, theirs, i_deal in ((zero, one, zero_deals), (one, zero, not zero_deals))
    ]


def share_above(gaps: list[tuple[float, float]], threshold: float) -> float:
    """The share of the decisions (``decision_gaps``) made where the largest gap exceeds ``threshold``."""
    return sum(deals for gap, deals in gaps if gap > threshold) / sum(deals for _, deals in gaps)


def first_reached(rules: Rules, threshold: float) -> dict[tuple[int, int], float]:
    """The chance that a model match from 0:0 reaches a score where the largest gap for either seat exceeds
    ``threshold``, by the first such score (the lower one first), carry-over and dealer summed."""
    target = rules.match_target

    @functools.cache  # asked again of the states where the flow stopped
    def gapped(state: State) -> bool:
        zero, one, carry, zero_deals = state
        return (
            max(
                largest_gap(rules, target - zero, target - one, carry, zero_deals),
                largest_gap(rules, target - one, target - zero, carry, not zero_deals),
            )
            > threshold
        )

    first: dict[tuple[int, int], float] = {}
    for state, chance in _flow(rules, gapped).items():
        if gapped(state):
            score = (min(state[0], state[1]), max(state[0], state[1]))
            first[score] = first.get(score, 0.0) + chance
    return first


def report(rules: Rules) -> str:
    """The table of largest gaps (seat leading, no carry-over) and the shares of decisions above 0.1-0.3."""
    target = rules.match_target
    title = "largest gap between the scaled rewards, the seat leading (rows: its score; columns: the opponent's)"
    lines = [f"{rules.id}: {title}"]
    lines.append("     " + " ".join(f"{theirs:>5}" for theirs in range(target)))
    for mine in range(target):
        row = (largest_gap(rules, target - mine, target - theirs, 0, False) for theirs in range(target))
        lines.append(f"{mine:>4} " + " ".join(f"{gap:5.2f}" for gap in row))
    reach = expected_deals(rules)
    lines.append(f"a model match from 0:0 plays {sum(reach.values()):.2f} deals")
    gaps = decision_gaps(rules, reach)
    for threshold in (0.1, 0.2, 0.3):
        share = share_above(gaps, threshold)
        lines.append(f"decisions at scores where a reward differs by more than {threshold}: {100 * share:.1f}%")
    first = first_reached(rules, 0.2)
    ranked = sorted(first.items(), key=lambda item: -item[1])
    where = ", ".join(f"{a}:{b} {100 * chance:.1f}%" for (a, b), chance in ranked if chance >= 0.0005)
    lines.append(f"a model match reaches a score where one differs by more than 0.2: {100 * sum(first.values()):.1f}%")
    lines.append(f"  first at (either way round): {where}")
    return "\n".join(lines)


def sample_positions(rules: Rules, count: int, seed: int) -> list[tuple[Deal, int]]:
    """``count`` decisions (deal, seat) with two or more legal moves from rule-of-thumb deals."""
    rule_of_thumb = level_named("heuristic")
    rng = random.Random(seed)
    positions: list[tuple[Deal, int]] = []
    number = 0
    while len(positions) < count:
        match = Match(rules, seed * 1_000_003 + number, single_deal=True)
        number += 1
        while not match.deal.over and len(positions) < count:
            deal = match.deal
            seat = seat_to_decide(deal)
            searched = forced_decision(deal, seat) is None and seat == deal.to_act
            if searched and len(deal.legal_actions(seat)) > 1 and rng.random() < 0.15:
                positions.append((deal.clone(), seat))
            match.act(seat, decide(deal, seat, rule_of_thumb, rng, Utility(seat), clock=False).action)
    return positions


def moves_changed(
    rules: Rules, score: tuple[int, int], count: int, seed: int = 1, iterations: int | None = None
) -> tuple[int, int]:
    """At ``count`` sampled positions, with the seat at ``score[0]`` and the opponent at ``score[1]``: how many
    of level 5's moves the score-aware reward changes (same random numbers), and how many other random
    numbers change (the deal-only search both times)."""
    top = level_named("5")
    top_config = top.config_for(rules.deck)
    deal_only = replace(top_config, play_score=False)
    by_reward = by_seed = 0
    for deal, seat in sample_positions(rules, count, seed):
        needs = (rules.match_target - score[0], rules.match_target - score[1])
        utility = Utility(seat, needs if seat == 0 else (needs[1], needs[0]))
        aware, plain, reseeded = (
            decide(
                deal, seat, top, random.Random(search_seed), utility, iterations=iterations, clock=False, config=config
            )
            for search_seed, config in ((7, top_config), (7, deal_only), (8, deal_only))
        )
        by_reward += aware.action != plain.action
        by_seed += plain.action != reseeded.action
    return by_reward, by_seed


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("presets", nargs="*", metavar="PRESET", help=f"presets (default: all): {', '.join(PRESET_IDS)}")
    parser.add_argument("--moves", type=int, default=0, help="positions at which to count changed moves of level 5")
    parser.add_argument("--score", default="0:0", help="with --moves: the seat's score and the opponent's, X:Y")
    args = parser.parse_args(argv)
    unknown = [preset for preset in args.presets if preset not in PRESETS]
    if unknown:
        parser.error(f"unknown presets: {', '.join(unknown)}")
    try:
        mine, theirs = (int(part) for part in args.score.split(":"))
    except ValueError:
        parser.error(f"--score takes two scores X:Y, not {args.score!r}")
    presets = [PRESETS[preset] for preset in args.presets or PRESET_IDS]
    if not all(0 <= points < rules.match_target for rules in presets for points in (mine, theirs)):
        parser.error("--score takes scores below the target")
    for number, rules in enumerate(presets):
        print(("\n" if number else "") + report(rules))
        if args.moves:
            by_reward, by_seed = moves_changed(rules, (mine, theirs), args.moves)
            print(
                f"at {mine}:{theirs}, of {args.moves} moves of level 5 the score-aware reward changed {by_reward}, "
                f"other random numbers {by_seed}"
            )
    return 0


if __name__ == "__main__":
    sys.exit(main())
