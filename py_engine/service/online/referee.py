"""One seat's engine in an online game: it holds only what its seat may see, and referees the other seat.

Neither engine holds the deal. Each deal's pack is shuffled by both engines
under a commutative cipher (:mod:`py_engine.fairplay.pack`); a position opens
only when the other side releases its key, so each engine learns its own
hand, its own draws, the trump card and what the other shows or plays.

Each engine keeps a *world*: a :class:`~py_engine.service.match.Match` whose
pack holds the real card wherever this seat has opened a position and, in
the positions it has not, cards it has not seen (fillers; they stand for
nothing, and this seat's views never show them). The rules run on the world
as in any game; when a position opens, its real card is swapped into place.

Every move of the other seat is checked at once against what this seat
knows: its turn, the cards it reveals (each opened with its key, from a
position it holds), and the rules, in some world consistent with everything
seen (a revoke that no such world allows is proven at once). What only the
hidden cards can tell is checked at the end of the deal, when both sides
release every key: each side verifies the other's shuffle, replays the whole
deal with every card and recomputes the result. A fault is raised as
:class:`~py_engine.fairplay.pack.Cheat`, naming the other side and what it
did, and changes nothing here.

Messages (``t`` and ``deal``, the deal's index in the session, in each):

* ``shuffle`` (``list``): a step of the deal's shuffle;
* ``keys`` (``keys``: ``[[position, key], ...]``): keys released to the other
  (its hand and draws, the trump card);
* ``act`` (``action``, ``keys``): a move, with the keys of the cards it shows;
* ``end`` (``keys``): every key of the side, once the deal is over.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from typing import Any

from ...core import events as ev
from ...core.actions import CLAIM, NEXT, action_name, parse_action
from ...core.cards import cards_of, deck_cards
from ...core.deal import Deal, deal_hands
from ...core.errors import EngineError, IllegalActionError
from ...core.info import cards_shown, revealed_voids
from ...core.rules import Rules
from ...fairplay.pack import FIRST, SECOND, Cheat, Keys, Shuffle, context_of
from ...fairplay.source import SecretSource
from ..match import Match

Message = dict[str, Any]


def first_role_seat(index: int) -> int:
    """The seat that takes the shuffle's first step in deal ``index`` of the session (in turn)."""
    return index % 2


class _DealPack:
    """One deal's shared pack as this seat sees it: the shuffle, and the world's card at each position."""

    def __init__(self, seat: int, rules: Rules, match_id: str, index: int, rng: random.Random) -> None:
        role = FIRST if first_role_seat(index) == seat else SECOND
        self.index = index
        self.shuffle = Shuffle(role, deck_cards(rules.deck), context_of(match_id, index), rng)
        self.dealer = -1
        #: The world's card at each position (real where opened, a filler elsewhere), and back.
        self.card_at: list[int] = []
        self.position_of: dict[int, int] = {}
        self.released: set[int] = set()
        self.sent_end = False
        self.their_end: Keys | None = None


class Referee:
    """One seat of an online game: its world, the shared packs, and the check of every move of the other seat.

    Every method returns the messages to send to the other side, in order.
    ``secret`` (32 bytes of :func:`~py_engine.fairplay.source.new_secret`,
    never sent) makes every key and shuffle of this seat: the same secret and
    the other's messages rebuild the same game after a reload.
    """

    def __init__(self, seat: int, rules: Rules, match_id: str, first_dealer: int, secret: bytes) -> None:
        self.seat = seat
        self.other = 1 - seat
        self.rules = rules
        self.match_id = match_id
        self.first_dealer = first_dealer
        self._secret = secret
        self.match: Match | None = None
        self._packs: dict[int, _DealPack] = {}
        #: Positions of the pack: the non-dealer's hand, the dealer's, the trump card (the same every deal).
        non_dealer, dealer_hand, up, _ = deal_hands(list(range(rules.deck)), rules.deal_pattern)
        self._hands = (non_dealer, dealer_hand)
        self._up = up
        #: Called with each finished deal's verified pack (by position), after the audit.
        self.on_verified: Callable[[int, list[int]], None] | None = None
        #: The cards the other seat showed of its hand (``show``), as they were shown.
        self.shown_by_other: list[int] = []
        #: Deals audited with both sides' keys and replayed with every card.
        self.verified = 0

    # ---------------------------------------------------------------- state

    def _current(self) -> _DealPack | None:
        """The pack of the deal in play (None before the first deal, or once the last one is verified)."""
        return None if self.match is None else self._packs.get(len(self.match.records) - 1)

    @property
    def playing(self) -> bool:
        """A deal is in play here and this seat's cards are all known to it."""
        m = self.match
        return m is not None and not m.deal.over and m.ended is None and not self.missing_keys()

    def pending_audit(self) -> bool:
        """The deal in play is over but not yet verified with both sides' keys."""
        m = self.match
        return m is not None and m.deal.over and len(m.records) - 1 in self._packs

    def missing_keys(self) -> list[int]:
        """Positions this seat holds but cannot open yet (a draw whose key has not come)."""
        m = self.match
        if m is None or m.deal.over:
            return []
        pack = self._packs[len(m.records) - 1]
        opened = pack.shuffle.opened
        return [pack.position_of[c] for c in cards_of(m.deal.hands[self.seat]) if pack.position_of[c] not in opened]

    # ---------------------------------------------------------------- start

    def start(self) -> list[Message]:
        """Begin the first deal's shuffle."""
        return self._begin(0)

    def _begin(self, index: int) -> list[Message]:
        if index in self._packs:
            return []
        source = SecretSource(self._secret, f"{self.match_id}\n{index}")
        pack = _DealPack(self.seat, self.rules, self.match_id, index, source)
        self._packs[index] = pack
        if pack.shuffle.role == FIRST:
            return [{"t": "shuffle", "deal": index, "list": pack.shuffle.start()}]
        return []

    def prepare_next(self) -> list[Message]:
        """Work done while a deal is played, in the page's idle time (not a click's), one piece at a time:
        begin shuffling the next deal's pack, then prepare this deal's audit."""
        m = self.match
        if m is None or m.deal.over or m.finished:
            return []
        if len(m.records) not in self._packs:
            return self._begin(len(m.records))
        pack = self._current()
        if pack is not None and pack.shuffle.ready:
            pack.shuffle.prepare_audit()
        return []

    # ---------------------------------------------------------------- own moves

    def act(self, action: int) -> list[Message]:
        """This seat's move: checked in the world, applied, and sent with the keys of the cards it shows."""
        m = self.match
        pack = self._current()
        if m is None or pack is None or not self.playing:
            raise IllegalActionError("no move is possible now: the deal is being dealt or checked")
        if action == NEXT:
            raise IllegalActionError("the next deal starts by itself once both sides have checked this one")
        shown = self._shown_by(m.deal, self.seat, action)
        m.act(self.seat, action)
        keys = []
        for card in shown:
            position = pack.position_of[card]
            if position not in pack.released:
                keys.append([position, pack.shuffle.key(position)])
                pack.released.add(position)
        out: list[Message] = [{"t": "act", "deal": pack.index, "action": action_name(action), "keys": keys}]
        return out + self._after_change()

    def show_hand(self) -> list[Message]:
        """Show this seat's hand to the other: the keys of every card it holds."""
        m = self.match
        pack = self._current()
        if m is None or pack is None or not self.playing:
            raise IllegalActionError("there is no hand to show now")
        mine = [pack.position_of[c] for c in cards_of(m.deal.hands[self.seat])]
        new = [p for p in mine if p not in pack.released]
        pack.released.update(new)
        return [{"t": "show", "deal": pack.index, "keys": [[p, pack.shuffle.key(p)] for p in new]}]

    def _on_show(self, pack: _DealPack, message: Message) -> list[Message]:
        m = self.match
        if m is None or len(m.records) != pack.index + 1 or m.deal.over:
            raise Cheat(self.other, "out_of_turn", "a hand shown while no deal is in play")
        theirs = {pack.position_of[c] for c in cards_of(m.deal.hands[self.other])}
        pairs = self._keys_of(pack, message, theirs - set(pack.shuffle.opened))
        opened = self._open_all(pack, pairs)
        for position, card in opened.items():
            self._place(pack, position, card)
        opened_positions = set(pack.shuffle.opened)
        self.shown_by_other = [c for c in cards_of(m.deal.hands[self.other]) if pack.position_of[c] in opened_positions]
        return []

    @staticmethod
    def _shown_by(deal: Deal, seat: int, action: int) -> list[int]:
        """The cards an action shows to the other seat (before it is applied)."""
        return cards_shown(action, deal.low_trump)

    # ---------------------------------------------------------------- the other's messages

    def receive(self, message: Any) -> list[Message]:
        """Take a message of the other engine; :class:`Cheat` (changing nothing) if it proves a fault."""
        if not (isinstance(message, dict) and isinstance(message.get("t"), str)):
            raise Cheat(self.other, "malformed", "a message that is not one")
        kind = message["t"]
        index = message.get("deal")
        m = self.match
        upcoming = m is not None and not m.finished and index == len(m.records) and first_role_seat(index) != self.seat
        if kind == "shuffle" and upcoming and type(index) is int and index not in self._packs:
            self._begin(index)  # the other began the next deal's pack in its idle time: this seat answers it
        if type(index) is not int or index not in self._packs:
            raise Cheat(self.other, "out_of_turn", f"a {kind} for a deal that is not being played")
        pack = self._packs[index]
        if kind == "shuffle":
            return self._on_shuffle(pack, message)
        if kind == "keys":
            return self._on_keys(pack, message)
        if kind == "act":
            return self._on_act(pack, message)
        if kind == "end":
            return self._on_end(pack, message)
        if kind == "show":
            return self._on_show(pack, message)
        raise Cheat(self.other, "malformed", f"an unknown message {kind!r}")

    def _on_shuffle(self, pack: _DealPack, message: Message) -> list[Message]:
        with self._theirs():
            sent = pack.shuffle.answer(message.get("list"))
        out: list[Message] = []
        if sent is not None:
            out.append({"t": "shuffle", "deal": pack.index, "list": sent})
        if pack.shuffle.ready:
            out += self._deal_out(pack)
        return out

    def _deal_out(self, pack: _DealPack) -> list[Message]:
        """Once the pack is ready and its dealer known: release the other's hand and the trump card."""
        if not pack.shuffle.ready or pack.dealer >= 0:
            return []
        dealer = self._dealer_of(pack.index)
        if dealer is None:
            return []
        pack.dealer = dealer
        return self._release(pack, [*self._hand_positions(dealer, self.other), self._up])

    def _hand_positions(self, dealer: int, seat: int) -> list[int]:
        """The pack positions dealt to ``seat`` when ``dealer`` deals."""
        return self._hands[1 if seat == dealer else 0]

    def _dealer_of(self, index: int) -> int | None:
        """Who deals deal ``index``: known once the deal before it is over (its result is the same in both worlds;
        a world that the end's audit proves false ends the match instead)."""
        m = self.match
        if index == 0:
            return self.first_dealer
        if m is None or m.finished or len(m.records) != index or not m.deal.over:
            return None
        if m.match_over:
            return 1 - m.match_first_dealer
        return m.next_dealer()

    def _release(self, pack: _DealPack, positions: list[int]) -> list[Message]:
        new = [p for p in positions if p not in pack.released]
        if not new:
            return []
        pack.released.update(new)
        return [{"t": "keys", "deal": pack.index, "keys": [[p, pack.shuffle.key(p)] for p in new]}]

    def _keys_of(self, pack: _DealPack, message: Message, allowed: set[int]) -> list[tuple[int, Any]]:
        keys = message.get("keys")
        other = self.other
        if not isinstance(keys, list) or not all(
            isinstance(k, list) and len(k) == 2 and type(k[0]) is int for k in keys
        ):
            raise Cheat(other, "malformed", "keys that are not a list of [position, key]")
        pairs = [(k[0], k[1]) for k in keys]
        for position, _ in pairs:
            if position not in allowed:
                raise Cheat(other, "not_theirs", f"a key for position {position}, which is not due now", position)
        if len({p for p, _ in pairs}) != len(pairs):
            raise Cheat(other, "malformed", "a position keyed twice")
        return pairs

    def _open_all(self, pack: _DealPack, pairs: list[tuple[int, Any]]) -> dict[int, int]:
        with self._theirs():
            return pack.shuffle.open_all(pairs)

    def _due_to_me(self, pack: _DealPack) -> set[int]:
        """Positions whose keys the other owes this seat now (its hand, its draws, the trump card)."""
        m = self.match
        if m is None or len(m.records) <= pack.index:
            if pack.dealer < 0:
                return set()
            return {*self._hand_positions(pack.dealer, self.seat), self._up}
        return set(self.missing_keys())

    def _on_keys(self, pack: _DealPack, message: Message) -> list[Message]:
        pairs = self._keys_of(pack, message, self._due_to_me(pack) - set(pack.shuffle.opened))
        opened = self._open_all(pack, pairs)
        m = self.match
        if m is not None and len(m.records) > pack.index:
            for position, card in opened.items():
                self._place(pack, position, card)
            return []
        return self._maybe_start_deal(pack)

    def _maybe_start_deal(self, pack: _DealPack) -> list[Message]:
        if pack.dealer < 0 or pack.index in (() if self.match is None else range(len(self.match.records))):
            return []
        if pack.index - 1 in self._packs:
            return []  # the deal before is not verified yet: it is, before the next one starts
        if any(p not in pack.shuffle.opened for p in [*self._hand_positions(pack.dealer, self.seat), self._up]):
            return []
        world = self._world_pack(pack)
        if self.match is None:
            self.match = Match(self.rules, 0, dealer=pack.dealer, packs=lambda _: world)
        else:
            self.match.packs = lambda _: world
            self.match.act(self.seat, NEXT)
        return self._after_change()

    def _world_pack(self, pack: _DealPack) -> list[int]:
        """Real cards where this seat has opened a position, unseen cards (fillers) elsewhere."""
        opened = pack.shuffle.opened
        fillers = [c for c in deck_cards(self.rules.deck) if c not in opened.values()]
        world = [opened[p] if p in opened else fillers.pop() for p in range(self.rules.deck)]
        pack.card_at = world
        pack.position_of = {c: p for p, c in enumerate(world)}
        return list(world)

    def _on_act(self, pack: _DealPack, message: Message) -> list[Message]:
        m = self.match
        other = self.other
        if m is None or len(m.records) != pack.index + 1 or m.deal.over:
            raise Cheat(other, "out_of_turn", "a move while no deal is in play")
        try:
            action = parse_action(message.get("action"))
        except ValueError:
            raise Cheat(other, "malformed", "a move that is not an action") from None
        deal = m.deal
        if action == NEXT or (deal.to_act != self.other and action != CLAIM):
            raise Cheat(other, "out_of_turn", f"{action_name(action)} out of turn")
        shown = self._shown_by(deal, self.other, action)
        theirs = {pack.position_of[c] for c in cards_of(deal.hands[self.other])}
        opened = pack.shuffle.opened
        unknown = {c for c in shown if c not in opened.values()}
        for card in shown:
            if card in opened.values() and pack.position_of[card] not in theirs:
                raise Cheat(other, "not_theirs", f"{action_name(action)} shows a card it does not hold")
        pairs = self._keys_of(pack, message, theirs - set(opened))
        if len(pairs) != len(unknown):
            raise Cheat(other, "malformed", f"{action_name(action)} without the keys of the cards it shows")
        snapshot = self._snapshot(pack)
        try:
            new = self._open_all(pack, pairs)
            if set(new.values()) != unknown:
                raise Cheat(other, "wrong_card", f"the keys sent with {action_name(action)} open other cards")
            for position, card in new.items():
                self._place(pack, position, card)
            for card in shown:
                if pack.position_of[card] not in theirs:
                    raise Cheat(other, "not_theirs", f"{action_name(action)} shows a card it does not hold")
            self._make_legal(pack, action)
            m.act(self.other, action)
        except (Cheat, EngineError):
            self._restore(pack, snapshot)
            raise
        return self._after_change()

    def _make_legal(self, pack: _DealPack, action: int) -> None:
        """Arrange the unseen cards so that the other's move is legal, if any world it cannot rule out allows it."""
        m = self.match
        assert m is not None
        deal = m.deal
        other = self.other
        if action in deal.legal_actions(other):
            return
        opened = pack.shuffle.opened
        hidden = {c for c in cards_of(deal.hands[other]) if pack.position_of[c] not in opened}
        talon = {c for c in deal.talon[deal.talon_pos :] if pack.position_of[c] not in opened}
        seen = deal.hands[other] & ~sum(1 << c for c in hidden)
        forbidden = revealed_voids(deal, other)
        for card in hidden | talon:
            trial = deal.clone()
            trial.hands[other] = seen | 1 << card
            if action not in trial.legal_actions(other):
                forbidden |= 1 << card
        trial = deal.clone()
        trial.hands[other] = seen
        why = deal.why_illegal(other, action)
        if action not in trial.legal_actions(other):
            raise Cheat(self.other, "illegal", f"{action_name(action)}: {why}")
        bad = sorted(c for c in hidden if forbidden >> c & 1)
        spare = sorted(c for c in talon if not forbidden >> c & 1)
        if len(spare) < len(bad):
            raise Cheat(self.other, "illegal", f"{action_name(action)}: {why}")
        for card, filler in zip(bad, spare, strict=False):
            self._swap(pack, card, filler)
        if action not in deal.legal_actions(other):
            raise Cheat(self.other, "illegal", f"{action_name(action)}: {why}")

    def _after_change(self) -> list[Message]:
        """Release what the other is now owed; at the deal's end, every key."""
        m = self.match
        assert m is not None
        index = len(m.records) - 1
        pack = self._packs[index]
        out: list[Message] = []
        if not m.deal.over:
            theirs = [pack.position_of[c] for c in cards_of(m.deal.hands[self.other])]
            out += self._release(pack, theirs)
        elif not pack.sent_end:
            pack.sent_end = True
            out.append({"t": "end", "deal": index, "keys": pack.shuffle.keys().to_json()})
            nxt = self._packs.get(index + 1)
            if nxt is not None:
                out += self._deal_out(nxt)  # the next hand's keys with this deal's: one trip between deals, not three
            out += self._verify(pack)
        return out

    def _on_end(self, pack: _DealPack, message: Message) -> list[Message]:
        m = self.match
        if m is None or len(m.records) != pack.index + 1 or not m.deal.over or pack.their_end is not None:
            raise Cheat(self.other, "out_of_turn", "keys of a deal that is not over")
        with self._theirs():
            pack.their_end = Keys.from_json(message.get("keys"), self.rules.deck, self.other)
        return self._verify(pack)

    def _verify(self, pack: _DealPack) -> list[Message]:
        """Both sides' keys in hand: check the other's shuffle, replay the deal with every card, go on."""
        if not pack.sent_end or pack.their_end is None:
            return []
        m = self.match
        assert m is not None
        try:
            with self._theirs():
                real = pack.shuffle.audit(pack.their_end)
        except Cheat:
            pack.their_end = None
            raise
        record = m.records[-1]
        replay = Deal(self.rules, real, record.dealer, log=[])
        for seat, action in record.actions:
            try:
                replay.apply_checked(seat, action)
            except EngineError as e:
                pack.their_end = None
                raise Cheat(seat, "illegal", f"{action_name(action)}: {e}") from None
        assert replay.result == m.deal.result
        self._adopt(real, replay)
        del self._packs[pack.index]
        self.verified += 1
        if self.on_verified is not None:
            self.on_verified(pack.index, real)
        if m.finished:
            return []
        nxt = self._packs.get(pack.index + 1)
        out = self._begin(pack.index + 1) if nxt is None else []
        return out + self._deal_out(self._packs[pack.index + 1]) + self._maybe_start_deal(self._packs[pack.index + 1])

    def _adopt(self, real: list[int], replay: Deal) -> None:
        """The verified deal replaces the world's: its pack, its events, its final state."""
        m = self.match
        assert m is not None and replay.log is not None
        m.records[-1].deck = real
        start = ev.deal_start(m.events)
        end = next(i for i in range(start, len(m.events)) if isinstance(m.events[i], ev.DealEnd))
        m.events[start : end + 1] = replay.log
        replay.log = m.events
        if replay.shots is not None:  # its copies after each event, by the events' places in the match's log
            replay.shots = {start + i: shot for i, shot in replay.shots.items()}
        m.deal = replay

    @contextmanager
    def _theirs(self) -> Iterator[None]:
        """A fault the pack finds is the other seat's: this seat's own steps are honest."""
        try:
            yield
        except Cheat as c:
            raise Cheat(self.other, c.what, c.detail, c.position) from None

    # ---------------------------------------------------------------- the world

    def _place(self, pack: _DealPack, position: int, card: int) -> None:
        """The real card of an opened position takes its place in the world."""
        filler = pack.card_at[position]
        if filler != card:
            self._swap(pack, card, filler)

    def _swap(self, pack: _DealPack, a: int, b: int) -> None:
        """Two cards of unseen positions change places in the world (its hands, talon, pack and log)."""
        pa, pb = pack.position_of[a], pack.position_of[b]
        pack.card_at[pa], pack.card_at[pb] = b, a
        pack.position_of[a], pack.position_of[b] = pb, pa
        m = self.match
        assert m is not None
        deal = m.deal

        def swapped(c: int) -> int:
            return b if c == a else a if c == b else c

        both = 1 << a | 1 << b
        for s in (0, 1):
            if bin(deal.hands[s] & both).count("1") == 1:
                deal.hands[s] ^= both
        deal.talon = tuple(swapped(c) for c in deal.talon)
        for shot in (deal.shots or {}).values():  # the deal's copies after its events, which the frames show
            for s in (0, 1):
                if bin(shot.hands[s] & both).count("1") == 1:
                    shot.hands[s] ^= both
            shot.talon = tuple(swapped(c) for c in shot.talon)
        record = m.records[-1]
        record.deck = [swapped(c) for c in record.deck]
        for i in range(ev.deal_start(m.events), len(m.events)):
            e = m.events[i]
            if isinstance(e, ev.DealStarted):
                hands = tuple(h ^ both if bin(h & both).count("1") == 1 else h for h in e.hands)
                m.events[i] = ev.DealStarted(e.dealer, e.trump_card, (hands[0], hands[1]))
            elif isinstance(e, ev.Draw) and e.card in (a, b):
                m.events[i] = ev.Draw(e.seat, swapped(e.card), e.face_up)

    def _snapshot(self, pack: _DealPack) -> tuple[Any, ...]:
        m = self.match
        assert m is not None
        d = m.deal
        return (
            list(pack.card_at),
            dict(pack.position_of),
            dict(pack.shuffle.opened),
            d.hands[:],
            d.talon,
            list(m.records[-1].deck),
            list(m.events),
            {i: (shot.hands[:], shot.talon) for i, shot in (d.shots or {}).items()},
        )

    def _restore(self, pack: _DealPack, snapshot: tuple[Any, ...]) -> None:
        m = self.match
        assert m is not None
        card_at, position_of, opened, hands, talon, deck, events, shots = snapshot
        pack.card_at, pack.position_of = card_at, position_of
        pack.shuffle.opened.clear()
        pack.shuffle.opened.update(opened)
        m.deal.hands[:] = hands
        m.deal.talon = talon
        m.records[-1].deck = deck
        m.events[:] = events
        for i, (shot_hands, shot_talon) in shots.items():
            shot = (m.deal.shots or {})[i]
            shot.hands[:], shot.talon = shot_hands, shot_talon
