"""The lobby through the protocol (lobby_*): two pages' engines open, read, join, rate — and refuse in words."""

from __future__ import annotations

import json
import random
from typing import Any

from py_engine.fairplay import p256
from py_engine.service.lobby.commands import CLOSED_KEPT
from py_engine.service.lobby.offer import REFUSAL_MS
from py_engine.service.lobby.rating import Rating
from py_engine.service.protocol import Engine
from tests.test_lobby_results import KEYS as PLAYED
from tests.test_lobby_results import conceded

KEYS = [p256.new_key(random.Random(s)) for s in (81, 82, 83)]
NOW = 1_780_000_000_000


def key(private: int) -> str:
    return p256.b64encode(private.to_bytes(32, "big"))


def call(engine: Engine, cmd: str, **args: Any) -> dict[str, Any]:
    answer: dict[str, Any] = json.loads(engine.handle(json.dumps({"v": 1, "cmd": cmd, **args})))
    return answer


def ok(engine: Engine, cmd: str, **args: Any) -> dict[str, Any]:
    answer = call(engine, cmd, **args)
    assert answer["ok"], answer
    return answer


def who(player: int) -> dict[str, str]:
    return {"identity": KEYS[player][1], "key": key(KEYS[player][0])}


def test_open_read_join_and_the_second_joiner_is_told_the_table_is_taken() -> None:
    opener, reader, late = Engine(), Engine(), Engine()
    table = ok(opener, "lobby_open", **who(0), name="Anna", lang="hu", preset="HU24", now=NOW)
    assert (table["pool"], table["rating"], table["games"]) == ("HU24", 1500, 0)
    offers = [{"text": table["offer"], "sender": "nostr-a"}]
    listed = ok(reader, "lobby_read", me=KEYS[1][1], offers=offers, now=NOW + 10)
    assert [(t["name"], t["lang"], t["pool"], t["checked"], t["open_ms"]) for t in listed["tables"]] == [
        ("Anna", "hu", "HU24", True, 10)
    ]
    assert (
        ok(reader, "lobby_quick", me=KEYS[1][1], preset="HU24", rating=1500, now=NOW + 10)["table"]["id"]
        == (table["id"])
    )
    first = ok(reader, "lobby_request", **who(1), table_id=table["id"], name="Bea", now=NOW + 20)["request"]
    second = ok(late, "lobby_request", **who(2), table_id=table["id"], name="Cid", now=NOW + 21)["request"]
    joined = ok(opener, "lobby_answer", table=table["table"], request=first, now=NOW + 30)
    assert joined["joined"] == {"identity": KEYS[1][1], "name": "Bea"}
    taken = ok(opener, "lobby_answer", table=table["table"], request=second, now=NOW + 31)
    assert taken["refused"]["what"] == "taken" and "first" in taken["refused"]["message"]
    gone = ok(reader, "lobby_read", me=KEYS[1][1], offers=offers, withdrawn=[table["id"]], now=NOW + 40)
    assert gone["tables"] == []
    ok(opener, "lobby_close", table=table["table"])
    # A request that comes late (the joiner read the table before it closed) is told so, not left to time out.
    late_one = ok(late, "lobby_request", **who(2), table_id=table["id"], name="Cid", now=NOW + 50)["request"]
    closed = ok(opener, "lobby_answer", table=table["table"], request=late_one, now=NOW + 60)
    assert closed["refused"]["what"] == "closed"
    # The newest CLOSED_KEPT closed tables keep their handles; an older one's is forgotten.
    for _ in range(CLOSED_KEPT):
        more = ok(opener, "lobby_open", **who(0), now=NOW)
        ok(opener, "lobby_close", table=more["table"])
    assert call(opener, "lobby_answer", table=table["table"], request=first, now=NOW)["error"]["code"] == (
        "unknown_game"
    )
    assert len(opener.openings) == CLOSED_KEPT


def test_a_renewed_offer_stands_longer_and_an_expired_one_is_no_longer_listed() -> None:
    opener, reader = Engine(), Engine()
    table = ok(opener, "lobby_open", **who(0), now=NOW)
    later = NOW + 150_000
    renewed = ok(opener, "lobby_renew", table=table["table"], key=key(KEYS[0][0]), now=later)
    assert renewed["expires"] == later + 180_000 and renewed["id"] == table["id"]
    read = ok(reader, "lobby_read", me="me", offers=[{"text": table["offer"], "sender": "a"}], now=NOW + 200_000)
    assert read["tables"] == [] and read["refused"] == {"expired": 1}
    read = ok(reader, "lobby_read", me="me", offers=[{"text": renewed["offer"], "sender": "a"}], now=NOW + 200_000)
    assert len(read["tables"]) == 1
    assert ok(reader, "lobby_read", me="me", now=later + 180_001)["tables"] == []


def test_a_blocked_opener_is_never_listed_and_junk_is_counted_not_kept() -> None:
    opener, reader = Engine(), Engine()
    table = ok(opener, "lobby_open", **who(0), now=NOW)
    offers = [{"text": table["offer"], "sender": "a"}, {"text": "{junk", "sender": "b"}, "not an offer"]
    read = ok(reader, "lobby_read", me="me", offers=offers, blocked=[KEYS[0][1]], now=NOW)
    assert read["tables"] == [] and read["refused"] == {"blocked": 1, "malformed": 2}
    assert ok(reader, "lobby_read", me="me", blocked=[], now=NOW)["tables"] == []  # never kept


def test_a_rating_counts_the_signed_results_of_its_rules_and_refuses_the_rest_in_words() -> None:
    results = [conceded(90, quitter=1), conceded(91, quitter=0), conceded(92, players=(1, 2))]
    engine = Engine()
    rated = ok(engine, "lobby_rating", identity=PLAYED[0][1], results=results, preset="AT20", now=NOW)
    after = Rating().after(1500, 1.0).after(1500, 0.0)  # match 90 won, then match 91 lost: 1,516, then 1,499
    assert (rated["rating"], rated["games"]) == (after.rating, 2) == (1499, 2)
    assert [r["what"] for r in rated["refused"]] == ["swapped"]
    assert ok(engine, "lobby_rating", identity=PLAYED[0][1], results=results, preset="DE24", now=NOW)["games"] == 0


def test_bad_lobby_requests_are_refused_in_words_and_change_nothing() -> None:
    opener, reader = Engine(), Engine()
    table = ok(opener, "lobby_open", **who(0), now=NOW)
    ok(reader, "lobby_read", me="me", offers=[{"text": table["offer"], "sender": "a"}], now=NOW)
    for cmd, args in [
        ("lobby_open", {**who(0), "key": key(KEYS[1][0]), "now": NOW}),
        ("lobby_open", {**who(0), "lang": "xx", "now": NOW}),
        ("lobby_open", {**who(0), "now": -1}),
        ("lobby_read", {"me": "me", "filters": {"min_rating": "high"}, "now": NOW}),
        ("lobby_read", {"me": "me", "filters": {"colour": 1}, "now": NOW}),
        ("lobby_rating", {"identity": KEYS[0][1], "results": "all", "now": NOW}),
        ("lobby_request", {**who(1), "now": NOW}),
        ("lobby_refused", {"me": "me", "now": NOW}),
        ("lobby_refused", {"me": "me", "table_id": "", "now": NOW}),
        ("lobby_refused", {"me": "me", "table_id": table["id"], "now": "soon"}),
        ("lobby_quick", {"me": "me", "waiting": 7, "now": NOW}),
    ]:
        error = call(opener if cmd == "lobby_open" else reader, cmd, **args)
        assert not error["ok"] and error["error"]["code"] == "bad_request" and error["error"]["message"]
    assert call(reader, "lobby_quick", me="me", waiting="o99", now=NOW)["error"]["code"] == "unknown_game"
    assert len(ok(reader, "lobby_read", me="me", now=NOW + 1)["tables"]) == 1
    assert ok(reader, "lobby_quick", me="me", preset="AT20", now=NOW + 1)["table"]["id"] == table["id"]  # not refused
    assert list(opener.openings) == [table["table"]]


def quick_pick(engine: Engine, me: int, now: int, **args: Any) -> str | None:
    table = ok(engine, "lobby_quick", me=KEYS[me][1], preset="HU24", now=now, **args)["table"]
    return None if table is None else str(table["id"])


def test_quick_game_leaves_a_table_that_refused_it_for_a_while_then_asks_again() -> None:
    opener, reader = Engine(), Engine()
    table = ok(opener, "lobby_open", **who(0), preset="HU24", now=NOW)
    ok(reader, "lobby_read", me=KEYS[1][1], offers=[{"text": table["offer"], "sender": "a"}], now=NOW)
    assert quick_pick(reader, 1, NOW + 1) == table["id"]
    until = ok(reader, "lobby_refused", me=KEYS[1][1], table_id=table["id"], now=NOW + 2)["until"]
    assert until == NOW + 2 + REFUSAL_MS
    assert quick_pick(reader, 1, until - 1) is None
    assert quick_pick(reader, 1, until) == table["id"]
    # The table list still shows it: only Quick game leaves it.
    assert [t["id"] for t in ok(reader, "lobby_read", me=KEYS[1][1], now=NOW + 3)["tables"]] == [table["id"]]


def two_quick_tables(anna_at: int, bea_at: int) -> tuple[Engine, Engine, dict[str, Any], dict[str, Any]]:
    """Anna's and Bea's pages, each with a Quick game table of HU24 open (opened at those times), each having read
    the other's offer."""
    anna, bea = Engine(), Engine()
    tables = []
    for engine, player, at in ((anna, 0, anna_at), (bea, 1, bea_at)):
        tables.append(ok(engine, "lobby_open", **who(player), preset="HU24", now=at))
    for engine, player, other in ((anna, 0, tables[1]), (bea, 1, tables[0])):
        ok(engine, "lobby_read", me=KEYS[player][1], offers=[{"text": other["offer"], "sender": "n"}], now=NOW + 9)
    return anna, bea, tables[0], tables[1]


def test_of_two_quick_tables_waiting_exactly_one_joins_the_other_even_after_a_refusal() -> None:
    anna, bea, annas, beas = two_quick_tables(NOW, NOW + 5)
    # Anna's table opened first: Bea's page joins it, Anna's waits for her.
    assert quick_pick(anna, 0, NOW + 10, waiting=annas["table"]) is None
    assert quick_pick(bea, 1, NOW + 10, waiting=beas["table"]) == annas["id"]
    # Bea's request met a race she lost (Anna's table was given to someone else who then never came, so Anna's
    # page offers it again): Bea's Quick game leaves Anna's table for a while, then asks it again. Were the
    # refusal kept for good, the two tables would wait for each other for ever.
    ok(bea, "lobby_refused", me=KEYS[1][1], table_id=annas["id"], now=NOW + 20)
    assert quick_pick(bea, 1, NOW + 20 + REFUSAL_MS - 1, waiting=beas["table"]) is None
    assert quick_pick(bea, 1, NOW + 20 + REFUSAL_MS, waiting=beas["table"]) == annas["id"]
    assert quick_pick(anna, 0, NOW + 20 + REFUSAL_MS, waiting=annas["table"]) is None


def test_two_quick_tables_opened_at_the_same_moment_agree_on_the_smaller_id() -> None:
    anna, bea, annas, beas = two_quick_tables(NOW, NOW)
    picks = [quick_pick(anna, 0, NOW + 10, waiting=annas["table"]), quick_pick(bea, 1, NOW + 10, waiting=beas["table"])]
    first, second = sorted((annas["id"], beas["id"]))
    assert sorted(picks, key=str) == sorted([first, None], key=str)
    # The page whose table has the larger id joins the one with the smaller.
    assert picks[0 if annas["id"] == second else 1] == first


def test_a_quick_table_given_away_or_cancelled_looks_for_no_other() -> None:
    for ended in ("cancelled", "given"):
        bea, beas = two_quick_tables(NOW, NOW + 5)[1::2]
        if ended == "cancelled":
            ok(bea, "lobby_close", table=beas["table"])
        else:
            cid = ok(Engine(), "lobby_request", **who(2), table_id=beas["id"], name="Cid", now=NOW + 6)["request"]
            assert "joined" in ok(bea, "lobby_answer", table=beas["table"], request=cid, now=NOW + 7)
        assert quick_pick(bea, 1, NOW + 10, waiting=beas["table"]) is None, ended
