"""A match (Bummerl) and its session: deals in a row, dealer rotation, game points.

:class:`Match` is the checked, recorded layer over :class:`~py_engine.core.deal.Deal`:
every action goes through :meth:`Match.act`, which refuses anything illegal
with a precise error (changing nothing), logs full-information events and
records the action so that the match can be saved and replayed.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import Any

from ..core.actions import CLAIM, NEXT, action_name, parse_action
from ..core.cards import CARD_NAMES, deck_cards, deck_mask, mask_of, parse_card
from ..core.deal import Deal
from ..core.errors import BadActionError, GameOverError, IllegalActionError, NotYourTurnError
from ..core.events import Event, Forfeit, MatchEnd, Next, Score
from ..core.rules import Rules
from ..core.scoring import DealResult


@dataclass
class DealRecord:
    """What it takes to replay one deal: its dealer, its pack and its actions."""

    dealer: int
    deck: list[int]
    actions: list[tuple[int, int]] = field(default_factory=list)


@dataclass(frozen=True, slots=True)
class SheetLine:
    """One finished deal on the score sheet: where it was played, how it ended, the match score after it."""

    match_number: int
    deal_number: int
    dealer: int
    result: DealResult
    #: Game points carried over from tied deals and added to this deal's winner (0 without a winner).
    carried: int
    #: The match score after the deal (seat 0's, seat 1's).
    scores: tuple[int, int]

    def to_dict(self) -> dict[str, Any]:
        return {
            "match": self.match_number,
            "deal": self.deal_number,
            "dealer": self.dealer,
            **self.result.to_dict(),
            "carried": self.carried,
            "scores": list(self.scores),
        }


@dataclass(frozen=True, slots=True)
class BummerlLine:
    """One finished match (Bummerl) of the session: its winner, final score and deals finished in it.

    ``ended``: the game ended early in this match, ``(seat, reason)`` as :attr:`Match.ended`.
    """

    match_number: int
    winner: int | None
    scores: tuple[int, int]
    deals: int
    ended: tuple[int | None, str] | None = None

    def to_dict(self) -> dict[str, Any]:
        ended = None if self.ended is None else {"seat": self.ended[0], "reason": self.ended[1]}
        return {
            "match": self.match_number,
            "winner": self.winner,
            "scores": list(self.scores),
            "deals": self.deals,
            "ended": ended,
        }


def shuffled_deck(rng: random.Random, deck_size: int) -> list[int]:
    cards = deck_cards(deck_size)
    rng.shuffle(cards)
    return cards


def check_deck(rules: Rules, deck: Any) -> list[int]:
    """A pack given as card texts → card numbers; raises ``ValueError`` if it is not a full pack."""
    if not isinstance(deck, list):
        raise ValueError("deck must be a list of card codes")
    cards = [parse_card(c) for c in deck]
    if len(cards) != rules.deck or mask_of(cards) != deck_mask(rules.deck):
        raise ValueError(f"deck must hold each of the {rules.deck} cards of the pack exactly once")
    return cards


#: Seeds are integers of at most 53 bits, which a page's JavaScript reads exactly (a saved game goes through it).
SEED_LIMIT = 2**53


def is_seed(value: Any) -> bool:
    """Whether ``value`` may seed a match: a JSON integer (not a float, not a boolean) below SEED_LIMIT in size."""
    return type(value) is int and abs(value) < SEED_LIMIT


#: Why a game can end without being played out (:meth:`Match.forfeit`): a player
#: gave up the whole game, did not come back in time, or both players left (no winner).
FORFEITS = ("resigned", "time", "abandoned")


class Match:
    """A match to ``rules.match_target``, within a session of ``session_bummerls`` wins.

    With ``single_deal`` the game is one deal only. ``packs`` gives the pack of
    each deal by its index in the session (0 first) instead of the seeded shuffle
    (an online game's packs come from both players' secrets).
    """

    def __init__(
        self,
        rules: Rules,
        seed: int,
        dealer: int | None = None,
        deck: Sequence[int] | None = None,
        single_deal: bool = False,
        packs: Callable[[int], Sequence[int]] | None = None,
    ):
        self.rules = rules
        self.packs = packs
        self.seed = seed
        self.single_deal = single_deal
        self.rng = random.Random(seed)
        drawn_dealer = self.rng.randrange(2)  # the cut: always drawn, so replays stay in step
        self.scores = [0, 0]
        self.carry = 0
        self.matches_won = [0, 0]
        self.match_number = 1
        self.match_first_dealer = drawn_dealer if dealer is None else dealer
        self.deal_number = 0
        self.match_winner: int | None = None
        self.records: list[DealRecord] = []
        self.events: list[Event] = []
        self.last_result: DealResult | None = None
        #: How the game ended early, if it did: ``(seat, reason)`` (seat None: abandoned by both).
        self.ended: tuple[int | None, str] | None = None
        #: The score sheet: every finished deal of the game, and every finished match of the session.
        self.sheet: list[SheetLine] = []
        self.bummerls: list[BummerlLine] = []
        self.deal: Deal = self._start_deal(self.match_first_dealer, deck)

    # -------------------------------------------------------------- structure

    def _start_deal(self, dealer: int, deck: Sequence[int] | None = None) -> Deal:
        shuffled = shuffled_deck(self.rng, self.rules.deck)  # always drawn, so replays stay in step
        if deck is None and self.packs is not None:
            deck = self.packs(len(self.records))
        cards = list(deck) if deck is not None else shuffled
        self.deal_number += 1
        self.records.append(DealRecord(dealer, cards))
        self.last_result = None
        return Deal(self.rules, cards, dealer, log=self.events)

    @property
    def dealer(self) -> int:
        return self.deal.dealer

    @property
    def match_over(self) -> bool:
        return self.match_winner is not None

    @property
    def session_over(self) -> bool:
        return any(w >= self.rules.session_bummerls for w in self.matches_won)

    @property
    def finished(self) -> bool:
        """Nothing more can be played in this game."""
        if self.ended is not None:
            return True
        if not self.deal.over:
            return False
        return self.single_deal or self.session_over

    @property
    def phase(self) -> str:
        deal = self.deal
        if self.ended is not None:
            return "match_over"
        if deal.over:
            return "match_over" if self.match_over else "deal_over"
        if deal.closed_by >= 0:
            return "closed"
        return "exhausted" if deal.exhausted else "open"

    def to_act(self) -> int | None:
        return None if self.deal.over or self.ended is not None else self.deal.to_act

    # ---------------------------------------------------------------- actions

    def legal(self, seat: int) -> list[int]:
        if self.ended is not None:
            return []
        if not self.deal.over:
            return self.deal.legal_actions(seat)
        return [] if self.finished else [NEXT]

    def act_text(self, seat: int, text: Any) -> list[Event]:
        """Parse and apply; see :meth:`act`."""
        try:
            action = parse_action(text)
        except ValueError as e:
            raise BadActionError(str(e)) from None
        return self.act(seat, action)

    def act(self, seat: int, action: int) -> list[Event]:
        """Apply ``action`` for ``seat``; return the full-information events it caused.

        Raises :class:`IllegalActionError`, :class:`NotYourTurnError` or
        :class:`GameOverError`, changing nothing.
        """
        if seat not in (0, 1):
            raise IllegalActionError(f"seat must be 0 or 1, not {seat!r}")
        start = len(self.events)
        if self.ended is not None:
            raise GameOverError("the game is over")
        if self.deal.over:
            if self.finished:
                raise GameOverError("the game is over" + ("" if self.single_deal else ": the session has a winner"))
            if action != NEXT:
                raise IllegalActionError(f"the deal is over: only 'next' is possible, not {action_name(action)}")
            self.next_deal()
            return self.events[start:]
        if action == NEXT:
            raise IllegalActionError("'next' is possible only once the deal is over")
        deal = self.deal
        if seat != deal.to_act and action != CLAIM:
            raise NotYourTurnError(f"seat {seat} is not on turn (seat {deal.to_act} is)")
        deal.apply_checked(seat, action)
        self.records[-1].actions.append((seat, action))
        if deal.result is not None:
            self._score(deal.result)
        return self.events[start:]

    def apply_fast(self, seat: int, action: int) -> None:
        """Apply a known-legal action without checks (replays and tools)."""
        if action == NEXT:
            self.next_deal()
            return
        self.deal.apply(action, seat)
        self.records[-1].actions.append((seat, action))
        if self.deal.result is not None:
            self._score(self.deal.result)

    def _score(self, result: DealResult) -> None:
        self.last_result = result
        if result.winner is None:
            if result.carry_over:
                self.carry += 1
            self._write_sheet(result, 0)
            return
        carried = self.carry
        points = result.game_points + carried
        self.carry = 0
        winner = result.winner
        target = self.rules.match_target
        self.scores[winner] = min(target, self.scores[winner] + points)
        self.events.append(Score(winner, points, (self.scores[0], self.scores[1])))
        self._write_sheet(result, carried)
        if self.scores[winner] >= target:
            self.match_winner = winner
            self.matches_won[winner] += 1
            scores = (self.scores[0], self.scores[1])
            won = (self.matches_won[0], self.matches_won[1])
            self.bummerls.append(BummerlLine(self.match_number, winner, scores, self.deal_number))
            self.events.append(MatchEnd(winner, scores, won, self.session_over))

    def _write_sheet(self, result: DealResult, carried: int) -> None:
        scores = (self.scores[0], self.scores[1])
        self.sheet.append(SheetLine(self.match_number, self.deal_number, self.deal.dealer, result, carried, scores))

    def forfeit(self, seat: int | None, reason: str) -> list[Event]:
        """End the whole game now: ``seat`` loses it (``resigned``, ``time``), or nobody does (``abandoned``).

        The deal in play stays unfinished; the other seat wins the match in play.
        Raises :class:`GameOverError` if the game is already over.
        """
        if reason not in FORFEITS or (seat is None) != (reason == "abandoned") or seat not in (None, 0, 1):
            raise ValueError(f"cannot forfeit seat {seat!r} for {reason!r}")
        if self.finished:
            raise GameOverError("the game is over")
        start = len(self.events)
        self.ended = (seat, reason)
        winner = None if seat is None else 1 - seat
        # Between two matches of a session the forfeit loses the next one, not yet begun.
        if self.match_over:
            line = BummerlLine(self.match_number + 1, winner, (0, 0), 0, self.ended)
        else:
            finished = self.deal_number if self.deal.over else self.deal_number - 1
            line = BummerlLine(self.match_number, winner, (self.scores[0], self.scores[1]), finished, self.ended)
        self.bummerls.append(line)
        if winner is not None:
            self.match_winner = winner
            self.matches_won[winner] += 1
        self.events.append(Forfeit(seat, reason, winner))
        return self.events[start:]

    def next_dealer(self) -> int:
        """Who deals the next deal of this match (docs/rules.md §1.2)."""
        result = self.deal.result
        dealer = self.deal.dealer
        if result is None or result.winner is None or self.rules.next_dealer == "alternate":
            return 1 - dealer
        return result.winner if self.rules.next_dealer == "winner" else 1 - result.winner

    def next_deal(self, deck: Sequence[int] | None = None) -> None:
        """Start the next deal, or the next match of the session (``next``).

        ``deck`` replaces the shuffled pack (replaying a record). The caller
        checks that ``next`` is legal.
        """
        if self.match_over:
            self.match_number += 1
            self.match_first_dealer = 1 - self.match_first_dealer
            self.scores = [0, 0]
            self.carry = 0
            self.match_winner = None
            self.deal_number = 0
            dealer = self.match_first_dealer
        else:
            dealer = self.next_dealer()
        self.events.append(Next(self.match_number))
        self.deal = self._start_deal(dealer, deck)

    # ------------------------------------------------------------------ record

    def record(self) -> dict[str, Any]:
        """The match as a record (docs/protocol.md, "Records"; ``ended``: forfeited, see :meth:`forfeit`)."""
        record: dict[str, Any] = {
            "format": "py_engine/record",
            "version": 1,
            "rules": self.rules.to_dict(),
            "seed": self.seed,
            "match": not self.single_deal,
            "deals": [
                {
                    "dealer": r.dealer,
                    "deck": [CARD_NAMES[c] for c in r.deck],
                    "actions": [[s, action_name(a)] for s, a in r.actions],
                }
                for r in self.records
            ],
        }
        if self.ended is not None:
            record["ended"] = {"seat": self.ended[0], "reason": self.ended[1]}
        return record
