"""A rule-of-thumb player, the kind the rule books' strategy tips describe.

It is the arena's baseline opponent, the rollout policy of the search, and
(with noise) the beginner level. It looks only at what its seat may know:
its own hand, the card led, the trump card and the scores.

Tips it follows (from the rule books docs/rules.md draws on): exchange the lowest trump; declare
marriages when leading; keep aces and tens and trumps for later, lead low
cards in the open phase; take valuable leads cheaply; close only with 66 in
sight; always claim a valid 66 and never a wrong one.
"""

from __future__ import annotations

import random
from collections.abc import Sequence

from ..core.actions import CLAIM, CLOSE, EXCHANGE, MARRY, PASS, RESIGN
from ..core.cards import ACE, HIGHER, JACK, KING, NINE, POINTS, SUIT_MASK, TEN, cards_of
from ..core.deal import Deal
from ..core.info import played_mask

_ALL_KINGS = sum(1 << (s * 6 + KING) for s in range(4))


def claim_choice(deal: Deal) -> tuple[int, int] | None:
    """(seat, CLAIM) for a seat that may validly claim now, else None; (to_act, PASS) if it must pass."""
    windows = deal.windows
    if windows:
        for seat in (deal.to_act, 1 - deal.to_act):
            if windows >> seat & 1 and deal.claim_is_valid(seat):
                return seat, CLAIM
        if deal.final_order:
            return deal.to_act, PASS
    return None


def after_claims(deal: Deal) -> Deal:
    """``deal`` once every claim ``claim_choice`` would make is made (a copy if any was; else ``deal`` itself)."""
    while deal.result is None:
        claim = claim_choice(deal)
        if claim is None:
            break
        deal = deal.clone()
        deal.apply(claim[1], claim[0])
    return deal


def marriage_partners(hand: int) -> int:
    """Kings and queens in ``hand`` that form a pair."""
    kings = hand & (hand >> 1) & _ALL_KINGS
    return kings | kings << 1


def sure_points(deal: Deal, seat: int) -> int:
    """A rough estimate of the points a hand takes by force once the talon is shut.

    Counts each ace (with a typical card played to it), and the ten under it.
    """
    hand = deal.hands[seat]
    points = 0
    for suit in range(4):
        top = suit * 6
        if hand >> (top + ACE) & 1:
            points += 11 + 4  # the ace plus a typical card played to it
            if hand >> (top + TEN) & 1:
                points += 10 + 4
    return points


def should_close(deal: Deal, seat: int) -> bool:
    """Close only with 66 in sight: own total plus sure tricks, with trumps to back them."""
    hand = deal.hands[seat]
    trumps = (hand & SUIT_MASK[deal.trump]).bit_count()
    pending_marriage = 40 if hand & marriage_partners(hand) & SUIT_MASK[deal.trump] else 0
    if not pending_marriage and hand & marriage_partners(hand):
        pending_marriage = 20
    return trumps >= 2 and deal.total(seat) + sure_points(deal, seat) + pending_marriage >= 66


def lead_value_in(deal: Deal, seat: int, card: int, gone: int = -1) -> float:
    """:func:`lead_value` of ``card`` for ``seat`` leading in ``deal`` (``gone``: the cards played, if known)."""
    if deal.strict and gone < 0:
        gone = played_mask(deal)
    return lead_value(deal.hands[seat], card, deal.trump, deal.strict, gone)


def lead_value(hand: int, card: int, trump: int, strict: bool, gone: int) -> float:
    """How much the rule of thumb likes leading ``card`` from ``hand`` (``gone``: the cards played)."""
    rank = card % 6
    is_trump = card // 6 == trump
    if strict:
        # Closed phase: cash winners (top cards), draw trumps when strong in them.
        unbeatable = not (HIGHER[card] & ~hand & ~gone)
        strict_value = POINTS[card] + (20.0 if unbeatable else 0.0)
        if is_trump and unbeatable:
            strict_value += 5
        return strict_value
    # Open phase: lead low, keep marriages, aces, tens and trumps.
    value = 10.0 - POINTS[card]
    if is_trump:
        value -= 12
    if marriage_partners(hand) >> card & 1:
        value -= 15
    if rank in (JACK, NINE):
        value += 3
    return value


def response_value(deal: Deal, seat: int, card: int) -> float:
    """How much the rule of thumb likes answering the card led in ``deal`` with ``card``."""
    lead = deal.lead
    trump = deal.trump
    is_trump = card // 6 == trump
    same = card // 6 == lead // 6
    wins = (same and card < lead) or (not same and is_trump)
    stake = POINTS[lead]
    hand = deal.hands[seat]
    keep_penalty = 8.0 if marriage_partners(hand) >> card & 1 else 0.0
    if wins:
        cost = POINTS[card] * (0.3 if same else 0.6) + (6 if is_trump else 0)
        gain = stake + POINTS[card]
        if stake < 10 and not deal.strict:
            gain -= 8  # not worth spending a good card on a low lead in the open phase
        return gain - cost - keep_penalty
    return -POINTS[card] - (10 if is_trump else 0) - keep_penalty


def scored_actions(deal: Deal, seat: int) -> list[tuple[float, int]]:
    """Every legal action of the seat on turn with a rule-of-thumb value, best first."""
    scored: list[tuple[float, int]] = []
    for action in deal.legal_actions(seat):
        if action < MARRY:
            value = lead_value_in(deal, seat, action) if deal.lead < 0 else response_value(deal, seat, action)
        elif action < EXCHANGE:
            value = 100.0 + (20 if action - MARRY == deal.trump else 0)
        elif action == EXCHANGE:
            value = 120.0
        elif action == CLOSE:
            value = 90.0 if should_close(deal, seat) else -100.0
        elif action == CLAIM:
            value = 200.0 if deal.claim_is_valid(seat) else -200.0
        elif action == PASS:
            value = 0.0
        elif action == RESIGN:
            value = -150.0
        else:
            value = -300.0
        scored.append((value, action))
    scored.sort(reverse=True)
    return scored


def heuristic_action(deal: Deal, seat: int, rng: random.Random, noise: float = 0.0) -> int:
    """The rule-of-thumb choice; ``noise`` (in value units) makes it err like a beginner."""
    claim = claim_choice(deal)
    if claim is not None and claim[0] == seat:
        return claim[1]
    scored = scored_actions(deal, seat)
    if noise:
        scored = sorted(((v + rng.gauss(0, noise), a) for v, a in scored), reverse=True)
    best = scored[0][0]
    ties = [a for v, a in scored if v == best]
    return ties[0] if len(ties) == 1 else rng.choice(ties)


def _response_table(strict: bool, trump: int) -> tuple[float, ...]:
    """``response_value`` without the marriage-partner penalty, for every (lead, response) pair."""
    values = []
    for lead in range(24):
        for card in range(24):
            is_trump = card // 6 == trump
            same = card // 6 == lead // 6
            if (same and card < lead) or (not same and is_trump):
                cost = POINTS[card] * (0.3 if same else 0.6) + (6 if is_trump else 0)
                gain = POINTS[lead] + POINTS[card]
                if POINTS[lead] < 10 and not strict:
                    gain -= 8
                values.append(gain - cost)
            else:
                values.append(-POINTS[card] - (10.0 if is_trump else 0.0))
    return tuple(values)


# _RESPONSE[strict][trump][lead * 24 + card]
_RESPONSE = tuple(tuple(_response_table(strict, trump) for trump in range(4)) for strict in (False, True))
# _OPEN_LEAD[trump][card]: ``lead_value_in`` in the open phase, without the marriage-partner penalty.
_OPEN_LEAD = tuple(
    tuple(10.0 - POINTS[c] - (12 if c // 6 == trump else 0) + (3 if c % 6 in (JACK, NINE) else 0) for c in range(24))
    for trump in range(4)
)


def random_card(actions: Sequence[int], rng: random.Random) -> int:
    """A card played at random among ``actions`` (-1 if none is a card: only marriages, say)."""
    cards = [a for a in actions if a < MARRY]
    return cards[int(rng.random() * len(cards))] if cards else -1


def rollout_action(deal: Deal, rng: random.Random, randomness: float, close: bool) -> int:
    """A fast policy for playouts: mostly the rule of thumb, sometimes a random card.

    The rule of thumb is that of :func:`scored_actions` (exchange, declare,
    lead low, take valuable leads cheaply; close only with ``close``), computed
    from tables. ``randomness`` is the share of random cards (the search's
    ``SearchConfig.rollout_random``; with 0 the choice is the rule of thumb's alone).
    """
    seat = deal.to_act
    hand = deal.hands[seat]
    lead = deal.lead
    if lead >= 0:
        options = deal.response_mask(hand, lead)
        if not options & (options - 1):
            return options.bit_length() - 1
        cards: Sequence[int] = cards_of(options)
        if randomness and rng.random() < randomness:
            return cards[int(rng.random() * len(cards))]
        table = _RESPONSE[deal.strict][deal.trump]
        base = lead * 24
        partners = marriage_partners(hand)
        best = cards[0]
        best_value = -1000.0
        for card in cards:
            value = table[base + card]
            if partners >> card & 1:
                value -= 8.0
            if value > best_value:
                best_value = value
                best = card
        return best
    actions = deal.legal_actions(seat)
    if len(actions) == 1:
        return actions[0]
    if randomness and rng.random() < randomness:
        card = random_card(actions, rng)
        if card >= 0:
            return card
    marriage = -1
    for a in actions:
        if a == EXCHANGE:
            return a
        if MARRY <= a < EXCHANGE and (marriage < 0 or a - MARRY == deal.trump):
            marriage = a
        if a == CLOSE and close and should_close(deal, seat):
            return a
    if marriage >= 0:
        return marriage
    cards = [a for a in actions if a < MARRY]
    if deal.strict:
        gone = played_mask(deal)
        return max(cards, key=lambda c: lead_value_in(deal, seat, c, gone))
    table = _OPEN_LEAD[deal.trump]
    partners = marriage_partners(hand)
    best = cards[0]
    best_value = -1000.0
    for card in cards:
        value = table[card]
        if partners >> card & 1:
            value -= 15.0
        if value > best_value:
            best_value = value
            best = card
    return best
