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
from typing import Any

from ..core.actions import CLAIM, NEXT, PASS, RESIGN
from ..core.deal import Deal
from ..core.errors import EngineError, GameOverError, NotYourTurnError
from ..service.defaults import BUDGETS, DEFAULT_LEVEL
from ..service.match import Match
from .ismcts import Utility
from .open_cards import OpenCards
from .player import Decision, decide, forced_decision, level_named, match_utility, seat_to_decide


@dataclass(frozen=True, slots=True)
class Request:
    """What one ``ai_move`` or ``hint`` asks of the computer: its level, its limits and its seed.

    ``budget_ms`` None: the level's own (``Level.budget_ms``; a hint's: ``BUDGETS.hint_ms``). The search
    alone turns the budget into its time (:func:`~py_engine.ai.player.search_seconds`).
    """

    level: int | str = DEFAULT_LEVEL
    budget_ms: int | None = None
    iterations: int | None = None
    seed: int | None = None
    #: False: no time budget at all, the level's fixed iteration count (the page's test mode, ``timed: false``).
    clock: bool = True
    #: When the request came (``time.perf_counter()``): the budget counts from then, so what the request
    #: spent before the search (the first one imports the computer player) comes off it. None: from the decision.
    started: float | None = None


def choose(
    match: Match, seat: int, request: Request, *, game_points: bool = False, take_forced: bool = True
) -> Decision:
    """The action the computer takes for ``seat`` (which must have something to do).

    The match's score and carry-over go to the search with the utility (:func:`match_utility`); a
    level that plays the score (``SearchConfig.play_score``) values results by the chance to win the
    match, unless ``game_points`` asks for values in game points. ``take_forced=False``: see :func:`decide`.
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
        config = replace(level.config_for(match.rules.deck), play_score=False) if game_points else None
        return decide(
            deal,
            seat,
            level,
            rng,
            utility,
            iterations=request.iterations,
            budget_ms=request.budget_ms,
            clock=request.clock,
            started=request.started,
            config=config,
            take_forced=take_forced,
        )
    except EngineError as error:
        # The request was checked above: a refusal from inside the search is the engine's own failure.
        raise RuntimeError(f"the computer's decision failed: {type(error).__name__}: {error}") from error


def rank(match: Match, seat: int, request: Request) -> list[tuple[int, float]]:
    """The legal actions of ``seat``, best first, with values (game points for the seat, scaled to 1/3).

    The top level ranks them, within the request's budget (``BUDGETS.hint_ms`` if none), by the deal's
    game points even where it plays the match score: the page shows the values as game points.
    """
    return rank_exactly(match, seat, request)[0]


def rank_exactly(
    match: Match, seat: int, request: Request, *, every_action: bool = False
) -> tuple[list[tuple[int, float]], set[int]]:
    """:func:`rank`'s ranking, and the actions whose values are exact rather than estimated.

    A claim, a resignation and a pass settle the deal at once (a pass after the last trick, once the
    other seat has decided as the computer would): their values are the game points they give. The
    rest are exact where the deal is solved with every card known (the talon used up, few cards
    left), else estimated by a search over the deals the seat thinks possible. Where the seat could
    claim, the computer would claim without searching; ``every_action`` searches the other actions
    all the same (a review ranks what the player did instead). An action left unvalued gets -1.
    ``request.iterations``, if given, also stops the search there (with a seed: the same ranking every time).
    """
    legal = match.legal(seat)
    if match.deal.over or not legal:
        return [(a, 0.0) for a in legal], set()
    if seat != match.deal.to_act:
        return [(a, 0.0) for a in legal], set()
    budget = request.budget_ms if request.budget_ms is not None else BUDGETS.hint_ms
    level5 = replace(request, level="5", budget_ms=budget)
    decision = choose(match, seat, level5, game_points=True, take_forced=not every_action)
    utility = match_utility(seat, match.scores, match.rules.match_target, match.carry)
    settled: dict[int, float] = {}
    for action in legal:
        value = _settled_value(match.deal, seat, action, utility) if action in (CLAIM, RESIGN, PASS) else None
        if value is not None:
            settled[action] = value
    searched = [(a, v) for a, v in decision.ranking if a in legal and a not in settled]
    exact = {a for a, _ in searched} if decision.stats.get("exact") is True else set()
    ranking = [(a, round(v, 4)) for a, v in searched]
    for action, value in settled.items():
        # Into the searched order: before the first action valued lower.
        at = next((i for i, (_, v) in enumerate(ranking) if v < value), len(ranking))
        ranking.insert(at, (action, round(value, 4)))
        exact.add(action)
    ranked = {a for a, _ in ranking}
    return ranking + [(a, -1.0) for a in legal if a not in ranked], exact


def rank_all_cards(
    match: Match, seat: int, request: Request, open_cards: OpenCards
) -> tuple[list[tuple[int, float]], set[int], dict[str, Any]]:
    """Like :func:`rank_exactly`, but with every card known to both seats, the talon's order included.

    Only for a finished deal replayed (an analysis): it reads the whole deal. ``open_cards`` keeps its
    tables between requests (the same deal, ``seat`` and match context). Claims, resignations and
    passes get the game points they give; the other actions their double-dummy values, exact where
    the minimax ends in time, else estimated (:class:`~py_engine.ai.open_cards.OpenCards`). Also
    answers the search's stats.
    """
    legal = match.legal(seat)
    deal = match.deal
    if deal.over or not legal or seat != deal.to_act:
        return [(a, 0.0) for a in legal], set(), {}
    budget = request.budget_ms if request.budget_ms is not None else BUDGETS.all_cards_ms
    utility = match_utility(seat, match.scores, match.rules.match_target, match.carry)
    settled: dict[int, float] = {}
    for action in legal:
        value = _settled_value(deal, seat, action, utility) if action in (CLAIM, RESIGN, PASS) else None
        if value is not None:
            settled[action] = round(value, 4)
    rest = [a for a in legal if a not in settled and a not in (CLAIM, RESIGN, PASS)]
    rng = random.Random(request.seed if request.seed is not None else 0)
    ranking, exact, stats = open_cards.rank(deal, rest, budget / 1000, rng) if rest else ([], set(), {})
    for action, value in settled.items():
        at = next((i for i, (_, v) in enumerate(ranking) if v < value), len(ranking))
        ranking.insert(at, (action, value))
        exact.add(action)
    ranked = {a for a, _ in ranking}
    return ranking + [(a, -1.0) for a in legal if a not in ranked], exact, stats


def _settled_value(deal: Deal, seat: int, action: int, utility: Utility) -> float | None:
    """The value of an action that ends the deal at once, or after the last trick's claims are decided as the
    computer decides them; None if the deal goes on."""
    world = deal.clone()
    world.apply(action, seat)
    for _ in range(2):  # at most the other seat's claim or pass is left
        if world.result is not None:
            break
        mover = seat_to_decide(world)
        forced = forced_decision(world, mover)
        if forced is None:
            return None
        world.apply(forced, mover)
    return utility(world.result) if world.result is not None else None
