"""Numbers about puzzles as pure functions: a puzzle's difficulty, the player's rating, streaks.

The page stores the player's numbers (rating, deviation, streaks) and the
engine computes them; nothing here keeps state or reads a clock.

* **Difficulty** (:func:`difficulty`) is a rating on the players' scale,
  from what the solution needs: how many of the side's decisions on the
  solution's line have a wrong option, how many first moves lose only one
  game point (the tempting ones), how many deals the side cannot tell
  apart, and how many options it has. :func:`band` names it.
* **The player's rating** is Glicko-2 (Glickman, "Example of the Glicko-2
  system", 2013): :func:`glicko2` is the system's update of one rating
  period, and :func:`rate` applies it to one puzzle, an opponent rated at
  its difficulty with the deviation :data:`PUZZLE_DEVIATION`.
* **Streaks**: :func:`streak_after` (puzzles solved in a row) and
  :func:`daily_after` (daily puzzles solved on consecutive days).
"""

from __future__ import annotations

import datetime
import math
import re
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from ..service.contract import Band

# The constants of the player's rating (docs/puzzles.md, "Rating and streaks").
#: A new player's rating: the middle of the scale, where Glicko-2 starts everyone.
START_RATING = 1500.0
#: A new player's deviation. Glicko-2 starts at 350 for games; a puzzle is weaker evidence than a game, so a new
#: player starts at 120: twice the deviation a player settles at (about 60 with one puzzle a period at the
#: start volatility), so the first puzzles still move the rating most, but a first miss on an easy puzzle
#: costs tens of points, not hundreds.
START_DEVIATION = 120.0
#: The deviation is kept at or above this (a stored value below it is raised): the rating always keeps moving.
MIN_DEVIATION = 30.0
#: A new player's volatility: Glickman's example value.
START_VOLATILITY = 0.06
#: The system constant: how fast the volatility may change (Glickman suggests 0.3 to 1.2).
TAU = 0.5
#: How sure a puzzle's own rating is: its difficulty is computed, not measured.
PUZZLE_DEVIATION = 100.0
LOWEST, HIGHEST = 600, 2400
#: Upper limits of the bands (the last has none).
BANDS: tuple[tuple[Band, int], ...] = (("easy", 1100), ("medium", 1400), ("hard", 1700), ("expert", HIGHEST + 1))

#: Glicko-2's scale: ratings and deviations divided by it (and centred on 1500).
_SCALE = 400 / math.log(10)
#: When the volatility's iteration stops (Glickman's epsilon).
_EPSILON = 1e-6


def difficulty(critical: int, tempting: int, worlds: int, options: int) -> int:
    """A puzzle's rating from what its solution needs (docs/puzzles.md, "Difficulty").

    ``critical``: the side's decisions on the solution's line at which some
    legal option fails (the first included); ``tempting``: first moves that
    lose exactly one game point; ``worlds``: deals the side cannot tell
    apart; ``options``: its first moves.
    """
    value = 800 + 150 * (critical - 1) + 60 * tempting + 90 * math.log2(max(1, worlds)) + 20 * (options - 3)
    return int(min(HIGHEST, max(LOWEST, round(value / 10) * 10)))


def band(rating: int) -> Band:
    """The name of a difficulty's band: easy, medium, hard or expert."""
    return next(name for name, limit in BANDS if rating < limit)


def _g(phi: float) -> float:
    return 1 / math.sqrt(1 + 3 * phi**2 / math.pi**2)


def _e(mu: float, mu_j: float, phi_j: float) -> float:
    return 1 / (1 + math.exp(-_g(phi_j) * (mu - mu_j)))


def expected(rating: float, deviation: float, puzzle: float) -> float:
    """The player's expected score (chance to solve) against a puzzle of rating ``puzzle``."""
    del deviation  # Glicko-2's expectation uses the opponent's deviation only
    return _e((rating - 1500) / _SCALE, (puzzle - 1500) / _SCALE, PUZZLE_DEVIATION / _SCALE)


def _volatility(phi: float, sigma: float, delta: float, v: float, tau: float) -> float:
    """Step 5 of Glicko-2: the new volatility, by the Illinois algorithm."""
    a = math.log(sigma**2)

    def f(x: float) -> float:
        ex = math.exp(x)
        return ex * (delta**2 - phi**2 - v - ex) / (2 * (phi**2 + v + ex) ** 2) - (x - a) / tau**2

    big_a = a
    if delta**2 > phi**2 + v:
        big_b = math.log(delta**2 - phi**2 - v)
    else:
        k = 1
        while f(a - k * tau) < 0:
            k += 1
        big_b = a - k * tau
    f_a, f_b = f(big_a), f(big_b)
    while abs(big_b - big_a) > _EPSILON:
        big_c = big_a + (big_a - big_b) * f_a / (f_b - f_a)
        f_c = f(big_c)
        if f_c * f_b <= 0:
            big_a, f_a = big_b, f_b
        else:
            f_a /= 2
        big_b, f_b = big_c, f_c
    return math.exp(big_a / 2)


def glicko2(
    rating: float,
    deviation: float,
    volatility: float,
    games: list[tuple[float, float, float]],
    tau: float = TAU,
) -> tuple[float, float, float]:
    """(rating, deviation, volatility) after one rating period of ``games``: (opponent's rating, its deviation,
    the score: 1, 0.5 or 0). With no game, only the deviation grows."""
    mu, phi = (rating - 1500) / _SCALE, deviation / _SCALE
    if not games:
        return rating, math.sqrt(phi**2 + volatility**2) * _SCALE, volatility
    opponents = [((r - 1500) / _SCALE, rd / _SCALE, score) for r, rd, score in games]
    v = 1 / sum(_g(phi_j) ** 2 * _e(mu, mu_j, phi_j) * (1 - _e(mu, mu_j, phi_j)) for mu_j, phi_j, _ in opponents)
    gain = sum(_g(phi_j) * (score - _e(mu, mu_j, phi_j)) for mu_j, phi_j, score in opponents)
    new_volatility = _volatility(phi, volatility, v * gain, v, tau)
    phi_star = math.sqrt(phi**2 + new_volatility**2)
    new_phi = 1 / math.sqrt(1 / phi_star**2 + 1 / v)
    new_mu = mu + new_phi**2 * gain
    return new_mu * _SCALE + 1500, new_phi * _SCALE, new_volatility


def rate(
    rating: float, deviation: float, puzzle: float, solved: bool, volatility: float = START_VOLATILITY
) -> tuple[float, float, float]:
    """The player's (rating, deviation, volatility) after one puzzle: a Glicko-2 period of one game.

    The deviation taken is kept between :data:`MIN_DEVIATION` and :data:`START_DEVIATION` (a rating stored by
    an earlier version may have more).
    """
    deviation = min(START_DEVIATION, max(MIN_DEVIATION, deviation))
    new_rating, new_deviation, new_volatility = glicko2(
        rating, deviation, volatility, [(puzzle, PUZZLE_DEVIATION, 1.0 if solved else 0.0)]
    )
    return new_rating, max(MIN_DEVIATION, new_deviation), new_volatility


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
