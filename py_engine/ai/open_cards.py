"""Values with every card known (double dummy): both hands and the talon's order, for finished deals only.

The analysis of a finished deal may show what each option is worth when
both players see every card, the talon's order included. While nothing is
drawn any more (the talon closed or used up) that is the exact solver's
value (:mod:`.solver`). While cards are still drawn it is a minimax over the
deal itself (alpha-beta with a transposition table, the solver below it
once the talon is closed or used up), which is exact but grows quickly with
the cards left to draw: in CPython some 0.05-0.5 s with two or three tricks
left before the talon is used up, 2-5 s with four, and 10-100 s from the
first trick (docs/performance.md, "Analysis"). So the search runs against a
deadline: the options it settles in time are exact, and the rest are
estimated by a search over the one deal with every card known
(:func:`.ismcts.search`'s ``every_card_known``), and said to be estimates.

Never give this a deal in play: it reads the referee's whole state.
"""

from __future__ import annotations

import random
import time
from typing import Any

from ..core.actions import CLAIM
from ..core.deal import Deal
from .config import DEFAULT_CONFIG
from .heuristic import after_claims
from .ismcts import Utility, search
from .solver import Table, solve

#: How often (in nodes) the minimax looks at the clock.
_CLOCK_EVERY = 64


class _OutOfTime(Exception):
    """The deadline passed during the minimax."""


class OpenCards:
    """One deal's double-dummy values for one seat, with tables kept between requests (the same deal and seat).

    ``utility`` values a result for ``seat`` (game points / 3, as the rest of the computer does).
    """

    def __init__(self, seat: int, utility: Utility) -> None:
        self.seat = seat
        self.utility = utility
        self._solved: Table = {}
        self._tt: dict[tuple[Any, ...], tuple[float, float, int]] = {}
        self._deadline = 0.0
        self._nodes = 0

    def rank(
        self, deal: Deal, actions: list[int], budget_s: float, rng: random.Random
    ) -> tuple[list[tuple[int, float]], set[int], dict[str, Any]]:
        """``actions`` of the seat on turn in ``deal``, best first, with their values; the exact ones; stats.

        The exact minimax may take up to 60% of ``budget_s``; the actions it did not settle by then are
        estimated in the time left by a search that sees every card.
        """
        start = time.perf_counter()
        self._deadline = start + budget_s * 0.6
        self._nodes = 0
        if len(self._tt) > 400_000:
            self._tt.clear()
        if len(self._solved) > 64:
            self._solved.clear()
        values: dict[int, float] = {}
        for action in actions:
            child = deal.clone()
            child.apply(action)
            try:
                values[action] = self._value(child, -9.0, 9.0)
            except _OutOfTime:
                break
        exact = set(values)
        left = [a for a in actions if a not in values]
        iterations = 0
        if left:
            remaining = max(0.05, budget_s - (time.perf_counter() - start))
            result = search(
                deal,
                deal.to_act,
                rng,
                self.utility,
                config=DEFAULT_CONFIG,
                budget_s=remaining,
                claim_at_root=False,
                every_card_known=True,
            )
            iterations = result.iterations
            estimated = {a: v for a, v, _ in result.ranking}
            for action in left:
                values[action] = estimated.get(action, -1.0)
        ranking = sorted(((a, round(v, 4)) for a, v in values.items()), key=lambda av: -av[1])
        stats = {
            "nodes": self._nodes,
            "iterations": iterations,
            "ms": round((time.perf_counter() - start) * 1000, 1),
        }
        return ranking, exact, stats

    def _value(self, deal: Deal, alpha: float, beta: float) -> float:
        """The exact value of ``deal`` for the seat, every card known (alpha-beta)."""
        deal = after_claims(deal)
        if deal.result is not None:
            return self.utility(deal.result)
        if deal.strict:
            return solve(deal, self.seat, self.utility, self._solved, alpha, beta)
        self._nodes += 1
        if self._nodes % _CLOCK_EVERY == 0 and time.perf_counter() > self._deadline:
            raise _OutOfTime
        key = _key(deal)
        known = self._tt.get(key)
        first = -1
        if known is not None:
            low, high, first = known
            if low >= beta or low == high:
                return low
            if high <= alpha:
                return high
            alpha = max(alpha, low)
            beta = min(beta, high)
        alpha0, beta0 = alpha, beta
        maximizing = deal.to_act == self.seat
        actions = [a for a in deal.legal_actions() if a < CLAIM]
        if first in actions:
            actions.remove(first)
            actions.insert(0, first)
        best = -9.0 if maximizing else 9.0
        best_action = actions[0]
        for action in actions:
            child = deal.clone()
            child.apply(action)
            value = self._value(child, alpha, beta)
            if maximizing:
                if value > best:
                    best, best_action = value, action
                    alpha = max(alpha, value)
            elif value < best:
                best, best_action = value, action
                beta = min(beta, value)
            if alpha >= beta:
                break
        if best <= alpha0:
            self._tt[key] = (-9.0, best, best_action)
        elif best >= beta0:
            self._tt[key] = (best, 9.0, best_action)
        else:
            self._tt[key] = (best, best, best_action)
        return best


def _key(deal: Deal) -> tuple[Any, ...]:
    """What decides the rest of a deal in which cards are still drawn (the talon's order is the deal's own)."""
    return (
        deal.hands[0],
        deal.hands[1],
        deal.talon_pos,
        deal.upcard,
        deal.lead,
        deal.leader,
        deal.to_act,
        deal.prelead,
        deal.declared,
        deal.card_points[0],
        deal.card_points[1],
        deal.marriage_points[0],
        deal.marriage_points[1],
        deal.pending,
        (deal.tricks[0] > 0) | (deal.tricks[1] > 0) << 1,
        deal.windows,
        deal.tricks_done,
        deal.bonus[0],
        deal.bonus[1],
    )
