"""Numbers about puzzles as pure functions: a puzzle's difficulty, the player's rating, streaks.

The page stores the player's numbers (rating, deviation, streaks) and the
engine computes them; nothing here keeps state or reads a clock.

* **Difficulty** (:func:`difficulty`) is a rating on the players' scale,
  from what the solution needs: how many of the side's decisions on the
  solution's line have a wrong option, how many first moves lose only one
  game point (the tempting ones), how many deals the side cannot tell
  apart, and how many options it has. :func:`band` names it.
* **The player's rating** is Glicko (Glickman 1999) with each puzzle as an
  opponent whose rating is its difficulty and whose deviation is
  :data:`PUZZLE_DEVIATION`.
* **Streaks**: :func:`streak_after` (puzzles solved in a row) and
  :func:`daily_after` (daily puzzles solved on consecutive days).
"""

from __future__ import annotations

import datetime
import math
import re

START_RATING = 1500.0
START_DEVIATION = 350.0
MIN_DEVIATION = 50.0
#: How sure a puzzle's own rating is: its difficulty is computed, not measured.
PUZZLE_DEVIATION = 100.0
LOWEST, HIGHEST = 600, 2400
#: Upper limits of the bands (the last has none).
BANDS = (("easy", 1100), ("medium", 1400), ("hard", 1700), ("expert", HIGHEST + 1))

_Q = math.log(10) / 400


def difficulty(critical: int, tempting: int, worlds: int, options: int) -> int:
    """A puzzle's rating from what its solution needs (docs/puzzles.md, "Difficulty").

    ``critical``: the side's decisions on the solution's line at which some
    legal option fails (the first included); ``tempting``: first moves that
    lose exactly one game point; ``worlds``: deals the side cannot tell
    apart; ``options``: its first moves.
    """
    value = 800 + 150 * (critical - 1) + 60 * tempting + 90 * math.log2(max(1, worlds)) + 20 * (options - 3)
    return int(min(HIGHEST, max(LOWEST, round(value / 10) * 10)))


def band(rating: int) -> str:
    """The name of a difficulty's band: easy, medium, hard or expert."""
    return next(name for name, limit in BANDS if rating < limit)


def _g(deviation: float) -> float:
    return 1 / math.sqrt(1 + 3 * (_Q * deviation) ** 2 / math.pi**2)


def expected(rating: float, deviation: float, puzzle: float) -> float:
    """The player's expected score (chance to solve) against a puzzle of rating ``puzzle``."""
    del deviation  # Glicko's expectation uses the opponent's deviation only
    return 1 / (1 + 10 ** (-_g(PUZZLE_DEVIATION) * (rating - puzzle) / 400))


def rate(rating: float, deviation: float, puzzle: float, solved: bool) -> tuple[float, float]:
    """The player's (rating, deviation) after one puzzle: a Glicko update with one game.

    The deviation is kept between :data:`MIN_DEVIATION` (the rating keeps moving) and :data:`START_DEVIATION`.
    """
    deviation = min(START_DEVIATION, max(MIN_DEVIATION, deviation))
    g = _g(PUZZLE_DEVIATION)
    e = expected(rating, deviation, puzzle)
    d2 = 1 / (_Q**2 * g**2 * e * (1 - e))
    inverse = 1 / deviation**2 + 1 / d2
    new_rating = rating + _Q / inverse * g * ((1.0 if solved else 0.0) - e)
    new_deviation = max(MIN_DEVIATION, math.sqrt(1 / inverse))
    return new_rating, new_deviation


def streak_after(streak: int, best: int, solved: bool) -> tuple[int, int]:
    """(streak, best) after a puzzle: solving extends the run of puzzles solved in a row, failing ends it."""
    streak = streak + 1 if solved else 0
    return streak, max(best, streak)


_DATE = re.compile(r"[0-9]{4}-[0-9]{2}-[0-9]{2}")


def parse_date(text: str) -> datetime.date:
    """A ``YYYY-MM-DD`` date; raises ``ValueError`` for anything else."""
    # Only this form: fromisoformat also reads others of ten characters, such as an ISO week (2026-W01-1).
    if not isinstance(text, str) or not _DATE.fullmatch(text):
        raise ValueError(f"a date is written YYYY-MM-DD, not {text!r}")
    return datetime.date.fromisoformat(text)


def daily_after(date: str, last: str | None, streak: int, solved: bool) -> tuple[str | None, int]:
    """(last, streak) after the daily puzzle of ``date``.

    ``last`` is the date of the last daily puzzle solved, ``streak`` the days
    solved in a row up to it. Solving the day after ``last`` extends the
    run; solving after a gap (or for the first time) starts it at 1; solving
    the same date again, or an earlier one, changes nothing; a failure keeps ``last`` and sets
    the run to 0.
    """
    day = parse_date(date)
    if not solved:
        return last, 0
    if last is not None:
        previous = parse_date(last)
        if previous >= day:
            return last, streak
        if previous == day - datetime.timedelta(days=1):
            return date, streak + 1
    return date, 1
