"""The statistics of games against the computer: what a finished deal and match count, and the rating.

The page keeps the statistics in its storage (web/platform/stats.js: the
schema, its migration, damaged data repaired) and sends them with each
request; the engine decides what changes and answers them anew. Nothing
here keeps state or reads a clock (the page sends ``now``).

The statistics (schema 2)::

    {schema: 2, since, rating, rated, history: [{t, rating, level, won}],
     buckets: {"<preset>[*]|<level>": bucket}, current: {recorded: [...], counted, assisted?} | null}

A bucket counts one rule set (``*``: changed rules) at one level:
``{preset, custom, level, deals: {won, lost, none}, matches: {won, lost},
points: {won, lost}, basis: {<basis>: {won, lost}}, closes: {made, won},
marriages: {count, points}}``.

**The rating** is an Elo rating of the player against the computer, updated
after every match the player finishes: ``expected = 1 / (1 + 10^((R_level -
R) / 400))``, then ``R += K * (result - expected)``, result 1 for a won match
and 0 for a lost one. Each level has a fixed nominal rating
(:data:`LEVEL_RATINGS`); a new player starts at :data:`START_RATING`.

**Assisted**: a match in which the player took a move back or asked for a
hint counts in the totals but does not change the rating, which measures
unaided play. **Counted**: only games against the computer count, and not
the tutorial's (``counted: false``); such a game's deals are still
remembered, so that none is counted later.
"""

from __future__ import annotations

import copy
import math
import re
from collections.abc import Callable
from typing import TYPE_CHECKING, Any, Literal, cast

from ..core.rules import PRESETS
from .requests import ProtocolError, arg

if TYPE_CHECKING:
    from .contract import CurrentGame, GameStats, RatingPoint, StatsAnswer, StatsBucket, StatsChanged
    from .protocol import Answer, Engine

SCHEMA = 2
START_RATING = 1200
K_FACTOR = 32
#: The computer's nominal rating at each level, 200 apart (the arena measures game points, not match results).
LEVEL_RATINGS = {1: 800, 2: 1000, 3: 1200, 4: 1400, 5: 1600}
#: The rating history keeps at most this many points (the oldest go first).
HISTORY_LIMIT = 500
#: Deals remembered as recorded in the current game (to count each deal once across reloads).
RECORDED_LIMIT = 200
#: The only mode whose games count: a person against the computer.
COUNTED_MODE = "computer"

_SAFE = 2**53 - 1
_TIME_MAX = 8.64e15
_PRESET_ID = re.compile(r"[A-Z0-9]{2,12}")
_WORD = re.compile(r"[a-z0-9_]{1,40}")
_DEAL_KEY = re.compile(r"\d{1,6}\.\d{1,6}")


def empty_stats(now: float) -> GameStats:
    return {
        "schema": SCHEMA,
        "since": now,
        "rating": START_RATING,
        "rated": 0,
        "history": [],
        "buckets": {},
        "current": None,
    }


def empty_bucket(preset: str, custom: bool, level: int) -> StatsBucket:
    return {
        "preset": preset,
        "custom": custom,
        "level": level,
        "deals": {"won": 0, "lost": 0, "none": 0},
        "matches": {"won": 0, "lost": 0},
        "points": {"won": 0, "lost": 0},
        "basis": {},
        "closes": {"made": 0, "won": 0},
        "marriages": {"count": 0, "points": 0},
    }


def bucket_key(preset: str, custom: bool, level: int) -> str:
    return f"{preset}{'*' if custom else ''}|{level}"


def expected_score(player: float, level: int) -> float:
    """The Elo expectation of the player (rating ``player``) against a level (an unknown one counts as 3)."""
    opponent = LEVEL_RATINGS.get(level, LEVEL_RATINGS[3])
    return float(1 / (1 + 10 ** ((opponent - player) / 400)))


def rated_after(player: float, level: int, won: bool) -> float:
    """The player's rating after a match against ``level``."""
    return player + K_FACTOR * ((1 if won else 0) - expected_score(player, level))


def is_custom(rules: dict[str, Any]) -> bool:
    """Are these rules other than one of the presets unchanged?"""
    base = PRESETS.get(rules.get("id"))  # type: ignore[arg-type]
    if base is None:
        return True
    return any(rules.get(name) != value for name, value in base.to_dict().items())


# ------------------------------------------------------------------ checking


def _is_count(value: Any) -> bool:
    return type(value) is int and 0 <= value <= _SAFE


def _is_number(value: Any) -> bool:
    return type(value) in (int, float) and math.isfinite(value)


def _is_time(value: Any) -> bool:
    return _is_number(value) and 0 <= value <= _TIME_MAX


def _is_rating(value: Any) -> bool:
    return _is_number(value) and 0 <= value <= 5000


def _bad(what: str) -> ProtocolError:
    return ProtocolError("bad_request", f"argument 'stats': {what}")


def _counts(value: Any, names: tuple[str, ...], where: str) -> None:
    if not isinstance(value, dict):
        raise _bad(f"{where} is not an object")
    for name in names:
        if not _is_count(value.get(name)):
            raise _bad(f"{where}.{name} is not a count")


def _check_bucket(key: str, b: Any) -> None:
    where = f"buckets[{key}]"
    if not isinstance(b, dict):
        raise _bad(f"{where} is not an object")
    if not isinstance(b.get("preset"), str) or not _PRESET_ID.fullmatch(b["preset"]):
        raise _bad(f"{where}.preset is not a preset's id")
    if type(b.get("custom")) is not bool:
        raise _bad(f"{where}.custom is not true or false")
    if type(b.get("level")) is not int or not 0 <= b["level"] <= 5:
        raise _bad(f"{where}.level is not a level 0-5")
    if key != bucket_key(b["preset"], b["custom"], b["level"]):
        raise _bad(f"{where} has the wrong key")
    _counts(b.get("deals"), ("won", "lost", "none"), f"{where}.deals")
    _counts(b.get("matches"), ("won", "lost"), f"{where}.matches")
    _counts(b.get("points"), ("won", "lost"), f"{where}.points")
    _counts(b.get("closes"), ("made", "won"), f"{where}.closes")
    _counts(b.get("marriages"), ("count", "points"), f"{where}.marriages")
    if b["closes"]["won"] > b["closes"]["made"]:
        raise _bad(f"{where}: more closes won than made")
    if not isinstance(b.get("basis"), dict):
        raise _bad(f"{where}.basis is not an object")
    for name, value in b["basis"].items():
        if not _WORD.fullmatch(name):
            raise _bad(f"{where}.basis has a bad name")
        _counts(value, ("won", "lost"), f"{where}.basis.{name}")


def _is_history_point(point: Any) -> bool:
    return (
        isinstance(point, dict)
        and _is_time(point.get("t"))
        and _is_rating(point.get("rating"))
        and type(point.get("level")) is int
        and 1 <= point["level"] <= 5
        and type(point.get("won")) is bool
    )


def _is_current(c: Any) -> bool:
    return (
        isinstance(c, dict)
        and type(c.get("counted")) is bool
        and ("assisted" not in c or type(c["assisted"]) is bool)
        and isinstance(c.get("recorded"), list)
        and len(c["recorded"]) <= RECORDED_LIMIT
        and all(isinstance(k, str) and _DEAL_KEY.fullmatch(k) for k in c["recorded"])
    )


def check_stats(data: Any) -> GameStats:
    """``data`` if it is well-formed statistics of schema 2, else a ``bad_request`` naming what is wrong."""
    if not isinstance(data, dict):
        raise _bad("not an object")
    if type(data.get("schema")) is not int or data["schema"] != SCHEMA:
        raise _bad(f"schema {data.get('schema')!r} (the engine reads schema {SCHEMA})")
    if not _is_time(data.get("since")):
        raise _bad("since is not a time")
    if not _is_rating(data.get("rating")):
        raise _bad("rating is not a rating 0-5000")
    if not _is_count(data.get("rated")):
        raise _bad("rated is not a count")
    history = data.get("history")
    if not isinstance(history, list) or len(history) > HISTORY_LIMIT:
        raise _bad(f"history is not a list of at most {HISTORY_LIMIT} points")
    if not all(_is_history_point(point) for point in history):
        raise _bad("a history point is damaged")
    if not isinstance(data.get("buckets"), dict):
        raise _bad("buckets is not an object")
    for key, bucket in data["buckets"].items():
        _check_bucket(key, bucket)
    if "current" not in data or (data["current"] is not None and not _is_current(data["current"])):
        raise _bad("current is damaged")
    return cast("GameStats", data)


# ----------------------------------------------------------------- recording


def begin(stats: GameStats, counted: bool) -> GameStats:
    """The statistics with a new game begun (``counted`` false: one that does not count, e.g. the tutorial)."""
    return {**stats, "current": {"recorded": [], "counted": counted}}


def mark_assisted(stats: GameStats) -> GameStats:
    """The statistics with the game in play marked assisted (an undo or a hint): its matches are not rated."""
    current: CurrentGame = stats["current"] or {"recorded": [], "counted": True}
    if current.get("assisted"):
        return stats
    return {**stats, "current": {**current, "assisted": True}}


def deal_key(view: dict[str, Any]) -> str:
    """Which deal of the game a view shows: ``<match number>.<deal number>``."""
    return f"{view['match']['match_number']}.{view['match']['deal_number']}"


def record(stats: GameStats, view: dict[str, Any], level: int, now: float) -> GameStats:
    """Count the finished deal (and match) ``view`` shows, once: the statistics after it, or ``stats`` itself.

    ``view`` is a view the page received and sends back: only the fields a record reads are checked
    (:func:`_check_view`), so it stays open JSON here.
    """
    result = view.get("deal_result")
    if not result:
        return stats
    current: CurrentGame = stats["current"] or {"recorded": [], "counted": True}
    key = deal_key(view)
    if key in current["recorded"]:
        return stats
    after = copy.deepcopy(stats)
    after["current"] = {**current, "recorded": [*current["recorded"], key][-RECORDED_LIMIT:]}
    if not current["counted"]:
        return after

    rules = view["rules"]
    custom = is_custom(rules)
    b_key = bucket_key(rules["id"], custom, level)
    b = after["buckets"].setdefault(b_key, empty_bucket(rules["id"], custom, level))
    me = view.get("seat", 0)  # the player whose statistics these are
    winner = result.get("winner")
    if winner is None:
        b["deals"]["none"] += 1
    else:
        side: Literal["won", "lost"] = "won" if winner == me else "lost"
        b["deals"][side] += 1
        b["points"][side] += result["game_points"]
        basis = result.get("basis")
        if isinstance(basis, str) and _WORD.fullmatch(basis) and basis != "none":
            b["basis"].setdefault(basis, {"won": 0, "lost": 0})[side] += 1
    if view.get("closed_by") == me:
        b["closes"]["made"] += 1
        if winner == me:
            b["closes"]["won"] += 1
    for marriage in view.get("marriages") or []:
        if marriage["seat"] == me:
            b["marriages"]["count"] += 1
            b["marriages"]["points"] += marriage["points"]
    match_winner = view["match"].get("winner")
    if view.get("phase") == "match_over" and match_winner in (0, 1):
        won = match_winner == me
        b["matches"]["won" if won else "lost"] += 1
        if current.get("assisted"):
            return after
        after["rating"] = rated_after(after["rating"], level, won)
        after["rated"] += 1
        point: RatingPoint = {"t": now, "rating": after["rating"], "level": level, "won": won}
        after["history"] = [*after["history"], point][-HISTORY_LIMIT:]
    return after


# ------------------------------------------------------------------ requests


def _stats(req: dict[str, Any]) -> GameStats:
    if "stats" not in req:
        raise ProtocolError("bad_request", "missing argument 'stats'")
    return check_stats(req["stats"])


def _mode(req: dict[str, Any]) -> str:
    mode: str = arg(req, "mode", str, what="a table's mode")
    return mode


def _check_view(view: Any) -> dict[str, Any]:
    """The fields of a view that a record reads, checked (the view is the engine's own, sent back)."""

    def bad(what: str) -> ProtocolError:
        return ProtocolError("bad_request", f"argument 'view': {what}")

    if not isinstance(view, dict):
        raise bad("not an object")
    match = view.get("match")
    if (
        not isinstance(match, dict)
        or not _is_count(match.get("match_number"))
        or not _is_count(match.get("deal_number"))
    ):
        raise bad("match.match_number and match.deal_number must be counts")
    if match.get("winner") not in (None, 0, 1) or type(match.get("winner")) is bool:
        raise bad("match.winner must be a seat or null")
    if view.get("seat", 0) not in (0, 1) or type(view.get("seat", 0)) is bool:
        raise bad("seat must be 0 or 1")
    result = view.get("deal_result")
    if result is None:
        return view
    if not isinstance(result, dict):
        raise bad("deal_result is not an object")
    if result.get("winner") not in (None, 0, 1) or type(result.get("winner")) is bool:
        raise bad("deal_result.winner must be a seat or null")
    if result.get("winner") is not None and not _is_count(result.get("game_points")):
        raise bad("deal_result.game_points is not a count")
    rules = view.get("rules")
    if not isinstance(rules, dict) or not isinstance(rules.get("id"), str) or not _PRESET_ID.fullmatch(rules["id"]):
        raise bad("rules must name a preset")
    marriages = view.get("marriages") or []
    if not isinstance(marriages, list) or not all(
        isinstance(m, dict) and m.get("seat") in (0, 1) and _is_count(m.get("points")) for m in marriages
    ):
        raise bad("marriages must be a list of {seat, points}")
    return view


def stats_begin(engine: Engine, req: dict[str, Any]) -> StatsAnswer:
    stats = _stats(req)
    return {"stats": begin(stats, arg(req, "counted", bool, True))}


def stats_assisted(engine: Engine, req: dict[str, Any]) -> StatsChanged:
    stats = _stats(req)
    after = mark_assisted(stats) if _mode(req) == COUNTED_MODE else stats
    return {"stats": after, "changed": after is not stats}


def stats_record(engine: Engine, req: dict[str, Any]) -> StatsChanged:
    stats = _stats(req)
    view = _check_view(arg(req, "view", dict, what="a view"))
    level = arg(req, "level", int, what="a level 0-5")
    if not 0 <= level <= 5:
        raise ProtocolError("bad_request", f"argument 'level' must be a level 0-5, not {level!r}")
    now = arg(req, "now", (int, float), what="a time in ms")
    if not _is_time(now):
        raise ProtocolError("bad_request", f"argument 'now' must be a time in ms from 0 to {_TIME_MAX:.0f}")
    after = record(stats, view, level, now) if _mode(req) == COUNTED_MODE else stats
    return {"stats": after, "changed": after is not stats}


#: The commands by name, each taking the engine and the request.
HANDLERS: dict[str, Callable[[Engine, dict[str, Any]], Answer]] = {
    "stats_begin": stats_begin,
    "stats_assisted": stats_assisted,
    "stats_record": stats_record,
}
