"""Finding puzzles in the engine's own deals (docs/puzzles.md, "Generation").

Deal ``n`` of a run with seed ``s`` is the single deal of seed
``deal_seed(s, n)``. It is played by the rule-of-thumb player with a little
noise, keeping the lowest trump now and then rather than exchanging it at
once (its random numbers from ``random.Random`` of the deal's seed), and
every decision of the seat on turn on the way is *examined* when its
proof stays bounded:

* the talon is closed or exhausted (the exact solver's ground): ``hidden``
  with at most :data:`MAX_WORLDS` worlds, else ``double_dummy``; a closed
  talon that does not qualify hidden may qualify double dummy;
* the talon is open with one face-down card left (the last open trick: a
  trick, a draw that shows the side everything, then exact play), or, at a
  lead, with three (two open tricks; at most :data:`MAX_WORLDS` worlds).

A position *qualifies* (:func:`qualifies`) when one answer is clearly best:
its guarantee is at least a whole game point above what every other action
gets in its worst world, and the answer is one action, or cards of one
suit with nothing between them (equals), all accepted. Everything is
determined by the seeds: a run is reproducible.
"""

from __future__ import annotations

import random
from collections.abc import Iterator
from dataclasses import dataclass

from py_engine.ai.heuristic import claim_choice, heuristic_action, scored_actions
from py_engine.core.actions import CLAIM, CLOSE, EXCHANGE, MARRY, RESIGN, is_marry
from py_engine.core.cards import KING, QUEEN, rank_of, suit_of
from py_engine.core.deal import Deal
from py_engine.core.rules import PRESETS
from py_engine.puzzles.catalogue import Other, Puzzle, puzzle_id
from py_engine.puzzles.line import Follow, best_line
from py_engine.puzzles.position import Position
from py_engine.puzzles.proof import Analysis, BudgetExceeded, Prover, analyse, equal_cards, world_count, world_list
from py_engine.puzzles.rating import difficulty
from py_engine.service.match import Match

from .puzzle_verify import verify

MAX_WORLDS = 400
#: Nodes one examination may take (its proof and its line) before the position is given up.
NODE_BUDGET = 60_000
#: Beyond this a stored puzzle would take too long to re-prove in the tests: it is not kept.
CHECK_BUDGET = 1_500
#: How much the rule-of-thumb player errs on the way (in its value units), for varied positions.
NOISE = 6.0
MIN_OPTIONS = 3
#: How often the rule-of-thumb player keeps the lowest trump instead of exchanging it at once, so that some
#: positions still offer the exchange when the talon runs low.
KEEP_LOW_TRUMP = 0.6


def deal_seed(seed: int, number: int) -> int:
    return seed * 1_000_003 + number


@dataclass
class Tally:
    """What a run examined: positions, and those that qualified."""

    examined: int = 0
    qualified: int = 0
    over_budget: int = 0


def kind_for(deal: Deal, seat: int) -> str | None:
    """The proof a position gets (``hidden`` or ``double_dummy``), or None when it is not examined."""
    if deal.final_order:
        return None
    if deal.strict:
        return "hidden" if world_count(deal, seat) <= MAX_WORLDS else "double_dummy"
    if deal.face_down_left == 1:
        return "hidden"
    if deal.face_down_left == 3 and deal.lead < 0 and world_count(deal, seat) <= MAX_WORLDS:
        return "hidden"
    return None


def positions(preset: str, seed: int) -> Iterator[tuple[Position, Deal]]:
    """The decisions of one rule-of-thumb deal of seed ``seed`` (before each action of the seat on turn)."""
    match = Match(PRESETS[preset], seed, single_deal=True)
    rng = random.Random(seed)
    actions: list[int] = []
    while not match.deal.over:
        deal = match.deal
        claim = claim_choice(deal)
        if claim is not None and claim[0] != deal.to_act:
            break  # a claim out of turn ends the deal: no position follows
        seat = deal.to_act
        yield Position(preset, seed, tuple(actions)), deal.clone()
        action = heuristic_action(deal, seat, rng, NOISE)
        if action == EXCHANGE and rng.random() < KEEP_LOW_TRUMP:
            action = next(a for _, a in scored_actions(deal, seat) if a != EXCHANGE)
        match.act(seat, action)
        actions.append(action)


def sensible(deal: Deal, seat: int) -> list[int]:
    """The first moves that count for a puzzle: every legal action but resigning and a wrong claim."""
    return [a for a in deal.legal_actions(seat) if a != RESIGN and not (a == CLAIM and not deal.claim_is_valid(seat))]


def qualifies(analysis: Analysis, deal: Deal) -> bool:
    """One answer, clearly best (docs/puzzles.md, "What qualifies")."""
    seat = analysis.seat
    if len(sensible(deal, seat)) < MIN_OPTIONS:
        return False
    accepted = analysis.accepted
    if not accepted or (len(accepted) > 1 and not equal_cards(deal, seat, accepted)):
        return False
    return all(o.worst <= analysis.value - 1 for o in analysis.options if o.action not in accepted)


def _plan(line: list[tuple[int, int]], seat: int) -> list[int]:
    """The side's first actions on the line: up to its first card, or its claim."""
    plan = []
    for who, action in line:
        if who != seat:
            break
        plan.append(action)
        if action < MARRY or action == CLAIM:
            break
    return plan


def themes_of(
    deal: Deal, seat: int, goal: int, line: list[tuple[int, int]], basis: str, second: tuple[int, str] | None
) -> tuple[str, ...]:
    """The themes the solution shows (docs/puzzles.md, "Themes").

    ``basis`` is how the solution's line ends (the result's basis); ``second`` the value and the basis of the
    best other first action in its worst world (None: every other action is a wrong claim).
    """
    plan = _plan(line, seat)
    found = []
    if CLOSE in plan:
        found.append("closing")
    if deal.strict:
        found.append("endgame")
    marriage = any(is_marry(a) for a in plan)
    first_card = next((a for a in plan if a < MARRY), None)
    if first_card is not None and rank_of(first_card) in (KING, QUEEN):
        suit = suit_of(first_card)
        if MARRY + suit in deal.legal_actions(seat) and MARRY + suit not in plan:
            marriage = True  # the pair is broken on purpose
    if marriage:
        found.append("marriage")
    if EXCHANGE in plan:
        found.append("exchange")
    schneider = ("schneider", "schwarz")
    if second is not None:
        value, second_basis = second
        if goal >= 2 and basis in schneider and value >= 1:
            found.append("schneider")  # made: the other actions win, but less
        elif goal < 0 and basis not in schneider and second_basis in schneider:
            found.append("schneider")  # saved: the other actions lose Schneider (or Schwarz)
    if CLAIM in plan:
        found.append("claiming")
    return tuple(found)


def examine(position: Position, deal: Deal, tally: Tally | None = None) -> Puzzle | None:
    """The puzzle at this position, or None if it does not qualify (or its proof is not bounded)."""
    seat = deal.to_act
    kind = kind_for(deal, seat)
    if kind is None or len(sensible(deal, seat)) < MIN_OPTIONS:
        return None
    if tally is not None:
        tally.examined += 1
    try:
        puzzle = _examine(position, deal, kind)
        if puzzle is None and kind == "hidden" and deal.closed_by >= 0 and world_count(deal, seat) > 1:
            puzzle = _examine(position, deal, "double_dummy")
    except BudgetExceeded:
        if tally is not None:
            tally.over_budget += 1
        return None
    if puzzle is not None and tally is not None:
        tally.qualified += 1
    return puzzle


def _examine(position: Position, deal: Deal, kind: str) -> Puzzle | None:
    seat = deal.to_act
    analysis = analyse(deal, seat, kind, NODE_BUDGET)
    if not qualifies(analysis, deal):
        return None
    goal = analysis.value
    prover = Prover(seat, NODE_BUDGET)
    follow = Follow(position.match(), seat, world_list(deal, seat, kind), prover)
    line: list[tuple[int, int]] = []
    options = [o for o in analysis.options if o.action in analysis.accepted]
    first = options[0].action
    # The first answer on the line: the accepted action that does best in the true deal.
    if len(options) > 1:
        first = follow.best_own(goal)
    critical = 1
    follow.apply(seat, first)
    line.append((seat, first))
    while not follow.over:
        forced = follow.forced()
        if forced is not None:
            follow.apply(*forced)
            line.append(forced)
            continue
        if follow.deal.to_act == seat:
            legal = [a for a in follow.deal.legal_actions(seat) if a not in (RESIGN, CLAIM)]
            accepted = follow.accepted(goal)
            if not accepted:
                return None  # cannot happen when the proof holds; refuse rather than store it
            if len([a for a in legal if a not in accepted]) > 0:
                critical += 1
            action = follow.best_own(goal)
        else:
            action = follow.reply()
        mover = follow.deal.to_act
        follow.apply(mover, action)
        line.append((mover, action))
    result = follow.deal.result
    assert result is not None
    others = [Other(o.action, o.worst, o.witness) for o in analysis.options if o.action not in analysis.accepted]
    sensible_count = len(sensible(deal, seat))
    tempting = sum(1 for o in others if o.worst == goal - 1 and o.action != CLAIM)
    puzzle = Puzzle(
        id=puzzle_id(position),
        position=position,
        side=seat,
        kind=kind,
        worlds=analysis.world_count,
        goal=goal,
        answer=analysis.accepted,
        line=tuple(a for _, a in line),
        others=tuple(others),
        themes=themes_of(deal, seat, goal, line, result.basis, _second(deal, seat, kind, others, prover)),
        difficulty=difficulty(critical, tempting, analysis.world_count, sensible_count),
    )
    return puzzle


def _second(deal: Deal, seat: int, kind: str, others: list[Other], prover: Prover) -> tuple[int, str] | None:
    """The best other first action's value in its worst world, and how its line there ends."""
    candidates = [o for o in others if o.action != CLAIM]
    if not candidates:
        return None
    best = max(candidates, key=lambda o: o.worst)
    world = world_list(deal, seat, kind)[best.witness]
    world.apply(best.action, seat)
    _line, result = best_line(world, seat, prover)
    return best.worst, result.basis


def check_cost(puzzle: Puzzle) -> int | None:
    """The nodes re-proving ``puzzle`` takes (None: over :data:`CHECK_BUDGET`, or it does not hold)."""
    try:
        problems, nodes = verify(puzzle, CHECK_BUDGET)
    except BudgetExceeded:
        return None
    return None if problems else nodes


def run(preset: str, seed: int, deals: int, tally: Tally | None = None) -> Iterator[Puzzle]:
    """Every puzzle of ``deals`` deals of a run that qualifies and re-proves within :data:`CHECK_BUDGET`."""
    for number in range(deals):
        for position, deal in positions(preset, deal_seed(seed, number)):
            puzzle = examine(position, deal, tally)
            if puzzle is not None and check_cost(puzzle) is not None:
                yield puzzle
