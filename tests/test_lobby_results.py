"""Signed results and ratings (py_engine/service/lobby): what counts, and every way a false one is refused."""

from __future__ import annotations

import copy
import random
from collections.abc import Callable
from typing import Any

import pytest

from py_engine.core.rules import PRESETS, rules_from_dict
from py_engine.fairplay import p256
from py_engine.fairplay.transcript import Link, signing_text
from py_engine.service.lobby.certificate import MAX_AGE_MS, CertificateError, certificate_of, check
from py_engine.service.lobby.history import HISTORY_MAX, Checked, check_history
from py_engine.service.lobby.rating import K_NEW, K_SETTLED, NEW_GAMES, START, Rating, pool_of, rating_of
from py_engine.service.online.peer import PeerSession

KEYS = [p256.new_key(random.Random(s)) for s in (51, 52, 53)]
NOW = 1_780_000_000_000  # a page's clock: milliseconds since 1970
DAY = 24 * 3600 * 1000


def signer(key: int, rng: random.Random) -> Callable[[bytes], str]:
    return lambda text: p256.sign(key, text, rng)


def sessions(
    seed: int, players: tuple[int, int] = (0, 1), ratings: tuple[int | None, int | None] = (None, None)
) -> list[PeerSession]:
    rng = random.Random(seed)
    identities = (KEYS[players[0]][1], KEYS[players[1]][1])
    return [
        PeerSession(
            seat,
            PRESETS["AT20"],
            f"match {seed}",
            identities,
            rng.randbytes(32),
            signer(KEYS[players[seat]][0], rng),
            name=f"Player {players[seat]}",
            rating=ratings[seat],
        )
        for seat in (0, 1)
    ]


def exchange(pages: list[PeerSession], first: int, texts: list[str], now: int) -> None:
    """Carries texts between the two pages until neither has anything to say."""
    queue = [(1 - first, text) for text in texts]
    while queue:
        to, text = queue.pop(0)
        answer = pages[to].receive(text, now)
        assert "refused" not in answer, answer
        queue += [(1 - to, sent) for sent in answer["send"]]


def conceded(
    seed: int,
    quitter: int = 1,
    players: tuple[int, int] = (0, 1),
    ratings: tuple[int | None, int | None] = (None, None),
    at: int = NOW,
) -> dict[str, Any]:
    """The certificate of a match that one player conceded after the coin."""
    pages = sessions(seed, players, ratings)
    exchange(pages, 0, pages[0].start(at), at)
    exchange(pages, quitter, pages[quitter].concede(at), at)
    certificate = certificate_of(pages[0].transcript)
    assert certificate is not None and certificate == certificate_of(pages[1].transcript)
    return certificate


def test_a_finished_match_gives_one_certificate_both_pages_agree_on() -> None:
    pages = sessions(1)
    exchange(pages, 0, pages[0].start(NOW), NOW)
    assert certificate_of(pages[0].transcript) is None and pages[0].status()["certificate"] is None  # not over
    exchange(pages, 0, pages[0].concede(NOW), NOW)
    certificate = certificate_of(pages[0].transcript)
    assert certificate is not None and certificate == certificate_of(pages[1].transcript)
    assert pages[0].status()["certificate"] == pages[1].status()["certificate"] == certificate
    result = check(certificate, NOW + DAY)
    assert result.identities == (KEYS[0][1], KEYS[1][1]) and result.names == ("Player 0", "Player 1")
    assert (result.winner, result.reason, result.at) == (1, "conceded", NOW)
    assert pool_of(result.rules) == "AT20" and result.claimed == (None, None)


def resign(certificate: dict[str, Any], index: int, key: int) -> None:
    """Signs link ``index`` again with ``key`` after it was changed (the attacker holds that key)."""
    link = Link.from_json(certificate["links"][index])
    digest = link.digest(certificate["match"])
    certificate["links"][index]["sig"] = p256.sign(key, signing_text(digest), random.Random(9))


def refusal(certificate: Any, now: int = NOW) -> str:
    with pytest.raises(CertificateError) as refused:
        check(certificate, now)
    return refused.value.what


def test_a_changed_result_is_refused_as_forged_even_when_its_sender_signs_it_again() -> None:
    certificate = conceded(2, quitter=1)
    changed = copy.deepcopy(certificate)
    changed["links"][3]["body"]["winner"] = 1  # seat 1 claims the win it conceded
    assert refusal(changed) == "forged"
    resign(changed, 3, KEYS[1][0])  # signed by seat 1 itself: the two results now differ
    assert refusal(changed) == "disagree"
    resign_both = copy.deepcopy(changed)
    resign_both["links"][2]["body"]["winner"] = 1
    assert refusal(resign_both) == "forged"  # seat 0's link cannot be signed by seat 1


def test_swapped_seats_or_a_third_player_put_in_are_refused() -> None:
    certificate = conceded(3)
    swapped = copy.deepcopy(certificate)
    swapped["identities"].reverse()
    assert refusal(swapped) == "forged"
    borrowed = copy.deepcopy(certificate)
    borrowed["identities"][0] = KEYS[2][1]  # the third player claims seat 0's win
    assert refusal(borrowed) == "forged"
    moved = copy.deepcopy(certificate)
    moved["match"] = "another match"
    assert refusal(moved) == "forged"


def test_links_out_of_their_places_or_junk_are_malformed() -> None:
    certificate = conceded(4)
    reordered = copy.deepcopy(certificate)
    reordered["links"] = [reordered["links"][i] for i in (2, 3, 0, 1)]
    assert refusal(reordered) == "malformed"
    for junk in (None, [], "text", {"format": "sixty-six/result-1"}, {**certificate, "links": [1, 2, 3, 4]}):
        assert refusal(junk) == "malformed"
    assert refusal({**certificate, "format": "sixty-six/result-9"}) == "malformed"


def test_a_result_expires_after_a_year_and_may_not_come_from_the_future() -> None:
    certificate = conceded(5)
    assert check(certificate, NOW + MAX_AGE_MS).at == NOW
    assert refusal(certificate, NOW + MAX_AGE_MS + 1) == "expired"
    assert refusal(certificate, NOW - 2 * 3600 * 1000) == "expired"


def test_a_match_begun_before_coins_were_dated_gives_no_result() -> None:
    pages = sessions(6)
    exchange(pages, 0, pages[0]._open(NOW, None), NOW)
    exchange(pages, 0, pages[0].concede(NOW), NOW)
    assert refusal(certificate_of(pages[0].transcript)) == "undated"


def test_a_dated_and_rated_game_reloads_and_replays_its_own_coin() -> None:
    pages = sessions(7, ratings=(1620, 1480))
    exchange(pages, 0, pages[0].start(NOW), NOW)
    for seat in (0, 1):
        saved = pages[seat].to_json()
        again = PeerSession.restore(saved, signer(KEYS[seat][0], random.Random(1)))
        assert again.rating == pages[seat].rating and again.transcript.heads == pages[seat].transcript.heads
    exchange(pages, 1, pages[1].concede(NOW), NOW)
    assert check(certificate_of(pages[0].transcript), NOW).claimed == (1620, 1480)


def test_a_history_counts_each_match_once_and_only_the_players_own() -> None:
    mine = [conceded(10 + i, quitter=i % 2) for i in range(3)]
    others = conceded(20, players=(1, 2))
    forged = copy.deepcopy(mine[0])
    forged["links"][2]["sig"] = forged["links"][3]["sig"]
    history = check_history(KEYS[0][1], [*mine, mine[1], others, forged, "junk"], NOW)
    assert [r.match for r in history.results] == [f"match {10 + i}" for i in range(3)]
    assert [(r["index"], r["what"]) for r in history.refused] == [
        (3, "replayed"),
        (4, "swapped"),
        (5, "forged"),
        (6, "malformed"),
    ]
    assert check_history(KEYS[0][1], {"not": "a list"}, NOW).refused[0]["what"] == "malformed"


def test_a_history_is_read_up_to_its_limit_and_checked_once_per_cache() -> None:
    certificate = conceded(30)
    calls = 0

    def counting(identity: str, message: bytes, signature: str) -> bool:
        nonlocal calls
        calls += 1
        return p256.verify(identity, message, signature)

    cache = Checked()
    long = check_history(KEYS[0][1], [certificate] * (HISTORY_MAX + 5), NOW, counting, cache)
    assert len(long.results) == 1 and calls == 4
    assert long.refused[-1]["what"] == "too_many" and len(long.refused) == HISTORY_MAX
    again = check_history(KEYS[0][1], [certificate], NOW + MAX_AGE_MS + 1, counting, cache)
    assert calls == 4 and again.refused[0]["what"] == "expired"  # a cached result still ages


def test_elo_moves_by_k_times_the_surprise_and_k_settles_after_the_first_games() -> None:
    assert Rating().after(START, 1.0) == Rating(START + K_NEW // 2, 1)
    assert Rating().after(1700, 1.0).rating == round(START + K_NEW * (1 - 1 / (1 + 10 ** (200 / 400))))
    settled = Rating(1800, NEW_GAMES)
    assert settled.after(1800, 0.0) == Rating(1800 - K_SETTLED // 2, NEW_GAMES + 1)


def test_a_rating_follows_the_results_in_order_with_the_opponents_signed_claims() -> None:
    won = check(conceded(40, quitter=1, ratings=(None, 1700), at=NOW), NOW + DAY)
    lost = check(conceded(41, quitter=0, ratings=(None, 1400), at=NOW + 1000), NOW + DAY)
    elsewhere = check(conceded(42, players=(1, 2)), NOW + DAY)
    expected = Rating().after(1700, 1.0).after(1400, 0.0)
    assert rating_of(KEYS[0][1], [lost, elsewhere, won], "AT20") == expected
    assert rating_of(KEYS[0][1], [won, lost], "HU24") == Rating()
    custom = rules_from_dict({**PRESETS["AT20"].to_dict(), "match_target": 9})
    assert pool_of(custom).startswith("custom-") and pool_of(custom) != pool_of(PRESETS["AT20"])
