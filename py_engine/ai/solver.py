"""Exact play once both hands are known: minimax over the rest of a deal.

After the talon is exhausted (or, inside one sampled world, closed) no card
is drawn any more and a world is a perfect-information game. Its value is
computed exactly here, with a transposition table that one search shares
across its iterations. Valid claims are made as soon as they are possible
(claiming at once is never worse: the award depends on the opponent's state,
which only improves for them as play goes on).
"""

from __future__ import annotations

from collections.abc import Callable

from ..actions import CLAIM, MARRY
from ..cards import POINTS
from ..deal import Deal
from ..scoring import DealResult
from .heuristic import claim_choice

Utility = Callable[[DealResult], float]
Table = dict[tuple[int, ...], tuple[float, float]]


def _key(deal: Deal) -> tuple[int, ...]:
    pending = 0
    for seat, suit, _value in deal.pending:
        pending |= 1 << (seat * 4 + suit)
    return (
        deal.hands[0],
        deal.hands[1],
        deal.lead,
        deal.to_act,
        deal.prelead,
        deal.declared,
        deal.card_points[0],
        deal.card_points[1],
        deal.marriage_points[0],
        deal.marriage_points[1],
        deal.bonus[0],
        deal.bonus[1],
        min(deal.tricks[0], 1),
        min(deal.tricks[1], 1),
        pending,
        deal.closed_by,
        deal.exhausted,
        *deal.close_snapshot,
    )


def solve(deal: Deal, seat: int, utility: Utility, table: Table, alpha: float = -9.0, beta: float = 9.0) -> float:
    """The exact value for ``seat`` of a deal in which both hands are known and nothing is drawn.

    Alpha-beta; ``table`` keeps (lower, upper) bounds per position and may be
    shared by every call of one search.
    """
    while deal.result is None:
        claim = claim_choice(deal)
        if claim is None:
            break
        deal = deal.clone()
        deal.apply(claim[1], claim[0])
    if deal.result is not None:
        return utility(deal.result)
    key = _key(deal)
    bounds = table.get(key)
    if bounds is not None:
        low, high = bounds
        if low >= beta or low == high:
            return low
        if high <= alpha:
            return high
        alpha = max(alpha, low)
        beta = min(beta, high)
    alpha0, beta0 = alpha, beta
    maximizing = deal.to_act == seat
    best = -9.0 if maximizing else 9.0
    actions = [a for a in deal.legal_actions() if a < CLAIM]
    if len(actions) > 1:
        actions.sort(key=_order)
    for action in actions:
        child = deal.clone()
        child.apply(action)
        value = solve(child, seat, utility, table, alpha, beta)
        if maximizing:
            if value > best:
                best = value
                if best > alpha:
                    alpha = best
        elif value < best:
            best = value
            if best < beta:
                beta = best
        if alpha >= beta:
            break
    if best <= alpha0:
        table[key] = (-9.0, best)
    elif best >= beta0:
        table[key] = (best, 9.0)
    else:
        table[key] = (best, best)
    return best


def _order(action: int) -> int:
    """Try marriages first, then high cards: good moves early make alpha-beta cut more."""
    return -100 if action >= MARRY else -POINTS[action]


def best_actions(deal: Deal, seat: int, utility: Utility, table: Table) -> list[tuple[int, float]]:
    """Every searched action of ``seat`` (on turn) with its exact value, best first."""
    ranking = []
    for action in deal.legal_actions(seat):
        if action >= CLAIM:
            continue
        child = deal.clone()
        child.apply(action)
        ranking.append((action, solve(child, seat, utility, table)))
    ranking.sort(key=lambda av: -av[1])
    return ranking
