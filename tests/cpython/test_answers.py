"""Every answer the page gets has its contract's type (py_engine/service/contract.py, hence types/engine.d.ts).

Real sessions through the protocol, as the page asks: a game against the
computer, two players at one device, a review, an analysis board and its
links, puzzles and their progress, the statistics, an online pair over
``peer_*`` and the lobby. Each answer is checked against its command's type
(tests/answer_types.py): its keys, the optional ones, the ``Literal`` values,
the elements of its lists and objects. Together they ask every command of the
contract's ``Answers``, so the Python types cannot drift from what the engine
answers.
"""

from __future__ import annotations

import json
import random
from typing import Any, ClassVar

from py_engine.puzzles import catalogue
from py_engine.puzzles import progress as pp
from py_engine.puzzles.daily import daily_for
from py_engine.service.protocol import PAGE_COMMANDS, Engine
from tests.answer_types import ANSWERS, HOST_ANSWERS, check_answer, mismatches
from tests.cpython.test_online_peer_protocol import IDENTITIES, private
from tests.test_lobby_protocol import KEYS as LOBBY_KEYS
from tests.test_lobby_protocol import key as lobby_key

NOW = 1_780_000_000_000
DAY = "2026-03-01"


class Page:
    """A page's engine: every answer is checked against its type, and the commands asked are noted."""

    asked: ClassVar[set[str]] = set()

    def __init__(self, engine: Engine | None = None) -> None:
        self.engine = engine or Engine()

    def ok(self, cmd: str, **args: Any) -> dict[str, Any]:
        answer: dict[str, Any] = json.loads(self.engine.handle_page(json.dumps({"v": 1, "id": 7, "cmd": cmd, **args})))
        check_answer(cmd, answer)
        Page.asked.add(cmd)
        return answer


class Host(Page):
    """The worker, or a tool: ``handle``, whose own commands (HOST_ANSWERS) the page may not ask."""

    def ok(self, cmd: str, **args: Any) -> dict[str, Any]:
        if cmd in ANSWERS:
            return super().ok(cmd, **args)
        answer: dict[str, Any] = json.loads(self.engine.handle(json.dumps({"v": 1, "id": 7, "cmd": cmd, **args})))
        check_answer(cmd, answer)
        Page.asked.add(cmd)
        return answer


def the_host() -> None:
    """The commands of the worker and of tools: a bare game, a saved table, a saved online session."""
    host = Host()
    game = host.ok("new_game", preset="AT20", seed=3)["game"]

    def to_act() -> int:
        return int(host.ok("view", game=game, seat=0)["view"]["to_act"])

    seat = to_act()
    legal = host.ok("legal", game=game, seat=seat)["actions"]
    host.ok("act", game=game, seat=seat, action=legal[0])
    host.ok("hint", game=game, seat=to_act(), seed=1, budget_ms=20)
    host.ok("ai_move", game=game, seat=to_act(), level=1, timed=False, seed=1)
    seat = to_act()
    host.ok("ai_move", game=game, seat=seat, observer=1 - seat, level=1, timed=False, seed=1)
    host.ok("undo", game=game, seat=seat)
    record = host.ok("save", game=game)["record"]
    while not host.ok("ai_move", game=game, seat=to_act(), level=1, timed=False, seed=1)["view"]["deal_result"]:
        pass
    host.ok("review", game=game, deal=1, evaluate=0, budget_ms=20)
    host.ok("close_game", game=game)
    host.ok("load", record=record)
    table = host.ok("table_new", preset="HU24", seed=2)["table"]
    saved = host.ok("table_save", table=table)["saved"]
    host.ok("table_restore", saved=saved)
    opened = host.ok("peer_open", seat=0, preset="AT20", name="Anna", key=private(0), identities=IDENTITIES, now=5)
    kept = host.ok("peer_save", session=opened["session"])["saved"]
    host.ok("peer_restore", saved=kept, key=private(0), now=6)


def play_table(page: Page) -> str:
    """A game against the computer at level 1, played to the end of its first deal, with a hint and an undo."""
    opened = page.ok("table_new", preset="AT20", seed=11, seating={"mode": "computer", "levels": [None, 1]})
    table = opened["table"]
    hinted = undone = False
    answer = opened
    for _ in range(200):
        view = answer["view"]
        if view and view["deal_result"]:
            break
        if answer["may"].get("computer_move"):
            answer = page.ok("table_computer", table=table, seed=1, timed=False)
            continue
        if not hinted and answer["may"].get("hint"):
            page.ok("table_hint", table=table, seed=1, budget_ms=20)
            hinted = True
        answer = page.ok("table_act", table=table, seat=view["seat"], action=view["legal"][0])
        if not undone and answer["may"].get("undo"):
            answer = page.ok("table_undo", table=table)
            undone = True
    assert answer["view"]["deal_result"], "the deal did not end"
    assert hinted and undone
    page.ok("table_show", table=table)
    return str(table)


def tables_reviews_and_boards() -> None:
    page = Page()
    page.ok("presets")
    page.ok("rules")
    page.ok("check_rules", preset="HU24", rules={"match_target": 3})
    table = play_table(page)
    # Two players at one device: the hand-over, and taking the device.
    two = page.ok("table_new", preset="HU24", seed=4, seating={"mode": "hotseat", "names": ["Anna", "Béla"]})
    page.ok("table_take", table=two["table"], seat=two["handover"]["seat"] if two["handover"] else 0)
    page.ok("table_close", table=two["table"])
    record = page.ok("table_export", table=table)["record"]
    page.ok("table_deals", table=table)
    page.ok("table_review", table=table, deal=0, evaluate=[0], budget_ms=20)
    imported = page.ok("table_import", record=record)
    # The analysis board of the deal, a variation, its evaluation, and links.
    board = page.ok("analysis_open", table=imported["table"], deal=0)
    handle = board["board"]
    page.ok("analysis_show", board=handle, node=0)
    start = board["position"]
    other = next(o for o in start["options"] if o["action"] != start["played"])
    played = page.ok("analysis_play", board=handle, node=0, **other)
    page.ok("analysis_evaluate", board=handle, node=played["node"], iterations=20, seed=1)
    page.ok("analysis_evaluate", board=handle, node=0, all_cards=True, budget_ms=50, seed=1)
    link = page.ok("link_make", board=handle, node=played["node"])["link"]
    page.ok("analysis_remove", board=handle, node=played["node"])
    page.ok("analysis_close", board=handle)
    assert page.ok("link_open", link=link)["kind"] == "deal"
    puzzle = catalogue.builtin()[0]
    puzzle_link = page.ok("link_make", puzzle=puzzle.id)["link"]
    assert page.ok("link_open", link=puzzle_link)["kind"] == "puzzle"
    page.ok("table_close", table=table)


def puzzles_and_statistics() -> None:
    page = Page()
    listed = page.ok("puzzle_list")
    assert listed["count"] > 0
    builtin = catalogue.builtin()
    puzzle = builtin[0]
    progress = pp.empty_progress()
    opened = page.ok("puzzle_open", puzzle_id=puzzle.id, progress=progress)
    from py_engine.core.actions import action_name

    moved = page.ok("puzzle_move", puzzle=opened["puzzle"], action=action_name(puzzle.answer[0]))
    assert moved["correct"]
    page.ok("puzzle_solution", puzzle=opened["puzzle"])
    page.ok("puzzle_close", puzzle=opened["puzzle"])
    wrong = next(p for p in builtin if p.others)
    attempt = page.ok("puzzle_open", puzzle_id=wrong.id)
    failed = page.ok("puzzle_move", puzzle=attempt["puzzle"], action=action_name(wrong.others[0].action))
    assert not failed["correct"] and "refutation" in failed
    daily = daily_for(DAY, builtin)
    page.ok("puzzle_daily", date=DAY)
    page.ok("puzzle_resume", puzzle_id=daily, daily=DAY, moves=[], progress=progress)
    page.ok("puzzle_rate", puzzle_id=daily, solved=True, daily={"date": DAY})
    recorded = page.ok("puzzle_record", puzzle_id=daily, solved=True, date=DAY, daily=DAY, progress=progress)
    page.ok("puzzle_progress", progress=recorded["progress"], today=DAY)
    # The statistics: a game begun, assisted, and a finished deal of a real game recorded.
    from py_engine.service.game_stats import empty_stats

    stats = page.ok("stats_begin", stats=empty_stats(0))["stats"]
    stats = page.ok("stats_assisted", stats=stats, mode="computer")["stats"]
    view = finished_view(page)
    recorded_stats = page.ok("stats_record", stats=stats, view=view, level=1, mode="computer", now=5)
    assert recorded_stats["changed"]


def finished_view(page: Page) -> dict[str, Any]:
    """The last view of a watched deal, played to its end."""
    table = page.ok("table_new", preset="AT20", seed=5, seating={"mode": "watch", "levels": [1, 1]})["table"]
    for _ in range(100):
        view = page.ok("table_computer", table=table, seed=1, timed=False)["view"]
        if view["deal_result"]:
            return dict(view)
    raise AssertionError("the deal did not end")


def an_online_pair() -> None:
    host, guest = Page(), Page()
    keys = {"identities": IDENTITIES, "now": 5_000}
    opened = host.ok("peer_open", seat=0, preset="AT20", name="Anna", key=private(0), **keys)
    offer = opened["send"][0]
    guest.ok("peer_offer", offer=offer, identities=IDENTITIES)
    joined = guest.ok("peer_open", seat=1, offer=offer, name="Béla", key=private(1), **keys)
    pages = ((host, opened["session"]), (guest, joined["session"]))
    queues: list[list[str]] = [list(joined["send"]), []]
    now = 5_000

    def deliver() -> None:
        moved = True
        while moved:
            moved = False
            for seat, (page, session) in enumerate(pages):
                while queues[seat]:
                    answer = page.ok("peer_receive", session=session, message=queues[seat].pop(0), now=now)
                    queues[1 - seat].extend(answer["send"])
                    moved = True

    def do(seat: int, cmd: str, **args: Any) -> dict[str, Any]:
        page, session = pages[seat]
        answer = page.ok(cmd, session=session, now=now, **args)
        queues[1 - seat].extend(answer.get("send", []))
        deliver()
        return answer

    deliver()
    rng = random.Random(2)
    for _ in range(12):  # a few moves, and everything else a page may do meanwhile
        now += 250
        for seat, (page, session) in enumerate(pages):
            view = page.ok("peer_show", session=session)["view"]
            if view and view["legal"]:
                do(seat, "peer_act", action=rng.choice(view["legal"]))
                break
    do(0, "peer_say", text="hello")
    do(1, "peer_say", phrase="well_played")
    do(0, "peer_voice", do="ask")
    do(1, "peer_voice", do="accept")
    do(0, "peer_show_cards")
    do(1, "peer_pause")
    do(1, "peer_back")
    do(0, "peer_tick", dropped=0)
    do(1, "peer_connection", up=False)
    do(1, "peer_connection", up=True, identity=IDENTITIES[0])
    do(0, "peer_concede")
    do(0, "peer_rematch")
    do(1, "peer_rematch")
    report = do(0, "peer_report")["report"]
    host.ok("peer_verify_report", report=report)
    for page, session in pages:
        page.ok("peer_close", session=session)


def who(player: int) -> dict[str, str]:
    return {"identity": LOBBY_KEYS[player][1], "key": lobby_key(LOBBY_KEYS[player][0])}


def the_lobby() -> None:
    opener, reader = Page(), Page()
    opener.ok("lobby_rating", identity=LOBBY_KEYS[0][1], results=[], preset="HU24", now=NOW)
    table = opener.ok("lobby_open", **who(0), name="Anna", lang="hu", preset="HU24", now=NOW)
    opener.ok("lobby_renew", table=table["table"], key=who(0)["key"], now=NOW + 5)
    offers = [{"text": table["offer"], "sender": "relay-a"}]
    reader.ok("lobby_read", me=LOBBY_KEYS[1][1], offers=offers, now=NOW + 10)
    reader.ok("lobby_quick", me=LOBBY_KEYS[1][1], preset="HU24", rating=1500, now=NOW + 10)
    reader.ok("lobby_refused", me=LOBBY_KEYS[1][1], table_id=table["id"], now=NOW + 11)
    waiting = reader.ok("lobby_open", **who(1), preset="HU24", now=NOW + 12)["table"]
    reader.ok("lobby_quick", me=LOBBY_KEYS[1][1], waiting=waiting, now=NOW + 13)
    # The table's id as both arguments: ``table_id`` is its name once ``id`` is left to the envelope.
    joining = {"id": table["id"], "table_id": table["id"]}
    request = reader.ok("lobby_request", **who(1), **joining, name="Bea", now=NOW + 20)["request"]
    second = Page().ok("lobby_request", **who(2), **joining, name="Cid", now=NOW + 21)["request"]
    assert "joined" in opener.ok("lobby_answer", table=table["table"], request=request, now=NOW + 30)
    assert "refused" in opener.ok("lobby_answer", table=table["table"], request=second, now=NOW + 31)
    opener.ok("lobby_close", table=table["table"])


def test_every_answer_of_real_sessions_has_its_type_and_every_command_is_asked() -> None:
    assert set(ANSWERS) == PAGE_COMMANDS
    assert set(ANSWERS) | set(HOST_ANSWERS) == set(Engine()._commands)
    Page.asked.clear()
    tables_reviews_and_boards()
    puzzles_and_statistics()
    an_online_pair()
    the_lobby()
    the_host()
    assert Page.asked == set(ANSWERS) | set(HOST_ANSWERS), sorted(set(ANSWERS) | set(HOST_ANSWERS) - Page.asked)


def test_the_checker_finds_what_does_not_fit() -> None:
    from py_engine.service import contract

    seating = {"mode": "computer", "ranked": False, "names": None, "levels": [None, 3]}
    assert mismatches(seating, contract.Seating) == []
    assert mismatches({**seating, "mode": "puzzle"}, contract.Seating)  # not a Literal's value
    assert mismatches({**seating, "ranked": 0}, contract.Seating)  # 0 is not false
    assert mismatches({**seating, "extra": 1}, contract.Seating)  # a key the type does not name
    assert mismatches({k: v for k, v in seating.items() if k != "names"}, contract.Seating)  # a required key
    assert mismatches({**seating, "assisted": True}, contract.Seating) == []  # an optional one
    assert mismatches({**seating, "levels": [None]}, contract.Seating)  # a tuple's length
    assert mismatches({"ranking": [{"action": "close", "value": True}]}, contract.HintAnswer)  # bool is no number
