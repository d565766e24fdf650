"""How long the all-cards (double-dummy) values of the analysis board take, by trick.

``python -m lab.open_cards_bench [--deals N] [--limit S] [--preset ID ...]`` plays N seeded
deals of each preset by the rule of thumb and, at the first lead of each trick while cards are still
drawn, times the exact minimax over every option (:class:`py_engine.ai.OpenCards`, no deadline up to
``--limit`` seconds). Prints, per preset and trick, the median and the longest time and how many of
the deals finished within the limit. Run it inside Pyodide with
``node tests/pyodide/run_module.mjs lab.open_cards_bench``.
"""

from __future__ import annotations

import argparse
import random
import statistics
import time

from py_engine.ai import OpenCards
from py_engine.ai.heuristic import claim_choice, rollout_action
from py_engine.ai.ismcts import Utility
from py_engine.core.actions import CLAIM
from py_engine.core.cards import deck_cards
from py_engine.core.deal import Deal
from py_engine.core.rules import PRESETS


def measure(preset_id: str, deals: int, limit: float) -> dict[int, list[float]]:
    """Seconds per trick number (1-based) at the first lead of each trick; ``limit`` for a search not ended."""
    times: dict[int, list[float]] = {}
    rules = PRESETS[preset_id]
    for seed in range(deals):
        rng = random.Random(seed)
        pack = deck_cards(rules.deck)
        rng.shuffle(pack)
        deal = Deal(rules, pack, seed % 2)
        while deal.result is None and not deal.strict:
            claim = claim_choice(deal)
            if claim is not None:
                deal.apply(claim[1], claim[0])
                continue
            if deal.lead < 0 and deal.prelead == 0:
                seat = deal.to_act
                actions = [a for a in deal.legal_actions() if a < CLAIM]
                start = time.perf_counter()
                _, exact, _ = OpenCards(seat, Utility(seat)).rank(deal, actions, limit / 0.6, random.Random(0))
                spent = time.perf_counter() - start if exact == set(actions) else limit
                times.setdefault(deal.tricks_done + 1, []).append(min(spent, limit))
            deal.apply(rollout_action(deal, rng, 0.0, True))
    return times


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--deals", type=int, default=3)
    parser.add_argument("--limit", type=float, default=10.0, help="seconds before a search counts as not ended")
    parser.add_argument("--preset", nargs="*", default=["AT20", "HU24"])
    args = parser.parse_args(argv)
    for preset_id in args.preset:
        for trick, spent in sorted(measure(preset_id, args.deals, args.limit).items()):
            ended = sum(s < args.limit for s in spent)
            print(
                f"{preset_id} trick {trick}: median {statistics.median(spent):.2f} s,"
                f" longest {max(spent):.2f} s, {ended}/{len(spent)} within {args.limit:g} s"
            )
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
