"""The player's puzzles (py_engine/puzzles/progress.py; ``puzzle_record``, ``puzzle_progress``, and ``first`` on
``puzzle_open`` and ``puzzle_resume``).

Only a first attempt is rated, the daily run counts once a day, a missed day
breaks it; the list's states and counts; malformed progress is refused in
words and changes nothing. The rules are the ones the page kept before the
engine decided them.
"""

from __future__ import annotations

import copy
import json
from typing import Any

import pytest

from py_engine.core.actions import action_name
from py_engine.puzzles import catalogue
from py_engine.puzzles import progress as pp
from py_engine.puzzles.daily import daily_for
from py_engine.service.protocol import Engine

RATED = {"rating": 1530.5, "deviation": 110.2, "volatility": 0.059, "change": 30.5, "expected": 0.4, "streak": 1,
         "best": 1}  # fmt: skip
DAY = "2026-03-01"


def ask(engine: Engine, **request: Any) -> dict[str, Any]:
    answer: dict[str, Any] = json.loads(engine.handle_page(json.dumps({"v": 1, **request})))
    return answer


def test_a_new_player_starts_at_the_engine_s_numbers_with_nothing_tried() -> None:
    progress = pp.empty_progress()
    assert (progress["rating"], progress["deviation"], progress["volatility"]) == (1500, 120, 0.06)
    assert pp.puzzle_state(progress, "at20-1") == "new"
    assert pp.is_first_attempt(progress, "at20-1")
    assert pp.summary(progress) == {"tried": 0, "first_try": 0, "solved": 0}
    assert pp.check_progress(progress) is progress


def test_a_first_attempt_is_rated_a_second_only_adds_a_try() -> None:
    progress = pp.record_attempt(pp.empty_progress(), "a", False, DAY, RATED, None)
    assert progress["rating"] == 1530.5 and progress["volatility"] == 0.059
    assert progress["puzzles"]["a"] == {"first": "failed", "solved": False, "tries": 1, "last": DAY}
    assert pp.puzzle_state(progress, "a") == "failed"
    again = {**RATED, "rating": 1700, "streak": 5, "best": 5}
    progress = pp.record_attempt(progress, "a", True, "2026-03-02", again, None)
    assert progress["rating"] == 1530.5, "a second attempt does not change the rating"
    assert progress["streak"] == 1
    assert progress["puzzles"]["a"] == {"first": "failed", "solved": True, "tries": 2, "last": "2026-03-02"}
    assert pp.puzzle_state(progress, "a") == "solved"
    assert pp.summary(progress) == {"tried": 1, "first_try": 0, "solved": 1}
    assert progress["history"] == [1530.5]


def test_the_daily_run_counts_once_a_day_and_a_missed_day_breaks_it() -> None:
    progress = pp.empty_progress()
    assert pp.counts_as_daily(progress, DAY)
    rated = {**RATED, "daily": {"last": DAY, "streak": 4}}
    progress = pp.record_attempt(progress, "d", True, DAY, rated, DAY)
    assert progress["daily"] == {"last": DAY, "streak": 4, "days": {DAY: "solved"}}
    assert not pp.counts_as_daily(progress, DAY), "today's is done"
    assert pp.daily_run(progress, DAY) == 4
    assert pp.daily_run(progress, "2026-03-02") == 4, "tomorrow it may still go on"
    assert pp.daily_run(progress, "2026-03-03") == 0, "a day was missed"
    # A second attempt the same day changes no day.
    later = pp.record_attempt(progress, "d", False, DAY, {**rated, "daily": {"last": DAY, "streak": 0}}, DAY)
    assert later["daily"] == progress["daily"]


def test_the_days_and_the_history_are_kept_short() -> None:
    progress = pp.empty_progress()
    progress["history"] = [1500.0] * pp.HISTORY_KEPT
    progress["daily"]["days"] = {f"2025-01-{d:02d}": "solved" for d in range(1, 31)} | {
        f"2025-02-{d:02d}": "failed" for d in range(1, 29)
    } | {f"2025-03-{d:02d}": "solved" for d in range(1, 3)}  # fmt: skip
    assert len(progress["daily"]["days"]) == pp.DAYS_KEPT
    after = pp.record_attempt(progress, "x", True, DAY, {**RATED, "daily": {"last": DAY, "streak": 1}}, DAY)
    assert len(after["history"]) == pp.HISTORY_KEPT and after["history"][-1] == 1530.5
    assert len(after["daily"]["days"]) == pp.DAYS_KEPT
    assert "2025-01-01" not in after["daily"]["days"] and after["daily"]["days"][DAY] == "solved"


def _daily() -> tuple[str, str]:
    """A date and its daily puzzle (of all rules)."""
    return DAY, daily_for(DAY, catalogue.builtin())


def test_the_commands_rate_only_a_first_attempt_and_the_daily_run_once() -> None:
    engine = Engine()
    date, puzzle_id = _daily()
    first = ask(engine, cmd="puzzle_record", puzzle_id=puzzle_id, solved=True, date=date, daily=date,
                progress=pp.empty_progress())  # fmt: skip
    assert first["ok"] and first["first"] is True
    rate = ask(engine, cmd="puzzle_rate", puzzle_id=puzzle_id, solved=True, daily={"date": date})
    assert first["rated"] == {k: v for k, v in rate.items() if k not in ("v", "id", "ok")}
    assert first["daily"] == {"last": date, "streak": 1}
    progress = first["progress"]
    assert progress["rating"] == rate["rating"] and progress["streak"] == 1 and progress["best"] == 1
    assert progress["puzzles"][puzzle_id] == {"first": "solved", "solved": True, "tries": 1, "last": date}
    assert progress["daily"] == {"last": date, "streak": 1, "days": {date: "solved"}}

    again = ask(engine, cmd="puzzle_record", puzzle_id=puzzle_id, solved=False, date=date, daily=date,
                progress=progress)  # fmt: skip
    assert again["first"] is False and again["rated"] is None and again["daily"] is None
    assert again["progress"]["rating"] == progress["rating"]
    assert again["progress"]["streak"] == 1
    assert again["progress"]["puzzles"][puzzle_id]["tries"] == 2
    assert again["progress"]["daily"] == progress["daily"]

    shown = ask(engine, cmd="puzzle_progress", progress=again["progress"], today="2026-03-02")
    assert shown["states"] == {puzzle_id: "solved"}
    assert shown["summary"] == {"tried": 1, "first_try": 1, "solved": 1}
    assert shown["daily_run"] == 1 and shown["daily_today"] is None
    assert ask(engine, cmd="puzzle_progress", progress=again["progress"], today=date)["daily_today"] == "solved"
    assert ask(engine, cmd="puzzle_progress", progress=again["progress"], today="2026-03-03")["daily_run"] == 0

    opened = ask(engine, cmd="puzzle_open", puzzle_id=puzzle_id, progress=again["progress"])
    assert opened["first"] is False
    other = next(p.id for p in catalogue.builtin() if p.id != puzzle_id)
    assert ask(engine, cmd="puzzle_open", puzzle_id=other, progress=again["progress"])["first"] is True
    assert "first" not in ask(engine, cmd="puzzle_open", puzzle_id=other)


def test_a_resumed_attempt_is_first_only_if_the_earlier_one_was_still_going_on() -> None:
    engine = Engine()
    puzzle = catalogue.builtin()[0]
    fresh = ask(engine, cmd="puzzle_resume", puzzle_id=puzzle.id, moves=[], progress=pp.empty_progress())
    assert fresh["earlier"]["state"] == "playing" and fresh["first"] is True
    opened = ask(engine, cmd="puzzle_open", puzzle_id=puzzle.id)
    answer = {action_name(a) for a in puzzle.answer}
    wrong = next(a for a in opened["view"]["legal"] if a not in answer)
    failed = ask(engine, cmd="puzzle_resume", puzzle_id=puzzle.id, moves=[wrong], progress=pp.empty_progress())
    assert failed["earlier"]["state"] == "failed" and failed["first"] is False


@pytest.mark.parametrize(
    ("change", "message"),
    [
        (lambda r: r.pop("progress"), "missing argument 'progress'"),
        (lambda r: r.update(progress=[1, 2]), "argument 'progress': not an object"),
        (lambda r: r["progress"].update(version=2), "argument 'progress': version 2"),
        (lambda r: r["progress"].update(streak=-3), "argument 'progress': streak must be a count"),
        (lambda r: r["progress"].update(rating="high"), "argument 'progress': rating must be a number from 0 to 4000"),
        (
            lambda r: r["progress"]["puzzles"].update({"bad id!": {}}),
            "argument 'progress': puzzles holds a bad id 'bad id!'",
        ),
        (
            lambda r: r["progress"]["puzzles"].update(b={"first": "maybe"}),
            "argument 'progress': puzzles[b].first must be solved or failed",
        ),
        (lambda r: r["progress"]["daily"].update(last="yesterday"), "argument 'progress': daily.last"),
        (lambda r: r["progress"]["history"].append(None), "argument 'progress': history"),
        (lambda r: r.update(date="2026-W01-1"), "argument 'date' must be a date YYYY-MM-DD"),
        (lambda r: r.update(daily="2026-03-02"), "is not the daily puzzle of 2026-03-02"),
        (lambda r: r.update(solved="yes"), "argument 'solved' must be true or false"),
        (lambda r: r.update(puzzle_id="nope"), "no puzzle with id 'nope'"),
    ],
)
def test_a_malformed_record_is_refused_in_words_and_changes_nothing(change: Any, message: str) -> None:
    engine = Engine()
    date, puzzle_id = _daily()
    if daily_for("2026-03-02", catalogue.builtin()) == puzzle_id:  # pragma: no cover - another day then
        pytest.skip("the same puzzle two days running")
    progress = pp.record_attempt(pp.empty_progress(), "other", True, date, RATED, None)
    request: dict[str, Any] = {"v": 1, "cmd": "puzzle_record", "puzzle_id": puzzle_id, "solved": True,
                               "date": date, "daily": date, "progress": copy.deepcopy(progress)}  # fmt: skip
    change(request)
    sent = copy.deepcopy(request)
    answer = json.loads(engine.handle_page(json.dumps(request)))
    assert answer["ok"] is False, answer
    assert answer["error"]["code"] in ("bad_request", "unknown_puzzle")
    assert message in answer["error"]["message"], answer["error"]
    assert request == sent and engine.puzzles == {}
    # What the page keeps is what it had: the same attempt with it is recorded as before.
    good = ask(engine, cmd="puzzle_record", puzzle_id=puzzle_id, solved=True, date=date, daily=date,
               progress=progress)  # fmt: skip
    assert good["ok"] and good["first"] is True and good["progress"]["puzzles"]["other"] == progress["puzzles"]["other"]


def test_malformed_progress_opens_nothing() -> None:
    engine = Engine()
    puzzle = catalogue.builtin()[0]
    for cmd in ("puzzle_open", "puzzle_resume"):
        answer = ask(engine, cmd=cmd, puzzle_id=puzzle.id, progress={"version": 1})
        assert answer["error"]["code"] == "bad_request" and "argument 'progress'" in answer["error"]["message"]
    assert engine.puzzles == {}
    answer = ask(engine, cmd="puzzle_progress", progress=pp.empty_progress(), today="01/03/2026")
    assert answer["error"]["message"].startswith("argument 'today' must be a date YYYY-MM-DD")
