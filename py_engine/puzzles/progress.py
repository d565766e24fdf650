"""A player's puzzles as pure functions: which attempt counts, what it changes, what the list shows.

The page keeps the progress in its storage (web/platform/puzzle-progress.js:
its version, damaged data repaired) and sends it with each request; the
engine decides and answers it anew. Nothing here keeps state or reads a
clock (the page sends the player's date).

The progress (version 1)::

    {version: 1, rating, deviation, volatility, streak, best,
     puzzles: {<id>: {first: "solved" | "failed", solved, tries, last}},
     daily: {last, streak, days: {<date>: "solved" | "failed"}}, history: [rating, ...]}

The rules (docs/puzzles.md, "Rating and streaks"):

* Only the **first attempt** at a puzzle changes the rating, the deviation,
  the volatility and the run of puzzles solved in a row: trying again once
  the solution is known proves nothing. Every attempt adds a try, and a
  later success marks the puzzle solved (its first result stays).
* The **daily puzzle** counts for the run of days once a day: the first
  attempt at that date's daily puzzle, whatever came before it.
* A puzzle's state in the list is ``solved`` (ever), ``failed`` (tried,
  never solved) or ``new``; the run of days shown is the stored one unless
  a day was missed since the last one solved.
"""

from __future__ import annotations

import copy
import datetime
import math
import re
from typing import TYPE_CHECKING, Any, cast

from .rating import START_DEVIATION, START_RATING, START_VOLATILITY, parse_date

if TYPE_CHECKING:
    from ..service.contract import PuzzleProgress, PuzzleRated, PuzzleSummary, Result

VERSION = 1
#: The daily puzzles remembered (the latest ones).
DAYS_KEPT = 60
#: The rating after each rated attempt, for the latest ones.
HISTORY_KEPT = 100
RESULTS = ("solved", "failed")

_ID = re.compile(r"[A-Za-z0-9_.:+-]{1,64}")
_DATE = re.compile(r"\d{4}-\d{2}-\d{2}")


class ProgressError(ValueError):
    """Progress that is not well-formed: the message says what is wrong."""


def empty_progress() -> PuzzleProgress:
    return {
        "version": VERSION,
        "rating": START_RATING,
        "deviation": START_DEVIATION,
        "volatility": START_VOLATILITY,
        "streak": 0,
        "best": 0,
        "puzzles": {},
        "daily": {"last": None, "streak": 0, "days": {}},
        "history": [],
    }


def _in_range(value: Any, low: float, high: float) -> bool:
    return type(value) in (int, float) and math.isfinite(value) and low <= value <= high


def _is_count(value: Any) -> bool:
    return type(value) is int and value >= 0


def _is_date(value: Any) -> bool:
    return isinstance(value, str) and bool(_DATE.fullmatch(value))


def _check_record(puzzle_id: str, entry: Any) -> None:
    where = f"puzzles[{puzzle_id}]"
    if not isinstance(entry, dict):
        raise ProgressError(f"{where} is not an object")
    if entry.get("first") not in RESULTS:
        raise ProgressError(f"{where}.first must be solved or failed")
    if type(entry.get("solved")) is not bool:
        raise ProgressError(f"{where}.solved must be true or false")
    if not _is_count(entry.get("tries")) or entry["tries"] < 1:
        raise ProgressError(f"{where}.tries must be a count of 1 or more")
    if not _is_date(entry.get("last")):
        raise ProgressError(f"{where}.last must be a date YYYY-MM-DD")


def check_progress(data: Any) -> PuzzleProgress:
    """``data`` if it is well-formed progress of this version, else a :class:`ProgressError`."""
    if not isinstance(data, dict):
        raise ProgressError("not an object")
    if data.get("version") != VERSION or type(data.get("version")) is not int:
        raise ProgressError(f"version {data.get('version')!r} (the engine reads version {VERSION})")
    for name, low, high in (("rating", 0, 4000), ("deviation", 1, 1000), ("volatility", 0.001, 1)):
        if not _in_range(data.get(name), low, high):
            raise ProgressError(f"{name} must be a number from {low:g} to {high:g}")
    for name in ("streak", "best"):
        if not _is_count(data.get(name)):
            raise ProgressError(f"{name} must be a count (0 or more)")
    puzzles = data.get("puzzles")
    if not isinstance(puzzles, dict):
        raise ProgressError("puzzles is not an object")
    for puzzle_id, entry in puzzles.items():
        if not _ID.fullmatch(puzzle_id):
            raise ProgressError(f"puzzles holds a bad id {puzzle_id!r}")
        _check_record(puzzle_id, entry)
    daily = data.get("daily")
    if not isinstance(daily, dict):
        raise ProgressError("daily is not an object")
    if daily.get("last") is not None and not _is_date(daily.get("last")):
        raise ProgressError("daily.last must be a date YYYY-MM-DD or null")
    if not _is_count(daily.get("streak")):
        raise ProgressError("daily.streak must be a count (0 or more)")
    days = daily.get("days")
    if not isinstance(days, dict) or not all(_is_date(d) and r in RESULTS for d, r in days.items()):
        raise ProgressError("daily.days must map dates YYYY-MM-DD to solved or failed")
    history = data.get("history")
    if not isinstance(history, list) or not all(_in_range(r, 0, 4000) for r in history):
        raise ProgressError("history must be a list of ratings")
    return cast("PuzzleProgress", data)


def is_first_attempt(progress: PuzzleProgress, puzzle_id: str) -> bool:
    """Is an attempt at ``puzzle_id`` now the first (the one that is rated)?"""
    return puzzle_id not in progress["puzzles"]


def counts_as_daily(progress: PuzzleProgress, date: str) -> bool:
    """Does an attempt at ``date``'s daily puzzle count for the run of days: not finished yet that day?"""
    return date not in progress["daily"]["days"]


def record_attempt(
    progress: PuzzleProgress,
    puzzle_id: str,
    solved: bool,
    date: str,
    rated: PuzzleRated | None,
    daily: str | None,
) -> PuzzleProgress:
    """The progress after an attempt (a new value).

    ``rated``: the rating's answer (rating, deviation, volatility, streak,
    best and, for a daily puzzle, ``daily: {last, streak}``), applied to the
    numbers only for a first attempt; ``daily``: the date, if the attempt
    was that day's daily puzzle and counts.
    """
    after = copy.deepcopy(progress)
    before = after["puzzles"].get(puzzle_id)
    result: Result = "solved" if solved else "failed"
    if before:
        after["puzzles"][puzzle_id] = {
            **before,
            "solved": before["solved"] or solved,
            "tries": before["tries"] + 1,
            "last": date,
        }
    else:
        after["puzzles"][puzzle_id] = {"first": result, "solved": solved, "tries": 1, "last": date}
    if rated and not before:
        after["rating"] = rated["rating"]
        after["deviation"] = rated["deviation"]
        after["volatility"] = rated["volatility"]
        after["streak"] = rated["streak"]
        after["best"] = max(rated["best"], rated["streak"])
        after["history"] = [*after["history"], rated["rating"]][-HISTORY_KEPT:]
    if daily and rated and rated.get("daily") and daily not in after["daily"]["days"]:
        days = {**after["daily"]["days"], daily: result}
        kept = sorted(days)[-DAYS_KEPT:]
        after["daily"] = {
            "last": rated["daily"]["last"],
            "streak": rated["daily"]["streak"],
            "days": {day: days[day] for day in kept},
        }
    return after


def puzzle_state(progress: PuzzleProgress, puzzle_id: str) -> str:
    """A puzzle's state for the list: ``solved`` (ever), ``failed`` (tried, never solved) or ``new``."""
    entry = progress["puzzles"].get(puzzle_id)
    if not entry:
        return "new"
    return "solved" if entry["solved"] else "failed"


def daily_run(progress: PuzzleProgress, today: str) -> int:
    """The run of daily puzzles as of ``today``: the stored run, unless a day was missed since the last one."""
    last = progress["daily"]["last"]
    streak: int = progress["daily"]["streak"]
    if not last or streak == 0:
        return 0
    days = (parse_date(today) - parse_date(last)) / datetime.timedelta(days=1)
    return streak if days <= 1 else 0


def summary(progress: PuzzleProgress) -> PuzzleSummary:
    """Counts for the list: puzzles tried, solved at the first attempt, solved in all."""
    records = list(progress["puzzles"].values())
    return {
        "tried": len(records),
        "first_try": sum(1 for r in records if r["first"] == "solved"),
        "solved": sum(1 for r in records if r["solved"]),
    }
