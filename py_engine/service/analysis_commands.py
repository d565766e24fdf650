"""The protocol's analysis and link commands (docs/protocol.md, "Analysis and links"): boards by handle, as tables are.

Imported on first use. A board is made only from a finished deal: a table's
(its review), an imported record's (a table too), or a link's.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING, Any

from ..core.errors import EngineError
from . import links
from .analysis import Board
from .requests import MAX_ITERATIONS, MAX_REVIEW_MS, MS, ProtocolError, arg, find, positive

if TYPE_CHECKING:
    from .contract import (
        BoardAnswer,
        BoardChanged,
        EvaluationAnswer,
        LinkAnswer,
        LinkOpenAnswer,
        Nothing,
        PositionAnswer,
    )
    from .protocol import Answer, Engine
    from .table import Table

#: How many boards one engine keeps at most (a page opens one at a time; the oldest goes first).
MAX_BOARDS = 8


def _board(engine: Engine, req: dict[str, Any]) -> Board:
    return find(req, "board", engine.boards)


def _node(board: Board, req: dict[str, Any], default: int | None = None) -> int:
    value = arg(req, "node", int, default, what="a node of the board")
    return board.node(value).id


def _deal_of(engine: Engine, req: dict[str, Any]) -> tuple[Table, int]:
    table: Table = find(req, "table", engine.tables)
    index: int = arg(req, "deal", int, what="a deal's index (0-based)")
    if not 0 <= index < len(table.match.records):
        raise ProtocolError("bad_request", f"no deal {index} in this game")
    return table, index


def _seat(req: dict[str, Any]) -> int:
    seat = arg(req, "seat", int, 0, what="0 or 1")
    if seat not in (0, 1):
        raise ProtocolError("bad_request", f"argument 'seat' must be 0 or 1, not {seat!r}")
    return int(seat)


def _opened(engine: Engine, board: Board) -> BoardAnswer:
    while len(engine.boards) >= MAX_BOARDS:
        del engine.boards[next(iter(engine.boards))]
    handle = engine.new_handle("b")
    engine.boards[handle] = board
    return {"board": handle, **board.about(), "tree": board.tree(), "position": board.position(board.start)}


def analysis_open(engine: Engine, req: dict[str, Any]) -> BoardAnswer:
    if req.get("puzzle") is not None:
        return _opened(engine, Board(_puzzle_link(engine, req)))
    table, index = _deal_of(engine, req)
    step = arg(req, "step", int, None, what="a step of the deal (0 or more)")
    return _opened(engine, Board(links.deal_link(table.match, index, step=step, seat=_seat(req))))


def _puzzle_link(engine: Engine, req: dict[str, Any]) -> links.DealLink:
    """The deal of an attempt that is over, played along the puzzle's stored solution to its end, at the puzzle's
    position, the side at the bottom. While the attempt goes on it is refused: the board shows every card."""
    from ..puzzles.solving import PLAYING, seated

    session = find(req, "puzzle", engine.puzzles)
    if session.status == PLAYING:
        raise ProtocolError("bad_request", "the puzzle is still being solved: the board would show its solution")
    puzzle = session.puzzle
    match = puzzle.position.match()
    for step in seated(match.deal, puzzle.line):
        match.act_text(step["seat"], step["action"])
    return links.deal_link(match, 0, step=len(puzzle.position.actions), seat=puzzle.side)


def link_open(engine: Engine, req: dict[str, Any]) -> LinkOpenAnswer:
    link = links.decode(arg(req, "link", str))
    if isinstance(link, links.PuzzleLink):
        return {"kind": "puzzle", "puzzle": link.id}
    return {"kind": "deal", **_opened(engine, Board(link))}


def link_make(engine: Engine, req: dict[str, Any]) -> LinkAnswer:
    link: links.Link
    if req.get("board") is not None:
        board = _board(engine, req)
        link = board.link(_node(board, req, 0))
    elif req.get("puzzle") is not None:
        link = links.PuzzleLink(_puzzle_id(req))
    else:
        table, index = _deal_of(engine, req)
        step = arg(req, "step", int, None, what="a step of the deal (0 or more)")
        link = links.deal_link(table.match, index, step=step, seat=_seat(req))
    return {"link": links.encode(link)}


def _puzzle_id(req: dict[str, Any]) -> str:
    """A built-in puzzle's id: a link to one that does not exist would open nothing."""
    from ..puzzles import catalogue  # imported on first use, as the puzzle commands do

    puzzle_id: str = arg(req, "puzzle", str, what="a puzzle's id")
    if puzzle_id not in catalogue.by_id():
        raise ProtocolError("unknown_puzzle", f"no puzzle with id {puzzle_id!r}")
    return puzzle_id


def analysis_show(engine: Engine, req: dict[str, Any]) -> PositionAnswer:
    board = _board(engine, req)
    return {"position": board.position(_node(board, req))}


def analysis_play(engine: Engine, req: dict[str, Any]) -> BoardChanged:
    board = _board(engine, req)
    node = board.play(_node(board, req), _seat(req) if "seat" in req else _to_act(board, req), arg(req, "action", str))
    return {"node": node, "tree": board.tree(), "position": board.position(node)}


def _to_act(board: Board, req: dict[str, Any]) -> int:
    seat = board.position(_node(board, req))["to_act"]
    if seat is None:
        raise EngineError("the deal is over here: nothing more can be played")
    return int(seat)


def analysis_remove(engine: Engine, req: dict[str, Any]) -> BoardChanged:
    board = _board(engine, req)
    node = board.remove(_node(board, req))
    return {"node": node, "tree": board.tree(), "position": board.position(node)}


def analysis_evaluate(engine: Engine, req: dict[str, Any]) -> EvaluationAnswer:
    board = _board(engine, req)
    node = _node(board, req)
    all_cards = arg(req, "all_cards", bool, False)
    budget = positive(req, "budget_ms", MAX_REVIEW_MS, MS)
    iterations = positive(req, "iterations", MAX_ITERATIONS, "a positive integer")
    seed = arg(req, "seed", int, 0)
    return {"evaluation": board.evaluate(node, all_cards, budget, iterations, seed)}


def analysis_close(engine: Engine, req: dict[str, Any]) -> Nothing:
    _board(engine, req)
    del engine.boards[req["board"]]
    return {}


HANDLERS: dict[str, Callable[[Engine, dict[str, Any]], Answer]] = {
    "analysis_open": analysis_open,
    "analysis_show": analysis_show,
    "analysis_play": analysis_play,
    "analysis_remove": analysis_remove,
    "analysis_evaluate": analysis_evaluate,
    "analysis_close": analysis_close,
    "link_make": link_make,
    "link_open": link_open,
}
