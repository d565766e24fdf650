"""An online rating per pool of rules, from signed results only: Elo, as a page can work it out alone.

A rating is worked out from a player's newest :data:`RATED_GAMES` results in
the pool, which its offers attach, so anyone can work it out again. It
starts at :data:`START`; a rated game moves a rating by
``K * (score - expected)``, where ``expected = 1 / (1 + 10 ** ((other - own) / 400))``
and ``K`` is :data:`K_NEW` for a player's first :data:`NEW_GAMES` games of a
pool, :data:`K_SETTLED` after (a newcomer's rating finds its level quickly,
then steadies). The other's strength is the rating its page signed in the
match's coin, :data:`START` if it signed none: a page cannot see another's
games, so that claim is the only strength it has. Matches with no winner
count for nobody. Ratings are whole numbers, rounded after each game.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass

from ...core.rules import PRESETS, Rules
from .certificate import SignedResult, digest_of

START = 1500
K_NEW = 32
K_SETTLED = 16
NEW_GAMES = 10
RATED_GAMES = 20


@dataclass(frozen=True)
class Rating:
    rating: int = START
    games: int = 0

    def after(self, other: int, score: float) -> Rating:
        """This rating after one game against a player rated ``other``: ``score`` 1 won, 0 lost."""
        expected = 1 / (1 + 10 ** ((other - self.rating) / 400))
        k = K_NEW if self.games < NEW_GAMES else K_SETTLED
        return Rating(round(self.rating + k * (score - expected)), self.games + 1)


def pool_of(rules: Rules) -> str:
    """The pool a game's rating counts in: its preset's id, or ``custom-`` and a digest of custom rules."""
    for preset_id, preset in PRESETS.items():
        if rules == preset:
            return preset_id
    return "custom-" + digest_of(rules.to_dict())[:12]


def rated(identity: str, results: Iterable[SignedResult], pool: str) -> list[SignedResult]:
    """The results ``identity``'s rating in ``pool`` comes from: its newest :data:`RATED_GAMES` there with a
    winner, oldest first (the same whatever order they are given in)."""
    counted = [
        r for r in results if r.seat_of(identity) is not None and r.winner is not None and pool_of(r.rules) == pool
    ]
    return sorted(counted, key=lambda r: (r.at, r.match))[-RATED_GAMES:]


def rating_of(identity: str, results: Iterable[SignedResult], pool: str) -> Rating:
    """``identity``'s rating in ``pool`` after the results :func:`rated` picks."""
    rating = Rating()
    for result in rated(identity, results, pool):
        seat = result.seat_of(identity)
        assert seat is not None
        other = result.claimed[1 - seat]
        rating = rating.after(START if other is None else other, 1.0 if result.winner == seat else 0.0)
    return rating
