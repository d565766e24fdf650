"""What one seat knows about the hidden cards, and sampling worlds consistent with it.

The computer player is handed the referee's :class:`~py_engine.deal.Deal`,
which holds every card. Everything in this module reads only what the seat
may know: its own hand, every card played, the trump card (face up, or turned
down by a close), the opponent's cards it has been shown (marriage partner,
the card taken in an exchange, the face-up trump drawn at exhaustion), the
card counts, and the voids the opponent revealed under the strict rules.
:func:`determinize` then deals the unseen cards anew, uniformly among the
worlds consistent with that knowledge.
"""

from __future__ import annotations

import random
from dataclasses import dataclass

from ..cards import HIGHER, SUIT_MASK, cards_of, deck_mask
from ..deal import Deal


@dataclass(frozen=True, slots=True)
class Knowledge:
    """The hidden-card facts of one seat at one moment."""

    seat: int
    unseen: int  # cards the seat has not seen: in the opponent's hand or the face-down talon
    opponent_known: int  # opponent's cards this seat has seen and that are still in its hand
    opponent_unknown_count: int  # how many opponent cards are among ``unseen``
    opponent_cannot_hold: int  # unseen cards the opponent has shown it cannot hold


def played_mask(deal: Deal) -> int:
    mask = 0
    for _, lead, resp, _ in deal.history:
        mask |= (1 << lead) | (1 << resp)
    if deal.lead >= 0:
        mask |= 1 << deal.lead
    return mask


def revealed_voids(deal: Deal, opponent: int) -> int:
    """Cards the opponent cannot hold, from its answers under the strict rules.

    No card is drawn once the strict rules apply, so a void shown then lasts:
    not following means no card of the led suit; not following and not
    trumping means no trump either; following without heading means no
    higher card of that suit.
    """
    if deal.strict_from < 0:
        return 0
    trump_mask = SUIT_MASK[deal.trump]
    cannot = 0
    for leader, lead, resp, _ in deal.history[deal.strict_from :]:
        if leader == opponent:
            continue
        suit_mask = SUIT_MASK[lead // 6]
        if resp // 6 == lead // 6:
            if not HIGHER[lead] >> resp & 1:
                cannot |= HIGHER[lead]
        else:
            cannot |= suit_mask
            if resp // 6 != deal.trump:
                cannot |= trump_mask
    return cannot


def knowledge_of(deal: Deal, seat: int) -> Knowledge:
    opponent = 1 - seat
    played = played_mask(deal)
    own = deal.hands[seat]
    up = (1 << deal.upcard) if deal.upcard >= 0 else 0
    opp_known = deal.known[opponent] & ~played & ~own
    unseen = deck_mask(deal.rules.deck) & ~played & ~own & ~up & ~opp_known
    opp_count = deal.hands[opponent].bit_count()  # the count is public
    return Knowledge(
        seat=seat,
        unseen=unseen,
        opponent_known=opp_known,
        opponent_unknown_count=opp_count - opp_known.bit_count(),
        opponent_cannot_hold=revealed_voids(deal, opponent) & unseen,
    )


def determinize(deal: Deal, knowledge: Knowledge, rng: random.Random) -> Deal:
    """A copy of ``deal`` with the unseen cards dealt anew, consistent with ``knowledge``."""
    seat = knowledge.seat
    opponent = 1 - seat
    allowed = list(cards_of(knowledge.unseen & ~knowledge.opponent_cannot_hold))
    k = knowledge.opponent_unknown_count
    rng.shuffle(allowed)
    opp_cards = allowed[:k]
    talon = allowed[k:]
    if knowledge.opponent_cannot_hold:
        talon += cards_of(knowledge.opponent_cannot_hold)
        if not deal.strict:  # once nothing is drawn, the order of the talon does not matter
            rng.shuffle(talon)
    world = deal.clone()
    hand = knowledge.opponent_known
    for c in opp_cards:
        hand |= 1 << c
    world.hands[opponent] = hand
    world.talon = tuple(talon)
    world.talon_pos = 0
    return world


def reshuffle_talon(world: Deal, rng: random.Random) -> None:
    """Deal the face-down cards not yet drawn anew, in place (what is known of them is only the set)."""
    rest = list(world.talon[world.talon_pos :])
    rng.shuffle(rest)
    world.talon = (*world.talon[: world.talon_pos], *rest)
