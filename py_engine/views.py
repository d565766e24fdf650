"""What one seat may know: per-seat views and filtered events (PROTOCOL.md).

Everything the page receives is built here, from the seat's point of view:
no unseen opponent card and no talon order ever leaves this module while a
deal is in progress. When a deal is over all its cards are revealed.
"""

from __future__ import annotations

from typing import Any

from .actions import MARRY, is_marry, sorted_names
from .cards import CARD_NAMES, POINTS, SUITS, card_of, names
from .cards import KING as _KING
from .cards import QUEEN as _QUEEN
from .deal import WIN_POINTS, marriage_points
from .match import Match
from .scoring import DealResult

_PUBLIC_EVENTS = {
    "play",
    "trick",
    "exchange",
    "close",
    "exhausted",
    "claim",
    "pass",
    "resign",
    "score",
    "match_end",
    "next",
    "marriage",
    "marriage_credited",
}


def event_as_text(event: dict[str, Any]) -> dict[str, Any]:
    """An event with its card and suit numbers written as protocol text."""
    out = dict(event)
    if "hands" in out:
        out["hands"] = [names(h) for h in out["hands"]]
    for key in ("card", "took", "gave", "trump_card"):
        if key in out and isinstance(out[key], int):
            out[key] = CARD_NAMES[out[key]]
    if "cards" in out:
        out["cards"] = [CARD_NAMES[c] for c in out["cards"]]
    if "suit" in out:
        suit = out["suit"]
        out["suit"] = SUITS[suit]
        if out["type"] == "marriage":
            out["cards"] = [CARD_NAMES[card_of(suit, _KING)], CARD_NAMES[card_of(suit, _QUEEN)]]
    return out


def filter_event(event: dict[str, Any], seat: int, *, sees_other_hand: bool = False) -> dict[str, Any]:
    """The event as ``seat`` may see it; ``sees_other_hand``: the other hand is face up for it (a watcher)."""
    kind = event["type"]
    if kind in _PUBLIC_EVENTS:
        return event_as_text(event)
    if kind == "deal":
        return {
            "type": "deal",
            "dealer": event["dealer"],
            "trump_card": CARD_NAMES[event["trump_card"]],
            "hand": names(event["hands"][seat]),
        }
    if kind == "draw":
        out = {"type": "draw", "seat": event["seat"], "face_up": event["face_up"]}
        if event["seat"] == seat or event["face_up"] or sees_other_hand:
            out["card"] = CARD_NAMES[event["card"]]
        return out
    if kind == "deal_end":
        out = dict(event)
        result = DealResult(
            event["winner"], event["game_points"], event["code"], event["basis"], event["by"], event["carry_over"]
        )
        out["reason"] = describe_result(result, seat)
        return out
    raise ValueError(f"unknown event type {kind!r}")


def filter_events(events: list[dict[str, Any]], seat: int) -> list[dict[str, Any]]:
    return [filter_event(e, seat) for e in events]


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
    """The result in words, from ``seat``'s point of view."""

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


def _marriage_cards(suit: int) -> list[str]:
    return [CARD_NAMES[card_of(suit, _KING)], CARD_NAMES[card_of(suit, _QUEEN)]]


def _marriage_suits(legal: list[int]) -> list[int]:
    """The suits of the marriages among ``legal`` actions."""
    return [a - MARRY for a in legal if is_marry(a)]


def _trick_dict(entry: tuple[int, int, int, int]) -> dict[str, Any]:
    leader, lead, resp, winner = entry
    return {
        "leader": leader,
        "cards": [{"seat": leader, "card": CARD_NAMES[lead]}, {"seat": 1 - leader, "card": CARD_NAMES[resp]}],
        "winner": winner,
        "points": POINTS[lead] + POINTS[resp],
    }


def view(match: Match, seat: int, *, show_opponent: bool = False) -> dict[str, Any]:
    """Everything ``seat`` may know now (PROTOCOL.md "View").

    ``show_opponent``: the other hand is face up for this viewer (a watcher), in ``opponent_shown``.
    """
    deal = match.deal
    other = 1 - seat
    rules = match.rules
    over = deal.over
    result = match.last_result
    trick = []
    if deal.lead >= 0:
        trick.append({"seat": deal.leader, "card": CARD_NAMES[deal.lead]})
    history = deal.history
    legal = match.legal(seat)
    view_: dict[str, Any] = {
        "seat": seat,
        "to_act": match.to_act(),
        "phase": match.phase,
        "dealer": deal.dealer,
        "leader": None if over else deal.leader,
        "trump_suit": SUITS[deal.trump],
        "trump_card": CARD_NAMES[deal.upcard] if deal.upcard >= 0 and deal.closed_by < 0 else None,
        "closed_trump_card": CARD_NAMES[deal.upcard] if deal.upcard >= 0 and deal.closed_by >= 0 else None,
        # Face-down talon cards left (after a close they stay, dead, under the turned-down trump).
        "talon_count": deal.face_down_left,
        "closed_by": deal.closed_by if deal.closed_by >= 0 else None,
        "hand": names(deal.hands[seat]),
        "opponent_hand_count": deal.hands[other].bit_count(),
        "opponent_known": names(deal.known[other] & deal.hands[other]),
        "opponent_shown": names(deal.hands[other]) if show_opponent else None,
        "trick": trick,
        "last_trick": _trick_dict(history[-1]) if history else None,
        "my_points": deal.total(seat),
        "my_card_points": deal.card_points[seat],
        "opponent_points": deal.total(other),
        "my_tricks": [[CARD_NAMES[t[1]], CARD_NAMES[t[2]]] for t in history if t[3] == seat],
        "opponent_tricks": [[CARD_NAMES[t[1]], CARD_NAMES[t[2]]] for t in history if t[3] == other],
        "tricks_played": len(history),
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
        "declared_cards": _marriage_cards(deal.declared) if deal.declared >= 0 else [],
        "marriage_offers": {
            SUITS[suit]: {"points": marriage_points(suit, deal.trump), "cards": _marriage_cards(suit)}
            for suit in _marriage_suits(legal)
        },
        "strict": not over and deal.strict,
        "points_to_win": WIN_POINTS,
        "claim_window": bool(deal.windows >> seat & 1),
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
        },
        "game_over": match.finished,
        "rules": rules.to_dict(),
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
    return view_
