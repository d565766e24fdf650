"""The rule-based player of Martin Tompa's published Schnapsen strategy.

Tompa's "Winning Strategy for Schnapsen or Sixty-Six" (psellos.com) is the
public rule set that Schnapsen programs are measured against; the strongest
open-source Schnapsen program plays it as its heuristic opponent. This module
plays it from the page's advice, written anew for this engine. Each rule below
names the section of the page it comes from.

*The opponent leads, the stock is open*: win a non-trump lead by following
suit if you can without breaking a marriage in hand, with the ten or ace if
possible and with the higher of equivalent cards; trump a non-trump ace or
ten; otherwise throw a small card (a non-trump jack, or a king or queen whose
partner is gone) and keep a second card beside an unguarded ten.

*You lead, the stock is open*: do not lead trumps; lead a small card, the
lower of equivalent cards. *Trump control*: while the opponent probably holds
more trumps, lead non-trump aces and tens instead, to make it spend them.

*Marriages and the trump exchange*: exchange the lowest trump and show
marriages at the first chance, except when a sure winner played first lets
the marriage reach 66 at the next lead (the page's case is the trump ace at
33 to 45 points; any card that surely wins the trick serves), and, with the
stock shut, when the trumps should be drawn first so that the marriage king
wins.

*The stock is no longer open*: with the control of trumps, draw the
opponent's trumps, then cash the sure winners; without it, lead a suit the
opponent has run out of to force its trumps; else lead low.

*Closing the stock*: close when the points in hand that win for sure (with
the smallest cards the opponent can add) and the marriages reach 66.

*Counting* (added here; the scores are public): take a trick that brings
66, and take one that would otherwise bring the opponent to 66.

The published program plays 20-card Austrian rules with a marriage shown by
leading its king or queen, counted once its owner has a trick, and the deal
ending by itself at 66: our KLUB20 (AT20 differs only in the manual claim,
which this player always makes at once). KLUB20's resignation is never used.

Where a rule is about 20 cards, its 24-card form is the natural one: the
"small cards" are the non-trump jacks and nines (nines first), the lowest
trump exchanged is the 9, and the opponent adds at least its smallest cards
(nines count 0). The player never resigns (the strategy never gives up a
deal), always claims a valid 66 and never a wrong one. It reads only what its
seat may know (:mod:`py_engine.core.info`): its hand, the trump card, the cards played,
the cards the opponent showed, the card counts and the scores. It draws no
random numbers: the same position gives the same move.
"""

from __future__ import annotations

import random
import time
from dataclasses import dataclass
from typing import Any

from py_engine.ai import player
from py_engine.ai.ismcts import Utility
from py_engine.ai.player import Decision, Level
from py_engine.core.actions import CLAIM, CLOSE, EXCHANGE, MARRY, PASS
from py_engine.core.cards import ACE, HIGHER, KING, NINE, POINTS, QUEEN, SUIT_MASK, TEN, card_of, cards_of
from py_engine.core.deal import Deal
from py_engine.core.info import played_mask


@dataclass(frozen=True, slots=True)
class _View:
    """What the seat knows at this decision."""

    hand: int
    trump: int
    played: int  # cards played to tricks, the card led to this one included
    outside: int  # cards the opponent may hold: those it showed, and the unseen ones not ruled out
    opp_shown: int  # the opponent's cards this seat has seen (marriage partner, exchanged card, ...)
    opp_count: int  # the number of cards in the opponent's hand (public)
    exact: bool  # is ``outside`` exactly the opponent's hand?
    open: bool  # is the talon open (cards still to be drawn)?
    exchange_coming: bool  # may the lowest trump still be exchanged for a face-up card?
    low_trump: int


def _view(deal: Deal, seat: int) -> _View:
    knowledge = deal.info_state(seat, story=False)
    outside = knowledge.opponent_known | (knowledge.unseen & ~knowledge.opponent_cannot_hold)
    opp_count = knowledge.opponent_count
    return _View(
        hand=knowledge.hand,
        trump=deal.trump,
        played=played_mask(deal),
        outside=outside,
        opp_shown=knowledge.opponent_known,
        opp_count=opp_count,
        exact=outside.bit_count() == opp_count,
        open=deal.talon_open,
        exchange_coming=deal.talon_open and deal.upcard >= 0 and deal.upcard != deal.low_trump,
        low_trump=deal.low_trump,
    )


# ---------------------------------------------------------------- card facts


def _beats(card: int, lead: int, trump: int) -> bool:
    """Does ``card`` played to ``lead`` win the trick?"""
    if card // 6 == lead // 6:
        return card < lead
    return card // 6 == trump


def _partner(card: int) -> int:
    """The other card of a king's or queen's marriage."""
    return card_of(card // 6, QUEEN if card % 6 == KING else KING)


def _in_pair(v: _View, card: int) -> bool:
    """Is ``card`` half of a marriage complete in the hand?"""
    return card % 6 in (KING, QUEEN) and bool(v.hand >> _partner(card) & 1)


def _marriage_chance(v: _View, card: int) -> bool:
    """Might this lone king or queen still meet its partner (drawn from the stock)?"""
    if card % 6 not in (KING, QUEEN) or not v.open:
        return False
    partner = _partner(card)
    return not (v.hand >> partner & 1) and not ((v.played | v.opp_shown) >> partner & 1)


def _guards_ten(v: _View, card: int) -> bool:
    """Is ``card`` the one card kept beside a ten whose ace the opponent may hold?"""
    suit = card // 6
    ten, ace = card_of(suit, TEN), card_of(suit, ACE)
    if suit == v.trump or card == ten or not v.hand >> ten & 1 or v.hand >> ace & 1 or v.played >> ace & 1:
        return False
    return v.hand & SUIT_MASK[suit] == (1 << ten) | (1 << card)


def _top_in_suit(v: _View, card: int) -> bool:
    """Can no card of its own suit beat ``card`` (it may still be trumped)?"""
    return not HIGHER[card] & v.outside


def _sure_winner(v: _View, card: int, strict: bool) -> bool:
    """Does ``card`` led now win the trick whatever the opponent holds?"""
    if not _top_in_suit(v, card):
        return False
    suit = card // 6
    if suit == v.trump or not v.outside & SUIT_MASK[v.trump]:
        return True
    # With the strict rules an opponent that holds the suit must follow it.
    return strict and v.exact and bool(v.outside & SUIT_MASK[suit])


def _top_of_run(v: _View, card: int, allowed: int) -> int:
    """The highest allowed card equivalent to ``card``: the cards between are played or in the hand."""
    return _end_of_run(v, card, allowed, -1)


def _bottom_of_run(v: _View, card: int, allowed: int) -> int:
    """The lowest allowed card equivalent to ``card``."""
    return _end_of_run(v, card, allowed, +1)


def _end_of_run(v: _View, card: int, allowed: int, step: int) -> int:
    """The last allowed card of ``card``'s run of equivalent cards, going ``step`` (-1 up in rank, +1 down)."""
    best = card
    c = card
    while (c % 6 > 0) if step < 0 else (c % 6 < NINE):
        c += step
        if v.hand >> c & 1:
            if allowed >> c & 1:
                best = c
        elif not v.played >> c & 1:
            break
    return best


def _cost(v: _View, card: int, leading: bool = False) -> tuple[float, int, int, int]:
    """How much giving ``card`` away hurts (smaller: throw it first).

    The order of "The opponent leads, the stock is open": small non-trump
    cards (9, jack, a king or queen whose partner is gone) first; a card that
    guards an unguarded ten later; kings and queens that may still marry;
    aces and tens; trumps; a marriage in hand last. Leading, an ace or ten
    that cannot be beaten in its suit goes before one that can.
    """
    suit, rank = divmod(card, 6)
    trump = suit == v.trump
    if _in_pair(v, card):
        rank_class = 5.0 if trump else 4.0
    elif trump:
        rank_class = 3.0 + (0.5 if card == v.low_trump and v.exchange_coming else 0.0)
        rank_class += 0.25 if _marriage_chance(v, card) else 0.0
    elif rank in (ACE, TEN):
        rank_class = 2.0
    elif _marriage_chance(v, card):
        rank_class = 1.0
    else:
        rank_class = 0.0
    if _guards_ten(v, card):
        rank_class += 0.5
    beaten_in_suit = 1 if leading and rank_class == 2.0 and not _top_in_suit(v, card) else 0
    return rank_class, beaten_in_suit, POINTS[card], card


def _cheapest(v: _View, cards: list[int], leading: bool = False) -> int:
    return min(cards, key=lambda c: _cost(v, c, leading))


# ---------------------------------------------------------------- counting


def _sure_total(deal: Deal, seat: int) -> int:
    """The seat's total once it takes a trick (pending marriages are credited then)."""
    return deal.total(seat) + sum(value for s, _, value in deal.pending if s == seat)


def _smallest_additions(v: _View, count: int) -> int:
    """The least the opponent can add to ``count`` tricks: its smallest possible cards."""
    return sum(sorted(POINTS[c] for c in cards_of(v.outside))[:count])


def _closing_points(deal: Deal, seat: int, v: _View) -> int:
    """Points the seat takes for sure after closing now ("Closing the stock").

    Its trumps above every trump the opponent may hold win; if they can draw
    all the opponent's trumps, every card that nothing outside beats in its
    suit wins too. Each winner takes at least the opponent's smallest card.
    The marriages in hand count when they may be shown after closing.
    """
    trump_mask = SUIT_MASK[v.trump]
    out_trumps = v.outside & trump_mask
    highest_out = min(cards_of(out_trumps)) if out_trumps else 24
    masters = [c for c in cards_of(v.hand & trump_mask) if c < highest_out]
    winners = list(masters)
    if len(masters) >= min(out_trumps.bit_count(), v.opp_count):
        winners += [c for c in cards_of(v.hand & ~trump_mask) if _top_in_suit(v, c)]
    points = sum(POINTS[c] for c in winners) + _smallest_additions(v, len(winners))
    if deal.rules.marriage_after_close and (winners or deal.tricks[seat]):
        for suit in range(4):
            king = card_of(suit, KING)
            if suit != deal.declared and v.hand >> king & 1 and _in_pair(v, king):
                points += 40 if suit == v.trump else 20
    return points


def _expected_opponent_trumps(v: _View) -> float:
    """How many trumps the opponent holds on average, given what the seat has seen."""
    shown = (v.opp_shown & SUIT_MASK[v.trump]).bit_count()
    pool = v.outside & ~v.opp_shown
    slots = v.opp_count - v.opp_shown.bit_count()
    if not pool or slots <= 0:
        return float(shown)
    return shown + (pool & SUIT_MASK[v.trump]).bit_count() * slots / pool.bit_count()


# ---------------------------------------------------------------- decisions


def psellos_action(deal: Deal, seat: int, rng: random.Random) -> int:
    """The strategy's choice for ``seat``: on turn, or out of turn with a valid claim.

    ``rng`` is accepted like the other players' but not needed: the strategy
    decides every position the same way.
    """
    del rng
    legal = deal.legal_actions(seat)
    if seat != deal.to_act:
        if CLAIM in legal and deal.claim_is_valid(seat):
            return CLAIM
        raise ValueError(f"seat {seat} is not on turn and has no valid claim")
    if not legal:
        raise ValueError("the deal is over")
    if CLAIM in legal and deal.claim_is_valid(seat):
        return CLAIM
    if deal.final_order:
        return PASS
    v = _view(deal, seat)
    plays = [a for a in legal if a < MARRY]
    if deal.lead >= 0:
        return _answer(deal, seat, v, plays)
    if EXCHANGE in legal:  # "Marriages and the trump exchange": exchange at the first chance
        return EXCHANGE
    if CLOSE in legal and _sure_total(deal, seat) + _closing_points(deal, seat, v) >= 66:
        return CLOSE
    marriage = _marriage_choice(deal, seat, v, legal, plays)
    if marriage is not None:
        return marriage
    if deal.declared >= 0:
        return _marriage_lead(deal, v, plays)
    return _lead(deal, seat, v, plays)


def _marriage_choice(deal: Deal, seat: int, v: _View, legal: list[int], plays: list[int]) -> int | None:
    """A marriage to declare now, or a sure winner to lead before it ("Marriages and the trump exchange")."""
    suits = [a - MARRY for a in legal if MARRY <= a < EXCHANGE]
    if not suits:
        return None
    suit = max(suits, key=lambda s: (s == v.trump, _top_in_suit(v, card_of(s, KING)), -s))
    value = 40 if suit == v.trump else 20
    credited = deal.rules.marriage_credit == "immediate" or deal.tricks[seat] > 0
    if credited and deal.total(seat) + value >= 66:
        return MARRY + suit  # then claim at once
    strict = deal.strict
    pair = (1 << card_of(suit, KING)) | (1 << card_of(suit, QUEEN))
    # Cash a sure winner first when, with it, the marriage reaches 66 at the next lead.
    if _marriage_next_lead_allowed(deal):
        for card in sorted(plays, key=lambda c: -POINTS[c]):
            if pair >> card & 1 or _in_pair(v, card) or not _sure_winner(v, card, strict):
                continue
            if _sure_total(deal, seat) + POINTS[card] + _smallest_additions(v, 1) + value >= 66:
                return card
    # With the stock shut, draw trumps first when the marriage king then wins its trick.
    if strict and suit != v.trump and _top_in_suit(v, card_of(suit, KING)):
        pull = _trump_to_pull(v, plays)
        if pull is not None:
            return pull
    return MARRY + suit


def _marriage_next_lead_allowed(deal: Deal) -> bool:
    """May the leader, keeping the lead, still declare at the next lead?"""
    if deal.talon_open and deal.face_down_left == 1:
        return deal.rules.marriage_after_exhaustion
    return True


def _marriage_lead(deal: Deal, v: _View, plays: list[int]) -> int:
    """After declaring: the king if it wins for sure, else the queen (keep the higher card)."""
    king, queen = card_of(deal.declared, KING), card_of(deal.declared, QUEEN)
    if king in plays and (queen not in plays or _sure_winner(v, king, deal.strict)):
        return king
    return queen if queen in plays else plays[0]


def _trump_to_pull(v: _View, plays: list[int]) -> int | None:
    """With the control of trumps, the trump that draws one of the opponent's ("The stock is no longer open").

    Control: the seat's trumps above all the opponent may hold are enough to
    draw all it can hold. It leads the lowest of them.
    """
    trump_mask = SUIT_MASK[v.trump]
    out_trumps = v.outside & trump_mask
    if not out_trumps:
        return None
    highest_out = min(cards_of(out_trumps))
    masters = [c for c in plays if c // 6 == v.trump and c < highest_out]
    if not masters or len(masters) < min(out_trumps.bit_count(), v.opp_count):
        return None
    return max(masters)


def _lead(deal: Deal, seat: int, v: _View, plays: list[int]) -> int:
    strict = deal.strict
    allowed = sum(1 << c for c in plays)
    # Counting: a sure winner that brings 66.
    need = 66 - _sure_total(deal, seat) - _smallest_additions(v, 1)
    winners = [c for c in plays if _sure_winner(v, c, strict)]
    reaching = [c for c in winners if POINTS[c] >= need]
    if reaching:
        return max(reaching, key=lambda c: (POINTS[c], -c))
    if not strict:
        tibor = _trump_control_lead(deal, seat, v, plays)
        if tibor is not None:
            return tibor
        return _bottom_of_run(v, _cheapest(v, plays, leading=True), allowed)
    # "The stock is no longer open": draw trumps, cash winners, force, else lead low.
    pull = _trump_to_pull(v, plays)
    if pull is not None:
        return pull
    if winners:
        return max(winners, key=lambda c: (c // 6 != v.trump, POINTS[c], -c))
    if v.outside & SUIT_MASK[v.trump]:
        forcing = [c for c in plays if c // 6 != v.trump and not v.outside & SUIT_MASK[c // 6]]
        if forcing:
            return _cheapest(v, forcing)
    return _bottom_of_run(v, _cheapest(v, plays, leading=True), allowed)


def _trump_control_lead(deal: Deal, seat: int, v: _View, plays: list[int]) -> int | None:
    """ "Trump control": while the opponent probably holds more trumps, lead an ace or ten.

    Only one that no card of its suit beats (an ace, or a ten whose ace is
    played or held), and not when trumping it would bring the opponent to 66.
    """
    if _expected_opponent_trumps(v) <= (v.hand & SUIT_MASK[v.trump]).bit_count():
        return None
    out_trumps = v.outside & SUIT_MASK[v.trump]
    best_trump = max((POINTS[c] for c in cards_of(out_trumps)), default=0)
    opponent = _sure_total(deal, 1 - seat)
    candidates = [
        c
        for c in plays
        if c // 6 != v.trump and c % 6 in (ACE, TEN) and _top_in_suit(v, c) and opponent + POINTS[c] + best_trump < 66
    ]
    if not candidates:
        return None
    allowed = sum(1 << c for c in plays)
    return _bottom_of_run(v, min(candidates, key=lambda c: (POINTS[c], c)), allowed)


def _answer(deal: Deal, seat: int, v: _View, plays: list[int]) -> int:
    lead = deal.lead
    trump = v.trump
    winning = [c for c in plays if _beats(c, lead, trump)]
    # Counting: take a trick that brings 66.
    own = _sure_total(deal, seat) + POINTS[lead]
    reaching = [c for c in winning if own + POINTS[c] >= 66]
    if reaching:
        return _cheapest(v, reaching)
    choice = _answer_by_phase(deal, v, plays, winning)
    # Counting: do not let a trick bring the opponent to 66.
    if choice not in winning and _sure_total(deal, 1 - seat) + POINTS[lead] + POINTS[choice] >= 66:
        if winning:
            return _cheapest(v, winning)
        return min(plays, key=lambda c: (POINTS[c], _cost(v, c)))
    return choice


def _answer_by_phase(deal: Deal, v: _View, plays: list[int], winning: list[int]) -> int:
    lead = deal.lead
    trump = v.trump
    allowed = sum(1 << c for c in plays)
    if deal.strict:
        # The strict rules leave a choice among winners (all of them) or among losers.
        if winning:
            unpaired = [c for c in winning if not _in_pair(v, c)] or winning
            lowest = max(unpaired, key=lambda c: (c % 6, -c))
            return _top_of_run(v, lowest, allowed & ~_pairs_mask(v))
        return _cheapest(v, plays)
    # "The opponent leads, the stock is open."
    if lead // 6 != trump:
        following = [c for c in winning if c // 6 == lead // 6 and not _in_pair(v, c)]
        if following:
            ten, ace = card_of(lead // 6, TEN), card_of(lead // 6, ACE)
            pick = ten if ten in following else ace if ace in following else max(following)
            return _top_of_run(v, pick, allowed & ~_pairs_mask(v))
        if lead % 6 in (ACE, TEN):
            trumps = [c for c in winning if c // 6 == trump and not _in_pair(v, c)]
            if trumps:
                return _cheapest(v, trumps)
    return _cheapest(v, plays)


def _pairs_mask(v: _View) -> int:
    """The kings and queens of the marriages complete in the hand."""
    mask = 0
    for suit in range(4):
        pair = (1 << card_of(suit, KING)) | (1 << card_of(suit, QUEEN))
        if v.hand & pair == pair:
            mask |= pair
    return mask


# ---------------------------------------------------------------- as a level of the lab

#: The psellos player as a level. Only the lab plays it: the page's levels are 1-5.
PSELLOS = Level("psellos", "psellos")


def level_named(name: str | int) -> Level:
    """A level of :func:`py_engine.ai.player.level_named`, or ``psellos``."""
    return PSELLOS if str(name) == PSELLOS.name else player.level_named(name)


def decide(deal: Deal, seat: int, level: Level, rng: random.Random, utility: Utility, **options: Any) -> Decision:
    """:func:`py_engine.ai.player.decide`, which also plays the psellos level (the same forced moves first)."""
    if level.kind != PSELLOS.kind:
        return player.decide(deal, seat, level, rng, utility, **options)
    start = time.perf_counter()
    actions = player.without_choice(deal, seat)
    if isinstance(actions, Decision):
        return actions
    action = actions[0] if len(actions) == 1 else psellos_action(deal, seat, rng)
    return Decision(action, [(action, 0.0)], {"iterations": 0, "ms": round((time.perf_counter() - start) * 1000, 1)})
