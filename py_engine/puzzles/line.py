"""Following a puzzle's play: the true deal, the worlds the side still cannot tell apart, and best replies.

:class:`Follow` plays actions on a :class:`~py_engine.service.match.Match`
(the true deal, with its log for views and frames) and on every world the
side cannot yet tell from it, dropping the worlds that what the side sees
rules out. It answers whether a move of the side still guarantees the goal,
the defender's best reply, and the moves nobody has to think about
(a single legal action, a valid claim, a pass). :func:`best_line` plays a
world to its end with every card known: the refutation of a wrong move.
"""

from __future__ import annotations

from ..ai.heuristic import claim_choice
from ..core.actions import CLAIM, PASS, RESIGN
from ..core.deal import Deal
from ..core.scoring import DealResult
from ..service.match import Match
from .proof import INF, Prover, searched_actions, signed_value


class Follow:
    """A puzzle in play for ``seat`` over ``worlds`` (the true deal's are ``match.deal``'s)."""

    def __init__(self, match: Match, seat: int, worlds: list[Deal], prover: Prover):
        self.match = match
        self.seat = seat
        self.worlds = worlds
        self.prover = prover

    @property
    def deal(self) -> Deal:
        return self.match.deal

    @property
    def over(self) -> bool:
        return self.match.deal.over

    def apply(self, seat: int, action: int) -> None:
        """Apply a legal action of ``seat`` to the true deal and to the worlds still consistent with it."""
        self.match.act(seat, action)
        seen = self.deal.info_state(self.seat, story=False).key()
        kept = []
        for world in self.worlds:
            if action not in world.legal_actions(seat):
                continue
            child = world.clone()
            child.apply(action, seat)
            if child.info_state(self.seat, story=False).key() == seen:
                kept.append(child)
        self.worlds = kept

    def forced(self) -> tuple[int, int] | None:
        """A move that needs no thought, (seat, action): a valid claim, a pass after the last trick,
        or the only legal action of the seat on turn."""
        deal = self.deal
        if deal.over:
            return None
        claim = claim_choice(deal)
        if claim is not None:
            return claim
        actions = [a for a in deal.legal_actions() if a not in (RESIGN, CLAIM)]
        if len(actions) == 1:
            return deal.to_act, actions[0]
        return None

    def guarantees(self, action: int, goal: int) -> bool:
        """Does the side's ``action`` still guarantee ``goal`` over the worlds it cannot tell apart?"""
        if action == CLAIM:
            child = self.deal.clone()
            child.apply(CLAIM, self.seat)
            assert child.result is not None
            return signed_value(child.result, self.seat) >= goal
        if action in (RESIGN, PASS):
            child = self.deal.clone()
            child.apply(action, self.seat)
            return child.result is not None and signed_value(child.result, self.seat) >= goal
        return self.prover.after_own(self.worlds, action, goal - 1, goal) >= goal

    def accepted(self, goal: int) -> list[int]:
        """The side's actions now that keep the goal."""
        return [a for a in self.deal.legal_actions(self.seat) if self.guarantees(a, goal)]

    def reply(self) -> int:
        """The defender's best reply in the true deal: the least value for the side with every card known."""
        deal = self.deal
        best, chosen = INF, -1
        for action in searched_actions(deal):
            child = deal.clone()
            child.apply(action)
            v = self.prover.value([child], -INF, best)
            if v < best:
                best, chosen = v, action
        return chosen

    def best_own(self, goal: int) -> int:
        """The side's move on the stored line: one that keeps the goal, best in the true deal."""
        deal = self.deal
        best, chosen = -INF, -1
        for action in self.accepted(goal):
            child = deal.clone()
            child.apply(action, self.seat)
            v = self.prover.value([child], best, INF)
            if v > best:
                best, chosen = v, action
        return chosen


def best_line(world: Deal, seat: int, prover: Prover) -> tuple[list[tuple[int, int]], DealResult]:
    """``world`` played to its end, both seats knowing every card: the actions (seat, action) and the result.
    Claims are made as soon as they are valid; ``prover`` is ``seat``'s."""
    world = world.clone()
    line: list[tuple[int, int]] = []
    while world.result is None:
        claim = claim_choice(world)
        if claim is not None:
            world.apply(claim[1], claim[0])
            line.append(claim)
            continue
        mover = world.to_act
        maximizing = mover == seat
        best, chosen = (-INF if maximizing else INF), -1
        for action in searched_actions(world):
            child = world.clone()
            child.apply(action)
            v = prover.value([child], -INF, INF)
            if (v > best) if maximizing else (v < best):
                best, chosen = v, action
        world.apply(chosen)
        line.append((mover, chosen))
    return line, world.result
