"""Information-set Monte Carlo tree search (single-observer ISMCTS).

Each iteration deals the cards the searching seat cannot see anew
(:func:`~py_engine.ai.knowledge.determinize`), walks one shared tree keyed by
actions, choosing among the actions legal *in that world* by UCB with
availability counts (so actions legal only in some worlds are handled),
expands one node, and finishes the deal: exactly by minimax once the world
is in the strict phase with few cards left, else by the rule-of-thumb
rollout policy, which hands over to the exact solver as soon as it can.
Rewards are game points (match-aware, see :class:`Utility`), so Schneider
and Schwarz count.

The search stops after ``iterations`` or when ``budget_s`` is spent,
whichever comes first; it checks the clock itself, since Python in a Web
Worker cannot be interrupted.
"""

from __future__ import annotations

import math
import random
import time
from collections.abc import Callable
from dataclasses import dataclass
from functools import partial

from ..actions import CLAIM
from ..deal import Deal
from ..scoring import DealResult
from .heuristic import claim_choice, rollout_action
from .knowledge import determinize, knowledge_of, reshuffle_talon
from .reading import read_worlds
from .solver import Table, best_actions, solve


@dataclass(frozen=True, slots=True)
class Utility:
    """Game points as the searching seat values them, scaled to about [-1, 1].

    Near the match target extra points are worth nothing: a win counts only
    up to what the winner still needs, and a pending carry-over is added.
    """

    seat: int
    needs: tuple[int, int] = (7, 7)
    carry: int = 0

    def __call__(self, result: DealResult) -> float:
        winner = result.winner
        if winner is None:
            return 0.0
        points = min(result.game_points + self.carry, self.needs[winner])
        value = points / 3.0
        return value if winner == self.seat else -value


class _Node:
    __slots__ = ("avail", "children", "value", "visits")

    def __init__(self) -> None:
        self.children: dict[int, _Node] = {}
        self.visits = 0
        self.avail = 0
        self.value = 0.0


@dataclass(frozen=True, slots=True)
class SearchResult:
    ranking: list[tuple[int, float, int]]  # (action, mean value for the seat, visits), best first
    iterations: int
    seconds: float


#: Solve exactly once both hands together hold at most this many cards in the strict phase.
SOLVE_CARDS = 6
#: The exploration constant of UCB (rewards are game points / 3, in [-1, 1]).
EXPLORATION = 0.7
#: A bonus in UCB for the action the rule of thumb would choose in the sampled world (a prior),
#: fading with the child's visits: PRIOR_WEIGHT * PRIOR_SCALE / (visits + PRIOR_SCALE). 0: none.
PRIOR_WEIGHT = 0.0
PRIOR_SCALE = 20.0
#: Whose decisions get the prior: False both seats', True only the opponent's.
PRIOR_OPPONENT_ONLY = False
#: Draw worlds from particles weighed by the opponent's play so far (:mod:`.reading`).
READ_PLAY = False
#: With ``READ_PLAY``, the search trusts its reading only while the opponent's play so far makes it
#: at least this likely to be the sharp kind, a player by the rule of thumb (``ReadWorlds.sharp_share``).
#: Below it, reading would mislead: the search draws uniform worlds and gives no prior. 0: always trusts.
READ_TRUST = 0.0
#: A diagnostic, never for play: the search is shown the opponent's real hand, not the talon order.
SEES_HAND = False
#: A diagnostic, never for play: the search is shown the real cards (an upper bound on what inference can gain).
SEES_ALL = False


def _solvable(world: Deal) -> bool:
    return (world.closed_by >= 0 or world.exhausted) and (world.hands[0] | world.hands[1]).bit_count() <= SOLVE_CARDS


def search(
    deal: Deal,
    seat: int,
    rng: random.Random,
    utility: Utility,
    *,
    iterations: int | None = None,
    budget_s: float | None = None,
    exploration: float | None = None,
    reading_iterations: int | None = None,
) -> SearchResult:
    """Search the decision of ``seat`` (on turn) and rank its actions.

    ``reading_iterations``, if given, replaces ``iterations`` when the search trusts its reading of
    the opponent (``READ_PLAY``, ``READ_TRUST``): the arena's stand-in for the iterations the
    reading costs against the clock.
    """
    start = time.perf_counter()
    deadline = start + budget_s if budget_s is not None else math.inf
    limit = iterations if iterations is not None else (10**9 if budget_s is not None else 1000)
    if exploration is None:
        exploration = EXPLORATION
    knowledge = knowledge_of(deal, seat)
    sample: Callable[[], Deal]
    read = read_worlds(deal, seat, rng) if READ_PLAY else None
    prior_weight = PRIOR_WEIGHT
    if read is not None and read.sharp_share < READ_TRUST:
        read = None
        prior_weight = 0.0
    elif read is not None and reading_iterations is not None:
        limit = reading_iterations
    if read is not None:
        sample = read.draw
    elif SEES_ALL:
        sample = deal.clone
    elif SEES_HAND:
        sample = partial(_talon_shuffled, deal, rng)
    else:
        sample = partial(determinize, deal, knowledge, rng)
    table: Table = {}
    root = _Node()
    done = 0
    log = math.log
    sqrt = math.sqrt
    prior_opponent_only = PRIOR_OPPONENT_ONLY
    while done < limit:
        if done & 3 == 0 and time.perf_counter() >= deadline and done:
            break
        done += 1
        world = sample()
        node = root
        path: list[tuple[_Node, int]] = []
        value: float | None = None
        while world.result is None:
            claim = claim_choice(world)
            if claim is not None:
                world.apply(claim[1], claim[0])
                continue
            if path and _solvable(world):
                value = solve(world, seat, utility, table)
                break
            mover = world.to_act
            actions = [a for a in world.legal_actions() if a < CLAIM]
            children = node.children
            untried = [a for a in actions if a not in children]
            prior = -1
            if prior_weight and (mover != seat or not prior_opponent_only):
                prior = rollout_action(world, rng, 0.0)
            if untried:
                action = prior if prior in untried else untried[int(rng.random() * len(untried))]
                child = _Node()
                children[action] = child
            else:
                best_score = -math.inf
                action = actions[0]
                for a in actions:
                    c = children[a]
                    score = c.value / c.visits + exploration * sqrt(log(c.avail + 1) / c.visits)
                    if a == prior:
                        score += prior_weight * PRIOR_SCALE / (c.visits + PRIOR_SCALE)
                    if score > best_score:
                        best_score = score
                        action = a
                child = children[action]
            for a in actions:
                if a in children:
                    children[a].avail += 1
            world.apply(action)
            path.append((child, mover))
            node = child
            if untried:
                break
        if value is None:
            value = _playout(world, seat, utility, table, rng)
        for n, mover in path:
            n.visits += 1
            n.value += value if mover == seat else -value
    ranking = sorted(
        ((a, c.value / c.visits if c.visits else 0.0, c.visits) for a, c in root.children.items()),
        key=lambda t: (-t[2], -t[1]),
    )
    return SearchResult(ranking, done, time.perf_counter() - start)


def _talon_shuffled(deal: Deal, rng: random.Random) -> Deal:
    """The real deal with its face-down talon dealt anew (for the ``SEES_HAND`` diagnostic)."""
    world = deal.clone()
    reshuffle_talon(world, rng)
    return world


def _playout(world: Deal, seat: int, utility: Utility, table: Table, rng: random.Random) -> float:
    while world.result is None:
        claim = claim_choice(world)
        if claim is not None:
            world.apply(claim[1], claim[0])
            continue
        if _solvable(world):
            return solve(world, seat, utility, table)
        world.apply(rollout_action(world, rng))
    return utility(world.result)


#: Exhausted talon: solve exactly when both hands together hold at most this many cards.
EXACT_CARDS = 12


def known_exactly(deal: Deal) -> bool:
    """Whether a decision in ``deal`` is solved exactly rather than searched: the talon is gone, few cards left."""
    return deal.exhausted and (deal.hands[0] | deal.hands[1]).bit_count() <= EXACT_CARDS


def exact_ranking(deal: Deal, seat: int, utility: Utility) -> list[tuple[int, float]]:
    """After the talon is exhausted both hands are known: rank by exact values."""
    return best_actions(deal, seat, utility, {})
