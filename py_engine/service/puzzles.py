"""The protocol's ``puzzle_*`` commands (docs/protocol.md, "Puzzles"): attempts by handle, as tables are.

Imported on first use (the puzzles bring the exact search and the
catalogue). A puzzle's id is ``puzzle_id`` in a request and an *entry*'s
``id`` in an answer, never a field of the envelope: ``id`` there is the
request's own, echoed. Nothing answered here holds a card the side may not see while
an attempt goes on: entries carry no card, views are the side's.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING, Any

from ..core.errors import EngineError
from ..core.rules import PRESET_IDS
from ..puzzles import catalogue, progress
from ..puzzles.catalogue import KINDS, THEMES, Puzzle
from ..puzzles.daily import daily_for
from ..puzzles.rating import (
    BANDS,
    START_DEVIATION,
    START_RATING,
    START_VOLATILITY,
    band,
    daily_after,
    expected,
    parse_date,
    rate,
    streak_after,
)
from ..puzzles.solving import Session, replayed
from .requests import ProtocolError, arg, find

if TYPE_CHECKING:
    from .contract import (
        Nothing,
        PuzzleAnswer,
        PuzzleDaily,
        PuzzleList,
        PuzzleMoveAnswer,
        PuzzleProgress,
        PuzzleProgressAnswer,
        PuzzleRated,
        PuzzleRecordAnswer,
        PuzzleResumeAnswer,
        PuzzleSolutionAnswer,
    )
    from .protocol import Answer, Engine


def _puzzle(req: dict[str, Any], name: str = "puzzle_id") -> Puzzle:
    puzzle_id = arg(req, name, str)
    puzzle = catalogue.by_id().get(puzzle_id)
    if puzzle is None:
        raise ProtocolError("unknown_puzzle", f"no puzzle with id {puzzle_id!r}")
    return puzzle


def _session(engine: Engine, req: dict[str, Any]) -> Session:
    return find(req, "puzzle", engine.puzzles)


def _choice(req: dict[str, Any], name: str, choices: tuple[str, ...]) -> str | None:
    value: str | None = arg(req, name, str, None)
    if value is not None and value not in choices:
        raise ProtocolError("bad_request", f"argument {name!r} must be one of {', '.join(choices)}, not {value!r}")
    return value


def puzzle_list(engine: Engine, req: dict[str, Any]) -> PuzzleList:
    preset = _choice(req, "preset", PRESET_IDS)
    theme = _choice(req, "theme", THEMES)
    kind = _choice(req, "kind", KINDS)
    wanted_band = _choice(req, "band", tuple(name for name, _ in BANDS))
    entries = [
        p.entry()
        for p in catalogue.builtin()
        if (preset is None or p.preset == preset)
        and (theme is None or theme in p.themes)
        and (kind is None or p.kind == kind)
        and (wanted_band is None or band(p.difficulty) == wanted_band)
    ]
    return {
        "puzzles": entries,
        "count": len(entries),
        "themes": list(THEMES),
        "bands": [name for name, _ in BANDS],
    }


def puzzle_open(engine: Engine, req: dict[str, Any]) -> PuzzleAnswer:
    puzzle = _puzzle(req)
    held = _progress(req) if req.get("progress") is not None else None
    answer = _opened(engine, puzzle)
    if held is not None:
        answer["first"] = progress.is_first_attempt(held, puzzle.id)
    return answer


def _opened(engine: Engine, puzzle: Puzzle) -> PuzzleAnswer:
    session = Session(puzzle)
    handle = engine.new_handle("p")
    engine.puzzles[handle] = session
    state = session.state()
    return {
        "puzzle": handle,
        "entry": puzzle.entry(),
        "state": state["state"],
        "to_move": state["to_move"],
        "moves": state["moves"],
        "goal": state["goal"],
        "view": session.view(),
    }


def puzzle_resume(engine: Engine, req: dict[str, Any]) -> PuzzleResumeAnswer:
    """The attempt that was on the page's table before a reload, checked, and opened again at its position.

    ``moves`` are the side's moves sent in it whose result the page has not recorded: the engine judges them
    (``earlier``), so that a wrong move answered while the page was going away still fails the attempt.
    ``daily`` is the date whose daily puzzle the attempt was; it must be this puzzle. Anything that does not
    check is ``bad_request`` (a damaged attempt), an id not in the set ``unknown_puzzle``.
    """
    puzzle = _puzzle(req)
    daily = arg(req, "daily", str, None, what="a date YYYY-MM-DD")
    if daily is not None:
        _date(daily, "daily")
        # The daily puzzle of its own rules, or (for a player whose rules have none) the one of all rules.
        _check_daily(puzzle, daily)
    moves: list[Any] = arg(req, "moves", list, [], what="a list of actions")
    if not all(isinstance(move, str) for move in moves):
        raise ProtocolError("bad_request", "argument 'moves' must be a list of actions")
    held = _progress(req) if req.get("progress") is not None else None
    try:
        earlier = replayed(puzzle, moves)
    except EngineError as e:
        raise ProtocolError("bad_request", f"the attempt's moves do not replay: {e}") from None
    answer: PuzzleResumeAnswer = {**_opened(engine, puzzle), "daily": daily, "earlier": earlier}
    if held is not None:
        # The earlier attempt, if it was over, is recorded first: the new one is then never the first.
        answer["first"] = earlier["state"] == "playing" and progress.is_first_attempt(held, puzzle.id)
    return answer


def puzzle_move(engine: Engine, req: dict[str, Any]) -> PuzzleMoveAnswer:
    session = _session(engine, req)
    return session.move(arg(req, "action", str))


def puzzle_solution(engine: Engine, req: dict[str, Any]) -> PuzzleSolutionAnswer:
    return _session(engine, req).solution()


def puzzle_close(engine: Engine, req: dict[str, Any]) -> Nothing:
    _session(engine, req)
    del engine.puzzles[req["puzzle"]]
    return {}


def _date(value: Any, name: str) -> str:
    if not isinstance(value, str):
        raise ProtocolError("bad_request", f"argument {name!r} must be a date YYYY-MM-DD, not {value!r}")
    try:
        parse_date(value)
    except ValueError:
        raise ProtocolError("bad_request", f"argument {name!r} must be a date YYYY-MM-DD, not {value!r}") from None
    return value


def puzzle_daily(engine: Engine, req: dict[str, Any]) -> PuzzleDaily:
    date = _date(arg(req, "date", str, what="a date YYYY-MM-DD"), "date")
    preset = _choice(req, "preset", PRESET_IDS)
    puzzle = catalogue.by_id()[daily_for(date, catalogue.builtin(), preset)]
    return {"date": date, "entry": puzzle.entry()}


def _number(req: dict[str, Any], name: str, default: float, low: float, high: float) -> float:
    value = arg(req, name, (int, float), default, what="a number")
    if not low <= value <= high:
        raise ProtocolError("bad_request", f"argument {name!r} must be a number from {low:g} to {high:g}")
    return float(value)


def _count(req: dict[str, Any], name: str) -> int:
    value: int = arg(req, name, int, 0, what="a count (0 or more)")
    if value < 0:
        raise ProtocolError("bad_request", f"argument {name!r} must be a count (0 or more), not {value!r}")
    return value


def puzzle_rate(engine: Engine, req: dict[str, Any]) -> PuzzleRated:
    puzzle = _puzzle(req)
    solved = arg(req, "solved", bool)
    daily = arg(req, "daily", dict, None)
    daily_args = None
    if daily is not None:
        date = _date(daily.get("date"), "daily.date")
        last = daily.get("last")
        if last is not None:
            last = _date(last, "daily.last")
        days = daily.get("streak", 0)
        if type(days) is not int or days < 0:
            raise ProtocolError("bad_request", "argument 'daily.streak' must be a count (0 or more)")
        daily_args = (date, last, days)
    return _rated(
        puzzle,
        solved,
        _number(req, "rating", START_RATING, 0, 4000),
        _number(req, "deviation", START_DEVIATION, 1, 1000),
        _number(req, "volatility", START_VOLATILITY, 0.001, 1),
        _count(req, "streak"),
        _count(req, "best"),
        daily_args,
    )


def _rated(
    puzzle: Puzzle,
    solved: bool,
    rating: float,
    deviation: float,
    volatility: float,
    streak: int,
    best: int,
    daily: tuple[str, str | None, int] | None,
) -> PuzzleRated:
    """The rating's answer to an attempt: the player's numbers after it, and the run of days if ``daily``."""
    streak, best = streak_after(streak, best, solved)
    new_rating, new_deviation, new_volatility = rate(rating, deviation, puzzle.difficulty, solved, volatility)
    answer: PuzzleRated = {
        "rating": round(new_rating, 1),
        "deviation": round(new_deviation, 1),
        "volatility": round(new_volatility, 6),
        "change": round(new_rating - rating, 1),
        "expected": round(expected(rating, deviation, puzzle.difficulty), 3),
        "streak": streak,
        "best": best,
    }
    if daily is not None:
        last, days = daily_after(daily[0], daily[1], daily[2], solved)
        answer["daily"] = {"last": last, "streak": days}
    return answer


def _progress(req: dict[str, Any]) -> PuzzleProgress:
    if "progress" not in req:
        raise ProtocolError("bad_request", "missing argument 'progress'")
    try:
        return progress.check_progress(req["progress"])
    except progress.ProgressError as e:
        raise ProtocolError("bad_request", f"argument 'progress': {e}") from None


def _check_daily(puzzle: Puzzle, date: str) -> None:
    """Refuse a date whose daily puzzle is not ``puzzle`` (of its own rules, or of all rules)."""
    if puzzle.id not in (
        daily_for(date, catalogue.builtin(), puzzle.preset),
        daily_for(date, catalogue.builtin()),
    ):
        raise ProtocolError("bad_request", f"{puzzle.id!r} is not the daily puzzle of {date}")


def puzzle_record(engine: Engine, req: dict[str, Any]) -> PuzzleRecordAnswer:
    """An attempt is over: the player's progress after it (only a first attempt is rated; a daily puzzle's run
    of days counts once a day)."""
    puzzle = _puzzle(req)
    solved = arg(req, "solved", bool)
    date = _date(arg(req, "date", str, what="a date YYYY-MM-DD"), "date")
    daily = arg(req, "daily", str, None, what="a date YYYY-MM-DD")
    if daily is not None:
        _date(daily, "daily")
        _check_daily(puzzle, daily)
    before = _progress(req)
    first = progress.is_first_attempt(before, puzzle.id)
    daily = daily if daily is not None and progress.counts_as_daily(before, daily) else None
    rated = _rated(
        puzzle,
        solved,
        before["rating"],
        before["deviation"],
        before["volatility"],
        before["streak"],
        before["best"],
        None if daily is None else (daily, before["daily"]["last"], before["daily"]["streak"]),
    )
    after = progress.record_attempt(before, puzzle.id, solved, date, rated, daily)
    return {
        "progress": after,
        "first": first,
        "rated": rated if first else None,
        "daily": {"last": after["daily"]["last"], "streak": after["daily"]["streak"]} if daily else None,
    }


def puzzle_progress(engine: Engine, req: dict[str, Any]) -> PuzzleProgressAnswer:
    """What the puzzles screen shows of the player's progress on ``today``."""
    held = _progress(req)
    today = _date(arg(req, "today", str, what="a date YYYY-MM-DD"), "today")
    return {
        "states": {
            puzzle_id: "solved" if record["solved"] else "failed" for puzzle_id, record in held["puzzles"].items()
        },
        "summary": progress.summary(held),
        "daily_run": progress.daily_run(held, today),
        "daily_today": held["daily"]["days"].get(today),
    }


#: The commands by name, each taking the engine and the request.
HANDLERS: dict[str, Callable[[Engine, dict[str, Any]], Answer]] = {
    "puzzle_list": puzzle_list,
    "puzzle_open": puzzle_open,
    "puzzle_resume": puzzle_resume,
    "puzzle_move": puzzle_move,
    "puzzle_solution": puzzle_solution,
    "puzzle_daily": puzzle_daily,
    "puzzle_rate": puzzle_rate,
    "puzzle_record": puzzle_record,
    "puzzle_progress": puzzle_progress,
    "puzzle_close": puzzle_close,
}
