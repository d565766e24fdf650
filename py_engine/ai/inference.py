"""Reading the opponent's lead: how likely a sampled world makes what it just did.

Sampling worlds uniformly (:func:`~py_engine.ai.knowledge.determinize`)
treats the opponent as if its choices told nothing. They do: a player leads
low in the open phase, declares a marriage it holds when it leads, exchanges
the lowest trump when it may, and cashes its winners once the talon is shut.
When the searching seat answers a lead, the opponent's hand at that lead is
exactly its hand in the world plus the card it led (nothing was drawn in
between), so the world can be weighed by how likely that lead was from that
hand under a soft version of the rule of thumb:

* the card: P(lead) = exp(v(lead) / T) / sum over the hand of exp(v(c) / T),
  with v the rule of thumb's lead values (:func:`~py_engine.ai.heuristic.lead_value`);
* a marriage it held and did not declare when it could: times ``SKIPPED``;
* the exchange card it held and did not exchange when it could: times ``SKIPPED``.

The search accepts a world with that probability (rejection sampling, with a
cap on the tries), so the worlds it plays out lean towards the hands that
explain the opponent's play, as an attentive human's guesses do.
"""

from __future__ import annotations

import math
from collections.abc import Callable

from ..cards import cards_of
from ..deal import Deal
from .heuristic import lead_value, marriage_partners
from .knowledge import played_mask

#: The softness of the opponent model, in the rule of thumb's value units (larger: vaguer guesses).
TEMPERATURE = 4.0
#: The weight of a world in which the opponent passed up a marriage or an exchange it could make.
SKIPPED = 0.15

_EXCHANGED = 1  # Deal.prelead: the leader exchanged before this lead
_CLOSED_NOW = 2  # Deal.prelead: the leader closed before this lead

Reader = Callable[[Deal], float]


def lead_reader(deal: Deal, seat: int) -> Reader | None:
    """A function weighing worlds by the opponent's lead now on the table, or None if there is none to read.

    Only when ``seat`` answers the opponent's lead of this trick, and the lead
    was the opponent's free choice (not the king or queen of a marriage it
    just declared).
    """
    opponent = 1 - seat
    lead = deal.lead
    if lead < 0 or deal.leader != opponent or deal.to_act != seat or deal.declared >= 0:
        return None
    rules = deal.rules
    trump = deal.trump
    strict = deal.strict
    gone = played_mask(deal) if strict else 0  # (the lead itself is in the hand weighed, so its presence here is moot)
    lead_bit = 1 << lead
    could_marry = deal.marriage_allowed_now()
    talon_open = deal.closed_by < 0 and not deal.exhausted and not deal.prelead & (_EXCHANGED | _CLOSED_NOW)
    last_open = len(deal.talon) - deal.talon_pos == 1
    could_exchange = (
        talon_open
        and (rules.exchange_first_lead or deal.tricks_done > 0)
        and (rules.exchange_last_open_trick or not last_open)
        and deal.upcard >= 0
        and deal.upcard != deal.low_trump
    )
    exchange_bit = 1 << deal.low_trump
    exp = math.exp

    def weight(world: Deal) -> float:
        hand = world.hands[opponent] | lead_bit
        chosen = lead_value(hand, lead, trump, strict, gone)
        total = 0.0
        for card in cards_of(hand):
            total += exp((lead_value(hand, card, trump, strict, gone) - chosen) / TEMPERATURE)
        likelihood = 1.0 / total
        if could_marry and marriage_partners(hand):
            likelihood *= SKIPPED
        if could_exchange and hand & exchange_bit:
            likelihood *= SKIPPED
        return likelihood

    return weight
