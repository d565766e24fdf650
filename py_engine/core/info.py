"""What one seat knows of the deal in play (its information state), and worlds consistent with it.

:meth:`Deal.info_state <py_engine.core.deal.Deal.info_state>` builds an
:class:`InfoState` from the referee's deal, reading only what the seat may
know: its own hand, every card played, the trump card (face up, or turned
down by a close), the opponent's cards it has been shown (the marriage
partner, the card taken in an exchange, the face-up trump drawn at
exhaustion), the card counts, the voids the opponent revealed under the
strict rules, the public position and past, and its own record of the deal
(:class:`Story`: what it saw happen, in order). :meth:`InfoState.key` is its
canonical key: two states share it exactly when the seat cannot tell them
apart. Views, the computer player, the reading of the opponent's play, the
puzzles' proofs and the fuzzer's leak check all take it from here.

:meth:`Deal.resample <py_engine.core.deal.Deal.resample>` deals the unseen cards
anew, uniformly among the worlds consistent with an information state
(OpenSpiel's resample-from-infostate): the computer searches those worlds
and never the referee's. A resampled world keeps the seat's key; the tests
check it over many worlds (tests/test_info_state.py) rather than an assert
in the search, where keying every world cost about 2% of an iteration.
"""

from __future__ import annotations

import random
from typing import TYPE_CHECKING, Any, NamedTuple

from . import events as ev
from .actions import CLAIM, CLOSE, EXCHANGE, MARRY, PASS
from .cards import HIGHER, KING, QUEEN, SUIT_MASK, card_of, cards_of, deck_mask

if TYPE_CHECKING:
    from .deal import Deal

#: The kinds of a story's steps: an act, a face-down draw, the face-up trump drawn at exhaustion.
ACT, DRAW, FACE_UP = 0, 1, 2

#: The action behind each event that is one (plays and marriages carry their card or suit).
_ACTION_OF: dict[type[ev.Event], int] = {ev.Exchange: EXCHANGE, ev.Close: CLOSE, ev.Claim: CLAIM, ev.Pass: PASS}


class Story(NamedTuple):
    """What ``seat`` saw of the current deal, in order: enough to replay it from any consistent pack.

    ``steps`` are ``(kind, seat, value)``: an act (``value`` the action), a
    face-down draw (``value`` the card, or -1 for the opponent's), or the
    face-up draw of the trump card at exhaustion.
    """

    seat: int
    dealer: int
    up: int
    own_hand: tuple[int, ...]
    steps: tuple[tuple[int, int, int], ...]


class InfoState(NamedTuple):
    """What one seat knows at one moment: the hidden-card facts, the public position, and its story.

    :meth:`key` is the state's canonical key: two states share it exactly when
    the seat cannot tell them apart (OpenSpiel's ``information_state_string``);
    a resampled world keeps it. Everything that needs to know what a seat knows
    takes it from here: the views, the search's worlds, the reading of the
    opponent's play and the puzzles' proofs.
    """

    seat: int
    hand: int  # the seat's own cards
    played: int  # every card played in the deal (tricks and the card led)
    unseen: int  # cards the seat has not seen: in the opponent's hand or the face-down talon
    opponent_known: int  # opponent's cards this seat has seen and that are still in its hand
    opponent_unknown_count: int  # how many opponent cards are among ``unseen``
    opponent_cannot_hold: int  # unseen cards the opponent has shown it cannot hold
    #: The seat's record of the deal; None for a deal that keeps no log (a search's world).
    story: Story | None = None
    #: The public position: every fact of the deal in play both seats see now (scores, turn, talon, ...).
    position: tuple[object, ...] = ()
    #: The public past: the tricks in order (leader, lead, answer, winner) and the marriages declared.
    past: tuple[object, ...] = ()

    @property
    def opponent_count(self) -> int:
        return self.opponent_unknown_count + self.opponent_known.bit_count()

    def key(self) -> tuple[object, ...]:
        """The canonical key: equal for two states exactly when the seat cannot tell them apart.

        Its own cards, every card it has seen and what it has been shown of
        the opponent's, the public position and the public past. (The timing
        of its own earlier draws is in its :class:`Story`; every world the
        engine compares shares it.)
        """
        return (
            self.seat,
            self.hand,
            self.played,
            self.unseen,
            self.opponent_known,
            self.opponent_unknown_count,
            self.opponent_cannot_hold,
            self.position,
            self.past,
        )

    def seen_in(self, world: Deal) -> tuple[int, int]:
        """What the seat sees of the hands in ``world``, a deal with this state's public position and past.

        Its own hand and the opponent's cards it has been shown there: all
        that tells such worlds apart for it (their public facts are this
        state's), so grouping by it is grouping by :meth:`key`, at the cost
        of one state for many worlds.
        """
        return seen_hands(world, self.seat, self.played)

    def hidden_in(self, world: Deal) -> tuple[int, tuple[int, ...]]:
        """What of ``world`` this seat has not seen: the opponent's hand and the face-down talon left.

        The talon in its order while cards are still drawn, sorted once the
        strict rules apply (its order no longer matters). With :meth:`key`,
        it tells one world of the seat's information set from another.
        """
        rest = world.talon[world.talon_pos :]
        return world.hands[1 - self.seat], tuple(sorted(rest)) if world.strict else rest


class Observer(NamedTuple):
    """Who looks at a deal: a seat, and whether the other hand is face up to it (a watcher, a hand shown online).

    The one place that decides what a seat sees: of the deal
    (:meth:`state`, its :class:`InfoState`, and :meth:`sees_hand`) and of
    each event (:meth:`event`, by :meth:`Event.seen_by
    <py_engine.core.events.Event.seen_by>`); the views, the frames and the
    filtered events are built from it.
    """

    seat: int
    sees_other_hand: bool = False

    def sees_hand(self, seat: int) -> bool:
        """Are the cards in ``seat``'s hand face up to this observer?"""
        return seat == self.seat or self.sees_other_hand

    def sees_drawn(self, seat: int, face_up: bool) -> bool:
        """Does this observer see the card ``seat`` draws (``face_up``: the trump card, drawn last)?"""
        return face_up or self.sees_hand(seat)

    def state(self, deal: Deal, *, story: bool = True) -> InfoState:
        """What this observer's seat knows of ``deal`` (:func:`info_state`)."""
        return info_state(deal, self.seat, story=story)

    def event(self, event: ev.Event) -> dict[str, Any]:
        """``event`` as this observer may see it."""
        return event.seen_by(self)


def cards_shown(action: int, low_trump: int) -> list[int]:
    """The cards an act shows the other seat, which its player held just before it (a card played, a
    marriage's king and queen, the lowest trump given in an exchange)."""
    if action < MARRY:
        return [action]
    if action < EXCHANGE:
        suit = action - MARRY
        return [card_of(suit, KING), card_of(suit, QUEEN)]
    if action == EXCHANGE:
        return [low_trump]
    return []


def played_mask(deal: Deal) -> int:
    mask = 0
    for _, lead, resp, _ in deal.history:
        mask |= (1 << lead) | (1 << resp)
    if deal.lead >= 0:
        mask |= 1 << deal.lead
    return mask


def seen_hands(deal: Deal, seat: int, played: int) -> tuple[int, int]:
    """``seat``'s own hand in ``deal``, and the opponent's cards it has seen still there (``played``: cards played)."""
    own = deal.hands[seat]
    return own, deal.known[1 - seat] & ~played & ~own


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


def info_state(deal: Deal, seat: int, *, story: bool = True) -> InfoState:
    """``seat``'s information state in ``deal`` (see :meth:`Deal.info_state`); ``story``: with its story."""
    opponent = 1 - seat
    played = played_mask(deal)
    own, opp_known = seen_hands(deal, seat, played)
    up = (1 << deal.upcard) if deal.upcard >= 0 else 0
    unseen = deck_mask(deal.rules.deck) & ~played & ~own & ~up & ~opp_known
    opp_count = deal.hands[opponent].bit_count()  # the count is public
    # Positional: the fields in their order (a search and the puzzles' proofs build many of these).
    return InfoState(
        seat,
        own,
        played,
        unseen,
        opp_known,
        opp_count - opp_known.bit_count(),
        revealed_voids(deal, opponent) & unseen if deal.strict_from >= 0 else 0,
        story_of(deal.log, seat) if story else None,
        public_position(deal),
        (tuple(deal.history), deal.marriages),
    )


def public_position(deal: Deal) -> tuple[object, ...]:
    """Every fact of ``deal`` now that both seats see (no card in a hand or face down): :attr:`InfoState.position`."""
    return (
        deal.dealer,
        deal.trump,
        deal.leader,
        deal.to_act,
        deal.lead,
        deal.card_points[0],
        deal.card_points[1],
        deal.marriage_points[0],
        deal.marriage_points[1],
        deal.bonus[0],
        deal.bonus[1],
        deal.tricks[0],
        deal.tricks[1],
        deal.pending,
        deal.declared,
        deal.prelead,
        deal.closed_by,
        deal.exhausted,
        deal.windows,
        deal.final_order,
        deal.close_snapshot,
        len(deal.talon) - deal.talon_pos,  # face-down cards left (a resampled world deals only these)
        deal.upcard,
        deal.tricks_done,
        deal.hands[0].bit_count(),
        deal.hands[1].bit_count(),
    )


def story_of(log: list[ev.Event] | None, seat: int) -> Story | None:
    """The seat's story of the deal in play from the referee's log, or None without a log."""
    if not log:
        return None
    # The log is the whole match's: the deal in play starts at its last DealStarted.
    start = ev.deal_start(log)
    if start < 0:
        return None
    first = log[start]
    assert isinstance(first, ev.DealStarted)
    own = tuple(cards_of(first.hands[seat]))
    steps: list[tuple[int, int, int]] = []
    for event in log[start + 1 :]:
        if isinstance(event, ev.Play):
            steps.append((ACT, event.seat, event.card))
        elif isinstance(event, ev.Marriage):
            steps.append((ACT, event.seat, MARRY + event.suit))
        elif isinstance(event, ev.Exchange | ev.Close | ev.Claim | ev.Pass):
            steps.append((ACT, event.seat, _ACTION_OF[type(event)]))
        elif isinstance(event, ev.Draw):
            if event.face_up:
                steps.append((FACE_UP, event.seat, event.card))
            else:
                steps.append((DRAW, event.seat, event.card if event.seat == seat else -1))
    return Story(seat, first.dealer, first.trump_card, own, tuple(steps))


def resample(deal: Deal, info: InfoState, rng: random.Random) -> Deal:
    """A copy of ``deal`` with the unseen cards dealt anew, consistent with ``info`` (see :meth:`Deal.resample`)."""
    seat = info.seat
    opponent = 1 - seat
    allowed = list(cards_of(info.unseen & ~info.opponent_cannot_hold))
    k = info.opponent_unknown_count
    rng.shuffle(allowed)
    opp_cards = allowed[:k]
    talon = allowed[k:]
    if info.opponent_cannot_hold:
        talon += cards_of(info.opponent_cannot_hold)
        if not deal.strict:  # once nothing is drawn, the order of the talon does not matter
            rng.shuffle(talon)
    world = deal.clone()
    hand = info.opponent_known
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
