"""The computer behind the protocol's ``ai_move`` and ``hint``: a match and one request → a decision.

Errors keep their meaning: an unknown level is the request's fault
(:class:`~py_engine.core.errors.UnknownLevelError`, ``bad_request``), a seat with
nothing to do is ``not_your_turn`` or ``game_over``, and anything the search
itself raises is the engine's fault, never reported as a refusal of the
request (the protocol answers ``internal_error``).
"""

from __future__ import annotations

import random
from dataclasses import dataclass, replace

from ..core.actions import NEXT
from ..core.errors import EngineError, GameOverError, NotYourTurnError
from ..service.match import Match
from .player import DEFAULT_LEVEL, Decision, decide, forced_decision, level_named, match_utility

#: Time budget of a hint when none is given.
HINT_BUDGET_MS = 700


@dataclass(frozen=True, slots=True)
class Request:
    """What one ``ai_move`` or ``hint`` asks of the computer: its level, its limits and its seed."""

    level: int | str = DEFAULT_LEVEL
    budget_ms: int | None = None
    iterations: int | None = None
    seed: int | None = None


def choose(match: Match, seat: int, request: Request, *, game_points: bool = False) -> Decision:
    """The action the computer takes for ``seat`` (which must have something to do).

    The match's score and carry-over go to the search with the utility (:func:`match_utility`); a
    level that plays the score (``SearchConfig.play_score``) values results by the chance to win the
    match, unless ``game_points`` asks for values in game points.
    """
    legal = match.legal(seat)
    if not legal:
        if match.finished:
            raise GameOverError("the game is over")
        raise NotYourTurnError(f"seat {seat} has nothing to do now")
    if legal == [NEXT]:
        return Decision(NEXT, [(NEXT, 0.0)], {"iterations": 0, "ms": 0.0})
    level = level_named(request.level)
    deal = match.deal
    if seat != deal.to_act and forced_decision(deal, seat) is None:
        raise NotYourTurnError(f"seat {seat} is not on turn and has no valid claim")
    rng = random.Random(request.seed if request.seed is not None else random.SystemRandom().randrange(2**32))
    utility = match_utility(seat, match.scores, match.rules.match_target, match.carry)
    try:
        config = replace(level.config, play_score=False) if game_points else None
        return decide(
            deal, seat, level, rng, utility, iterations=request.iterations, budget_ms=request.budget_ms, config=config
        )
    except EngineError as error:
        # The request was checked above: a refusal from inside the search is the engine's own failure.
        raise RuntimeError(f"the computer's decision failed: {type(error).__name__}: {error}") from error


def rank(match: Match, seat: int, request: Request) -> list[tuple[int, float]]:
    """The legal actions of ``seat``, best first, with values (game points for the seat, scaled to 1/3).

    The top level ranks them, within the request's budget (``HINT_BUDGET_MS`` if none), by the deal's
    game points even where it plays the match score: the page shows the values as game points.
    """
    legal = match.legal(seat)
    if match.deal.over or not legal:
        return [(a, 0.0) for a in legal]
    if seat != match.deal.to_act:
        return [(a, 0.0) for a in legal]
    budget = request.budget_ms if request.budget_ms is not None else HINT_BUDGET_MS
    decision = choose(match, seat, Request(level="5", budget_ms=budget, seed=request.seed), game_points=True)
    ranked = dict(decision.ranking)
    order = [a for a, _ in decision.ranking if a in legal]
    rest = [a for a in legal if a not in ranked]
    return [(a, round(ranked[a], 4)) for a in order] + [(a, -1.0) for a in rest]
