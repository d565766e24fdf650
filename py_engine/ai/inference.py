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
import random
from bisect import bisect
from collections.abc import Callable
from itertools import accumulate

from ..cards import KING, QUEEN, cards_of
from ..deal import Deal
from .heuristic import _RESPONSE, lead_value, marriage_partners
from .knowledge import Knowledge, determinize, played_mask

#: The softness of the opponent model, in the rule of thumb's value units (larger: vaguer guesses).
TEMPERATURE = 4.0
#: The weight of a world in which the opponent passed up a marriage or an exchange it could make.
SKIPPED = 0.15

Reader = Callable[[Deal], float]


def soft_choice(values: list[float], chosen: float) -> float:
    """The probability of the option worth ``chosen`` among options worth ``values`` (a softmax at TEMPERATURE)."""
    total = 0.0
    for value in values:
        total += math.exp((value - chosen) / TEMPERATURE)
    return 1.0 / total


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
    trump = deal.trump
    strict = deal.strict
    gone = played_mask(deal) if strict else 0  # (the lead itself is in the hand weighed, so its presence here is moot)
    lead_bit = 1 << lead
    # Nothing is drawn between a lead and its answer, so what the leader could do then it could do now.
    could_marry = deal.marriage_allowed_now()
    could_exchange = deal.exchange_allowed_now()
    exchange_bit = 1 << deal.low_trump

    def weight(world: Deal) -> float:
        hand = world.hands[opponent] | lead_bit
        values = [lead_value(hand, card, trump, strict, gone) for card in cards_of(hand)]
        likelihood = soft_choice(values, lead_value(hand, lead, trump, strict, gone))
        if could_marry and marriage_partners(hand):
            likelihood *= SKIPPED
        if could_exchange and hand & exchange_bit:
            likelihood *= SKIPPED
        return likelihood

    return weight


def history_reader(deal: Deal, seat: int) -> Reader | None:
    """A function weighing worlds by every card the opponent played this deal, or None before it played any.

    The opponent's hand at each of its past plays is rebuilt backwards from
    its hand in the world: undo the draw after each open trick (a card of the
    hand, chosen at random: which card came when is not known), then take the
    played card back. Each lead and each answer then has a likelihood under
    the soft rule of thumb (leads as in :func:`lead_reader`; answers by the
    rule of thumb's response values among the answers allowed then), and the
    world's weight is their product, with the current lead's marriage and
    exchange evidence when the seat is answering it.
    """
    opponent = 1 - seat
    trump = deal.trump
    strict_from = deal.strict_from
    plays: list[tuple[bool, int, int, bool, int]] = []  # (led, card, the lead answered, strict, gone) in order
    gone = 0
    for index, (leader, lead, resp, _) in enumerate(deal.history):
        strict = 0 <= strict_from <= index
        if leader == opponent:
            plays.append((True, lead, -1, strict, gone))
        else:
            plays.append((False, resp, lead, strict, gone))
        gone |= (1 << lead) | (1 << resp)
    declared = {suit for s, suit, _ in deal.marriages if s == opponent}
    current = lead_reader(deal, seat)
    if not plays and current is None:
        return None
    draws = [not (0 <= strict_from <= index) for index in range(len(plays))]
    choice_rng = random.Random(len(plays) * 7919 + deal.tricks_done)

    def weight(world: Deal) -> float:
        likelihood = current(world) if current is not None else 1.0
        hand = world.hands[opponent]
        if deal.lead >= 0 and deal.leader == opponent:
            hand |= 1 << deal.lead
        for index in range(len(plays) - 1, -1, -1):
            led, card, answered, strict, before = plays[index]
            if draws[index] and hand:
                cards = cards_of(hand & ~(1 << card))
                if cards:
                    hand &= ~(1 << cards[int(choice_rng.random() * len(cards))])
            hand |= 1 << card
            if led:
                suit, rank = divmod(card, 6)
                if suit in declared and rank in (KING, QUEEN):
                    continue  # perhaps the lead of a declared marriage: not a free choice
                values = [lead_value(hand, c, trump, strict, before) for c in cards_of(hand)]
                likelihood *= soft_choice(values, lead_value(hand, card, trump, strict, before))
            else:
                table = _RESPONSE[strict][trump]
                base = answered * 24
                allowed = world.response_mask(hand, answered) if strict else hand
                partners = marriage_partners(hand)
                values = [table[base + c] - (8.0 if partners >> c & 1 else 0.0) for c in cards_of(allowed)]
                likelihood *= soft_choice(values, table[base + card] - (8.0 if partners >> card & 1 else 0.0))
        return likelihood

    return weight


class WorldPool:
    """Sampled worlds weighted by a reader: each draw is a copy of one, chosen in proportion to its weight."""

    def __init__(self, deal: Deal, knowledge: Knowledge, reader: Reader, rng: random.Random, size: int) -> None:
        self.worlds = [determinize(deal, knowledge, rng) for _ in range(size)]
        weights = [reader(world) for world in self.worlds]
        self.cumulative = list(accumulate(weights))
        if self.cumulative[-1] <= 0.0:
            self.cumulative = list(accumulate(1.0 for _ in self.worlds))
        self.rng = rng

    def draw(self) -> Deal:
        total = self.cumulative[-1]
        index = bisect(self.cumulative, self.rng.random() * total)
        return self.worlds[min(index, len(self.worlds) - 1)].clone()
