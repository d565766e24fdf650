"""Looking back: undoing moves, and reviewing finished deals with every card shown.

Both work by replaying the match's record, so they can never disagree with
what was played.
"""

from __future__ import annotations

import time
from typing import TYPE_CHECKING, Any, cast

from ..ai import Request, rank_exactly
from ..core.actions import action_name
from ..core.cards import CARD_NAMES, SUITS, names
from ..core.deal import Deal, marriage_offer
from ..core.errors import IllegalActionError
from .defaults import BUDGETS
from .match import Match
from .record import load_record
from .requests import MAX_REVIEW_MS

if TYPE_CHECKING:
    from .contract import Played, Review, Snapshot


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


def snapshot(deal: Deal) -> Snapshot:
    """The whole state, every card shown (only ever built for finished deals)."""
    trick: list[Played] = [{"seat": deal.leader, "card": CARD_NAMES[deal.lead]}] if deal.lead >= 0 else []
    return {
        "hands": (names(deal.hands[0]), names(deal.hands[1])),
        "talon": [CARD_NAMES[c] for c in deal.talon[deal.talon_pos :]],
        "trump_card": CARD_NAMES[deal.upcard] if deal.upcard >= 0 else None,
        "closed_by": deal.closed_by if deal.closed_by >= 0 else None,
        "trick": trick,
        "points": (deal.total(0), deal.total(1)),
        "tricks": (deal.tricks[0], deal.tricks[1]),
        "marriages": [{"seat": s, "suit": SUITS[suit], "points": v} for s, suit, v in deal.marriages],
        "to_act": deal.to_act if deal.result is None else None,
    }


def review_deal(
    match: Match,
    number: int,
    evaluate: tuple[int, ...] = (),
    budget_ms: int | None = None,
    seed: int = 0,
    from_step: int = 0,
) -> Review:
    """Deal ``number`` (1-based, in the current record) step by step with every card shown.

    Only a finished deal can be reviewed: during play this would reveal hidden
    cards. The decisions of the seats in ``evaluate`` from step ``from_step``
    (0-based) on carry the computer's ranking of the alternatives (from that
    seat's knowledge only, ``budget_ms`` each (``BUDGETS.review_ms`` if None), at most MAX_REVIEW_MS together)
    and ``clearly_worse`` when the chosen action scored well below the best, and
    ``exact`` when the best action's value and the chosen one's are exact (an action that settles the
    deal, or every card known and solved) rather than estimated;
    ``next_step`` is the first step left to evaluate (None: none is left).
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
    opening = snapshot(replay.deal)
    steps: list[dict[str, Any]] = []
    each = budget_ms if budget_ms is not None else BUDGETS.review_ms
    given = 0  # the budgets given so far
    started = time.perf_counter()
    next_step: int | None = None
    for seat, text in entry["actions"]:
        step: dict[str, Any] = {"seat": seat, "action": text}
        if seat in evaluate and len(steps) >= from_step and next_step is None and len(replay.legal(seat)) > 1:
            # The budgets given, or the time taken if more (a search overruns its budget a little).
            spent = max(given, int((time.perf_counter() - started) * 1000))
            if spent + each > MAX_REVIEW_MS:
                next_step = len(steps)  # this decision and the rest: in the next request
            else:
                given += each
                ranking, exact = rank_exactly(replay, seat, Request(budget_ms=each, seed=seed), every_action=True)
                chosen = next((v for a, v in ranking if action_name(a) == text), None)
                step["ranking"] = [{"action": action_name(a), "value": v} for a, v in ranking]
                # Both values exact: the best action's and the one taken.
                step["exact"] = ranking[0][0] in exact and any(action_name(a) == text for a in exact)
                step["clearly_worse"] = chosen is not None and ranking[0][1] - chosen > 0.15
        start = len(replay.events)
        replay.act_text(seat, text)
        step["events"] = [e.to_json() for e in replay.events[start:]]
        step["state"] = snapshot(replay.deal)
        steps.append(step)
    assert replay.deal.result is not None
    review = {
        "deal": number,
        "dealer": entry["dealer"],
        "start": opening,
        "steps": steps,
        "next_step": next_step,
        "result": replay.deal.result.to_dict(),
        "trump_suit": SUITS[replay.deal.trump],
        # What each marriage is worth in this deal, to say the computer's choice in words.
        "marriage_offers": {SUITS[suit]: marriage_offer(suit, replay.deal.trump) for suit in range(len(SUITS))},
    }
    return cast("Review", review)  # its steps are built as open JSON; tests/cpython/test_answers.py checks them
