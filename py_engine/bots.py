"""The computer behind the protocol's ``ai_move`` and ``hint``: match context → :mod:`py_engine.ai`."""

from __future__ import annotations

import random
from dataclasses import dataclass

from .actions import NEXT
from .ai.player import DEFAULT_LEVEL as DEFAULT_LEVEL
from .ai.player import Decision, decide, level_named, match_utility
from .errors import GameOverError, IllegalActionError, NotYourTurnError
from .match import Match

#: Time budget of a hint when none is given.
HINT_BUDGET_MS = 700


@dataclass
class BotSettings:
    level: int | str = DEFAULT_LEVEL
    budget_ms: int | None = None
    iterations: int | None = None
    seed: int | None = None


def choose(match: Match, seat: int, settings: BotSettings) -> Decision:
    """The action the computer takes for ``seat`` (which must have something to do)."""
    legal = match.legal(seat)
    if not legal:
        if match.finished:
            raise GameOverError("the game is over")
        raise NotYourTurnError(f"seat {seat} has nothing to do now")
    if legal == [NEXT]:
        return Decision(NEXT, [(NEXT, 0.0)], {"iterations": 0, "ms": 0.0})
    try:
        level = level_named(settings.level)
    except ValueError as e:
        raise IllegalActionError(str(e)) from None
    rng = random.Random(settings.seed if settings.seed is not None else random.SystemRandom().randrange(2**32))
    utility = match_utility(seat, match.scores, match.rules.match_target, match.carry)
    try:
        return decide(
            match.deal, seat, level, rng, utility, iterations=settings.iterations, budget_ms=settings.budget_ms
        )
    except ValueError as e:
        raise NotYourTurnError(str(e)) from None


def rank(match: Match, seat: int, settings: BotSettings) -> list[tuple[int, float]]:
    """The legal actions of ``seat``, best first, with values (game points for the seat, scaled to 1/3)."""
    legal = match.legal(seat)
    if match.deal.over or not legal:
        return [(a, 0.0) for a in legal]
    if seat != match.deal.to_act:
        return [(a, 0.0) for a in legal]
    budget = settings.budget_ms if settings.budget_ms is not None else HINT_BUDGET_MS
    decision = choose(match, seat, BotSettings(level="5", budget_ms=budget, seed=settings.seed))
    ranked = dict(decision.ranking)
    order = [a for a, _ in decision.ranking if a in legal]
    rest = [a for a in legal if a not in ranked]
    return [(a, round(ranked[a], 4)) for a in order] + [(a, -1.0) for a in rest]
