"""Looking back: undoing moves, and reviewing finished deals with every card shown.

Both work by replaying the match's record, so they can never disagree with
what was played.
"""

from __future__ import annotations

from typing import Any

from ..ai import Request, rank
from ..core.actions import action_name
from ..core.cards import CARD_NAMES, SUITS, names
from ..core.deal import Deal, marriage_offer
from ..core.errors import IllegalActionError
from .match import Match
from .record import load_record


def undo(match: Match, seat: int) -> tuple[Match, int]:
    """The match as it was before ``seat``'s last action (and everything after it).

    Returns the replayed match and how many actions were taken back. The seat's
    last action may lie in an earlier deal of the match. Raises
    :class:`IllegalActionError` when ``seat`` has nothing to take back.
    """
    record = match.record()
    deals = record["deals"]
    removed = 0
    while deals:
        actions = deals[-1]["actions"]
        while actions:
            who, _ = actions.pop()
            removed += 1
            if who == seat:
                return load_record(record), removed
        if len(deals) == 1:
            break
        deals.pop()  # the deal had no action of this seat: go back into the one before
        removed += 1  # the 'next' that started it
    raise IllegalActionError(f"seat {seat} has no action to take back")


def _snapshot(deal: Deal) -> dict[str, Any]:
    """The whole state, every card shown (only ever built for finished deals)."""
    trick = [{"seat": deal.leader, "card": CARD_NAMES[deal.lead]}] if deal.lead >= 0 else []
    return {
        "hands": [names(deal.hands[0]), names(deal.hands[1])],
        "talon": [CARD_NAMES[c] for c in deal.talon[deal.talon_pos :]],
        "trump_card": CARD_NAMES[deal.upcard] if deal.upcard >= 0 else None,
        "closed_by": deal.closed_by if deal.closed_by >= 0 else None,
        "trick": trick,
        "points": [deal.total(0), deal.total(1)],
        "tricks": list(deal.tricks),
        "marriages": [{"seat": s, "suit": SUITS[suit], "points": v} for s, suit, v in deal.marriages],
        "to_act": deal.to_act if deal.result is None else None,
    }


#: The most computing time one review may take (milliseconds), however many decisions it evaluates.
MAX_REVIEW_MS = 12_000
#: The least time a decision is given (below it the search says too little).
MIN_DECISION_MS = 20


def review_deal(
    match: Match, number: int, evaluate: tuple[int, ...] = (), budget_ms: int = 300, seed: int = 0
) -> dict[str, Any]:
    """Deal ``number`` (1-based, in the current record) step by step with every card shown.

    Only a finished deal can be reviewed: during play this would reveal hidden
    cards. Each decision of a seat in ``evaluate`` carries the
    computer's ranking of the alternatives (from that seat's knowledge only)
    and ``clearly_worse`` when the chosen action scored well below the best.
    """
    record = match.record()
    deals = record["deals"]
    if not 1 <= number <= len(deals):
        raise IllegalActionError(f"no deal {number}: the record has {len(deals)} deal(s)")
    if number == len(deals) and not match.deal.over:
        raise IllegalActionError("the deal is still being played: only finished deals can be reviewed")
    entry = deals[number - 1]
    partial = {**record, "deals": [*deals[: number - 1], {**entry, "actions": []}]}
    replay = load_record(partial)
    opening = _snapshot(replay.deal)
    steps: list[dict[str, Any]] = []
    # The whole review shares one cap: each evaluated decision gets its share of it, at most budget_ms.
    evaluated = sum(1 for seat, _ in entry["actions"] if seat in evaluate)
    budget_ms = max(MIN_DECISION_MS, min(budget_ms, MAX_REVIEW_MS // max(1, evaluated)))
    for seat, text in entry["actions"]:
        step: dict[str, Any] = {"seat": seat, "action": text}
        if seat in evaluate and len(replay.legal(seat)) > 1:
            ranking = rank(replay, seat, Request(budget_ms=budget_ms, seed=seed))
            chosen = next((v for a, v in ranking if action_name(a) == text), None)
            step["ranking"] = [{"action": action_name(a), "value": v} for a, v in ranking]
            step["clearly_worse"] = chosen is not None and ranking[0][1] - chosen > 0.15
        start = len(replay.events)
        replay.act_text(seat, text)
        step["events"] = [e.to_json() for e in replay.events[start:]]
        step["state"] = _snapshot(replay.deal)
        steps.append(step)
    assert replay.deal.result is not None
    return {
        "deal": number,
        "dealer": entry["dealer"],
        "start": opening,
        "steps": steps,
        "result": replay.deal.result.to_dict(),
        "trump_suit": SUITS[replay.deal.trump],
        # What each marriage is worth in this deal, to say the computer's choice in words.
        "marriage_offers": {SUITS[suit]: marriage_offer(suit, replay.deal.trump) for suit in range(len(SUITS))},
    }
