"""Open tables (py_engine/service/lobby/offer.py, join.py): offers, their expiry and bounds, and joining."""

from __future__ import annotations

import json
import random
from collections.abc import Callable
from dataclasses import replace
from typing import Any

import pytest

from py_engine.core.rules import PRESETS
from py_engine.fairplay import p256
from py_engine.service.lobby.history import check_history
from py_engine.service.lobby.join import REQUEST_MS, Opening, join_request
from py_engine.service.lobby.offer import (
    OFFER_MS,
    OFFERS_PER_MINUTE,
    TABLES_MAX,
    Filters,
    Lobby,
    OfferError,
    open_table,
    read_offer,
    signed,
)
from py_engine.service.lobby.rating import Rating
from tests.test_lobby_results import KEYS as PLAYED
from tests.test_lobby_results import conceded
from tests.test_lobby_results import signer as played_signer

KEYS = [p256.new_key(random.Random(s)) for s in (61, 62, 63, 64)]
NOW = 1_780_000_000_000


def signer(player: int) -> Callable[[bytes], str]:
    rng = random.Random(player)
    return lambda text: p256.sign(KEYS[player][0], text, rng)


def offer_text(player: int, preset: str = "AT20", now: int = NOW, name: str = "Anna", **changes: Any) -> str:
    identity = KEYS[player][1]
    history = check_history(identity, [], now)
    offer = open_table(identity, name, "en", PRESETS[preset], now, [], history, random.Random(now + player))
    value = signed(offer, signer(player))
    value.update(changes)
    return json.dumps(value)


def refused(call: Callable[[], object]) -> str:
    with pytest.raises(OfferError) as e:
        call()
    return e.value.what


def test_an_offer_says_who_opened_what_and_stands_three_minutes_from_its_renewal() -> None:
    text = offer_text(0, name="  Anna\u202e\x07 ")
    offer = read_offer(text, NOW + OFFER_MS)
    assert (offer.identity, offer.name, offer.pool, offer.claimed) == (KEYS[0][1], "Anna", "AT20", Rating())
    assert refused(lambda: read_offer(text, NOW + OFFER_MS + 1)) == "expired"
    assert refused(lambda: read_offer(text, NOW - 10 * 60 * 1000)) == "expired"  # from the future


def test_an_offer_changed_or_in_another_name_is_refused_as_forged() -> None:
    value = json.loads(offer_text(0))
    for changes in ({"name": "Someone"}, {"identity": KEYS[1][1]}, {"rating": {"rating": 2400, "games": 99}}):
        assert refused(lambda c=changes: read_offer(json.dumps({**value, **c}), NOW)) == "forged"  # type: ignore[misc]
    for junk in ("", "[]", "{", json.dumps({**value, "format": "x"}), json.dumps({**value, "lang": "xx"}), 5):
        assert refused(lambda j=junk: read_offer(j, NOW)) == "malformed"  # type: ignore[misc]


def test_a_lobby_lists_open_tables_keeps_the_newest_offer_and_never_a_blocked_one() -> None:
    lobby = Lobby(me=KEYS[3][1], blocked={KEYS[2][1]})
    lobby.take(offer_text(0), NOW, "n0")
    lobby.take(offer_text(1, preset="HU24", now=NOW + 1), NOW + 1, "n1")
    assert refused(lambda: lobby.take(offer_text(2), NOW, "n2")) == "blocked"
    listed = lobby.listing(NOW + 2, Filters())
    assert [t.offer.identity for t in listed] == [KEYS[0][1], KEYS[1][1]]
    assert [t.offer.pool for t in lobby.listing(NOW + 2, Filters(pool="HU24"))] == ["HU24"]
    assert lobby.listing(NOW + 2, Filters(min_games=1)) == []
    table = listed[0].offer.table
    lobby.withdraw(table)
    assert [t.offer.identity for t in lobby.listing(NOW + 3, Filters())] == [KEYS[1][1]]
    assert refused(lambda: lobby.take(offer_text(0, table=table), NOW, "n0")) in ("expired", "forged")
    assert lobby.listing(NOW + 1 + OFFER_MS + 1, Filters()) == []  # expired, unless renewed


def test_a_flood_of_offers_is_bounded_per_sender_and_in_all() -> None:
    lobby = Lobby(me="me")
    text = offer_text(0)
    for i in range(OFFERS_PER_MINUTE):
        lobby.take(text, NOW + i, "flooder")
    assert refused(lambda: lobby.take(text, NOW + 10, "flooder")) == "flood"
    lobby.take(text, NOW + 60_000, "flooder")  # a minute later it may renew again
    calls = 0

    def counting(identity: str, message: bytes, signature: str) -> bool:
        nonlocal calls
        calls += 1
        return False

    junk = Lobby(me="me", verify=counting)
    for i in range(2_000):
        with pytest.raises(OfferError):
            junk.take('{"format": "sixty-six/table-1", "junk": ' + str(i) + "}", NOW, f"sender {i}")
    assert calls == 0 and junk.tables == {}  # junk costs no signature check
    assert len(Lobby(me="me").tables) == 0 and TABLES_MAX == 200


def test_quick_game_prefers_a_checked_table_of_the_nearest_rating() -> None:
    lobby = Lobby(me="me")
    for player in (0, 1, 2):
        lobby.take(offer_text(player, now=NOW + player), NOW + player, f"n{player}")
    best = lobby.best_for(NOW + 5, "AT20", 1500, Filters())
    assert best is not None and best.checked and best.offer.identity == KEYS[0][1]  # all 1500: the oldest
    assert lobby.best_for(NOW + 5, "DE24", 1500, Filters()) is None
    inflated = json.loads(offer_text(3))
    assert refused(lambda: lobby.take(json.dumps({**inflated, "rating": {"rating": 2000, "games": 40}}), NOW, "x"))


def test_two_joiners_racing_for_one_table_get_one_winner_and_the_other_is_told() -> None:
    offer = read_offer(offer_text(0), NOW)
    opening = Opening(offer, blocked={KEYS[3][1]})
    first = json.dumps(join_request(offer.table, KEYS[1][1], "Bea", NOW, signer(1)))
    second = json.dumps(join_request(offer.table, KEYS[2][1], "Cid", NOW, signer(2)))
    assert opening.answer(first, NOW + 5).identity == KEYS[1][1]
    assert refused(lambda: opening.answer(second, NOW + 6)) == "taken"
    assert opening.answer(first, NOW + 7).name == "Bea"  # the winner asking again still gets it
    blocked = json.dumps(join_request(offer.table, KEYS[3][1], "Dan", NOW, signer(3)))
    assert refused(lambda: Opening(offer, blocked={KEYS[3][1]}).answer(blocked, NOW)) == "blocked"
    assert refused(lambda: Opening(offer).answer(first, NOW + REQUEST_MS + 1)) == "expired"
    forged = json.loads(second)
    forged["identity"] = KEYS[1][1]
    assert refused(lambda: Opening(offer).answer(json.dumps(forged), NOW)) == "forged"
    closed = Opening(offer, cancelled=True)
    assert refused(lambda: closed.answer(first, NOW)) == "closed"


def test_a_rating_is_checked_from_the_attached_results_or_shown_as_only_claimed() -> None:
    results = [conceded(70 + i, quitter=1, at=NOW - 1000 + i) for i in range(2)]
    identity = PLAYED[0][1]
    history = check_history(identity, results, NOW)
    offer = open_table(identity, "Winner", "de", PRESETS["AT20"], NOW, results, history, random.Random(1))
    assert offer.claimed == Rating().after(1500, 1.0).after(1500, 1.0) and len(offer.results) == 2
    lobby = Lobby(me="me")
    honest = lobby.take(json.dumps(signed(offer, played_signer(PLAYED[0][0], random.Random(2)))), NOW, "a")
    assert honest.checked and honest.refused_results == 0
    inflated = replace(offer, table="0" * 32, claimed=Rating(2100, 60))
    claimed = lobby.take(json.dumps(signed(inflated, played_signer(PLAYED[0][0], random.Random(3)))), NOW, "a")
    assert not claimed.checked
    assert [t.checked for t in lobby.listing(NOW, Filters(checked_only=True))] == [True]
    assert [t.offer.claimed.rating for t in lobby.listing(NOW, Filters(min_rating=2000))] == [2100]
