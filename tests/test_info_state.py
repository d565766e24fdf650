"""One seat's information state: its canonical key, and worlds that keep it."""

from __future__ import annotations

import random

import pytest

from py_engine.ai.config import SearchConfig
from py_engine.ai.reading import read_worlds
from py_engine.core.cards import cards_of
from py_engine.core.deal import Deal, pack_of
from py_engine.core.rules import PRESETS
from py_engine.service.match import Match

from .test_reading import live_positions


def _twin(deal: Deal, seat: int, rng: random.Random) -> Deal:
    """The same deal from a pack with the cards ``seat`` never saw dealt anew (its own hand, the trump card kept)."""
    other = 1 - seat
    unseen = sorted([*cards_of(deal.hands[other]), *deal.talon])
    shuffled = unseen[:]
    while shuffled == unseen:
        rng.shuffle(shuffled)
    size = deal.hands[other].bit_count()
    own = [*cards_of(deal.hands[seat])]
    theirs = shuffled[:size]
    non_dealer, dealer = (own, theirs) if deal.dealer != seat else (theirs, own)
    pack = pack_of(deal.rules.deal_pattern, non_dealer, dealer, deal.upcard, shuffled[size:])
    return Deal(deal.rules, pack, deal.dealer)


@pytest.mark.parametrize("preset_id", ["AT20", "HU24"])
def test_the_key_is_shared_by_deals_the_seat_cannot_tell_apart(preset_id: str) -> None:
    rng = random.Random(4)
    for _ in range(20):
        match = Match(PRESETS[preset_id], rng.randrange(10**6), single_deal=True)
        deal = match.deal
        seat = deal.to_act
        twin = _twin(deal, seat, rng)
        assert twin.hands[1 - seat] != deal.hands[1 - seat] or twin.talon != deal.talon
        assert twin.info_state(seat).key() == deal.info_state(seat).key()
        # The other seat sees its own (different) hand: it tells them apart.
        assert twin.info_state(1 - seat).key() != deal.info_state(1 - seat).key()


def test_the_key_changes_with_any_card_the_seat_sees() -> None:
    match = Match(PRESETS["AT20"], 11, single_deal=True)
    deal = match.deal
    seat = deal.to_act
    key = deal.info_state(seat).key()
    # Another own card: swap one of the seat's cards with one of the opponent's.
    mine, theirs = cards_of(deal.hands[seat])[0], cards_of(deal.hands[1 - seat])[0]
    swapped = deal.clone()
    swapped.hands[seat] ^= 1 << mine | 1 << theirs
    swapped.hands[1 - seat] ^= 1 << mine | 1 << theirs
    assert swapped.info_state(seat).key() != key
    # A card of the opponent's shown to the seat.
    shown = deal.clone()
    shown.known[1 - seat] |= 1 << theirs
    assert shown.info_state(seat).key() != key
    # A card played: the same hands otherwise, a different public position.
    played = deal.clone()
    played.apply(next(a for a in played.legal_actions() if a < 24))
    assert played.info_state(seat).key() != key


@pytest.mark.parametrize("preset_id", ["AT20", "HU24", "DE24", "PL24", "SZLI20", "RO24"])
def test_a_resampled_or_read_world_keeps_the_key(preset_id: str) -> None:
    """Without relying on the assert inside ``resample``: many worlds, each keyed again."""
    rng = random.Random(9)
    for deal in live_positions(preset_id, 3, 25):
        for seat in (0, 1):
            knowledge = deal.info_state(seat)
            key = knowledge.key()
            for _ in range(20):
                assert deal.resample(knowledge, rng).info_state(seat, story=False).key() == key
        seat = deal.to_act
        read = read_worlds(deal, deal.info_state(seat), rng, SearchConfig(particles=20))
        assert read is not None
        key = deal.info_state(seat).key()
        for _ in range(10):
            assert read.draw().info_state(seat).key() == key
