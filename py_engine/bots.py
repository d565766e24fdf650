"""Computer players behind ``ai_move`` and ``hint``.

PLACEHOLDER until the search opponent lands (the AI issue): every level is
served by the rule-of-thumb player below. It always plays legally, never
misses a valid claim and never claims wrongly, but it does not search.
"""

from __future__ import annotations

import random
import time
from dataclasses import dataclass, field
from typing import Any

from .actions import CLAIM, CLOSE, EXCHANGE, MARRY, NEXT, PASS, RESIGN
from .cards import POINTS, RANK_POINTS
from .deal import Deal
from .errors import GameOverError, NotYourTurnError
from .match import Match


@dataclass
class BotSettings:
    level: int = 3
    budget_ms: int | None = None
    iterations: int | None = None
    seed: int | None = None


@dataclass
class Choice:
    action: int
    stats: dict[str, Any] = field(default_factory=dict)


def _card_score(deal: Deal, seat: int, card: int) -> float:
    """How good playing ``card`` now looks to a simple rule-of-thumb player."""
    trump = deal.trump
    is_trump = card // 6 == trump
    if deal.lead < 0:
        # Lead low non-trumps; keep trumps, aces and tens.
        return -POINTS[card] - (15 if is_trump else 0)
    lead = deal.lead
    wins = (card // 6 == lead // 6 and card < lead) or (card // 6 != lead // 6 and is_trump)
    at_stake = POINTS[lead] + POINTS[card]
    if wins:
        # Win with the cheapest card that wins; trumping is worth it for valuable leads.
        cost = POINTS[card] * 0.2 + (12 if is_trump else 0)
        return at_stake - cost
    return -POINTS[card] - (10 if is_trump else 0)


def heuristic_scores(deal: Deal, seat: int) -> list[tuple[int, float]]:
    """Every legal action of ``seat`` with a rule-of-thumb value (higher is better)."""
    legal = deal.legal_actions(seat)
    scored: list[tuple[int, float]] = []
    for action in legal:
        if action == CLAIM:
            value = 100.0 if deal.claim_is_valid(seat) else -100.0
        elif action == PASS:
            value = 0.0
        elif action == RESIGN:
            value = -50.0
        elif action == EXCHANGE:
            value = 50.0
        elif MARRY <= action < EXCHANGE:
            value = 60.0 + (20 if action - MARRY == deal.trump else 0)
        elif action == CLOSE:
            trumps = deal.hands[seat] >> (6 * deal.trump) & 0b111111
            strength = sum(RANK_POINTS[r] for r in range(6) if trumps >> r & 1)
            value = 30.0 if deal.total(seat) + strength >= 50 else -30.0
        else:
            value = _card_score(deal, seat, action)
        scored.append((action, value))
    scored.sort(key=lambda av: -av[1])
    return scored


def choose(match: Match, seat: int, settings: BotSettings) -> Choice:
    """The action the computer takes for ``seat`` (which must have something to do)."""
    start = time.perf_counter()
    legal = match.legal(seat)
    if not legal:
        if match.finished:
            raise GameOverError("the game is over")
        raise NotYourTurnError(f"seat {seat} has nothing to do now")
    if legal == [NEXT]:
        return Choice(NEXT, {"iterations": 0, "ms": 0.0})
    deal = match.deal
    if seat != deal.to_act:
        if deal.claim_is_valid(seat):
            return Choice(CLAIM, {"iterations": 0, "ms": 0.0})
        raise NotYourTurnError(f"seat {seat} is not on turn and has no valid claim")
    ranking = heuristic_scores(deal, seat)
    best = ranking[0][1]
    rng = random.Random(settings.seed)
    action = rng.choice([a for a, v in ranking if v == best])
    return Choice(action, {"iterations": 0, "ms": round((time.perf_counter() - start) * 1000, 3)})


def rank(match: Match, seat: int, settings: BotSettings) -> list[tuple[int, float]]:
    """The legal actions of ``seat``, best first, with values."""
    if match.deal.over:
        return [(a, 0.0) for a in match.legal(seat)]
    return heuristic_scores(match.deal, seat)
