"""Two engines, each holding only its seat's cards, play a whole match (here and in Pyodide).

The cheat catalogue, a deal on every preset and the memory walk are in
tests/cpython/test_online_cheats.py, and the sessions of protocol 2 in
tests/cpython/test_online_peer*.py (CPython only: together they take about
a minute and a half; Pyodide runs the primitives they use here and in
tests/test_fairplay_*.py).
"""

from __future__ import annotations

import random

import pytest

from lab.online_sim import new_channel, run
from py_engine.core.rules import PRESET_IDS, PRESETS
from py_engine.fairplay import pack
from py_engine.service.record import load_record


def test_two_engines_play_a_whole_match_and_agree(monkeypatch: pytest.MonkeyPatch, preset: str = "AT20") -> None:
    """Here and in Pyodide; every preset: tests/cpython/test_online_cheats.py.

    Each deal's audit checks both steps of the other in one sum each, its sums over the other's lists made
    in idle time before the deal ends: an honest match never needs the check entry by entry."""
    by_entry: list[int] = []
    monkeypatch.setattr(pack, "_verify_each", lambda *args: by_entry.append(1) or [])
    prepared_at_end: list[bool] = []
    audit = pack.Shuffle.audit

    def audited(shuffle: pack.Shuffle, theirs: pack.Keys) -> list[int]:
        prepared_at_end.append(shuffle._challenge is not None)
        return audit(shuffle, theirs)

    monkeypatch.setattr(pack.Shuffle, "audit", audited)
    seed = PRESET_IDS.index(preset)
    channel = new_channel(PRESETS[preset], seed)
    verified: list[list[int]] = []
    channel.seats[0].on_verified = lambda index, pack: verified.append(pack)
    run(channel, random.Random(seed))
    a, b = (s.match for s in channel.seats)
    assert a is not None and b is not None and a.finished and b.finished
    record = a.record()
    assert record == b.record()
    assert len(verified) == len(record["deals"])
    assert by_entry == [] and len(prepared_at_end) == 2 * len(verified) and all(prepared_at_end)
    # The record, with the packs both engines verified, replays in the plain engine to the same score.
    replayed = load_record(record)
    assert replayed.scores == a.scores == b.scores
    assert replayed.sheet == a.sheet


def test_the_pack_of_the_next_deal_is_shuffled_during_this_one() -> None:
    channel = new_channel(PRESETS["AT20"], 3)
    rng = random.Random(3)
    while not all(s.playing for s in channel.seats):
        channel.deliver()
    for seat in channel.seats:
        assert 1 not in seat._packs
        channel.post(seat.seat, seat.prepare_next())  # what the page's idle time does
    for _ in range(4):  # the four steps of the next deal's shuffle, while nobody has moved yet
        channel.deliver()
    for seat in channel.seats:
        assert 1 in seat._packs and seat._packs[1].shuffle.ready
    run(channel, rng)
