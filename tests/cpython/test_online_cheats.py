"""Two engines, each holding only its seat's cards, play whole matches; every cheat of either seat is caught.

The channel is :mod:`lab.online_sim`'s: messages as JSON text, in
order. A cheater is a seat whose messages the test rewrites, or whose engine
skips its own checks (:class:`Cheater`); each cheat is tried by seat 0 (who
opened the room) and by seat 1, and must be attributed to it, at once where
the information allows, else when the deal ends, with nothing changed for
the honest seat.
"""

from __future__ import annotations

import gc
import random
from collections.abc import Callable
from types import FunctionType, ModuleType
from typing import Any

import pytest

from lab.online_sim import Channel, new_channel, random_move, run
from py_engine.core.actions import CLAIM, EXCHANGE, MARRY, action_name
from py_engine.core.cards import SUIT_MASK, cards_of
from py_engine.core.deal import Deal
from py_engine.core.rules import PRESET_IDS, PRESETS
from py_engine.fairplay.pack import Cheat, Shuffle, scalar_hex
from py_engine.service.online.referee import Message, Referee
from py_engine.service.record import load_record


def honest_state(referee: Referee) -> Any:
    m = referee.match
    if m is None:
        return None
    return (m.record(), m.deal.hands[:], m.deal.talon, list(m.events), m.deal.to_act)


@pytest.mark.parametrize("preset", PRESET_IDS)
def test_two_engines_play_a_deal_on_every_preset(preset: str) -> None:
    """A whole deal, verified by both (whole matches on every preset: python -m lab.online_sim)."""
    seed = 100 + PRESET_IDS.index(preset)
    channel = new_channel(PRESETS[preset], seed)
    verified: list[int] = []
    channel.seats[0].on_verified = lambda index, pack: verified.append(index)
    rng = random.Random(seed)
    play_until(channel, rng, lambda: bool(verified) and all(s.playing for s in channel.seats))
    a, b = (s.match for s in channel.seats)
    assert a is not None and b is not None
    assert a.records[0].deck == b.records[0].deck and a.records[0].actions == b.records[0].actions
    assert load_record({**a.record(), "deals": a.record()["deals"][:1]}).scores == [s for s in a.scores]


# ------------------------------------------------------------------ what each engine holds


def _reachable(root: object) -> tuple[set[int], set[str]]:
    """Every int and str reachable from ``root`` (through containers, instances and closures)."""
    seen: set[int] = set()
    ints: set[int] = set()
    texts: set[str] = set()
    stack = [root]
    while stack:
        obj = stack.pop()
        if id(obj) in seen or isinstance(obj, type | ModuleType):
            continue
        seen.add(id(obj))
        if isinstance(obj, bool):
            continue
        if isinstance(obj, int):
            ints.add(obj)
            continue
        if isinstance(obj, str):
            texts.add(obj)
            continue
        if isinstance(obj, FunctionType) and obj.__module__ not in ("py_engine.service.online.referee", __name__):
            continue
        stack.extend(gc.get_referents(obj))
    return ints, texts


def _entitled(referee: Referee, other: Referee, index: int) -> set[int]:
    """The positions ``referee``'s seat may have seen in deal ``index``, from the real deal (both keys)."""
    mine, theirs = referee._packs[index].shuffle, other._packs[index].shuffle
    if not mine.ready or referee.match is None or len(referee.match.records) <= index:
        return set(range(len(mine.cards)))  # checked separately: nothing opened before the deal starts
    from py_engine.fairplay.pack import Keys  # the test alone holds both sides' keys

    real = mine.audit(Keys(theirs.keys().deal, theirs.keys().positions))
    record = referee.match.records[index]
    deal = Deal(referee.rules, real, record.dealer, log=[])
    for seat, action in record.actions:
        deal.apply(action, seat)
    info = deal.info_state(referee.seat, story=False)
    up = 1 << deal.upcard if deal.upcard >= 0 else 0
    shown = info.hand | info.played | info.opponent_known | up | deal.known[referee.seat]
    return {real.index(c) for c in cards_of(shown)}


def test_neither_engine_ever_holds_a_key_its_seat_may_not_use() -> None:
    """At every step of a match, walk everything each engine can reach: no key of the other seat opens a
    position it may not see, and nothing it has opened is a card it may not see."""
    channel = new_channel(PRESETS["HU24"], 11)
    checks = [0]

    def step() -> None:
        for seat in (0, 1):
            me, other = channel.seats[seat], channel.seats[1 - seat]
            ints, texts = _reachable(me)
            for index, pack in list(me._packs.items()):
                if index not in other._packs:
                    continue
                their_keys = other._packs[index].shuffle.keys()
                ended = pack.their_end is not None
                allowed = set(range(len(pack.shuffle.cards))) if ended else _entitled(me, other, index)
                assert set(pack.shuffle.opened) <= allowed
                for position, key in enumerate(their_keys.positions):
                    if position not in allowed:
                        assert key not in ints and scalar_hex(key) not in texts, (seat, index, position)
                if not ended:
                    assert their_keys.deal not in ints
            checks[0] += 1

    run(channel, random.Random(11), step=step)
    assert channel.seats[0].match is not None and channel.seats[0].match.finished
    assert checks[0] > 50


# ------------------------------------------------------------------ cheats


class Cheater(Referee):
    """A seat whose engine skips its own checks: it sends whatever move it is told, with its keys."""

    def force(self, action: int, keys: list[list[Any]] | None = None) -> list[Message]:
        m = self.match
        assert m is not None
        pack = self._current()
        assert pack is not None
        if keys is None:
            keys = []
            for card in self._shown_by(m.deal, self.seat, action):
                position = pack.position_of[card]
                if position not in pack.released:
                    keys.append([position, pack.shuffle.key(position)])
                    pack.released.add(position)
        m.apply_fast(self.seat, action)
        message: Message = {"t": "act", "deal": pack.index, "action": action_name(action), "keys": keys}
        return [message, *self._after_change()]


def cheating_channel(preset: str, seed: int, cheater: int, kind: type[Cheater] | None = None) -> Channel:
    """A channel whose seat ``cheater`` is a :class:`Cheater` (or ``kind``), taking over the honest engine's state."""
    channel = new_channel(PRESETS[preset], seed)
    old = channel.seats[cheater]
    forger = (kind or Cheater)(cheater, old.rules, old.match_id, old.first_dealer, random.Random(seed).randbytes(32))
    forger._packs, forger.match = old._packs, old.match
    seats = list(channel.seats)
    seats[cheater] = forger
    channel.seats = (seats[0], seats[1])
    return channel


def caught(channel: Channel, cheater: int, action: Callable[[], None]) -> Cheat:
    """Run ``action`` (which makes the cheater send something); the honest seat must refuse it, unchanged."""
    honest = channel.seats[1 - cheater]
    while channel.deliver():  # what is already in flight is honest: hand it over first
        pass
    before = honest_state(honest)
    action()
    with pytest.raises(Cheat) as raised:
        channel.deliver()
    assert raised.value.by == cheater
    assert honest_state(honest) == before
    return raised.value


def play_until(channel: Channel, rng: random.Random, done: Callable[[], bool], limit: int = 5000) -> None:
    for _ in range(limit):
        if done():
            return
        moved = channel.deliver()
        for seat in (0, 1):
            action = random_move(channel.seats[seat], rng)
            if action is not None and not done():
                channel.post(seat, channel.seats[seat].act(action))
                moved = True
                break
        if not moved:
            break
    assert done(), "the position was not reached"


def to_move(channel: Channel, seat: int) -> Callable[[], bool]:
    def done() -> bool:
        referee = channel.seats[seat]
        return referee.playing and referee.match is not None and referee.match.deal.to_act == seat

    return done


SEATS = [0, 1]


@pytest.mark.parametrize("cheater", SEATS)
def test_a_stacked_pack_is_caught_at_once(cheater: int) -> None:
    def stack(seat: int, message: Message) -> Message:
        if seat == cheater and message["t"] == "shuffle":
            entries = message["list"]
            return {**message, "list": [entries[0], *entries[:-1]]}  # the first card twice, the last gone
        return message

    channel = new_channel(PRESETS["AT20"], 21, tamper=stack)
    with pytest.raises(Cheat) as raised:
        run(channel, random.Random(21))
    assert (raised.value.by, raised.value.what) == (cheater, "duplicate")
    assert channel.seats[1 - cheater].match is None


@pytest.mark.parametrize("cheater", SEATS)
def test_a_second_shuffle_of_the_same_deal_is_refused(cheater: int) -> None:
    """Grinding: a seat that shuffles again, hoping for a better pack, is refused."""
    channel = new_channel(PRESETS["HU24"], 22)
    while channel.seats[0].match is None:
        channel.deliver()
    shuffle = channel.seats[cheater]._packs[0].shuffle
    again = Shuffle(shuffle.role, shuffle.cards, shuffle.context, random.Random(5))
    sent = again.start() if shuffle.role == 0 else list(shuffle.steps.lists[1])
    cheat = caught(channel, cheater, lambda: channel.post(cheater, [{"t": "shuffle", "deal": 0, "list": sent}]))
    assert cheat.what in ("out_of_turn", "replayed")


@pytest.mark.parametrize("cheater", SEATS)
def test_a_false_key_is_caught_at_once(cheater: int) -> None:
    channel = new_channel(PRESETS["DE24"], 23)
    rng = random.Random(23)
    play_until(channel, rng, lambda: bool(channel.seats[0].match and channel.seats[0].match.deal.tricks_done == 1))
    honest = channel.seats[1 - cheater]

    def falsify(seat: int, message: Message) -> Message:
        if seat == cheater and message["t"] == "keys":
            position, key = message["keys"][0]
            falsified.append((message["deal"], position))
            return {**message, "keys": [[position, scalar_hex(int.from_bytes(bytes.fromhex(key), "little") + 1)]]}
        return message

    falsified: list[tuple[int, int]] = []
    channel.tamper = falsify
    with pytest.raises(Cheat) as raised:
        play_until(channel, rng, lambda: False, limit=200)
    assert (raised.value.by, raised.value.what) == (cheater, "false_key")
    index, position = falsified[-1]
    assert raised.value.position == position
    assert position not in honest._packs[index].shuffle.opened


@pytest.mark.parametrize("cheater", SEATS)
@pytest.mark.parametrize("when", ["dealing", "drawing"])
def test_a_withheld_key_stops_the_honest_seat_without_opening_anything(cheater: int, when: str) -> None:
    """The honest seat waits (the 60 s rule of the session takes it from there) and plays no card it lacks."""
    channel = new_channel(PRESETS["AT20"], 24)
    rng = random.Random(24)
    if when == "drawing":
        play_until(channel, rng, lambda: bool(channel.seats[0].match and channel.seats[0].match.deal.tricks_done))
    original = channel.post
    withheld: list[Message] = []

    def post(seat: int, messages: list[Message]) -> None:
        if seat == cheater:  # from its first withheld key on, the cheater's page says nothing more
            for i, message in enumerate(messages):
                if withheld or message["t"] == "keys":
                    withheld.extend(m for m in messages[i:] if m["t"] == "keys")
                    messages = messages[:i]
                    break
        original(seat, messages)

    channel.post = post  # type: ignore[method-assign]
    run(channel, rng)  # runs until nothing more can happen
    honest = channel.seats[1 - cheater]
    assert withheld
    for message in withheld:
        pack = honest._packs.get(message["deal"])
        assert pack is None or not {p for p, _ in message["keys"]} & set(pack.shuffle.opened)
    if when == "dealing":
        assert honest.match is None
    else:
        assert honest.missing_keys() or not honest.playing or honest.match.deal.to_act == cheater


@pytest.mark.parametrize("cheater", SEATS)
def test_a_card_from_a_position_the_seat_does_not_hold_is_caught_at_once(cheater: int) -> None:
    channel = cheating_channel("HU24", 25, cheater)
    rng = random.Random(25)
    play_until(channel, rng, to_move(channel, cheater))
    forger = channel.seats[cheater]
    assert isinstance(forger, Cheater) and forger.match is not None
    pack = forger._current()
    assert pack is not None
    deal = forger.match.deal
    card = next(iter(cards_of(deal.hands[cheater])))
    talon_position = pack.position_of[deal.talon[-1]]  # a face-down card: its own key, not in its hand
    cheat = caught(
        channel,
        cheater,
        lambda: channel.post(cheater, forger.force(card, keys=[[talon_position, pack.shuffle.key(talon_position)]])),
    )
    assert cheat.what == "not_theirs"


@pytest.mark.parametrize("cheater", SEATS)
def test_a_false_marriage_or_exchange_is_caught_at_once(cheater: int) -> None:
    tried = set()
    for seed in range(26, 60):
        if len(tried) == 2:
            break
        what = MARRY if seed % 2 == 0 else EXCHANGE
        channel = cheating_channel("HU24", seed, cheater)
        rng = random.Random(seed)

        def ready(channel: Channel = channel) -> bool:
            referee = channel.seats[cheater]
            return bool(
                to_move(channel, cheater)()
                and referee.match is not None
                and referee.match.deal.tricks_done >= 1
                and referee.match.deal.talon_open
                and referee.match.deal.lead < 0
            )

        try:
            play_until(channel, rng, ready)
        except AssertionError:
            continue
        forger = channel.seats[cheater]
        assert isinstance(forger, Cheater) and forger.match is not None
        deal = forger.match.deal
        pack = forger._current()
        assert pack is not None
        hand = list(cards_of(deal.hands[cheater]))
        if what == MARRY:
            suit = next(s for s in range(4) if deal.hands[cheater] & SUIT_MASK[s] != SUIT_MASK[s])
            action = MARRY + suit
            if all(c in hand for c in (suit * 6 + 2, suit * 6 + 3)):
                continue
            decoys = hand[:2]
        else:
            if deal.low_trump in hand or deal.upcard == deal.low_trump:
                continue
            action, decoys = EXCHANGE, hand[:1]
        keys = [[pack.position_of[c], pack.shuffle.key(pack.position_of[c])] for c in decoys]
        message: Message = {"t": "act", "deal": pack.index, "action": action_name(action), "keys": keys}
        cheat = caught(channel, cheater, lambda message=message, channel=channel: channel.post(cheater, [message]))
        assert cheat.what in ("wrong_card", "not_theirs"), cheat.what
        tried.add(what)
    assert tried == {MARRY, EXCHANGE}


@pytest.mark.parametrize("cheater", SEATS)
def test_a_claim_out_of_its_window_or_a_move_out_of_turn_is_caught_at_once(cheater: int) -> None:
    channel = new_channel(PRESETS["HU24"], 27)  # manual claims: a claim needs an open window
    rng = random.Random(27)
    play_until(channel, rng, to_move(channel, 1 - cheater))
    referee = channel.seats[cheater]
    assert referee.match is not None
    index = len(referee.match.records) - 1
    for action in (CLAIM, next(iter(cards_of(referee.match.deal.hands[cheater])))):
        if action == CLAIM and referee.match.deal.windows >> cheater & 1:
            continue
        message: Message = {"t": "act", "deal": index, "action": action_name(action), "keys": []}
        cheat = caught(channel, cheater, lambda message=message: channel.post(cheater, [message]))
        assert cheat.what in ("out_of_turn", "illegal", "malformed")


class Revoker(Cheater):
    """Under the strict rules, answers with a card of another suit while holding the led suit."""

    revoked = 0

    def revoke(self) -> list[Message] | None:
        m = self.match
        if m is None or not self.playing or m.deal.to_act != self.seat or m.deal.lead < 0 or not m.deal.strict:
            return None
        hand = m.deal.hands[self.seat]
        led = SUIT_MASK[m.deal.lead // 6]
        off = hand & ~led
        if not hand & led or not off:
            return None
        self.revoked += 1
        return self.force(next(iter(cards_of(off))))


@pytest.mark.parametrize("cheater", SEATS)
def test_a_revoke_is_caught_at_once_or_when_the_deal_ends(cheater: int) -> None:
    at_once = at_end = 0
    for seed in range(30, 60):
        channel = cheating_channel("AT20", seed, cheater, Revoker)
        revoker = channel.seats[cheater]
        assert isinstance(revoker, Revoker)
        channel.order = (1 - cheater, cheater)  # the honest seat reads first: it must be the one to catch it
        rng = random.Random(seed)
        try:
            for _ in range(3000):
                moved = channel.deliver()
                forged = revoker.revoke()
                if forged is not None:
                    channel.post(cheater, forged)
                    channel.deliver()
                    continue
                for seat in (0, 1):
                    action = random_move(channel.seats[seat], rng)
                    if action is not None:
                        channel.post(seat, channel.seats[seat].act(action))
                        moved = True
                        break
                if not moved:
                    break
        except Cheat as cheat:
            assert cheat.by == cheater and cheat.what == "illegal", cheat.what
            honest = channel.seats[1 - cheater]
            assert honest.match is not None
            if honest.match.deal.over:
                at_end += 1
            else:
                at_once += 1
            continue
        assert revoker.revoked == 0, "a revoke went unnoticed"
        if at_once and at_end:
            break
    assert at_once and at_end, (at_once, at_end)


@pytest.mark.parametrize("cheater", SEATS)
def test_false_keys_at_the_end_of_the_deal_are_caught_then(cheater: int) -> None:
    channel = new_channel(PRESETS["RO20"], 28)
    rng = random.Random(28)

    def falsify(seat: int, message: Message) -> Message:
        if seat == cheater and message["t"] == "end":
            keys = message["keys"]
            return {**message, "keys": {**keys, "positions": [keys["positions"][1], *keys["positions"][1:]]}}
        return message

    channel.tamper = falsify
    with pytest.raises(Cheat) as raised:
        run(channel, rng)
    assert raised.value.by == cheater and raised.value.what in ("bad_rekey", "key_changed")
    honest = channel.seats[1 - cheater]
    assert honest.match is not None and honest.match.deal.over and len(honest.match.records) == 1
