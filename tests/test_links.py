"""Links: a finished deal (and a position in it) or a puzzle, round trips and refusals."""

from __future__ import annotations

import base64
import dataclasses
import json
import random
import zlib
from typing import Any

import pytest

from py_engine.ai.heuristic import claim_choice, rollout_action
from py_engine.core.actions import parse_action
from py_engine.core.rules import PRESET_IDS, PRESETS, make_rules
from py_engine.puzzles import catalogue
from py_engine.service import links
from py_engine.service.links import LinkError, PuzzleLink, deal_link, decode, encode
from py_engine.service.match import Match
from py_engine.service.protocol import Engine


def played_match(preset_id: str, seed: int, deals: int = 1, **overrides: object) -> Match:
    """A match whose first ``deals`` deals are played to their end by the rule of thumb (claims included)."""
    rules = make_rules(PRESETS[preset_id], dict(overrides))
    match = Match(rules, seed)
    rng = random.Random(seed)
    for number in range(deals):
        if number:
            match.act(0, parse_action("next"))
        while not match.deal.over:
            deal = match.deal
            claim = claim_choice(deal)
            if claim is not None:
                match.act(*claim)
                continue
            match.act(deal.to_act, rollout_action(deal, rng, 0.3, True))
    return match


def test_every_preset_round_trips_its_deals_and_positions() -> None:
    lengths: dict[str, list[int]] = {}
    for preset_id in PRESET_IDS:
        for seed in range(12):
            match = played_match(preset_id, seed, deals=2)
            for index in (0, 1):
                link = deal_link(match, index)
                text = encode(link)
                lengths.setdefault(preset_id, []).append(len(text))
                assert decode(text) == link
                assert decode("#" + text) == link
                record = match.records[index]
                assert list(link.deck) == record.deck and list(link.actions) == record.actions
                at = seed % (len(link.actions) + 1)
                positioned = deal_link(match, index, step=at, seat=1)
                assert decode(encode(positioned)) == positioned
    # The figures of docs/protocol.md ("Links"): every link of a preset is short.
    for preset_id, seen in lengths.items():
        assert max(seen) <= 80, (preset_id, max(seen))


def test_a_position_with_a_line_of_other_moves_round_trips() -> None:
    match = played_match("HU24", 3)
    link = deal_link(match, 0)
    rng = random.Random(1)
    for step in range(len(link.actions)):
        replayed = links.replay(link)
        for seat, action in link.actions[:step]:
            replayed.act(seat, action)
        line: list[tuple[int, int]] = []
        while not replayed.deal.over and len(line) < 6:
            claim = claim_choice(replayed.deal)
            if claim is not None:
                line.append(claim)
                replayed.act(*claim)
                continue
            action = rollout_action(replayed.deal, rng, 1.0, True)
            line.append((replayed.deal.to_act, action))
            replayed.act(replayed.deal.to_act, action)
        positioned = dataclasses.replace(link, step=step, line=tuple(line))
        assert decode(encode(positioned)) == positioned


def test_custom_rules_and_the_match_context_survive() -> None:
    match = played_match("AT20", 5, deals=3, resign=True, last_trick_bonus=10, match_target=11)
    for index in range(3):
        link = deal_link(match, index)
        assert link.rules == match.rules
        back = decode(encode(link))
        assert back == link and back.rules.resign and back.rules.match_target == 11
    assert deal_link(match, 0).scores == (0, 0)
    later = deal_link(match, 2)
    assert sum(later.scores) + later.carry > 0 or match.sheet[1].result.winner is None


def test_a_deal_in_play_has_no_link() -> None:
    match = Match(PRESETS["AT20"], 1)
    with pytest.raises(LinkError) as refused:
        deal_link(match, 0)
    assert refused.value.reason == "unfinished"
    # Forged: the actions of a finished deal cut short.
    done = deal_link(played_match("AT20", 2), 0)
    forged = dataclasses.replace(done, actions=done.actions[:-3])
    with pytest.raises(LinkError) as refused:
        encode(forged)
    assert refused.value.reason == "unfinished"


def test_a_link_whose_deal_is_unfinished_is_refused() -> None:
    done = deal_link(played_match("PL24", 4), 0)
    # Rewrite the count of actions inside a correctly checked body: the deal stops before its end.
    text = encode(done)
    body = _body(text)
    count_at = 1 + 1 + 10  # flags, no changed rule, the pack
    assert body[count_at] == len(done.actions)
    shorter = bytearray(body)
    shorter[count_at] -= 2
    with pytest.raises(LinkError) as refused:
        decode(_rewrap("deal", bytes(shorter)))
    assert refused.value.reason in ("unfinished", "damaged")


def _body(text: str) -> bytes:
    data = text.split(".", 1)[1]
    return base64.urlsafe_b64decode(data + "=" * (-len(data) % 4))[:-4]


def _rewrap(kind: str, body: bytes) -> str:
    prefix = f"{kind}=1."
    check = zlib.crc32(prefix.encode() + body).to_bytes(4, "big")
    return prefix + base64.urlsafe_b64encode(body + check).decode().rstrip("=")


def test_damaged_links_are_refused_with_their_reason() -> None:
    text = encode(deal_link(played_match("RO24", 7), 0, step=4))
    head, data = text.split(".", 1)
    reasons = set()
    for i in range(len(data)):
        for replacement in "A_":
            if data[i] == replacement:
                continue
            broken = f"{head}.{data[:i]}{replacement}{data[i + 1 :]}"
            with pytest.raises(LinkError) as refused:
                decode(broken)
            reasons.add(refused.value.reason)
    assert reasons == {"damaged"}
    for cut in (1, 5, len(data) - 1):
        with pytest.raises(LinkError) as refused:
            decode(f"{head}.{data[:-cut]}")
        assert refused.value.reason == "damaged"
    for other in ("", "deal", "deal=", "deal=1", "hello", "join=abc", "deal=x.AAAA", "deal=1.AA!A", 42, None):
        with pytest.raises(LinkError) as refused:
            decode(other)
        assert refused.value.reason in ("not_link", "damaged"), other
    with pytest.raises(LinkError) as refused:
        decode("deal=1." + "A" * 3000)
    assert refused.value.reason == "not_link"


def test_a_link_of_another_version_says_so() -> None:
    text = encode(deal_link(played_match("DE24", 8), 0))
    for version in (2, 0, 17):
        with pytest.raises(LinkError) as refused:
            decode(text.replace("deal=1.", f"deal={version}.", 1))
        assert refused.value.reason == "version"
        assert refused.value.values == {"version": version}


def test_puzzle_links() -> None:
    for puzzle in ("at20-0001", "HU24.endgame:7", "x"):
        text = encode(PuzzleLink(puzzle))
        assert text.startswith("puzzle=1.")
        assert decode(text) == PuzzleLink(puzzle)
    for bad in ("", "two words", "ü", "x" * 65):
        with pytest.raises(LinkError):
            encode(PuzzleLink(bad))
    text = encode(PuzzleLink("klub20-12"))
    with pytest.raises(LinkError) as refused:
        decode(text[:-2] + ("AA" if text[-2:] != "AA" else "BB"))
    assert refused.value.reason == "damaged"
    with pytest.raises(LinkError) as refused:
        decode(_rewrap("puzzle", b"bad id!"))
    assert refused.value.reason == "damaged"


def test_a_link_to_a_puzzle_that_does_not_exist_is_refused() -> None:
    engine = Engine()

    def call(**request: object) -> dict[str, Any]:
        answer: dict[str, Any] = json.loads(engine.handle_page(json.dumps({"v": 1, "id": 1, **request})))
        return answer

    known = catalogue.builtin()[0].id
    assert call(cmd="link_make", puzzle=known)["link"] == encode(PuzzleLink(known))
    for unknown in ("hu24-17", "x", known + "x"):
        refused = call(cmd="link_make", puzzle=unknown)
        assert refused["error"]["code"] == "unknown_puzzle" and repr(unknown) in refused["error"]["message"], refused
    assert call(cmd="link_make", puzzle=7)["error"]["code"] == "bad_request"


def test_link_lengths_per_preset(capsys: pytest.CaptureFixture[str]) -> None:
    """The lengths docs/protocol.md gives (typical and longest of 40 deals a preset, without a position)."""
    for preset_id in PRESET_IDS:
        seen = sorted(len(encode(deal_link(played_match(preset_id, seed), 0))) for seed in range(40))
        with capsys.disabled():
            print(f"\n{preset_id}: median {seen[len(seen) // 2]}, longest {seen[-1]} characters", end="")
        assert seen[-1] <= 72
