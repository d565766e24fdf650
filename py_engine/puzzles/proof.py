"""Proof over worlds: what a move guarantees, exactly, without relying on knowing the world later.

A *world* is one way the cards the solving seat has not seen may lie (the
opponent's hand and the face-down talon, in order where it will still be
drawn). :func:`worlds` lists every world consistent with what the seat
knows, in a fixed order; the true deal is one of them.

:class:`Prover` values a *set* of worlds the seat cannot tell apart
(docs/puzzles.md, "The proof"):

* the seat to solve must take the same action in every world of the set;
* the defender is assumed to know everything and to pick the world (the
  worst case): its action, and any card the solving seat then sees, split
  the set into the sets the seat can tell apart, and the value is the
  least of theirs;
* values are the deal's game points for the solving seat, signed (won +,
  lost -, 0 without a winner); valid claims are made at once by both
  seats, as the exact solver makes them (claiming at once is never worse);
* a set that is one world once nothing is drawn any more is handed to the
  exact solver (:mod:`py_engine.ai.solver`).

This is alpha-beta over the seat's information sets, so the value is exact
and free of strategy fusion; it is kept bounded by the positions it is
asked about (few unseen cards) and by an optional node budget.
"""

from __future__ import annotations

import itertools
import math
from collections.abc import Sequence
from dataclasses import dataclass

from ..ai.heuristic import after_claims
from ..ai.solver import solve
from ..core.actions import CLAIM, MARRY, RESIGN
from ..core.cards import POINTS, cards_of, rank_of, suit_of
from ..core.deal import Deal
from ..core.info import InfoState
from ..core.scoring import DealResult

#: Beyond every value (the values are -3..3).
INF = 4


class BudgetExceeded(Exception):
    """The proof needed more nodes than it was allowed."""


def signed_value(result: DealResult, seat: int) -> int:
    """The deal's game points for ``seat``: positive when it won, negative when it lost, 0 without a winner."""
    if result.winner is None:
        return 0
    return result.game_points if result.winner == seat else -result.game_points


def _hidden_parts(deal: Deal, seat: int) -> tuple[int, int, list[int], int]:
    """(the opponent's known cards, how many more it holds, cards that may be either, cards only in the talon)."""
    info = deal.info_state(seat, story=False)
    free = info.unseen & ~info.opponent_cannot_hold
    return info.opponent_known, info.opponent_unknown_count, list(cards_of(free)), info.opponent_cannot_hold


def world_count(deal: Deal, seat: int) -> int:
    """How many worlds :func:`worlds` would list (without building them)."""
    _known, k, free, cannot = _hidden_parts(deal, seat)
    rest = len(free) - k + cannot.bit_count()
    orders = 1 if deal.strict or rest <= 1 else math.factorial(rest)
    return math.comb(len(free), k) * orders


def worlds(deal: Deal, seat: int) -> list[Deal]:
    """Every world consistent with what ``seat`` knows, in a fixed order (the true deal among them).

    Once nothing is drawn any more, the order of the dead talon does not
    matter and it is kept sorted; otherwise every order of the face-down
    cards is a world of its own.
    """
    known, k, free, cannot = _hidden_parts(deal, seat)
    opponent = 1 - seat
    result = []
    for chosen in itertools.combinations(free, k):
        hand = known
        for card in chosen:
            hand |= 1 << card
        rest = [c for c in free if not hand >> c & 1] + list(cards_of(cannot))
        rest.sort()
        orders: Sequence[Sequence[int]] = (
            [rest] if deal.strict or len(rest) <= 1 else list(itertools.permutations(rest))
        )
        for order in orders:
            world = deal.clone()
            world.hands[opponent] = hand
            world.talon = (*deal.talon[: deal.talon_pos], *order)
            result.append(world)
    return result


def true_world_index(deal: Deal, seat: int, listed: list[Deal]) -> int:
    """The index of the true deal among ``listed`` (its worlds)."""
    info = deal.info_state(seat, story=False)
    key = info.hidden_in(deal)
    return next(i for i, w in enumerate(listed) if info.hidden_in(w) == key)


def searched_actions(deal: Deal) -> list[int]:
    """The actions a search tries (claims are made at once when valid, never wrongly; no resignation)."""
    return [a for a in deal.legal_actions() if a < CLAIM]


def _order(actions: list[int]) -> list[int]:
    """Actions to try first: pre-lead actions, then the cards with most points."""
    return sorted(actions, key=lambda a: (a < MARRY, -POINTS[a] if a < MARRY else 0, a))


class Prover:
    """Values sets of worlds for ``seat`` (see the module's docstring); one per position, it keeps its tables."""

    def __init__(self, seat: int, budget: int | None = None):
        self.seat = seat
        self.budget = budget
        self.nodes = 0
        self.solver_table: dict[object, object] = {}
        self.table: dict[tuple[object, ...], tuple[int, int]] = {}

    def _utility(self, result: DealResult) -> float:
        return float(signed_value(result, self.seat))

    def settle(self, worlds: list[Deal]) -> tuple[list[Deal], InfoState]:
        """The worlds once valid claims are made, without duplicates (worlds that no longer differ), and the
        seat's state in them (they share its public facts)."""
        settled = [after_claims(world) for world in worlds]
        info = settled[0].info_state(self.seat, story=False)
        seen: set[tuple[int, tuple[int, ...]]] = set()
        kept = []
        for world in settled:
            key = info.hidden_in(world)
            if key not in seen:
                seen.add(key)
                kept.append(world)
        return kept, info

    def observed(self, worlds: list[Deal], action: int | None = None) -> list[list[Deal]]:
        """``worlds`` split into the sets the seat tells apart: by its own hand (its draws) and what it was shown."""
        info = worlds[0].info_state(self.seat, story=False)  # the public facts the worlds share
        groups: dict[tuple[int, int], list[Deal]] = {}
        for world in worlds:
            groups.setdefault(info.seen_in(world), []).append(world)
        return list(groups.values())

    def value(self, worlds: list[Deal], alpha: int = -INF, beta: int = INF) -> int:
        """The value the seat guarantees over ``worlds`` (fail-soft: a bound when outside (alpha, beta))."""
        self.nodes += 1
        if self.budget is not None and self.nodes > self.budget:
            raise BudgetExceeded
        worlds, info = self.settle(worlds)
        first = worlds[0]
        if first.result is not None:
            return signed_value(first.result, self.seat)
        if len(worlds) == 1 and first.strict:
            return round(solve(first, self.seat, self._utility, self.solver_table, alpha, beta))
        key = (info.hand, info.position, frozenset(info.hidden_in(w) for w in worlds))
        bounds = self.table.get(key)
        if bounds is not None:
            low, high = bounds
            if low >= beta or low == high:
                return low
            if high <= alpha:
                return high
            alpha, beta = max(alpha, low), min(beta, high)
        alpha0, beta0 = alpha, beta
        if first.to_act == self.seat:
            best = -INF
            for action in _order(searched_actions(first)):
                v = self.after_own(worlds, action, max(alpha, best), beta)
                if v > best:
                    best = v
                    if best >= beta:
                        break
        else:
            best = self.min_over(self.defender_sets(worlds), alpha, beta)
        if best <= alpha0:
            self.table[key] = (-INF, best)
        elif best >= beta0:
            self.table[key] = (best, INF)
        else:
            self.table[key] = (best, best)
        return best

    def after_own(self, worlds: list[Deal], action: int, alpha: int = -INF, beta: int = INF) -> int:
        """The value of the seat's ``action`` in every world of ``worlds``."""
        children = []
        for world in worlds:
            child = world.clone()
            child.apply(action)
            children.append(child)
        return self.min_over(self.observed(children), alpha, beta)

    def defender_sets(self, worlds: list[Deal]) -> list[list[Deal]]:
        """Every defender action in every world, grouped by what the seat sees (the action, its own hand)."""
        seat = self.seat
        groups: dict[tuple[int, tuple[int, int]], list[Deal]] = {}
        after: dict[int, InfoState] = {}  # the seat's state after each action, whose public facts the worlds share
        for world in worlds:
            for action in searched_actions(world):
                child = world.clone()
                child.apply(action)
                info = after.get(action)
                if info is None:
                    info = after[action] = child.info_state(seat, story=False)
                groups.setdefault((action, info.seen_in(child)), []).append(child)
        return list(groups.values())

    def min_over(self, sets: list[list[Deal]], alpha: int, beta: int) -> int:
        best = INF
        for group in sets:
            v = self.value(group, alpha, min(beta, best))
            if v < best:
                best = v
                if best <= alpha:
                    break
        return best


@dataclass(frozen=True, slots=True)
class Option:
    """One of the seat's actions at the root: what it guarantees and where it does worst.

    ``guaranteed`` is exact for the accepted actions and for any action whose
    worst world is no worse than the best value; otherwise it is ``None``
    (the worst world alone proves the action worse). ``worst`` is the value
    in ``witness`` (an index of the worlds) with every card known afterwards.
    """

    action: int
    worst: int
    witness: int
    guaranteed: int | None


@dataclass(frozen=True, slots=True)
class Analysis:
    """The options of the seat on turn at a position, valued over its worlds."""

    seat: int
    kind: str
    world_count: int
    true_world: int
    value: int
    accepted: tuple[int, ...]
    options: tuple[Option, ...]
    nodes: int


def world_list(deal: Deal, seat: int, kind: str) -> list[Deal]:
    """The worlds a proof of ``kind`` ranges over: every consistent one (``hidden``) or the deal (``double_dummy``)."""
    return worlds(deal, seat) if kind == "hidden" else [deal.clone()]


def analyse(deal: Deal, seat: int, kind: str, budget: int | None = None) -> Analysis:
    """Every action of ``seat`` (on turn) valued over the worlds of ``kind``; raises :class:`BudgetExceeded`.

    Each action's worst world (the least value with every card known after
    it) is found first: no action guarantees more than that. Then the
    actions whose worst world is no worse than the best guarantee so far are
    valued exactly over all worlds, best first.
    """
    listed = world_list(deal, seat, kind)
    true_index = true_world_index(deal, seat, listed) if kind == "hidden" else 0
    prover = Prover(seat, budget)
    order = [true_index, *(i for i in range(len(listed)) if i != true_index)]
    worst: dict[int, tuple[int, int]] = {}
    for action in deal.legal_actions(seat):
        if action == RESIGN:
            continue
        low, where = INF, true_index
        for i in order:
            child = listed[i].clone()
            child.apply(action, seat)
            v = prover.value([child], -INF, low)
            if v < low:
                low, where = v, i
        worst[action] = (low, where)
    ranked = sorted(worst, key=lambda a: (-worst[a][0], a))
    guaranteed: dict[int, int] = {}
    best = -INF
    for action in ranked:
        if worst[action][0] < best:
            break
        alpha = best - 1 if best > -INF else -INF
        # A claim ends the deal the same way in every world.
        v = worst[action][0] if action == CLAIM else prover.after_own(listed, action, alpha, INF)
        if v > alpha:
            guaranteed[action] = v
            best = max(best, v)
    accepted = tuple(a for a in ranked if guaranteed.get(a) == best)
    options = tuple(Option(a, worst[a][0], worst[a][1], guaranteed.get(a)) for a in ranked)
    return Analysis(seat, kind, len(listed), true_index, best, accepted, options, prover.nodes)


def equal_cards(deal: Deal, seat: int, cards: Sequence[int]) -> bool:
    """Are ``cards`` plays of one suit with nothing between them that the opponent may hold ("equals")?"""
    if any(c >= MARRY for c in cards):
        return False
    suits = {suit_of(c) for c in cards}
    if len(suits) != 1:
        return False
    (suit,) = suits
    ranks = sorted(rank_of(c) for c in cards)
    hand = deal.hands[seat] | (1 << deal.lead if deal.lead >= 0 else 0)
    played = 0
    for _, lead, resp, _ in deal.history:
        played |= (1 << lead) | (1 << resp)
    for rank in range(ranks[0], ranks[-1] + 1):
        card = suit * 6 + rank
        if not (hand | played) >> card & 1:
            return False
    return True
