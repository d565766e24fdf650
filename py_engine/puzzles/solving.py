"""Solving a puzzle: the engine's policy for one attempt (docs/puzzles.md, "Solving").

A :class:`Session` opens a puzzle at its position and shows the side only
what the side may see (a double-dummy puzzle shows every card). The player
moves for the side; a move is *correct* when it still guarantees the goal
over the worlds the side cannot tell apart (at the first move: one of the
stored answers). After a correct move the engine plays the defender's best
reply and every move that needs no thought (a single legal action, a valid
claim, a pass) until the side is to act again or the deal is over, which
solves the puzzle. A wrong move ends the attempt with its refutation: a
world consistent with what the side saw in which the move does worst, and
the play there to the end with every card known.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, Final

from ..ai.heuristic import claim_choice
from ..core.actions import CLAIM, action_name, parse_action
from ..core.cards import CARD_NAMES, names
from ..core.deal import Deal
from ..core.errors import BadActionError, GameOverError, IllegalActionError
from ..core.info import Observer
from ..service.views import deal_frames, view
from .catalogue import Puzzle
from .line import Follow, best_line
from .proof import INF, Prover, signed_value, world_list

if TYPE_CHECKING:
    from ..service.contract import (
        AttemptState,
        AttemptStatus,
        Earlier,
        Frame,
        PuzzleLine,
        PuzzleMoveAnswer,
        PuzzleRight,
        PuzzleSolutionAnswer,
        PuzzleState,
        PuzzleWorld,
        PuzzleWrong,
        Refutation,
        SolutionLine,
        View,
    )

PLAYING: Final = "playing"
SOLVED: Final = "solved"
FAILED: Final = "failed"
SHOWN: Final = "shown"


def world_json(world: Deal) -> PuzzleWorld:
    """A world as the page is shown it once the attempt is over: both hands and the face-down talon."""
    return {
        "hands": (names(world.hands[0]), names(world.hands[1])),
        "talon": [CARD_NAMES[c] for c in world.talon[world.talon_pos :]],
    }


def seated(deal: Deal, actions: tuple[int, ...] | list[int]) -> PuzzleLine:
    """Actions played from ``deal`` as ``[{seat, action}]`` (a claim is the valid claimer's, the rest the seat on
    turn's)."""
    deal = deal.clone()
    steps: PuzzleLine = []
    for action in actions:
        seat = deal.to_act
        if action == CLAIM:
            claim = claim_choice(deal)
            if claim is not None and claim[1] == CLAIM:
                seat = claim[0]
        deal.apply(action, seat)
        steps.append({"seat": seat, "action": action_name(action)})
    return steps


def _line_json(line: list[tuple[int, int]]) -> PuzzleLine:
    return [{"seat": seat, "action": action_name(action)} for seat, action in line]


class Session:
    """One attempt at ``puzzle``."""

    def __init__(self, puzzle: Puzzle):
        self.puzzle = puzzle
        match = puzzle.position.match()
        self.start = match.deal.clone()
        self.seat = puzzle.side
        self.shown = puzzle.kind == "double_dummy"
        self.follow = Follow(match, self.seat, world_list(match.deal, self.seat, puzzle.kind), Prover(self.seat))
        self.status: AttemptStatus = PLAYING
        self.moves = 0
        #: How far play has followed the stored line (None: it left it).
        self.on_line: int | None = 0

    # ------------------------------------------------------------------ what the page sees

    def view(self) -> View:
        """The side's view. A double-dummy puzzle, and any puzzle once the attempt is over, shows every card: the
        other hand (``opponent_shown``) and the face-down talon (``talon_shown``)."""
        deal = self.follow.deal
        shown = self.shown or self.status != PLAYING
        v = view(self.follow.match, self.seat, show_opponent=shown)
        v["talon_shown"] = [CARD_NAMES[c] for c in deal.talon[deal.talon_pos :]] if shown else None
        return v

    def state(self) -> AttemptState:
        deal = self.follow.deal
        return {
            "state": self.status,
            "to_move": self.status == PLAYING and deal.to_act == self.seat,
            "moves": self.moves,
            "goal": self.puzzle.goal,
        }

    # ------------------------------------------------------------------ moves

    def move(self, text: Any) -> PuzzleMoveAnswer:
        """The player's action for the side: the answer to ``puzzle_move`` (see docs/protocol.md).

        Raises :class:`GameOverError` once the attempt is over, :class:`BadActionError` for a text that is no
        action and :class:`IllegalActionError` for an action that is not legal; nothing changes then.
        """
        action = self._legal(text)
        if self._correct(action):
            return self._play_on(action)
        return self._refute(action)

    def replay(self, text: Any) -> bool:
        """The player's action judged as :meth:`move` judges it, without the frames and the refutation: how an
        attempt cut short by a reload stood (:func:`replayed`). True when it was correct. Raises as
        :meth:`move` does."""
        action = self._legal(text)
        if self._correct(action):
            self._advance(action)
            return True
        self.follow.apply(self.seat, action)
        self.moves += 1
        self.status = FAILED
        return False

    def _legal(self, text: Any) -> int:
        """The side's legal action that ``text`` names (raises as :meth:`move` says)."""
        if self.status != PLAYING:
            raise GameOverError("the puzzle is over")
        try:
            action = parse_action(text)
        except ValueError as e:
            raise BadActionError(str(e)) from None
        deal = self.follow.deal
        if action not in deal.legal_actions(self.seat) or deal.to_act != self.seat:
            raise IllegalActionError(deal.why_illegal(self.seat, action))
        return action

    def _correct(self, action: int) -> bool:
        if self.moves == 0:
            return action in self.puzzle.answer
        line = self.puzzle.line
        if self.on_line is not None and self.on_line < len(line) and line[self.on_line] == action:
            return True
        return self.follow.guarantees(action, self.puzzle.goal)

    def _apply(self, seat: int, action: int) -> None:
        line = self.puzzle.line
        if self.on_line is not None:
            following = self.on_line < len(line) and line[self.on_line] == action
            self.on_line = self.on_line + 1 if following else None
        self.follow.apply(seat, action)

    def _frames(self, before: View, start: int) -> list[Frame]:
        """The events from index ``start`` of the log, each with the side's view after it (a puzzle is one deal)."""
        events = self.follow.match.events[start:]
        return deal_frames(self.follow.deal, events, start, Observer(self.seat, self.shown), before)

    def _play_on(self, action: int) -> PuzzleRight:
        before = self.view()
        start = len(self.follow.match.events)
        self._advance(action)
        return {"correct": True, "frames": self._frames(before, start), **self._answer()}

    def _advance(self, action: int) -> None:
        """Play the side's correct ``action``, the defence and the forced moves, until the side is to act again or
        the deal is over (which solves the puzzle)."""
        self._apply(self.seat, action)
        self.moves += 1
        follow = self.follow
        while not follow.over:
            forced = follow.forced()
            if forced is not None:
                self._apply(*forced)
                continue
            if follow.deal.to_act == self.seat:
                break
            self._apply(follow.deal.to_act, self._reply())
        if follow.over:
            self.status = SOLVED

    def _reply(self) -> int:
        """The defender's move: the stored line's while play follows it, else its best reply in the true deal."""
        line = self.puzzle.line
        deal = self.follow.deal
        if self.on_line is not None and self.on_line < len(line) and line[self.on_line] in deal.legal_actions():
            return line[self.on_line]
        return self.follow.reply()

    def _refute(self, action: int) -> PuzzleWrong:
        goal = self.puzzle.goal
        follow = self.follow
        worlds = follow.worlds
        # At the first move the worlds are the position's, and the stored worst world saves the search.
        stored = next((o.witness for o in self.puzzle.others if o.action == action), None) if self.moves == 0 else None
        refutation = self.refutation(action, worlds, stored)
        loss = goal - refutation["value"]
        if loss < 1:  # no single world refutes it: what it guarantees over all of them does
            loss = goal - follow.prover.after_own(worlds, action, -INF, INF)
        before = self.view()
        start = len(follow.match.events)
        follow.apply(self.seat, action)
        self.moves += 1
        self.status = FAILED
        return {
            "correct": False,
            "frames": self._frames(before, start),
            "loss": loss,
            "refutation": refutation,
            **self._answer(),
        }

    def refutation(self, action: int, worlds: list[Deal], witness: int | None = None) -> Refutation:
        """The world (of ``worlds``, or ``worlds[witness]``) in which the side's ``action`` does worst, and the play
        there to the end with every card known: ``{world, line, value}``."""
        prover = self.follow.prover
        if witness is None:
            true_key = (self.follow.deal.hands[1 - self.seat], self.follow.deal.talon[self.follow.deal.talon_pos :])
            order = sorted(
                range(len(worlds)),
                key=lambda i: (worlds[i].hands[1 - self.seat], worlds[i].talon[worlds[i].talon_pos :]) != true_key,
            )
            low = INF
            witness = order[0]
            for i in order:
                child = worlds[i].clone()
                child.apply(action, self.seat)
                v = prover.value([child], -INF, low)
                if v < low:
                    low, witness = v, i
        world = worlds[witness]
        child = world.clone()
        child.apply(action, self.seat)
        line, result = best_line(child, self.seat, prover)
        return {
            "world": world_json(world),
            "line": [{"seat": self.seat, "action": action_name(action)}, *_line_json(line)],
            "value": signed_value(result, self.seat),
        }

    # ------------------------------------------------------------------ the solution

    def solution(self) -> PuzzleSolutionAnswer:
        """The stored solution as lines with values; gives the attempt up if it was still going on."""
        if self.status == PLAYING:
            self.status = SHOWN
        puzzle = self.puzzle
        start = self.start
        listed = world_list(start, self.seat, puzzle.kind)
        lines: list[SolutionLine] = [
            {
                "action": action_name(puzzle.line[0]),
                "value": puzzle.goal,
                "loss": 0,
                "line": seated(start, puzzle.line),
                "world": world_json(start) if self.shown else None,
            }
        ]
        for other in sorted(puzzle.others, key=lambda o: (-o.worst, o.action)):
            refutation = self.refutation(other.action, listed, other.witness)
            lines.append(
                {
                    "action": action_name(other.action),
                    "value": other.worst,
                    "loss": puzzle.goal - other.worst,
                    "line": refutation["line"],
                    "world": refutation["world"],
                }
            )
        return {
            "solution": {"goal": puzzle.goal, "answer": [action_name(a) for a in puzzle.answer], "lines": lines},
            **self._answer(),
        }

    def _answer(self) -> PuzzleState:
        return {**self.state(), "view": self.view()}


#: The most moves an attempt cut short may hold: the side plays at most 12 cards in a deal, and declares,
#: exchanges, closes and claims only a few times besides.
MOST_MOVES = 24


def replayed(puzzle: Puzzle, moves: list[Any]) -> Earlier:
    """How an attempt at ``puzzle`` cut short by a reload stood (docs/puzzles.md, "A reload"): ``moves``, the side's
    actions as the page sent them, are replayed in a session of their own and judged as :meth:`Session.move`
    judges them. The answer is ``{state, moves}``: ``playing`` (every move correct and the deal not over),
    ``solved`` or ``failed`` (the last move was wrong), and how many moves were replayed.

    Raises :class:`~py_engine.core.errors.EngineError` when they do not replay: more than :data:`MOST_MOVES`, a
    text that is no action, an action that is not legal, or any move after the attempt was over.
    """
    if len(moves) > MOST_MOVES:
        raise BadActionError(f"an attempt holds at most {MOST_MOVES} moves, not {len(moves)}")
    if not moves:
        return {"state": PLAYING, "moves": 0}
    session = Session(puzzle)
    for text in moves:
        session.replay(text)
    status = session.status
    assert status != SHOWN  # replaying never shows the solution
    return {"state": status, "moves": session.moves}
