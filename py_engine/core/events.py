"""What happens in a game, as typed values: the one schema of the engine's events.

The referee (:class:`~py_engine.core.deal.Deal`, :class:`~py_engine.service.match.Match`)
logs these with every card; each event says how it reads in full
(:meth:`Event.to_json`, for reviews of finished deals and the referee's own
log) and how one seat may see it (:meth:`Event.seen_by`, as its
:class:`~py_engine.core.info.Observer` decides: the opponent's drawn card
stays hidden). Cards and suits are ints here and card texts in JSON.

The classes are plain slotted classes with ``Final`` fields rather than
frozen dataclasses: the engine imports them at start-up, and inside Pyodide
seventeen dataclasses took about 35 ms to create where these take under 1 ms
(docs/performance.md).
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, ClassVar, Final

from .cards import CARD_NAMES, KING, QUEEN, SUITS, card_of, names
from .scoring import DealResult

if TYPE_CHECKING:
    from .info import Observer


class Event:
    """One thing that happened. ``kind`` is the protocol's ``type``; its fields are ``Final`` (read-only to mypy)."""

    __slots__ = ()
    kind: ClassVar[str] = ""

    def to_json(self) -> dict[str, Any]:
        """Everything about the event (every card), as the protocol writes it."""
        return {"type": self.kind, **self._fields()}

    def seen_by(self, observer: Observer) -> dict[str, Any]:
        """The event as ``observer`` may see it (:class:`~py_engine.core.info.Observer` decides what it sees)."""
        return self.to_json()

    def _fields(self) -> dict[str, Any]:
        return {}

    def _names(self) -> list[str]:
        return [name for cls in reversed(type(self).__mro__) for name in getattr(cls, "__slots__", ())]

    def _values(self) -> tuple[object, ...]:
        return tuple(getattr(self, name) for name in self._names())

    def __eq__(self, other: object) -> bool:
        return type(other) is type(self) and self._values() == other._values()

    def __hash__(self) -> int:
        return hash((type(self), self._values()))

    def __repr__(self) -> str:
        inside = ", ".join(f"{name}={getattr(self, name)!r}" for name in self._names())
        return f"{type(self).__name__}({inside})"


def deal_start(log: list[Event]) -> int:
    """The index of the deal in play's DealStarted in a match's log (-1 if none): the last one."""
    return next((i for i in range(len(log) - 1, -1, -1) if isinstance(log[i], DealStarted)), -1)


class DealStarted(Event):
    __slots__ = ("dealer", "hands", "trump_card")
    kind: ClassVar[str] = "deal"

    def __init__(self, dealer: int, trump_card: int, hands: tuple[int, int]) -> None:
        self.dealer: Final = dealer
        self.trump_card: Final = trump_card
        self.hands: Final = hands

    def _fields(self) -> dict[str, Any]:
        return {
            "dealer": self.dealer,
            "trump_card": CARD_NAMES[self.trump_card],
            "hands": [names(self.hands[0]), names(self.hands[1])],
        }

    def seen_by(self, observer: Observer) -> dict[str, Any]:
        return {
            "type": self.kind,
            "dealer": self.dealer,
            "trump_card": CARD_NAMES[self.trump_card],
            "hand": names(self.hands[observer.seat]),
        }


class Play(Event):
    __slots__ = ("card", "seat")
    kind: ClassVar[str] = "play"

    def __init__(self, seat: int, card: int) -> None:
        self.seat: Final = seat
        self.card: Final = card

    def _fields(self) -> dict[str, Any]:
        return {"seat": self.seat, "card": CARD_NAMES[self.card]}


class Trick(Event):
    __slots__ = ("bonus", "cards", "leader", "points", "winner")
    kind: ClassVar[str] = "trick"

    def __init__(self, leader: int, cards: tuple[int, int], winner: int, points: int, bonus: int) -> None:
        self.leader: Final = leader
        self.cards: Final = cards
        self.winner: Final = winner
        self.points: Final = points
        self.bonus: Final = bonus

    def _fields(self) -> dict[str, Any]:
        return {
            "leader": self.leader,
            "cards": [CARD_NAMES[c] for c in self.cards],
            "winner": self.winner,
            "points": self.points,
            "bonus": self.bonus,
        }


class Draw(Event):
    __slots__ = ("card", "face_up", "seat")
    kind: ClassVar[str] = "draw"

    def __init__(self, seat: int, card: int, face_up: bool) -> None:
        self.seat: Final = seat
        self.card: Final = card
        self.face_up: Final = face_up

    def _fields(self) -> dict[str, Any]:
        return {"seat": self.seat, "card": CARD_NAMES[self.card], "face_up": self.face_up}

    def seen_by(self, observer: Observer) -> dict[str, Any]:
        out: dict[str, Any] = {"type": self.kind, "seat": self.seat, "face_up": self.face_up}
        if observer.sees_drawn(self.seat, self.face_up):
            out["card"] = CARD_NAMES[self.card]
        return out


class Exhausted(Event):
    __slots__ = ()
    kind: ClassVar[str] = "exhausted"


class Marriage(Event):
    __slots__ = ("credited", "points", "seat", "suit")
    kind: ClassVar[str] = "marriage"

    def __init__(self, seat: int, suit: int, points: int, credited: bool) -> None:
        self.seat: Final = seat
        self.suit: Final = suit
        self.points: Final = points
        self.credited: Final = credited

    def _fields(self) -> dict[str, Any]:
        return {
            "seat": self.seat,
            "suit": SUITS[self.suit],
            "points": self.points,
            "credited": self.credited,
            "cards": [CARD_NAMES[card_of(self.suit, KING)], CARD_NAMES[card_of(self.suit, QUEEN)]],
        }


class MarriageCredited(Event):
    __slots__ = ("points", "seat", "suit")
    kind: ClassVar[str] = "marriage_credited"

    def __init__(self, seat: int, suit: int, points: int) -> None:
        self.seat: Final = seat
        self.suit: Final = suit
        self.points: Final = points

    def _fields(self) -> dict[str, Any]:
        return {"seat": self.seat, "suit": SUITS[self.suit], "points": self.points}


class Exchange(Event):
    __slots__ = ("gave", "seat", "took")
    kind: ClassVar[str] = "exchange"

    def __init__(self, seat: int, took: int, gave: int) -> None:
        self.seat: Final = seat
        self.took: Final = took
        self.gave: Final = gave

    def _fields(self) -> dict[str, Any]:
        return {"seat": self.seat, "took": CARD_NAMES[self.took], "gave": CARD_NAMES[self.gave]}


class _SeatAct(Event):
    """An act that names only its seat (close, pass, resign)."""

    __slots__ = ("seat",)

    def __init__(self, seat: int) -> None:
        self.seat: Final = seat

    def _fields(self) -> dict[str, Any]:
        return {"seat": self.seat}


class Close(_SeatAct):
    __slots__ = ()
    kind: ClassVar[str] = "close"


class Claim(Event):
    __slots__ = ("seat", "total", "valid")
    kind: ClassVar[str] = "claim"

    def __init__(self, seat: int, valid: bool, total: int) -> None:
        self.seat: Final = seat
        self.valid: Final = valid
        self.total: Final = total

    def _fields(self) -> dict[str, Any]:
        return {"seat": self.seat, "valid": self.valid, "total": self.total}


class Pass(_SeatAct):
    __slots__ = ()
    kind: ClassVar[str] = "pass"


class Resign(_SeatAct):
    __slots__ = ()
    kind: ClassVar[str] = "resign"


class DealEnd(Event):
    __slots__ = ("result",)
    kind: ClassVar[str] = "deal_end"

    def __init__(self, result: DealResult) -> None:
        self.result: Final = result

    def _fields(self) -> dict[str, Any]:
        return self.result.to_dict()

    def seen_by(self, observer: Observer) -> dict[str, Any]:
        return {**self.to_json(), "reason": describe_result(self.result, observer.seat)}


class Score(Event):
    __slots__ = ("game_points", "scores", "seat")
    kind: ClassVar[str] = "score"

    def __init__(self, seat: int, game_points: int, scores: tuple[int, int]) -> None:
        self.seat: Final = seat
        self.game_points: Final = game_points
        self.scores: Final = scores

    def _fields(self) -> dict[str, Any]:
        return {"seat": self.seat, "game_points": self.game_points, "scores": list(self.scores)}


class MatchEnd(Event):
    __slots__ = ("matches_won", "scores", "session_over", "winner")
    kind: ClassVar[str] = "match_end"

    def __init__(self, winner: int, scores: tuple[int, int], matches_won: tuple[int, int], session_over: bool) -> None:
        self.winner: Final = winner
        self.scores: Final = scores
        self.matches_won: Final = matches_won
        self.session_over: Final = session_over

    def _fields(self) -> dict[str, Any]:
        return {
            "winner": self.winner,
            "scores": list(self.scores),
            "matches_won": list(self.matches_won),
            "session_over": self.session_over,
        }


class Forfeit(Event):
    """The game ended early: ``seat`` resigned it or ran out of time (None: both players left)."""

    __slots__ = ("reason", "seat", "winner")
    kind: ClassVar[str] = "forfeit"

    def __init__(self, seat: int | None, reason: str, winner: int | None) -> None:
        self.seat: Final = seat
        self.reason: Final = reason
        self.winner: Final = winner

    def _fields(self) -> dict[str, Any]:
        return {"seat": self.seat, "reason": self.reason, "winner": self.winner}


class Next(Event):
    __slots__ = ("match_number",)
    kind: ClassVar[str] = "next"

    def __init__(self, match_number: int) -> None:
        self.match_number: Final = match_number

    def _fields(self) -> dict[str, Any]:
        return {"match_number": self.match_number}


# ----------------------------------------------------------------- the result in words

_BASIS_WORDS = {
    "schwarz": "Schwarz: {loser} won no trick",
    "schneider": "Schneider: {loser} under 33",
    "simple": "{loser} had 33 or more",
    "failed_close_3": "closed talon failed, and the {noted} had no trick",
    "failed_close_2": "closed talon failed",
    "penalty_3": "wrong claim, and the claimer's opponent had no trick",
    "penalty_2": "wrong claim penalty",
    "fixed_1": "a deal without 66 scores 1",
    "none": "",
}

_CODE_WORDS = {
    "claim_66": "{by} claimed 66",
    "auto_66": "{winner} reached 66",
    "wrong_claim": "{by} claimed 66 without having it",
    "close_success": "{winner} closed the talon and made it",
    "close_failed": "the closer did not reach 66 first",
    "resigned": "{by} resigned",
    "last_trick": "nobody claimed 66: the last trick wins",
    "higher_total": "nobody claimed 66: the higher score wins",
    "tie_last_trick": "nobody claimed 66 and the scores are level: the last trick wins",
    "tie_carry_over": "nobody claimed 66 and the scores are level: 1 game point carries over to the next deal's winner",
    "tie_void": "nobody claimed 66 and the scores are level: nobody scores",
}


def describe_result(result: DealResult, seat: int) -> str:
    """The result in English words, from ``seat``'s point of view (the page words it from the codes)."""

    def who(s: int | None) -> str:
        if s is None:
            return "nobody"
        return "you" if s == seat else "the opponent"

    winner = result.winner
    loser = None if winner is None else 1 - winner
    text = _CODE_WORDS[result.code].format(by=who(result.by), winner=who(winner))
    basis = _BASIS_WORDS[result.basis].format(
        loser=who(loser), noted="non-closer" if "noncloser" in result.basis else "player"
    )
    if basis and result.at_close is not None:
        tricks_then, points_then = result.at_close
        plural = "s" if tricks_then != 1 else ""
        basis += f" when the talon was closed, with {points_then} points and {tricks_then} trick{plural}"
    text = text[0].upper() + text[1:]
    if winner is None:
        return text + "."
    points = f"{result.game_points} game point{'s' if result.game_points != 1 else ''}"
    gain = f"{'You win' if winner == seat else 'The opponent wins'} {points}"
    return f"{text}. {gain}" + (f" ({basis})." if basis else ".")
