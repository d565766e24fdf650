"""Re-proving a stored puzzle: its answer guarantees the goal, and every other first action is refuted.

This is what the tests run on every puzzle of the built-in set, and what the
generator measures to keep the set quick to check: a null-window search
(does the answer guarantee at least the goal?) over the position's worlds,
and one search with every card known per other action (its stored worst
world holds it below the goal).
"""

from __future__ import annotations

from py_engine.core.actions import CLAIM, RESIGN
from py_engine.core.deal import Deal
from py_engine.puzzles.catalogue import Puzzle
from py_engine.puzzles.proof import Prover, world_list


def position_deal(puzzle: Puzzle) -> Deal:
    return puzzle.position.match().deal


def verify(puzzle: Puzzle, budget: int | None = None) -> tuple[list[str], int]:
    """The problems found (none: the puzzle holds) and the nodes the proof took."""
    deal = position_deal(puzzle)
    seat = deal.to_act
    problems: list[str] = []
    if seat != puzzle.side:
        return [f"the side on turn is {seat}, not {puzzle.side}"], 0
    listed = world_list(deal, seat, puzzle.kind)
    if len(listed) != puzzle.worlds:
        problems.append(f"{len(listed)} worlds, not {puzzle.worlds}")
    prover = Prover(seat, budget)
    goal = puzzle.goal
    legal = [a for a in deal.legal_actions(seat) if a != RESIGN]
    for action in puzzle.answer:
        if action not in legal:
            problems.append(f"the answer {action} is not legal")
        elif action == CLAIM:
            child = deal.clone()
            child.apply(CLAIM, seat)
            if child.result is None or child.result.winner != seat:
                problems.append("the claim does not win")
        elif prover.after_own(listed, action, goal - 1, goal) < goal:
            problems.append(f"the answer {action} does not guarantee {goal}")
    stored = {o.action: o for o in puzzle.others}
    for action in legal:
        if action in puzzle.answer:
            continue
        other = stored.get(action)
        if other is None:
            problems.append(f"the action {action} is neither the answer nor refuted")
            continue
        if not 0 <= other.witness < len(listed):
            problems.append(f"the witness of {action} is not a world")
            continue
        child = listed[other.witness].clone()
        child.apply(action, seat)
        value = prover.value([child])
        if value != other.worst or value > goal - 1:
            problems.append(f"the action {action} gets {value} in its witness world, not {other.worst}")
    if len(stored) + len(puzzle.answer) != len(legal):
        problems.append("the stored actions are not the legal ones")
    return problems, prover.nodes
