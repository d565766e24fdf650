"""What the learned value (:mod:`.value_model`) sees of a deal: binary features, from one seat's side.

A world of the search is a whole deal (the opponent's hand and the talon
sampled), so the features describe it whole, as the seat would see it if the
cards it has not seen were the sampled ones. Suits are counted from trumps
(the trump suit is suit 0, the others follow in their usual order), so one
weight serves a card of every trump suit. Every feature is 0 or 1, and
:func:`active_features` lists the indices of those that are 1: the model only
adds up the rows of those (a few dozen of :data:`FEATURES`), exactly, so
their order does not matter.

========  ===================================================================
0-23      the seat's hand
24-47     the opponent's hand (in the world)
48-71     the face-down talon still to be drawn (none after a close)
72-95     the face-up trump card, while the talon is open
96-119    the card led to the current trick, if any
120-131   the seat's points (cards, credited marriages, last trick) in bins
132-143   the opponent's points, in the same bins
144-145   a marriage of the seat's / the opponent's waiting for its first trick
146-147   the seat / the opponent has taken a trick
148-149   the seat is on turn / leads the current trick
150-152   the seat closed / the opponent closed / the talon is used up
153       a 24-card pack
========  ===================================================================
"""

from __future__ import annotations

from bisect import bisect_right

from ..core.deal import Deal

#: Upper edges of the point bins: [0, 10), [10, 20), ... [64, 66), 66 or more. 33 (Schneider) and 66 are edges.
POINT_EDGES = (10, 20, 28, 33, 40, 46, 52, 57, 61, 64, 66)
_BINS = len(POINT_EDGES) + 1

OWN_HAND, OPPONENT_HAND, TALON, UPCARD, LEAD = 0, 24, 48, 72, 96
OWN_POINTS = 120
OPPONENT_POINTS = OWN_POINTS + _BINS
OWN_PENDING = OPPONENT_POINTS + _BINS
OPPONENT_PENDING = OWN_PENDING + 1
OWN_TRICK, OPPONENT_TRICK = OWN_PENDING + 2, OWN_PENDING + 3
ON_TURN, LEADS = OWN_PENDING + 4, OWN_PENDING + 5
CLOSED_BY_SEAT, CLOSED_BY_OPPONENT, EXHAUSTED = OWN_PENDING + 6, OWN_PENDING + 7, OWN_PENDING + 8
PACK_24 = OWN_PENDING + 9
#: How many features there are.
FEATURES = PACK_24 + 1

#: _FROM_TRUMP[trump][card]: the card's index with suits counted from trumps.
_FROM_TRUMP = tuple(tuple(((card // 6 - trump) % 4) * 6 + card % 6 for card in range(24)) for trump in range(4))


def _cards(mask: int, base: int, order: tuple[int, ...], out: list[int]) -> None:
    """Append ``base`` + the trump-relative index of every card of ``mask``."""
    while mask:
        low = mask & -mask
        out.append(base + order[low.bit_length() - 1])
        mask ^= low


def active_features(deal: Deal, seat: int) -> list[int]:
    """The indices of the features that are 1 in ``deal`` seen from ``seat`` (each once)."""
    order = _FROM_TRUMP[deal.trump]
    other = 1 - seat
    out: list[int] = []
    _cards(deal.hands[seat], OWN_HAND, order, out)
    _cards(deal.hands[other], OPPONENT_HAND, order, out)
    talon_open = deal.closed_by < 0 and not deal.exhausted
    if talon_open:
        talon = 0
        for card in deal.talon[deal.talon_pos :]:
            talon |= 1 << card
        _cards(talon, TALON, order, out)
        if deal.upcard >= 0:
            out.append(UPCARD + order[deal.upcard])
    if deal.lead >= 0:
        out.append(LEAD + order[deal.lead])
    out.append(OWN_POINTS + bisect_right(POINT_EDGES, deal.total(seat)))
    out.append(OPPONENT_POINTS + bisect_right(POINT_EDGES, deal.total(other)))
    pending_seats = {waiting[0] for waiting in deal.pending}
    if seat in pending_seats:
        out.append(OWN_PENDING)
    if other in pending_seats:
        out.append(OPPONENT_PENDING)
    if deal.tricks[seat]:
        out.append(OWN_TRICK)
    if deal.tricks[other]:
        out.append(OPPONENT_TRICK)
    if deal.to_act == seat:
        out.append(ON_TURN)
    if deal.leader == seat:
        out.append(LEADS)
    if deal.closed_by == seat:
        out.append(CLOSED_BY_SEAT)
    elif deal.closed_by == other:
        out.append(CLOSED_BY_OPPONENT)
    if deal.exhausted:
        out.append(EXHAUSTED)
    if deal.rules.deck == 24:
        out.append(PACK_24)
    return out


def lead_change(deal: Deal, seat: int, card: int) -> tuple[tuple[int, ...], tuple[int, ...]]:
    """The features that turn off and on, seen from ``seat``, when the mover of ``deal`` leads ``card`` to an
    empty trick: the card leaves the mover's hand for the trick, and the turn passes (nothing else of the
    features changes; tests/test_value_model.py checks it against the deal after the lead)."""
    index = _FROM_TRUMP[deal.trump][card]
    if deal.to_act == seat:
        return (OWN_HAND + index, ON_TURN), (LEAD + index,)
    return (OPPONENT_HAND + index,), (LEAD + index, ON_TURN)
