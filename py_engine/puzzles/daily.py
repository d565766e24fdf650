"""The daily puzzle: the same for everyone on a date, from the date alone (offline, no clock read).

Days are counted from :data:`EPOCH`. The catalogue's ids, sorted, are
shuffled once per *cycle* of as many days as there are puzzles, by
``random.Random(cycle)`` (the same in every Python, CPython's Mersenne
Twister and shuffle), and day ``n`` of a cycle gets the cycle's ``n``-th
id: every puzzle comes once a cycle, so no puzzle comes back within a
cycle, and the order differs from cycle to cycle. Dates before the epoch
work the same way (their cycles are negative).

A player's daily puzzle is of the player's rules when the set holds some
(:func:`daily_for`): the same draw among that preset's puzzles only, so
everyone with those rules gets the same puzzle on a date.
"""

from __future__ import annotations

import datetime
import random
from collections.abc import Iterable, Sequence
from typing import Protocol

from .rating import parse_date

EPOCH = datetime.date(2026, 1, 1)


def daily_id(date: str, ids: Sequence[str]) -> str:
    """The id of the daily puzzle of ``date`` (``YYYY-MM-DD``) among ``ids``; raises ``ValueError`` for a bad
    date or no ids."""
    if not ids:
        raise ValueError("there is no puzzle to choose from")
    day = (parse_date(date) - EPOCH).days
    order = sorted(ids)
    cycle, index = divmod(day, len(order))
    random.Random(cycle).shuffle(order)
    return order[index]


class _Entry(Protocol):
    @property
    def id(self) -> str: ...

    @property
    def preset(self) -> str: ...


def daily_for(date: str, puzzles: Iterable[_Entry], preset: str | None = None) -> str:
    """The id of the daily puzzle of ``date`` for a player of ``preset``: among that preset's puzzles if there are
    any, else (or with no preset) among all of them."""
    listed = list(puzzles)
    own = [p.id for p in listed if p.preset == preset]
    return daily_id(date, own or [p.id for p in listed])
