"""What happens in a game, as typed values: the one schema of the engine's events.

The referee (:class:`~py_engine.core.deal.Deal`, :class:`~py_engine.service.match.Match`)
logs these with every card; each event says how it reads in full
(:meth:`Event.to_json`, for reviews of finished deals and the referee's own
log) and how one seat may see it (:meth:`Event.seen_by`: the opponent's drawn
card stays hidden). Cards and suits are ints here and card texts in JSON.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, ClassVar

from .cards import CARD_NAMES, KING, QUEEN, SUITS, card_of, names
from .scoring import DealResult


@dataclass(frozen=True, slots=True)
class Event:
    """One thing that happened. ``kind`` is the protocol's ``type``."""

    kind: ClassVar[str] = ""

    def to_json(self) -> dict[str, Any]:
        """Everything about the event (every card), as the protocol writes it."""
        return {"type": self.kind, **self._fields()}

    def seen_by(self, seat: int, sees_other_hand: bool = False) -> dict[str, Any]:
        """The event as ``seat`` may see it; ``sees_other_hand``: the other hand is face up for it (a watcher)."""
        return self.to_json()

    def _fields(self) -> dict[str, Any]:
        return {}


@dataclass(frozen=True, slots=True)
class DealStarted(Event):
    kind: ClassVar[str] = "deal"
    dealer: int
    trump_card: int
    hands: tuple[int, int]

    def _fields(self) -> dict[str, Any]:
        return {
            "dealer": self.dealer,
            "trump_card": CARD_NAMES[self.trump_card],
            "hands": [names(self.hands[0]), names(self.hands[1])],
        }

    def seen_by(self, seat: int, sees_other_hand: bool = False) -> dict[str, Any]:
        return {
            "type": self.kind,
            "dealer": self.dealer,
            "trump_card": CARD_NAMES[self.trump_card],
            "hand": names(self.hands[seat]),
        }


@dataclass(frozen=True, slots=True)
class Play(Event):
    kind: ClassVar[str] = "play"
    seat: int
    card: int

    def _fields(self) -> dict[str, Any]:
        return {"seat": self.seat, "card": CARD_NAMES[self.card]}


@dataclass(frozen=True, slots=True)
class Trick(Event):
    kind: ClassVar[str] = "trick"
    leader: int
    cards: tuple[int, int]
    winner: int
    points: int
    bonus: int

    def _fields(self) -> dict[str, Any]:
        return {
            "leader": self.leader,
            "cards": [CARD_NAMES[c] for c in self.cards],
            "winner": self.winner,
            "points": self.points,
            "bonus": self.bonus,
        }


@dataclass(frozen=True, slots=True)
class Draw(Event):
    kind: ClassVar[str] = "draw"
    seat: int
    card: int
    face_up: bool

    def _fields(self) -> dict[str, Any]:
        return {"seat": self.seat, "card": CARD_NAMES[self.card], "face_up": self.face_up}

    def seen_by(self, seat: int, sees_other_hand: bool = False) -> dict[str, Any]:
        out: dict[str, Any] = {"type": self.kind, "seat": self.seat, "face_up": self.face_up}
        if self.seat == seat or self.face_up or sees_other_hand:
            out["card"] = CARD_NAMES[self.card]
        return out


@dataclass(frozen=True, slots=True)
class Exhausted(Event):
    kind: ClassVar[str] = "exhausted"


@dataclass(frozen=True, slots=True)
class Marriage(Event):
    kind: ClassVar[str] = "marriage"
    seat: int
    suit: int
    points: int
    credited: bool

    def _fields(self) -> dict[str, Any]:
        return {
            "seat": self.seat,
            "suit": SUITS[self.suit],
            "points": self.points,
            "credited": self.credited,
            "cards": [CARD_NAMES[card_of(self.suit, KING)], CARD_NAMES[card_of(self.suit, QUEEN)]],
        }


@dataclass(frozen=True, slots=True)
class MarriageCredited(Event):
    kind: ClassVar[str] = "marriage_credited"
    seat: int
    suit: int
    points: int

    def _fields(self) -> dict[str, Any]:
        return {"seat": self.seat, "suit": SUITS[self.suit], "points": self.points}


@dataclass(frozen=True, slots=True)
class Exchange(Event):
    kind: ClassVar[str] = "exchange"
    seat: int
    took: int
    gave: int

    def _fields(self) -> dict[str, Any]:
        return {"seat": self.seat, "took": CARD_NAMES[self.took], "gave": CARD_NAMES[self.gave]}


@dataclass(frozen=True, slots=True)
class Close(Event):
    kind: ClassVar[str] = "close"
    seat: int

    def _fields(self) -> dict[str, Any]:
        return {"seat": self.seat}


@dataclass(frozen=True, slots=True)
class Claim(Event):
    kind: ClassVar[str] = "claim"
    seat: int
    valid: bool
    total: int

    def _fields(self) -> dict[str, Any]:
        return {"seat": self.seat, "valid": self.valid, "total": self.total}


@dataclass(frozen=True, slots=True)
class Pass(Event):
    kind: ClassVar[str] = "pass"
    seat: int

    def _fields(self) -> dict[str, Any]:
        return {"seat": self.seat}


@dataclass(frozen=True, slots=True)
class Resign(Event):
    kind: ClassVar[str] = "resign"
    seat: int

    def _fields(self) -> dict[str, Any]:
        return {"seat": self.seat}


@dataclass(frozen=True, slots=True)
class DealEnd(Event):
    kind: ClassVar[str] = "deal_end"
    result: DealResult

    def _fields(self) -> dict[str, Any]:
        return self.result.to_dict()

    def seen_by(self, seat: int, sees_other_hand: bool = False) -> dict[str, Any]:
        return {**self.to_json(), "reason": describe_result(self.result, seat)}


@dataclass(frozen=True, slots=True)
class Score(Event):
    kind: ClassVar[str] = "score"
    seat: int
    game_points: int
    scores: tuple[int, int]

    def _fields(self) -> dict[str, Any]:
        return {"seat": self.seat, "game_points": self.game_points, "scores": list(self.scores)}


@dataclass(frozen=True, slots=True)
class MatchEnd(Event):
    kind: ClassVar[str] = "match_end"
    winner: int
    scores: tuple[int, int]
    matches_won: tuple[int, int]
    session_over: bool

    def _fields(self) -> dict[str, Any]:
        return {
            "winner": self.winner,
            "scores": list(self.scores),
            "matches_won": list(self.matches_won),
            "session_over": self.session_over,
        }


@dataclass(frozen=True, slots=True)
class Next(Event):
    kind: ClassVar[str] = "next"
    match_number: int

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
    text = text[0].upper() + text[1:]
    if winner is None:
        return text + "."
    points = f"{result.game_points} game point{'s' if result.game_points != 1 else ''}"
    gain = f"{'You win' if winner == seat else 'The opponent wins'} {points}"
    return f"{text}. {gain}" + (f" ({basis})." if basis else ".")
