"""What one seat may know: per-seat views and filtered events (docs/protocol.md, "Views").

Everything the page receives is built here, from the seat's point of view:
no unseen opponent card and no talon order ever leaves this module while a
deal is in progress. When a deal is over all its cards are revealed.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING, Any, cast

from ..core.actions import CLAIM, MARRY, is_marry, sorted_names
from ..core.cards import CARD_NAMES, POINTS, SUITS, names
from ..core.deal import WIN_POINTS, Deal, marriage_offer
from ..core.events import Event, Play, describe_result
from ..core.info import Observer
from .match import Match

if TYPE_CHECKING:
    from .contract import Frame, GameEvent, Sheet, Trick, View


def filter_events(events: list[Event], seat: int, *, sees_other_hand: bool = False) -> list[GameEvent]:
    """The events as ``seat`` may see them (its :class:`Observer` decides)."""
    observer = Observer(seat, sees_other_hand)
    # The core writes events as plain JSON; their types are the contract's (tests/cpython/test_answers.py).
    return cast("list[GameEvent]", [observer.event(event) for event in events])


def _marriage_suits(legal: list[int]) -> list[int]:
    """The suits of the marriages among ``legal`` actions."""
    return [a - MARRY for a in legal if is_marry(a)]


def _trick_dict(entry: tuple[int, int, int, int]) -> Trick:
    leader, lead, resp, winner = entry
    return {
        "leader": leader,
        "cards": [{"seat": leader, "card": CARD_NAMES[lead]}, {"seat": 1 - leader, "card": CARD_NAMES[resp]}],
        "winner": winner,
        "points": POINTS[lead] + POINTS[resp],
    }


def sheet(match: Match) -> Sheet:
    """The score sheet: every finished deal of the game and every finished match (Bummerl) of the session.

    Results of finished deals only, which both players have seen: nothing of a deal in play.
    Seats are absolute, as in ``match``.
    """
    return cast(
        "Sheet",
        {"deals": [line.to_dict() for line in match.sheet], "bummerls": [line.to_dict() for line in match.bummerls]},
    )


def table_cards(deal: Deal, observer: Observer, answer: int = -1) -> dict[str, Any]:
    """Where the cards of ``deal`` lie, as ``observer`` sees them: hands, trick, piles, talon, trump card, marriages.

    ``answer``: a card just played to the card led, which lies on the trick
    until the trick is taken (the deal logs the play before it takes it).
    The fields are the view's of the same names.
    """
    seat = observer.seat
    other = 1 - seat
    known = observer.state(deal, story=False)
    opponent_known = known.opponent_known
    trick = []
    if deal.lead >= 0:
        trick.append({"seat": deal.leader, "card": CARD_NAMES[deal.lead]})
        if answer >= 0:
            trick.append({"seat": 1 - deal.leader, "card": CARD_NAMES[answer]})
            opponent_known &= ~(1 << answer)
    history = deal.history
    closed = deal.closed_by >= 0
    return {
        "trump_card": CARD_NAMES[deal.upcard] if deal.upcard >= 0 and not closed else None,
        "closed_trump_card": CARD_NAMES[deal.upcard] if deal.upcard >= 0 and closed else None,
        # Face-down talon cards left (after a close they stay, dead, under the turned-down trump).
        "talon_count": deal.face_down_left,
        "closed_by": deal.closed_by if closed else None,
        "hand": names(known.hand),
        "opponent_hand_count": known.opponent_count,
        "opponent_known": names(opponent_known),
        "opponent_shown": names(deal.hands[other]) if observer.sees_hand(other) else None,
        "trick": trick,
        "last_trick": _trick_dict(history[-1]) if history else None,
        "my_tricks": [[CARD_NAMES[t[1]], CARD_NAMES[t[2]]] for t in history if t[3] == seat],
        "opponent_tricks": [[CARD_NAMES[t[1]], CARD_NAMES[t[2]]] for t in history if t[3] == other],
        "marriages": [
            {
                "seat": s,
                "suit": SUITS[suit],
                "points": value,
                "credited": (s, suit, value) not in deal.pending,
            }
            for s, suit, value in deal.marriages
        ],
        "declared": SUITS[deal.declared] if deal.declared >= 0 else None,
        "declared_cards": marriage_offer(deal.declared, deal.trump)["cards"] if deal.declared >= 0 else [],
    }


def deal_frames(
    deal: Deal, events: Sequence[Event], start: int, observer: Observer, before: View | dict[str, Any]
) -> list[Frame]:
    """Each event with the observer's view right after it, from the deal itself, starting from its view ``before``.

    ``events`` are the log's from index ``start`` on; ``deal`` is the deal
    that logged them, which kept a copy of itself after each
    (:attr:`Deal.shots <py_engine.core.deal.Deal.shots>`). The views
    between events are for animation: they move the cards (:func:`table_cards`)
    and leave the rest (points, legal actions: none while animating) to the
    final view. Their ``sheet`` is ``None``: the score sheet grows with every
    deal, and only the answer's view carries it (an online answer goes to the
    other browser in one message of at most 64 KiB).
    """
    base: dict[str, Any] = {**before, "sheet": None, "legal": []}  # the score sheet is the answer's view's alone
    shown_before = before.get("opponent_shown")
    shots = deal.shots or {}
    cards: dict[str, Any] = {}
    out: list[dict[str, Any]] = []
    for index, event in enumerate(events, start):
        shot = shots.get(index)
        if shot is not None:
            answer = event.card if isinstance(event, Play) and shot.lead >= 0 and event.card != shot.lead else -1
            cards = table_cards(shot, observer, answer)
            if not observer.sees_other_hand:
                # A hand shown for a while (online) stays as it was shown, less the cards played since.
                gone = {c for pair in cards["my_tricks"] + cards["opponent_tricks"] for c in pair}
                gone |= {entry["card"] for entry in cards["trick"]}
                cards["opponent_shown"] = None if shown_before is None else [c for c in shown_before if c not in gone]
        out.append({"event": observer.event(event), "view": {**base, **cards}})
    return cast("list[Frame]", out)


def view(match: Match, seat: int, *, show_opponent: bool = False) -> View:
    """Everything ``seat`` may know now (docs/protocol.md, "Views").

    ``show_opponent``: the other hand is face up for this viewer (a watcher), in ``opponent_shown``.
    """
    deal = match.deal
    other = 1 - seat
    rules = match.rules
    over = deal.over
    result = match.last_result
    history = deal.history
    legal = match.legal(seat)
    cards = table_cards(deal, Observer(seat, show_opponent))
    view_: dict[str, Any] = {
        "seat": seat,
        "to_act": match.to_act(),
        "phase": match.phase,
        "dealer": deal.dealer,
        "leader": None if over else deal.leader,
        "trump_suit": SUITS[deal.trump],
        "trump_card": cards["trump_card"],
        "closed_trump_card": cards["closed_trump_card"],
        "talon_count": cards["talon_count"],
        "closed_by": cards["closed_by"],
        "hand": cards["hand"],
        "opponent_hand_count": cards["opponent_hand_count"],
        "opponent_known": cards["opponent_known"],
        "opponent_shown": cards["opponent_shown"],
        "trick": cards["trick"],
        "last_trick": cards["last_trick"],
        "my_points": deal.total(seat),
        "my_card_points": deal.card_points[seat],
        "opponent_points": deal.total(other),
        "my_tricks": cards["my_tricks"],
        "opponent_tricks": cards["opponent_tricks"],
        "tricks_played": len(history),
        "marriages": cards["marriages"],
        "declared": cards["declared"],
        "declared_cards": cards["declared_cards"],
        "marriage_offers": {SUITS[suit]: marriage_offer(suit, deal.trump) for suit in _marriage_suits(legal)},
        "strict": not over and deal.strict,
        "points_to_win": WIN_POINTS,
        "claim_window": bool(deal.windows >> seat & 1),
        # A claim now would reach 66: the seat's own points, nothing hidden (a wrong claim loses the deal).
        "claim_valid": CLAIM in legal and deal.claim_is_valid(seat),
        "awaiting_final_claims": bool(deal.final_order),
        "legal": sorted_names(legal),
        "deal_result": None,
        "match": {
            "scores": list(match.scores),
            "target": rules.match_target,
            "dealer": deal.dealer,
            "deal_number": match.deal_number,
            "carry_over": match.carry,
            "match_number": match.match_number,
            "matches_won": list(match.matches_won),
            "session_bummerls": rules.session_bummerls,
            "winner": match.match_winner,
            "session_over": match.session_over,
            # The game ended early (resigned, lost on time, abandoned): {seat, reason}.
            "ended": None if match.ended is None else {"seat": match.ended[0], "reason": match.ended[1]},
        },
        "game_over": match.finished,
        "rules": rules.to_dict(),
        "sheet": sheet(match),
    }
    if over and result is not None:
        view_["deal_result"] = {**result.to_dict(), "reason": describe_result(result, seat)}
        view_["reveal"] = {
            "hands": [names(deal.hands[0]), names(deal.hands[1])],
            "talon": [CARD_NAMES[c] for c in deal.talon[deal.talon_pos :]]
            + ([CARD_NAMES[deal.upcard]] if deal.upcard >= 0 else []),
            "points": [deal.total(0), deal.total(1)],
            "card_points": [deal.card_points[0], deal.card_points[1]],
            "tricks": list(deal.tricks),
        }
    return cast("View", view_)
