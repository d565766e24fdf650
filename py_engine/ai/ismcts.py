"""Information-set Monte Carlo tree search (single-observer ISMCTS).

Each iteration deals the cards the searching seat cannot see anew
(:meth:`~py_engine.core.deal.Deal.resample`), walks one shared tree keyed by
actions, choosing among the actions legal *in that world* by UCB with
availability counts (so actions legal only in some worlds are handled),
expands one node, and finishes the deal: exactly by minimax once the world
is in the strict phase with few cards left, else by the rule-of-thumb
rollout policy, which hands over to the exact solver as soon as it can, or
by the learned value of :mod:`.value_model` (``SearchConfig.leaf_value``).
Rewards are game points (match-aware, see :class:`Utility`), so Schneider
and Schwarz count.

The search stops after ``iterations`` or when ``budget_s`` is spent,
whichever comes first; it checks the clock itself, since Python in a Web
Worker cannot be interrupted. Every constant it was tuned with comes in
the :class:`~py_engine.ai.config.SearchConfig` it is given.
"""

from __future__ import annotations

import math
import random
import time
from collections.abc import Callable
from dataclasses import dataclass
from functools import partial

from ..core.actions import CLAIM, is_play
from ..core.deal import Deal
from ..core.scoring import DealResult
from .config import DEFAULT_CONFIG, SearchConfig
from .heuristic import after_claims, claim_choice, random_card, rollout_action
from .reading import read_worlds
from .solver import Table, best_actions, solve
from .value_model import Valuer, shipped_model


@dataclass(frozen=True, slots=True)
class Utility:
    """Game points as the searching seat values them, scaled to about [-1, 1].

    Near the match target extra points are worth nothing: a win counts only
    up to what the winner still needs, and a pending carry-over is added.
    ``needs`` (by seat) and ``carry`` are the match's context of the decision.

    With ``values`` (:func:`~py_engine.ai.equity.score_utility`) a result is
    valued by the chance to win the match after it instead: ``values`` holds
    the reward of the seat winning 0-3 game points, of losing 0-3, and of a
    deal without a winner (whatever its rules do with a tie).
    """

    seat: int
    needs: tuple[int, int] = (7, 7)
    carry: int = 0
    values: tuple[float, ...] | None = None

    def __call__(self, result: DealResult) -> float:
        winner = result.winner
        values = self.values
        if values is not None:
            if winner is None:
                return values[8]
            return values[(0 if winner == self.seat else 4) + min(result.game_points, 3)]
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


def search(
    deal: Deal,
    seat: int,
    rng: random.Random,
    utility: Utility,
    *,
    config: SearchConfig = DEFAULT_CONFIG,
    iterations: int | None = None,
    budget_s: float | None = None,
    reading_iterations: int | None = None,
    claim_at_root: bool = True,
    every_card_known: bool = False,
) -> SearchResult:
    """Search the decision of ``seat`` (on turn) and rank its actions, playing by ``config``.

    ``reading_iterations``, if given, replaces ``iterations`` when the search trusts its reading of
    the opponent (``config.read_play``, ``config.read_trust``): the arena's stand-in for the
    iterations the reading costs against the clock. With ``claim_at_root=False`` the seat does not
    claim at the root, though it may: its other actions are searched (to rank them all). With
    ``every_card_known`` every iteration searches ``deal`` itself, its hidden cards included: only for
    a finished deal's analysis (:mod:`.open_cards`), never for a deal in play.
    """
    start = time.perf_counter()
    deadline = start + budget_s if budget_s is not None else math.inf
    limit = iterations if iterations is not None else (10**9 if budget_s is not None else 1000)
    exploration = config.exploration
    knowledge = deal.info_state(seat, story=config.read_play)
    sample: Callable[[], Deal]
    read = read_worlds(deal, knowledge, rng, config) if config.read_play else None
    prior_weight = config.prior_weight
    if read is not None and read.sharp_share < config.read_trust:
        read = None
        prior_weight = 0.0
    elif read is not None and reading_iterations is not None:
        limit = reading_iterations
    if read is not None:
        sample = read.draw
    elif every_card_known:
        sample = deal.clone
    else:
        sample = partial(deal.resample, knowledge, rng)
    table: Table = {}
    root = _Node()
    done = 0
    log = math.log
    sqrt = math.sqrt
    # The configuration's values as locals: the loop below reads them thousands of times a second.
    prior_opponent_only = config.prior_opponent_only
    prior_scale = config.prior_scale
    solve_cards = config.solve_cards
    randomness = config.rollout_random
    leaf_weight = config.leaf_value
    model = shipped_model().valuer(seat, utility) if leaf_weight or config.rollout_learned else None
    learned = model if leaf_weight else None
    learned_strict = config.leaf_value_strict
    guide = model if config.rollout_learned else None
    finish = partial(
        _playout,
        seat=seat,
        utility=utility,
        table=table,
        rng=rng,
        solve_cards=solve_cards,
        randomness=randomness,
        guide=guide,
    )
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
            if claim is not None and not path and not claim_at_root and claim[0] == seat:
                other = 1 - seat
                claim = (other, CLAIM) if world.windows >> other & 1 and world.claim_is_valid(other) else None
            if claim is not None:
                world.apply(claim[1], claim[0])
                continue
            if path and _solvable(world, solve_cards):
                value = solve(world, seat, utility, table)
                break
            mover = world.to_act
            actions = [a for a in world.legal_actions() if a < CLAIM]
            children = node.children
            untried = [a for a in actions if a not in children]
            prior = -1
            if prior_weight and (mover != seat or not prior_opponent_only):
                prior = rollout_action(world, rng, 0.0, False)
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
                        score += prior_weight * prior_scale / (c.visits + prior_scale)
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
            if learned is None or (not learned_strict and (world.closed_by >= 0 or world.exhausted)):
                value = _playout(world, seat, utility, table, rng, solve_cards, randomness, guide)
            else:
                value = _leaf(world, solve_cards, finish, learned, leaf_weight)
        for n, mover in path:
            n.visits += 1
            n.value += value if mover == seat else -value
    ranking = sorted(
        ((a, c.value / c.visits if c.visits else 0.0, c.visits) for a, c in root.children.items()),
        key=lambda t: (-t[2], -t[1]),
    )
    return SearchResult(ranking, done, time.perf_counter() - start)


def _solvable(world: Deal, solve_cards: int) -> bool:
    """Whether a world of the search is solved exactly: the strict phase, with few cards left."""
    return (world.closed_by >= 0 or world.exhausted) and (world.hands[0] | world.hands[1]).bit_count() <= solve_cards


def _playout(
    world: Deal,
    seat: int,
    utility: Utility,
    table: Table,
    rng: random.Random,
    solve_cards: int,
    randomness: float,
    guide: Valuer | None = None,
) -> float:
    """Finish ``world`` by the rollout policy, exactly once it is solvable (the search's constants as arguments).

    With ``guide`` (the learned value for ``seat``), the moves while a card may still be drawn are
    :func:`_guided_action`'s instead of the rule of thumb's.
    """
    while world.result is None:
        claim = claim_choice(world)
        if claim is not None:
            world.apply(claim[1], claim[0])
            continue
        if _solvable(world, solve_cards):
            return solve(world, seat, utility, table)
        if guide is not None and world.closed_by < 0 and not world.exhausted:
            world.apply(_guided_action(world, seat, utility, rng, randomness, guide))
        else:
            world.apply(rollout_action(world, rng, randomness, False))
    return utility(world.result)


def _guided_action(
    world: Deal, seat: int, utility: Utility, rng: random.Random, randomness: float, guide: Valuer
) -> int:
    """A random card (``randomness`` of the time, when a card may be played), else the action after which
    ``guide`` rates the world best for the mover (closing included, which the rule of thumb's playouts never do)."""
    actions = [a for a in world.legal_actions() if a < CLAIM]
    if randomness and rng.random() < randomness:
        card = random_card(actions, rng)
        if card >= 0:
            return card
    return _best_for_mover(world, actions, guide, utility, world.to_act == seat)


def _best_for_mover(world: Deal, actions: list[int], guide: Valuer, utility: Utility, for_seat: bool) -> int:
    """The action after which ``guide`` (the searching seat's value) rates ``world`` best for the mover: the
    searching seat if ``for_seat``, else its opponent (the first of equals)."""
    best = actions[0]
    best_value = -math.inf
    leads = [a for a in actions if is_play(a)] if world.lead < 0 else []
    led = dict(zip(leads, guide.after_leads(world, leads), strict=True)) if leads else {}
    for action in actions:
        if action in led:
            rated = led[action]
        else:
            after = world.clone()
            after.apply(action)
            after = after_claims(after)
            rated = utility(after.result) if after.result is not None else guide(after)
        if not for_seat:
            rated = -rated
        if rated > best_value:
            best_value = rated
            best = action
    return best


def _leaf(
    world: Deal, solve_cards: int, finish: Callable[[Deal], float], learned: Callable[[Deal], float], weight: float
) -> float:
    """The value of a new leaf by the learned value (``weight`` of it, the rest by ``finish``, the playout);
    exact if solvable."""
    world = after_claims(world)
    if world.result is not None or _solvable(world, solve_cards):
        return finish(world)
    value = learned(world)
    if weight >= 1.0:
        return value
    return weight * value + (1.0 - weight) * finish(world)


def known_exactly(deal: Deal, config: SearchConfig = DEFAULT_CONFIG) -> bool:
    """Whether a decision in ``deal`` is solved exactly rather than searched: the talon is gone, few cards
    left (``config.exact_cards``)."""
    return deal.exhausted and deal.cards_in_hands() <= config.exact_cards


def exact_ranking(deal: Deal, seat: int, utility: Utility, expert: bool = False) -> list[tuple[int, float]]:
    """After the talon is exhausted both hands are known: rank by exact values.

    With ``expert``, the actions tied for the best exact value are ordered as an expert plays a
    won (or lost) endgame: first by what a fallible opponent leaves (:func:`chances`: the mean exact
    value over the opponent's next choices, so the more ways it has to go wrong, the better), then
    by the Schneider margin the line keeps against best play (``solve``'s ``margin``). The values
    are left as they are: every tied action keeps the best value.
    """
    table: Table = {}
    ranking = best_actions(deal, seat, utility, table)
    if not expert or len(ranking) < 2:
        return ranking
    best = ranking[0][1]
    tied = [action for action, value in ranking if value >= best - TIED]
    if len(tied) < 2:
        return ranking
    margins: Table = {}
    keys: dict[int, tuple[float, float]] = {}
    for action in tied:
        child = deal.clone()
        child.apply(action)
        keys[action] = (
            round(chances(child, seat, utility, table), 9),
            solve(child, seat, utility, margins, margin=MARGIN),
        )
    order = sorted(tied, key=lambda action: (-keys[action][0], -keys[action][1]))
    return [(action, best) for action in order] + ranking[len(tied) :]


#: Exact values this close are one value (floating-point sums of equal results).
TIED = 1e-9
#: The weight of a Schneider point in the tie-break (``solve``'s ``margin``): far below the gap
#: between any two results (a deal has at most 120 card points and 40 marriage points a side).
MARGIN = 1e-6


def chances(deal: Deal, seat: int, utility: Utility, table: Table) -> float:
    """What ``deal`` is worth to ``seat`` when the opponent's next choice is a uniformly random one of its
    actions and every other move is exact: ``seat`` plays on by its best exact actions (the best
    chances among them) until the opponent chooses. Both hands known, nothing drawn."""
    deal = after_claims(deal)
    if deal.result is not None:
        return utility(deal.result)
    mover = deal.to_act
    children = []
    for action in deal.legal_actions():
        if action >= CLAIM:
            continue
        child = deal.clone()
        child.apply(action)
        children.append(child)
    values = [solve(child, seat, utility, table) for child in children]
    if mover != seat:
        return sum(values) / len(values)
    best = max(values)
    return max(
        chances(child, seat, utility, table)
        for child, value in zip(children, values, strict=True)
        if value >= best - TIED
    )
