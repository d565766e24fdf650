"""One deal: the state machine of docs/rules.md §1.3, from the deal to its result.

:class:`Deal` has two paths, as python-chess does:

* :meth:`Deal.legal_actions` and :meth:`Deal.apply` trust the caller and are
  fast, for search and fuzzing (``apply`` of an illegal action corrupts the
  state);
* :meth:`Deal.apply_checked` refuses an illegal action with a precise
  :class:`~py_engine.core.errors.IllegalActionError` and changes nothing.

:meth:`Deal.clone` is cheap. When ``log`` is a list, every step appends a full
information event to it, and the deal keeps a copy of itself as it is right
after each (``shots``); :mod:`py_engine.service.views` shows both per seat.
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from typing import TYPE_CHECKING, TypeVar

from . import events as ev
from . import info, scoring
from .actions import CLAIM, CLOSE, EXCHANGE, MARRY, PASS, RESIGN, action_name
from .cards import (
    CARD_NAMES,
    HIGHER,
    KING,
    POINTS,
    QUEEN,
    SUIT_MASK,
    SUITS,
    card_of,
    cards_of,
    lowest_trump,
)
from .errors import IllegalActionError, NotYourTurnError
from .rules import Rules

if TYPE_CHECKING:
    from .info import InfoState

_T = TypeVar("_T")

_KQ = tuple((1 << card_of(s, KING)) | (1 << card_of(s, QUEEN)) for s in range(4))
_KING_BIT = tuple(1 << card_of(s, KING) for s in range(4))
_ALL_KINGS = sum(_KING_BIT)

# _RESP_WINS[trump][lead * 24 + resp]: does the response beat the lead (docs/rules.md §1.4)?
_RESP_WINS = tuple(
    tuple(
        (resp // 6 == lead // 6 and resp < lead) or (resp // 6 != lead // 6 and resp // 6 == trump)
        for lead in range(24)
        for resp in range(24)
    )
    for trump in range(4)
)

# Pre-lead flags of the current lead.
_EXCHANGED = 1
_CLOSED_NOW = 2

#: The points that win a deal (claimed, or reached where 66 ends the deal by itself).
WIN_POINTS = 66


def marriage_points(suit: int, trump: int) -> int:
    """A marriage's value: 40 in trumps, 20 in another suit."""
    return 40 if suit == trump else 20


def marriage_offer(suit: int, trump: int) -> dict[str, object]:
    """A marriage as the protocol tells it: its points and its two cards (king, queen)."""
    return {
        "points": marriage_points(suit, trump),
        "cards": [CARD_NAMES[card_of(suit, KING)], CARD_NAMES[card_of(suit, QUEEN)]],
    }


def deal_hands(deck: Sequence[int], pattern: str) -> tuple[list[int], list[int], int, list[int]]:
    """Split a shuffled pack by the deal pattern (docs/rules.md §1.2).

    Returns (non-dealer hand, dealer hand, face-up trump, face-down talon in draw order).
    """
    if pattern == "3T2":
        return [*deck[0:3], *deck[7:9]], [*deck[3:6], *deck[9:11]], deck[6], list(deck[11:])
    return [*deck[0:3], *deck[6:9]], [*deck[3:6], *deck[9:12]], deck[12], list(deck[13:])


def pack_of(
    pattern: str, non_dealer_hand: Sequence[_T], dealer_hand: Sequence[_T], up: _T, face_down: Sequence[_T]
) -> list[_T]:
    """The pack that :func:`deal_hands` splits into these hands, trump card and talon (its inverse).

    Cards may be numbers or names: the pack is only put in order.
    """
    n, d = list(non_dealer_hand), list(dealer_hand)
    if pattern == "3T2":
        return [*n[:3], *d[:3], up, *n[3:], *d[3:], *face_down]
    return [*n[:3], *d[:3], *n[3:], *d[3:], up, *face_down]


class Deal:
    """The full state of one deal (both hands and the talon: the referee's view)."""

    __slots__ = (
        "bonus",
        "card_points",
        "close_snapshot",
        "closed_by",
        "dealer",
        "declared",
        "exhausted",
        "final_order",
        "hands",
        "history",
        "known",
        "last_winner",
        "lead",
        "leader",
        "log",
        "low_trump",
        "marriage_points",
        "marriages",
        "pending",
        "prelead",
        "result",
        "rules",
        "shots",
        "strict_from",
        "talon",
        "talon_pos",
        "to_act",
        "tricks",
        "tricks_done",
        "trump",
        "upcard",
        "windows",
    )

    rules: Rules
    dealer: int
    trump: int
    low_trump: int
    hands: list[int]
    talon: tuple[int, ...]
    talon_pos: int
    upcard: int
    closed_by: int
    exhausted: bool
    leader: int
    to_act: int
    lead: int
    tricks_done: int
    prelead: int
    declared: int
    card_points: list[int]
    tricks: list[int]
    marriage_points: list[int]
    bonus: list[int]
    pending: tuple[tuple[int, int, int], ...]
    marriages: tuple[tuple[int, int, int], ...]
    known: list[int]
    close_snapshot: tuple[int, int, int]
    windows: int
    final_order: tuple[int, ...]
    last_winner: int
    history: list[tuple[int, int, int, int]]
    strict_from: int
    result: scoring.DealResult | None
    log: list[ev.Event] | None
    #: With a log: a copy of the deal right after each event it logged, by the event's index in the log (the
    #: frames a page animates are drawn from these: :func:`py_engine.service.views.frames`).
    shots: dict[int, Deal] | None

    def __init__(self, rules: Rules, deck: Sequence[int], dealer: int, log: list[ev.Event] | None = None):
        non_dealer_hand, dealer_hand, up, face_down = deal_hands(deck, rules.deal_pattern)
        non_dealer = 1 - dealer
        self.rules = rules
        self.dealer = dealer
        self.trump = up // 6
        self.low_trump = lowest_trump(self.trump, rules.deck)
        hands = [0, 0]
        for c in non_dealer_hand:
            hands[non_dealer] |= 1 << c
        for c in dealer_hand:
            hands[dealer] |= 1 << c
        self.hands = hands
        self.talon = tuple(face_down)
        self.talon_pos = 0
        self.upcard = up
        self.closed_by = -1
        self.exhausted = False
        self.leader = non_dealer
        self.to_act = non_dealer
        self.lead = -1
        self.tricks_done = 0
        self.prelead = 0
        self.declared = -1
        self.card_points = [0, 0]
        self.tricks = [0, 0]
        self.marriage_points = [0, 0]
        self.bonus = [0, 0]
        self.pending = ()
        self.marriages = ()
        self.known = [0, 0]
        self.close_snapshot = (0, 0, 0)
        self.windows = 0
        self.final_order = ()
        self.last_winner = -1
        self.history = []
        self.strict_from = -1
        self.result = None
        self.log = log
        self.shots = {} if log is not None else None
        if log is not None:
            self._log(ev.DealStarted(dealer, up, (hands[0], hands[1])))

    # ------------------------------------------------------------------ queries

    def clone(self) -> Deal:
        """An independent copy (without the event log)."""
        d = Deal.__new__(Deal)
        d.rules = self.rules
        d.dealer = self.dealer
        d.trump = self.trump
        d.low_trump = self.low_trump
        d.hands = self.hands[:]
        d.talon = self.talon
        d.talon_pos = self.talon_pos
        d.upcard = self.upcard
        d.closed_by = self.closed_by
        d.exhausted = self.exhausted
        d.leader = self.leader
        d.to_act = self.to_act
        d.lead = self.lead
        d.tricks_done = self.tricks_done
        d.prelead = self.prelead
        d.declared = self.declared
        d.card_points = self.card_points[:]
        d.tricks = self.tricks[:]
        d.marriage_points = self.marriage_points[:]
        d.bonus = self.bonus[:]
        d.pending = self.pending
        d.marriages = self.marriages
        d.known = self.known[:]
        d.close_snapshot = self.close_snapshot
        d.windows = self.windows
        d.final_order = self.final_order
        d.last_winner = self.last_winner
        d.history = self.history[:]
        d.strict_from = self.strict_from
        d.result = self.result
        d.log = None
        d.shots = None
        return d

    def _log(self, event: ev.Event) -> None:
        """Log ``event``, and a copy of the deal as it is right after it (:attr:`shots`)."""
        log, shots = self.log, self.shots
        if log is not None and shots is not None:
            log.append(event)
            shots[len(log) - 1] = self.clone()

    def cards_in_hands(self) -> int:
        """How many cards both players hold (a public count)."""
        return self.hands[0].bit_count() + self.hands[1].bit_count()

    def info_state(self, seat: int, *, story: bool = True) -> InfoState:
        """What ``seat`` knows of this deal now (:mod:`py_engine.core.info`): never a card it has not seen.

        ``story=False`` leaves out the seat's story of the deal (only the reading of the opponent needs it).
        """
        return info.info_state(self, seat, story=story)

    def resample(self, state: InfoState, rng: random.Random) -> Deal:
        """A world consistent with ``state``: this deal with the cards its seat has not seen dealt anew."""
        return info.resample(self, state, rng)

    @property
    def over(self) -> bool:
        return self.result is not None

    @property
    def talon_open(self) -> bool:
        return self.closed_by < 0 and not self.exhausted

    @property
    def face_down_left(self) -> int:
        """Face-down talon cards not yet drawn (dead ones included after a close)."""
        return len(self.talon) - self.talon_pos

    @property
    def strict(self) -> bool:
        """Is the strict (follow, head, trump) response rule in force?"""
        return self.closed_by >= 0 or self.exhausted

    def total(self, seat: int) -> int:
        """Card points + credited marriages + last-trick bonus (docs/rules.md §1.7)."""
        return self.card_points[seat] + self.marriage_points[seat] + self.bonus[seat]

    def marriage_allowed_now(self) -> bool:
        """May the leader declare a marriage at this lead, timing-wise (docs/rules.md §1.8)?"""
        r = self.rules
        if self.tricks_done == 0 and not r.marriage_first_lead:
            return False
        if self.closed_by >= 0 and not r.marriage_after_close:
            return False
        return not (self.exhausted and not r.marriage_after_exhaustion)

    def exchange_allowed_now(self) -> bool:
        """May the leader exchange the lowest trump at this lead, if it holds it (docs/rules.md §1.7)?

        The same test as in :meth:`legal_actions`, which inlines it for speed.
        """
        r = self.rules
        if self.closed_by >= 0 or self.exhausted or self.prelead & _EXCHANGED or self.upcard == self.low_trump:
            return False
        if self.tricks_done == 0 and not r.exchange_first_lead:
            return False
        return r.exchange_last_open_trick or len(self.talon) - self.talon_pos != 1

    def legal_actions(self, seat: int | None = None) -> list[int]:
        """The legal actions of ``seat`` (default: the seat to act), unsorted.

        This is the hot path of search and fuzzing, hence the inlined tests;
        :meth:`why_illegal` states the same rules in words.
        """
        if self.result is not None:
            return []
        to_act = self.to_act
        if seat is not None and seat != to_act:
            return [CLAIM] if self.windows >> seat & 1 else []
        if self.final_order:
            return [CLAIM, PASS]
        rules = self.rules
        hand = self.hands[to_act]
        lead = self.lead
        if lead >= 0:
            acts = list(cards_of(self.response_mask(hand, lead)))
            if rules.resign:
                acts.append(RESIGN)
            return acts
        declared = self.declared
        pairs = hand & (hand >> 1) & _ALL_KINGS  # a king whose queen is in hand too
        marriage_ok = bool(pairs) and declared < 0 and self.marriage_allowed_now()
        if declared >= 0:
            playable = hand & (_KING_BIT[declared] if rules.marriage_lead_card == "king" else _KQ[declared])
        elif marriage_ok and rules.marriage_auto:
            playable = hand & ~(pairs | pairs << 1)
        else:
            playable = hand
        acts = list(cards_of(playable))
        if self.closed_by < 0 and not self.exhausted:
            first = self.tricks_done == 0
            last_open = len(self.talon) - self.talon_pos == 1
            if (
                not self.prelead & _EXCHANGED
                and hand >> self.low_trump & 1
                and (rules.exchange_first_lead or not first)
                and (rules.exchange_last_open_trick or not last_open)
            ):
                acts.append(EXCHANGE)
            if (rules.close_first_lead or not first) and (rules.close_last_open_trick or not last_open):
                acts.append(CLOSE)
        if marriage_ok:
            for king in cards_of(pairs):
                acts.append(MARRY + king // 6)
        if self.windows >> to_act & 1:
            acts.append(CLAIM)
        if rules.resign:
            acts.append(RESIGN)
        return acts

    def response_mask(self, hand: int, lead: int) -> int:
        """The cards of ``hand`` that may answer ``lead`` now (docs/rules.md §1.5)."""
        suited = hand & SUIT_MASK[lead // 6]
        if self.closed_by >= 0 or self.exhausted:
            if suited:
                return suited & HIGHER[lead] or suited
            return hand & SUIT_MASK[self.trump] or hand
        if self.rules.open_rule == "must_win":
            beating = suited & HIGHER[lead]
            if lead // 6 != self.trump:
                beating |= hand & SUIT_MASK[self.trump]
            return beating or hand
        return hand

    def claim_is_valid(self, seat: int) -> bool:
        """Would a claim by ``seat`` now reach 66 (docs/rules.md §1.11, §1.8)?"""
        total = self.card_points[seat] + self.marriage_points[seat] + self.bonus[seat]
        if self.declared >= 0:
            total += self._claimable_marriage(seat)
        return total >= WIN_POINTS

    def _claimable_marriage(self, seat: int) -> int:
        """A marriage declared at this lead that counts for a claim right after it.

        Only needed under ``after_later_trick``: the other credit rules have
        already credited it when the declarer holds a trick.
        """
        if self.declared < 0 or seat != self.leader or self.lead >= 0 or not self.tricks[seat]:
            return 0
        if not self.rules.claim_on_marriage:
            return 0
        return sum(value for s, suit, value in self.pending if s == seat and suit == self.declared)

    # ---------------------------------------------------------------- applying

    def apply_checked(self, seat: int, action: int) -> None:
        """Apply ``action`` for ``seat`` or raise a precise error, changing nothing."""
        if action in self.legal_actions(seat):
            self.apply(action, seat)
            return
        if seat != self.to_act and self.result is None and action != CLAIM:
            raise NotYourTurnError(f"seat {seat} is not on turn (seat {self.to_act} is)")
        raise IllegalActionError(self.why_illegal(seat, action))

    def apply(self, action: int, seat: int | None = None) -> None:
        """Apply a legal action (unchecked). ``seat`` is needed only for a claim out of turn."""
        if seat is None:
            seat = self.to_act
        if action < MARRY:
            if self.lead < 0:
                self._lead(seat, action)
            else:
                self._respond(seat, action)
        elif action < EXCHANGE:
            self._declare(seat, action - MARRY)
        elif action == EXCHANGE:
            self._exchange(seat)
        elif action == CLOSE:
            self._close(seat)
        elif action == CLAIM:
            self._claim(seat)
        elif action == PASS:
            self._pass(seat)
        elif action == RESIGN:
            if self.log is not None:
                self._log(ev.Resign(seat))
            self._finish(scoring.resignation(self, seat))
        else:
            raise ValueError(f"{action_name(action)} is not an action within a deal")

    def _lead(self, seat: int, card: int) -> None:
        # features.lead_change relies on a lead changing no more than the hand, the trick and the turn.
        self.hands[seat] &= ~(1 << card)
        self.lead = card
        self.to_act = 1 - seat
        self.windows = 0
        if self.log is not None:
            self._log(ev.Play(seat, card))

    def _respond(self, seat: int, card: int) -> None:
        self.hands[seat] &= ~(1 << card)
        if self.log is not None:
            self._log(ev.Play(seat, card))
        lead = self.lead
        leader = self.leader
        winner = seat if _RESP_WINS[self.trump][lead * 24 + card] else leader
        loser = 1 - winner
        if self.strict_from < 0 and (self.closed_by >= 0 or self.exhausted):
            self.strict_from = self.tricks_done
        self.card_points[winner] += POINTS[lead] + POINTS[card]
        self.tricks[winner] += 1
        self.tricks_done += 1
        self.history.append((leader, lead, card, winner))
        self.last_winner = winner
        self.lead = -1
        self.prelead = 0
        self.declared = -1
        if self.pending:
            self._credit_pending(winner)
        last = not (self.hands[0] | self.hands[1])
        if last and self.exhausted and self.rules.last_trick_bonus:
            self.bonus[winner] += self.rules.last_trick_bonus
        if self.log is not None:
            bonus = self.bonus[winner] if last and self.exhausted else 0
            self._log(ev.Trick(leader, (lead, card), winner, POINTS[lead] + POINTS[card], bonus))
        manual = self.rules.claim_mode == "manual"
        if not manual and self.total(winner) >= WIN_POINTS:
            self._finish(scoring.claim(self, winner, valid=True, auto=True))
            return
        if self.closed_by < 0 and not self.exhausted:
            self._draw(winner, loser)
        self.leader = winner
        self.to_act = winner
        if manual:
            windows = 1 << winner
            if self.rules.claim_window == "any_time":
                windows |= 1 << loser
            self.windows = windows
            if last:
                self.final_order = (winner, loser) if windows >> loser & 1 else (winner,)
        elif last:
            self._finish(scoring.cards_out(self))

    def _credit_pending(self, winner: int) -> None:
        keep = []
        for entry in self.pending:
            seat, suit, value = entry
            if seat == winner:
                self.marriage_points[seat] += value
                if self.log is not None:
                    self._log(ev.MarriageCredited(seat, suit, value))
            else:
                keep.append(entry)
        self.pending = tuple(keep)

    def _draw(self, winner: int, loser: int) -> None:
        talon = self.talon
        pos = self.talon_pos
        first = talon[pos]
        self.hands[winner] |= 1 << first
        pos += 1
        if self.log is not None:  # each draw is logged as it happens: its shot shows the other's still to come
            self.talon_pos = pos
            self._log(ev.Draw(winner, first, False))
        if pos == len(talon):
            second = self.upcard
            self.upcard = -1
            self.exhausted = True
            self.known[loser] |= 1 << second
        else:
            second = talon[pos]
            pos += 1
        self.hands[loser] |= 1 << second
        self.talon_pos = pos
        if self.log is not None:
            self._log(ev.Draw(loser, second, self.exhausted))
            if self.exhausted:
                self._log(ev.Exhausted())

    def _declare(self, seat: int, suit: int) -> None:
        rules = self.rules
        value = marriage_points(suit, self.trump)
        self.declared = suit
        self.known[seat] |= _KQ[suit]
        self.marriages = (*self.marriages, (seat, suit, value))
        credit = rules.marriage_credit
        credited = credit == "immediate" or (credit == "after_any_trick" and self.tricks[seat] > 0)
        if credited:
            self.marriage_points[seat] += value
        else:
            self.pending = (*self.pending, (seat, suit, value))
        if self.log is not None:
            self._log(ev.Marriage(seat, suit, value, credited))
        if rules.claim_mode == "manual":
            if rules.claim_on_marriage:
                self.windows |= 1 << seat
        elif credited and self.tricks[seat] > 0 and self.total(seat) >= WIN_POINTS:
            self._finish(scoring.claim(self, seat, valid=True, auto=True))

    def _exchange(self, seat: int) -> None:
        old = self.upcard
        low = self.low_trump
        self.hands[seat] ^= (1 << low) | (1 << old)
        self.known[seat] |= 1 << old
        self.upcard = low
        self.prelead |= _EXCHANGED
        if self.log is not None:
            self._log(ev.Exchange(seat, old, low))

    def _close(self, seat: int) -> None:
        other = 1 - seat
        self.closed_by = seat
        self.prelead |= _CLOSED_NOW
        self.close_snapshot = (self.tricks[other], scoring.schneider_points(self, other), self.tricks[seat])
        if self.log is not None:
            self._log(ev.Close(seat))

    def _claim(self, seat: int) -> None:
        extra = self._claimable_marriage(seat)
        if extra:
            # docs/rules.md §1.8: claiming right after the declaration counts the marriage at once.
            self.marriage_points[seat] += extra
            self.pending = tuple(p for p in self.pending if not (p[0] == seat and p[1] == self.declared))
        valid = self.total(seat) >= WIN_POINTS
        if self.log is not None:
            self._log(ev.Claim(seat, valid, self.total(seat)))
        self._finish(scoring.claim(self, seat, valid=valid, auto=False))

    def _pass(self, seat: int) -> None:
        self.final_order = tuple(s for s in self.final_order if s != seat)
        self.windows &= ~(1 << seat)
        if self.log is not None:
            self._log(ev.Pass(seat))
        if self.final_order:
            self.to_act = self.final_order[0]
        else:
            self._finish(scoring.cards_out(self))

    def _finish(self, result: scoring.DealResult) -> None:
        self.result = result
        self.windows = 0
        self.final_order = ()
        self.to_act = -1
        if self.log is not None:
            self._log(ev.DealEnd(result))

    # ------------------------------------------------------------ explanations

    def why_illegal(self, seat: int, action: int) -> str:
        """Why ``action`` is not legal for ``seat`` now (for error messages)."""
        name = action_name(action)
        if self.result is not None:
            return "the deal is over"
        if seat != self.to_act:
            if action == CLAIM:
                return (
                    f"seat {seat} has no open claim window"
                    " (it may claim out of turn only right after a trick, where the rules allow)"
                )
            return f"seat {seat} is not on turn"
        if self.final_order:
            return "after the last trick only 'claim' or 'pass' is possible"
        if action < MARRY:
            return self._why_not_play(seat, action)
        if action == PASS:
            return "'pass' is possible only after the final trick, to decline a claim"
        if action == CLAIM:
            if self.rules.claim_mode == "auto":
                return "these rules end the deal automatically at 66: there is nothing to claim"
            return (
                "no claim window is open: claim right after winning a trick"
                + (" or losing one" if self.rules.claim_window == "any_time" else "")
                + (", or right after declaring a marriage" if self.rules.claim_on_marriage else "")
            )
        if action == RESIGN:
            return "these rules do not allow resigning"
        if self.lead >= 0:
            return f"{name} is possible only before leading, not when answering a trick"
        if action == EXCHANGE:
            return self._why_not_exchange(seat)
        if action == CLOSE:
            return self._why_not_close()
        if MARRY <= action < EXCHANGE:
            return self._why_not_marry(seat, action - MARRY)
        return f"{name} is not possible during a deal"

    def _why_not_play(self, seat: int, card: int) -> str:
        hand = self.hands[seat]
        name = CARD_NAMES[card]
        if not hand >> card & 1:
            return f"{name} is not in your hand"
        if self.lead >= 0:
            allowed = [CARD_NAMES[c] for c in cards_of(self.response_mask(hand, self.lead))]
            lead = CARD_NAMES[self.lead]
            if self.strict:
                state = "closed" if self.closed_by >= 0 else "exhausted"
                return (
                    f"the talon is {state}: you must follow suit, head the trick if you can, else trump;"
                    f" against {lead} you may play {', '.join(allowed)}"
                )
            return f"you must beat {lead} if you can: you may play {', '.join(allowed)}"
        if self.declared >= 0:
            need = "the king" if self.rules.marriage_lead_card == "king" else "the king or the queen"
            return f"after declaring the marriage in {SUITS[self.declared]} you must lead {need} of it"
        return (
            f"with these rules, leading {name} while holding its partner declares the marriage:"
            f" use marry:{SUITS[card // 6]}"
        )

    def _why_not_exchange(self, seat: int) -> str:
        low = CARD_NAMES[self.low_trump]
        if self.prelead & _EXCHANGED:
            return "you have already exchanged at this lead"
        if self.closed_by >= 0:
            return "the talon is closed: no exchange"
        if self.exhausted:
            return "the talon is exhausted: no exchange"
        if self.upcard == self.low_trump:
            return f"the face-up trump is {low} itself: nothing to exchange"
        if not self.hands[seat] >> self.low_trump & 1:
            return f"you need the lowest trump {low} to exchange"
        if self.tricks_done == 0 and not self.rules.exchange_first_lead:
            return "these rules allow no exchange before the first trick"
        return "these rules allow no exchange when only one face-down card is left"

    def _why_not_close(self) -> str:
        if self.closed_by >= 0:
            return "the talon is already closed"
        if self.exhausted:
            return "the talon is exhausted: nothing to close"
        if self.tricks_done == 0 and not self.rules.close_first_lead:
            return "these rules allow no closing before the first trick"
        return "these rules allow no closing when only one face-down card is left"

    def _why_not_marry(self, seat: int, suit: int) -> str:
        if self.declared >= 0:
            return "only one marriage may be declared at a lead"
        if self.hands[seat] & _KQ[suit] != _KQ[suit]:
            return f"you need the king and the queen of {SUITS[suit]} to declare that marriage"
        if self.tricks_done == 0:
            return "these rules allow no marriage before the first trick"
        if self.closed_by >= 0:
            return "these rules allow no marriage after the talon is closed"
        return "these rules allow no marriage after the talon is exhausted"
