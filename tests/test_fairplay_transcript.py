"""The signed transcript: two seats' chains, and every way of breaking one, attributed or refused."""

from __future__ import annotations

import random
from typing import Any

import pytest

from py_engine.fairplay import p256
from py_engine.fairplay.transcript import ChainError, Link, Transcript, canonical, signing_text


class Seat:
    """One page: its key, and its transcript of the match."""

    def __init__(self, seat: int, keys: list[tuple[int, str]], rng: random.Random, match_id: str = "m1") -> None:
        self.private = keys[seat][0]
        self.rng = rng
        self.transcript = Transcript(match_id, seat, (keys[0][1], keys[1][1]))

    def send(self, body: dict[str, Any]) -> dict[str, Any]:
        draft = self.transcript.draft(body)
        signature = p256.sign(self.private, signing_text(draft.digest(self.transcript.match_id)), self.rng)
        return self.transcript.signed(draft, signature).to_json()


@pytest.fixture(scope="module")
def keys() -> list[tuple[int, str]]:
    rng = random.Random(7)
    return [p256.new_key(rng), p256.new_key(rng), p256.new_key(rng)]


def pair(keys: list[tuple[int, str]]) -> tuple[Seat, Seat]:
    rng = random.Random(1)
    return Seat(0, keys, rng), Seat(1, keys, rng)


def test_signatures_hold_for_their_message_and_key_only(keys: list[tuple[int, str]]) -> None:
    rng = random.Random(2)
    d, identity = keys[0]
    signature = p256.sign(d, b"text", rng)
    assert p256.verify(identity, b"text", signature)
    assert not p256.verify(identity, b"text!", signature)
    assert not p256.verify(keys[1][1], b"text", signature)
    for bad in ("", "not base64!", signature[:-2], "A" * 86):
        assert not p256.verify(identity, b"text", bad)
        assert not p256.verify(bad, b"text", signature)


def test_two_seats_keep_the_same_chains_and_a_result_needs_both(keys: list[tuple[int, str]]) -> None:
    a, b = pair(keys)
    b.transcript.accept(a.send({"t": "hello"}))
    a.transcript.accept(b.send({"t": "hello"}))
    crossing = (a.send({"t": "chat", "text": "hi"}), b.send({"t": "chat", "text": "hey"}))  # sent at once
    b.transcript.accept(crossing[0])
    a.transcript.accept(crossing[1])
    assert a.transcript.heads == b.transcript.heads
    b.transcript.accept(a.send({"t": "result", "winner": 0, "scores": [7, 3]}))
    assert a.transcript.result() is None and b.transcript.result() is None  # signed by one seat only
    a.transcript.accept(b.send({"t": "result", "winner": 0, "scores": [7, 3]}))
    assert a.transcript.result() == b.transcript.result() == {"winner": 0, "scores": [7, 3]}
    # Kept across a reload: replayed, every link checked again.
    again = Transcript.from_json(a.transcript.to_json())
    assert again.heads == a.transcript.heads and again.result() == a.transcript.result()


def test_a_result_the_two_seats_do_not_agree_on_counts_for_neither(keys: list[tuple[int, str]]) -> None:
    a, b = pair(keys)
    b.transcript.accept(a.send({"t": "result", "winner": 0, "scores": [7, 3]}))
    a.transcript.accept(b.send({"t": "result", "winner": 1, "scores": [3, 7]}))
    assert a.transcript.result() is None and b.transcript.result() is None


def refused(transcript: Transcript, value: Any) -> ChainError:
    before = (list(transcript.links), list(transcript.heads), list(transcript.counts))
    with pytest.raises(ChainError) as raised:
        transcript.accept(value)
    assert (transcript.links, transcript.heads, transcript.counts) == before
    return raised.value


@pytest.mark.parametrize("sender", [0, 1])
def test_every_way_of_breaking_the_chain_is_refused_and_attributed(sender: int, keys: list[tuple[int, str]]) -> None:
    seats = pair(keys)
    cheat, honest = seats[sender], seats[1 - sender]
    first = cheat.send({"t": "act", "action": "play:AH"})
    honest.transcript.accept(first)
    second = cheat.send({"t": "act", "action": "play:TH"})
    # Rewritten after signing, or signed by someone else: not the other's words, attributed to nobody.
    rewritten = {**second, "body": {"t": "act", "action": "play:KH"}}
    assert (refused(honest.transcript, rewritten).by, refused(honest.transcript, rewritten).what) == (None, "unsigned")
    forger = Seat(sender, [keys[2], keys[2]], random.Random(3))
    forger.transcript = Transcript("m1", sender, (keys[2][1], keys[2][1]))
    forged = forger.send({"t": "act", "action": "play:KH"})
    assert refused(honest.transcript, forged).what == "unsigned"
    # Sent again unchanged, or ahead of a link not yet come: what a lost connection does; asked for again.
    assert (refused(honest.transcript, first).by, refused(honest.transcript, first).what) == (None, "repeated")
    third = cheat.send({"t": "act", "action": "play:9H"})
    assert (refused(honest.transcript, third).by, refused(honest.transcript, third).what) == (None, "missing")
    # A second version of a link already taken: signed by the cheater, so attributed to it.
    second_version = Link(sender, 1, "", first["seen"], {"t": "act", "action": "play:KH"})
    signature = p256.sign(cheat.private, signing_text(second_version.digest("m1")), random.Random(8))
    twice = refused(honest.transcript, {**second_version.to_json(), "sig": signature})
    assert (twice.by, twice.what) == (sender, "two_versions")
    # Another history: a link whose predecessor is not the one this seat holds, or that answers a message
    # the honest seat never sent, signed by the cheater.
    other_history = Link(sender, 2, "0" * 64, "", {"t": "act", "action": "play:QH"})
    signature = p256.sign(cheat.private, signing_text(other_history.digest("m1")), random.Random(4))
    signed = {**other_history.to_json(), "sig": signature}
    assert (refused(honest.transcript, signed).by, refused(honest.transcript, signed).what) == (sender, "rewritten")
    invented = Link(sender, 2, honest.transcript.heads[sender], "f" * 64, {"t": "act", "action": "play:QH"})
    signature = p256.sign(cheat.private, signing_text(invented.digest("m1")), random.Random(5))
    assert refused(honest.transcript, {**invented.to_json(), "sig": signature}).what == "forged"
    # A link of another match does not verify here.
    elsewhere = Seat(sender, keys, random.Random(6), match_id="m2")
    assert refused(honest.transcript, elsewhere.send({"t": "act", "action": "play:AH"})).what == "unsigned"
    for junk in (None, [], {"seat": sender}, {**second, "n": 0}, {**second, "body": {"x": 1.5}}):
        assert refused(honest.transcript, junk).what == "malformed"
    # A lone surrogate is text like any other: digested, then refused as unsigned (no exception).
    assert refused(honest.transcript, {**second, "body": {"t": "\ud800"}}).what == "unsigned"
    honest.transcript.accept(second)  # the true next link still goes through
    assert honest.transcript.counts[sender] == 2


def test_a_reconnection_resends_from_the_chain(keys: list[tuple[int, str]]) -> None:
    a, b = pair(keys)
    sent = [a.send({"t": "chat", "text": str(i)}) for i in range(3)]
    b.transcript.accept(sent[0])
    # b reconnects knowing 1 of a's links: a resends the rest from its chain, and they follow on.
    for link in a.transcript.since(0, b.transcript.counts[0]):
        b.transcript.accept(link.to_json())
    assert b.transcript.heads[0] == a.transcript.heads[0]


def test_a_damaged_kept_transcript_is_refused(keys: list[tuple[int, str]]) -> None:
    a, b = pair(keys)
    b.transcript.accept(a.send({"t": "chat", "text": "x"}))
    kept = b.transcript.to_json()
    kept["links"][0]["body"]["text"] = "y"
    with pytest.raises(ChainError):
        Transcript.from_json(kept)
    for junk in (None, {}, {**kept, "seat": 2}, {**kept, "links": "x"}):
        with pytest.raises(ChainError):
            Transcript.from_json(junk)
    with pytest.raises(ValueError):
        canonical({"x": 0.5})
