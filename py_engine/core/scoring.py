"""How a deal ends and what it scores: docs/rules.md §1.10–§1.14.

Each function takes the finished :class:`~py_engine.core.deal.Deal` and returns a
:class:`DealResult`. Nothing here changes the deal.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from .deal import Deal

#: Why the winner scored what they scored (``DealResult.basis``).
BASIS_POINTS = {
    "schwarz": 3,
    "schneider": 2,
    "simple": 1,
    "failed_close_3": 3,
    "failed_close_2": 2,
    "penalty_3": 3,
    "penalty_2": 2,
    "fixed_1": 1,
    "none": 0,
}


@dataclass(frozen=True, slots=True)
class DealResult:
    """The result of a deal.

    ``code`` says how it was decided, ``basis`` why the winner got that many
    game points, ``by`` the seat whose act ended it (claimer, resigner), or
    ``None`` when the cards ran out. ``at_close`` is set when the basis was
    judged at the moment the talon was closed (a successful close under
    ``close_basis = at_close``): the non-closer's tricks and points then
    (the points that the Schneider line counts, ``schneider_basis``).
    """

    winner: int | None
    game_points: int
    code: str
    basis: str
    by: int | None = None
    carry_over: bool = False
    at_close: tuple[int, int] | None = None

    def to_dict(self) -> dict[str, Any]:
        at_close = self.at_close
        return {
            "winner": self.winner,
            "game_points": self.game_points,
            "code": self.code,
            "basis": self.basis,
            "by": self.by,
            "carry_over": self.carry_over,
            "at_close": None if at_close is None else {"tricks": at_close[0], "points": at_close[1]},
        }


def schneider_points(deal: Deal, seat: int) -> int:
    """The points that Schneider is judged on (``schneider_basis``)."""
    if deal.rules.schneider_basis == "cards":
        return deal.card_points[seat]
    return deal.total(seat)


def award_basis(tricks: int, points: int) -> str:
    """docs/rules.md §1.13: Schwarz by tricks, Schneider under 33, else simple."""
    if tricks == 0:
        return "schwarz"
    return "schneider" if points < 33 else "simple"


def _award(deal: Deal, loser: int) -> str:
    return award_basis(deal.tricks[loser], schneider_points(deal, loser))


def _result(winner: int, code: str, basis: str, by: int | None) -> DealResult:
    return DealResult(winner, BASIS_POINTS[basis], code, basis, by)


def _close_applies(deal: Deal) -> bool:
    return deal.closed_by >= 0 and deal.rules.failed_close == "award"


def close_success(deal: Deal, by: int | None) -> DealResult:
    """The closer wins: award on the non-closer's state at ``close_basis``."""
    closer = deal.closed_by
    if deal.rules.close_basis == "at_close":
        tricks, points, _ = deal.close_snapshot
        basis = award_basis(tricks, points)
        return DealResult(closer, BASIS_POINTS[basis], "close_success", basis, by, at_close=(tricks, points))
    return _result(closer, "close_success", _award(deal, 1 - closer), by)


def close_failed(deal: Deal, by: int | None) -> DealResult:
    """The closer failed: 2 game points to the non-closer, or 3 per ``failed_close_3_if``."""
    closer = deal.closed_by
    nc_tricks_at_close, _, closer_tricks_at_close = deal.close_snapshot
    three = {
        "noncloser_no_trick_at_close": nc_tricks_at_close == 0,
        "noncloser_no_trick_at_end": deal.tricks[1 - closer] == 0,
        "closer_no_trick_at_close": closer_tricks_at_close == 0,
        "closer_no_trick_at_end": deal.tricks[closer] == 0,
    }[deal.rules.failed_close_3_if]
    return _result(1 - closer, "close_failed", "failed_close_3" if three else "failed_close_2", by)


def claim(deal: Deal, seat: int, *, valid: bool, auto: bool) -> DealResult:
    """A claim (or, with ``auto``, reaching 66 under automatic rules)."""
    by = None if auto else seat
    other = 1 - seat
    if _close_applies(deal):
        if (seat == deal.closed_by) == valid:
            return close_success(deal, by)
        return close_failed(deal, by)
    if valid:
        return _result(seat, "auto_66" if auto else "claim_66", _award(deal, other), by)
    rule = deal.rules.wrong_claim
    if rule == "penalty_2_3":
        basis = "penalty_3" if deal.tricks[other] == 0 else "penalty_2"
    elif rule == "penalty_2":
        basis = "penalty_2"
    elif rule == "mirror":
        basis = _award(deal, other)
    else:  # as_loss
        basis = _award(deal, seat)
    return _result(other, "wrong_claim", basis, by)


def resignation(deal: Deal, seat: int) -> DealResult:
    """docs/rules.md §1.14."""
    if _close_applies(deal):
        if seat == deal.closed_by:
            return close_failed(deal, seat)
        return close_success(deal, seat)
    return _result(1 - seat, "resigned", _award(deal, seat), seat)


def cards_out(deal: Deal) -> DealResult:
    """All cards played and no valid claim: docs/rules.md §1.12."""
    if _close_applies(deal):
        return close_failed(deal, None)
    rules = deal.rules
    last = deal.last_winner
    if rules.no66_winner == "last_trick":
        return _no66_win(deal, last, "last_trick")
    if rules.no66_basis == "cards":
        a, b = deal.card_points
    else:
        a, b = deal.total(0), deal.total(1)
    if a != b:
        return _no66_win(deal, 0 if a > b else 1, "higher_total")
    if rules.no66_tie == "last_trick":
        return _no66_win(deal, last, "tie_last_trick")
    carry = rules.no66_tie == "carry_over"
    return DealResult(None, 0, "tie_carry_over" if carry else "tie_void", "none", None, carry)


def _no66_win(deal: Deal, winner: int, code: str) -> DealResult:
    basis = "fixed_1" if deal.rules.no66_award == "1" else _award(deal, 1 - winner)
    return _result(winner, code, basis, None)
