"""The shared pack: ristretto255 and the two-party shuffle, honest and cheated (each cheat by either side)."""

from __future__ import annotations

import hashlib
import random
from collections.abc import Callable

import pytest

from py_engine.core.cards import deck_cards
from py_engine.fairplay import group
from py_engine.fairplay import pack as pack_module
from py_engine.fairplay.pack import FIRST, SECOND, Cheat, Keys, Shuffle, context_of, scalar_hex

# Multiples of the generator (RFC 9496, A.1; computed again by libsodium).
BASE_MULTIPLES = {
    1: "e2f2ae0a6abc4e71a884a961c500515f58e30b6aa582dd8db6a65945e08d2d76",
    2: "6a493210f7499cd17fecb510ae0cea23a110e8d5b901f8acadd3095c73a3b919",
    3: "94741f5d5d52755ece4f23f044ee27d5d1ea1e2bd196b462166b16152a9d0259",
    4: "da80862773358b466ffadfe0b3293ab3d9fd53c5ea6c955358f568322daf6a57",
    5: "e882b131016b52c1d3337080187cf768423efccbb517bb495ab812c4160ff44e",
}
# crypto_core_ristretto255_from_hash(SHA-512(label)), by libsodium.
FROM_HASH = {
    b"ace of hearts": "c4fe418c45f0d1ae5519f3c6f68d61d0a85e2f9c0c6e0749634645340d91a47c",
    b"nine of spades": "c89aea46973f29decda62f2dc1a9477c58688b8d0b34876c0f39e8463d14fb52",
    b"": "8472865eba3c2c54e55e71e4ae6b1f88c6e8a8e44c493b59bc46b835e168681d",
}


def test_group_matches_the_reference_vectors() -> None:
    for k, encoded in BASE_MULTIPLES.items():
        assert group.encode(group.multiply(k, group.BASE)).hex() == encoded
        assert group.equal(group.decode(bytes.fromhex(encoded)), group.multiply(k, group.BASE))
    for label, encoded in FROM_HASH.items():
        assert group.encode(group.from_uniform_bytes(hashlib.sha512(label).digest())).hex() == encoded
    assert group.encode(group.multiply(group.ORDER, group.BASE)) == bytes(32)


def test_group_refuses_what_encodes_no_element() -> None:
    p = group.P.to_bytes(32, "little")
    for bad in (p, (1).to_bytes(32, "little"), b"\xff" * 32, b"\x00" * 31):
        with pytest.raises(group.NotAnElement):
            group.decode(bad)


def test_multiplication_commutes() -> None:
    rng = random.Random(3)
    point = group.hash_to_element(b"card")
    a, b = rng.randrange(1, group.ORDER), rng.randrange(1, group.ORDER)
    ab = group.multiply(a, group.multiply(b, point))
    assert group.encode(ab) == group.encode(group.multiply(b, group.multiply(a, point)))
    assert group.encode(group.multiply(pow(a * b, -1, group.ORDER), ab)) == group.encode(point)


Hook = Callable[[int, list[str]], list[str]]


def shuffle_pair(
    size: int,
    seed: int,
    *,
    deal: int = 1,
    tamper: Hook | None = None,
    side: type[Shuffle] = Shuffle,
    cheater: int = -1,
    cards: list[int] | None = None,
) -> tuple[Shuffle, Shuffle]:
    """Two sides through the four steps; ``tamper(step, list)`` rewrites what the cheater sends."""
    cards = cards or deck_cards(size)
    context = context_of("test match", deal)
    rng = random.Random(seed)
    sides = [
        (side if role == cheater else Shuffle)(role, cards, context, random.Random(rng.getrandbits(64)))
        for role in (FIRST, SECOND)
    ]
    message: list[str] | None = sides[FIRST].start()
    step, sender = 1, FIRST
    while message is not None:
        if tamper is not None and sender == cheater:
            message = tamper(step, message)
        sender = 1 - sender
        message = sides[sender].answer(message)
        step += 1
    return sides[FIRST], sides[SECOND]


@pytest.mark.parametrize("size", [20, 24])
def test_honest_sides_agree_on_one_pack_that_each_opens_in_part(size: int) -> None:
    for seed in range(1):
        first, second = shuffle_pair(size, seed)
        assert [group.encode(p) for p in first.deck] == [group.encode(p) for p in second.deck]
        mine = [first.open(i, second.key(i)) for i in range(0, size, 2)]
        theirs = [second.open(i, first.key(i)) for i in range(1, size, 2)]
        pack = first.audit(second.keys())
        assert pack == second.audit(first.keys())
        assert sorted(pack) == deck_cards(size)
        assert pack[0::2] == mine and pack[1::2] == theirs


def test_the_pack_is_steered_by_neither_side_alone() -> None:
    """Either side shuffling honestly makes the pack uniform, whatever the other chose (a pack of 6, for speed)."""
    cards = deck_cards(24)[:6]

    class Stacker(Shuffle):  # never shuffles: keeps its input's order
        def _encrypt_and_shuffle(self, points: list[group.Point]) -> list[str]:  # type: ignore[override]
            self._order = list(range(self.size))
            sent = [group.encode(group.multiply(self._deal_key, p)).hex() for p in points]
            self._lists.append(tuple(sent))
            return sent

    for cheater in (FIRST, SECOND):
        at_top = 0
        runs = 40
        for seed in range(runs):
            first, second = shuffle_pair(6, 1000 + seed, side=Stacker, cheater=cheater, cards=cards)
            at_top += first.open(0, second.key(0)) == cards[0]
        # Uniform: the ace of hearts on top 1 time in 6 (7 of 40); the stacker alone would put it there always.
        assert 1 <= at_top <= 16, (cheater, at_top)


def test_a_key_of_one_deal_opens_nothing_in_another() -> None:
    _, second1 = shuffle_pair(20, 1, deal=1)
    first2, _ = shuffle_pair(20, 2, deal=2)  # fresh keys every deal
    with pytest.raises(Cheat) as caught:
        first2.open(0, second1.key(0))
    assert caught.value.what == "false_key" and caught.value.by == SECOND


def _caught(action: Callable[[], object]) -> Cheat:
    with pytest.raises(Cheat) as caught:
        action()
    return caught.value


@pytest.mark.parametrize("cheater", [FIRST, SECOND])
def test_a_duplicated_card_is_caught_at_once(cheater: int) -> None:
    """Stacking by copying a card (two equal ciphertexts) is refused on receipt, and nothing is kept."""

    def copy_one(step: int, sent: list[str]) -> list[str]:
        return [sent[0], *sent[:-1]] if step <= 2 else sent

    cheat = _caught(lambda: shuffle_pair(20, 5, tamper=copy_one, cheater=cheater))
    assert (cheat.by, cheat.what) == (cheater, "duplicate")


@pytest.mark.parametrize("cheater", [FIRST, SECOND])
@pytest.mark.parametrize("step_offset", [0, 2])
def test_a_foreign_entry_is_caught_when_opened_or_at_the_audit(cheater: int, step_offset: int) -> None:
    """A card replaced by an element of the cheater's choosing (a shuffle or a re-keying step)."""
    step = cheater + 1 + step_offset
    forged = group.encode(group.hash_to_element(b"a card of my own")).hex()

    def replace_first(at: int, sent: list[str]) -> list[str]:
        return [forged, *sent[1:]] if at == step else sent

    first, second = shuffle_pair(20, 9, tamper=replace_first, cheater=cheater)
    sides = (first, second)
    honest = sides[1 - cheater]
    opened = []
    for position in range(20):
        try:
            opened.append(honest.open(position, sides[cheater].key(position)))
        except Cheat as cheat:  # caught at once: the forged entry reached a position the honest side opened
            assert (cheat.by, cheat.what) == (cheater, "false_key")
            assert position not in honest.opened
            break
    else:
        pytest.fail("every position opened to a card")
    # And at the audit, from the cheater's released keys.
    cheat = _caught(lambda: honest.audit(sides[cheater].keys()))
    assert cheat.by == cheater and cheat.what in ("bad_shuffle", "bad_rekey")


@pytest.mark.parametrize("cheater", [FIRST, SECOND])
def test_a_false_key_is_caught_at_once(cheater: int) -> None:
    first, second = shuffle_pair(24, 4)
    sides = (first, second)
    honest = sides[1 - cheater]
    wrong = scalar_hex(int.from_bytes(bytes.fromhex(sides[cheater].key(3)), "little") + 1)
    cheat = _caught(lambda: honest.open(3, wrong))
    assert (cheat.by, cheat.what, cheat.position) == (cheater, "false_key", 3)
    assert honest.opened == {}
    assert _caught(lambda: honest.open(3, "zz" * 32)).what == "malformed"
    assert honest.open(3, sides[cheater].key(3)) in deck_cards(24)  # the true key still opens it


@pytest.mark.parametrize("cheater", [FIRST, SECOND])
def test_false_keys_released_at_the_end_are_caught(cheater: int) -> None:
    first, second = shuffle_pair(24, 6)
    sides = (first, second)
    honest = sides[1 - cheater]
    honest.open(2, sides[cheater].key(2))
    true = sides[cheater].keys()
    bad_deal = Keys(true.deal + 1, true.positions)
    assert _caught(lambda: honest.audit(bad_deal)).what == "bad_shuffle"
    swapped = Keys(true.deal, (true.positions[1], true.positions[0], *true.positions[2:]))
    assert _caught(lambda: honest.audit(swapped)).what == "bad_rekey"
    changed = Keys(true.deal, (*true.positions[:2], true.positions[2] + 1, *true.positions[3:]))
    cheat = _caught(lambda: honest.audit(changed))
    assert cheat.by == cheater and cheat.what == "bad_rekey"
    assert _caught(lambda: Keys.from_json({"deal": "00" * 32}, 24, cheater)).what == "malformed"
    assert sorted(honest.audit(Keys.from_json(true.to_json(), 24, cheater))) == deck_cards(24)


def test_a_combination_is_the_sum_of_its_multiples() -> None:
    rng = random.Random(5)
    points = [group.hash_to_element(bytes([i])) for i in range(9)]
    scalars = [rng.randrange(group.ORDER) for _ in range(6)] + [0, 1, rng.getrandbits(128)]
    expected = group.IDENTITY
    for k, p in zip(scalars, points, strict=True):
        expected = group.add(expected, group.multiply(k, p))
    assert group.encode(group.combination(list(zip(scalars, points, strict=True)))) == group.encode(expected)
    assert group.equal(group.combination([]), group.IDENTITY)


@pytest.mark.parametrize("cheater", [FIRST, SECOND])
def test_the_audit_checks_both_steps_at_once_and_names_a_fault_entry_by_entry(
    cheater: int, monkeypatch: pytest.MonkeyPatch
) -> None:
    first, second = shuffle_pair(20, 4)
    sides = (first, second)
    honest = sides[1 - cheater]
    true = sides[cheater].keys()
    assert true.order is not None
    each: list[int] = []  # calls of the entry-by-entry check
    by_entry = pack_module._verify_each
    monkeypatch.setattr(pack_module, "_verify_each", lambda *args: each.append(1) or by_entry(*args))
    unordered = Keys(true.deal, true.positions)
    expected = honest.audit(unordered)
    assert len(each) == 1
    assert honest.audit(true) == expected and len(each) == 1  # with the order: one sum per step
    # A false order only costs time: the check entry by entry still finds the pack.
    rotated = Keys(true.deal, true.positions, (*true.order[1:], true.order[0]))
    assert honest.audit(rotated) == expected and len(each) == 2
    # False keys with the true order fail the sums, and the check entry by entry names the fault.
    changed = (*true.positions[:5], true.positions[5] + 1, *true.positions[6:])
    for keys, what in (
        (Keys(true.deal + 1, true.positions, true.order), "bad_shuffle"),
        (Keys(true.deal, changed, true.order), "bad_rekey"),
    ):
        calls = len(each)
        cheat = _caught(lambda keys=keys: honest.audit(keys))
        assert (cheat.by, cheat.what, len(each)) == (cheater, what, calls + 1)
    assert Keys.from_json(true.to_json(), 20, cheater) == true
    for order in ([0] * 20, list(range(19)), [True if i == 1 else i for i in range(20)], "0 1 2", None):
        bad = {**true.to_json(), "order": order}
        assert _caught(lambda bad=bad: Keys.from_json(bad, 20, cheater)).what == "malformed"


@pytest.mark.parametrize("cheater", [FIRST, SECOND])
def test_a_step_malformed_replayed_or_out_of_turn_is_refused_and_changes_nothing(cheater: int) -> None:
    cards = deck_cards(20)
    context = context_of("m", 1)
    first = Shuffle(FIRST, cards, context, random.Random(1))
    second = Shuffle(SECOND, cards, context, random.Random(2))
    honest = (first, second)[1 - cheater]
    step1 = first.start()
    step2 = second.answer(step1)
    assert step2 is not None
    sent_by_cheater = step1 if cheater == FIRST else step2
    before = honest.steps.lists
    bad_lists = [
        sent_by_cheater[:-1],
        [*sent_by_cheater[:-1], "00" * 31],
        [*sent_by_cheater[:-1], "00" * 32],  # the identity
        [*sent_by_cheater[:-1], "ff" * 32],  # no element
        "text",
        None,
        [[0]] * 20,  # entries that are not text (and not hashable)
        step1 if cheater == SECOND else step2,  # the honest side's own list sent back
    ]
    for bad in bad_lists:
        cheat = _caught(lambda bad=bad: honest.answer(bad))
        assert cheat.by == cheater and cheat.what in ("malformed", "replayed"), cheat.what
        assert honest.steps.lists == before
    step3 = first.answer(step2)
    step4 = second.answer(step3)
    assert first.answer(step4) is None
    cheat = _caught(lambda: honest.answer(step3 if cheater == FIRST else step4))
    assert (cheat.by, cheat.what) == (cheater, "out_of_turn")
