"""How deals between equal players end, by who deals: ``python -m lab.outcomes --deals 20000``.

Plays single deals of a level against itself on every preset (or those
named) and prints, for each, the share of deals that the forehand (who
leads first) wins with 1, 2 and 3 game points, that the dealer wins so, and
that nobody wins, as the lines of ``OUTCOMES`` in :mod:`py_engine.ai.equity`.
"""

from __future__ import annotations

import argparse
import random
import sys

from py_engine.ai.equity import Outcomes
from py_engine.ai.player import decide, level_named, match_utility, seat_to_decide
from py_engine.core.rules import PRESET_IDS, PRESETS, Rules
from py_engine.service.match import Match


def measure(rules: Rules, deals: int, level: str, seed: int) -> Outcomes:
    """The outcomes of ``deals`` single deals of ``level`` against itself."""
    counts = {"forehand": [0, 0, 0], "dealer": [0, 0, 0]}
    ties = 0
    player = level_named(level)
    rng = random.Random(seed)
    for number in range(deals):
        match = Match(rules, seed * 1_000_003 + number, single_deal=True)
        while not match.deal.over:
            deal = match.deal
            seat = seat_to_decide(deal)
            utility = match_utility(seat, match.scores, rules.match_target, match.carry)
            match.act(seat, decide(deal, seat, player, rng, utility, clock=False).action)
        result = match.deal.result
        assert result is not None
        if result.winner is None:
            ties += 1
            continue
        role = "dealer" if result.winner == match.deal.dealer else "forehand"
        counts[role][min(result.game_points, 3) - 1] += 1

    def shares(role: str) -> tuple[float, float, float]:
        a, b, c = (round(n / deals, 4) for n in counts[role])
        return a, b, c

    return Outcomes(shares("forehand"), shares("dealer"), round(ties / deals, 4))


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--deals", type=int, default=20_000, help="deals a preset")
    parser.add_argument("--level", default="heuristic", help="the level that plays both seats")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("presets", nargs="*", metavar="PRESET", help=f"presets (default: all): {', '.join(PRESET_IDS)}")
    args = parser.parse_args(argv)
    unknown = [preset for preset in args.presets if preset not in PRESETS]
    if unknown:
        parser.error(f"unknown presets: {', '.join(unknown)}")
    for preset in args.presets or PRESET_IDS:
        outcomes = measure(PRESETS[preset], args.deals, args.level, args.seed)
        print(f'    "{preset}": Outcomes({outcomes.forehand}, {outcomes.dealer}, {outcomes.tie}),', flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
