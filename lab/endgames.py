"""Expert endgames measured where they act: ``python -m lab.endgames --b heuristic --positions 2000``.

Each position is the first moment of a rule-of-thumb deal (both seats the
rule-of-thumb player) at which the seat on turn decides exactly: the talon
is gone and few cards are left. From there the deal is finished twice, the
seat on turn playing level 5's exact decisions with ``EXPERT_ENDGAME=1`` and
then with ``EXPERT_ENDGAME=0``, against the player ``--b``, which gets the
same random numbers both times. Prints the game points per deal of each
(won positive, lost negative), their difference with a 95% bootstrap
interval over the positions, and how many positions the two played
differently. Every other decision of the deal is the same in both, so the
difference is the expert tie-break's alone.
"""

from __future__ import annotations

import argparse
import random
import statistics
import sys
from dataclasses import replace

from py_engine.ai.ismcts import Utility, known_exactly
from py_engine.ai.player import TOP_CONFIG, seat_to_decide
from py_engine.core.deal import Deal
from py_engine.core.rules import PRESET_IDS, PRESETS, Rules
from py_engine.service.match import Match

from .psellos import decide, level_named


def endgame(rules: Rules, seed: int) -> Deal | None:
    """The first exact decision of a rule-of-thumb deal (None if the deal ends before one)."""
    match = Match(rules, seed, single_deal=True)
    rng = random.Random(seed)
    heuristic = level_named("heuristic")
    while not match.deal.over:
        deal = match.deal
        seat = seat_to_decide(deal)
        if seat == deal.to_act and known_exactly(deal, TOP_CONFIG) and len(deal.legal_actions()) > 1:
            return deal.clone()
        match.act(seat, decide(deal, seat, heuristic, rng, Utility(seat), clock=False).action)
    return None


def finish(deal: Deal, seat: int, expert: bool, opponent: str, seed: int) -> tuple[int, list[int]]:
    """``deal`` played out, ``seat`` by level 5's exact decisions (with or without the expert tie-break);
    returns the seat's game points (negative when lost) and the seat's actions."""
    deal = deal.clone()
    config = replace(TOP_CONFIG, expert_endgame=expert, play_score=False)
    players = {seat: level_named("5"), 1 - seat: level_named(opponent)}
    rng = random.Random(seed)
    actions = []
    while deal.result is None:
        mover = seat_to_decide(deal)
        decision = decide(
            deal, mover, players[mover], rng, Utility(mover), clock=False, config=config if mover == seat else None
        )
        if mover == seat:
            actions.append(decision.action)
        deal.apply(decision.action, mover)
    result = deal.result
    if result.winner is None:
        return 0, actions
    return (result.game_points if result.winner == seat else -result.game_points), actions


def interval(values: list[int], rng: random.Random, rounds: int = 2000) -> tuple[float, float]:
    """95% bootstrap interval of the mean of ``values``."""
    n = len(values)
    means = sorted(sum(values[int(rng.random() * n)] for _ in range(n)) / n for _ in range(rounds))
    return means[int(0.025 * rounds)], means[int(0.975 * rounds) - 1]


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--preset", choices=PRESET_IDS, default="AT20")
    parser.add_argument("--b", default="heuristic", help="the opponent: a level 1-5, 'heuristic' or 'psellos'")
    parser.add_argument("--positions", type=int, default=2000, help="deals to try (those without an endgame skip)")
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args(argv)
    rules = PRESETS[args.preset]
    expert_points: list[int] = []
    plain_points: list[int] = []
    differing = 0
    for number in range(args.positions):
        seed = args.seed * 1_000_003 + number
        deal = endgame(rules, seed)
        if deal is None:
            continue
        seat = deal.to_act
        expert, expert_actions = finish(deal, seat, True, args.b, seed)
        plain, plain_actions = finish(deal, seat, False, args.b, seed)
        expert_points.append(expert)
        plain_points.append(plain)
        differing += expert_actions != plain_actions
    n = len(expert_points)
    if not n:
        print("no position reached an exact decision")
        return 1
    differences = [e - p for e, p in zip(expert_points, plain_points, strict=True)]
    low, high = interval(differences, random.Random(0))
    print(f"endgames {args.preset}: level 5's exact play against {args.b}, {n} positions of {args.positions} deals")
    print(
        f"game points per deal (won +, lost -): expert {statistics.fmean(expert_points):+.4f}, plain "
        f"{statistics.fmean(plain_points):+.4f}"
    )
    print(
        f"difference {statistics.fmean(differences):+.4f} [95% CI {low:+.4f}, {high:+.4f}] game points per deal; "
        f"played differently in {differing} positions, the result differed in {sum(1 for d in differences if d)}"
    )
    return 0


if __name__ == "__main__":
    sys.exit(main())
