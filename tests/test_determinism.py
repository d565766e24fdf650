"""Same rules + seed + actions ⇒ the same game, on CPython and on Pyodide alike.

Whole seeded matches are played through the JSON protocol with ``ai_move`` for
both seats (fixed bot seeds, no time budget), and a SHA-256 of the transcript
(every action, the final scores and the ``save`` record) is compared with a
digest pinned here. This file runs unchanged under CPython (``pytest``) and
inside Pyodide (``node tests/pyodide/run_pytest.mjs``): both must reproduce the
same digests.

A digest changes whenever the rules engine, the shuffle or the computer
player changes what it does (a rules fix, a new search heuristic, another
shuffle). Then check that the change is intended, run
``python -m tests.test_determinism`` to print the new digests, paste them
below, and let the Pyodide run confirm them.
"""

from __future__ import annotations

import hashlib
import json
from typing import Any

import pytest

from py_engine.protocol import handle

#: The computer levels that play, with a fixed iteration count each (never a time
#: budget: that would make the game depend on the machine's speed). Level "2"
#: is the ISMCTS search (kept cheap: the whole file also runs in Pyodide).
ITERATIONS: dict[str, int | None] = {"2": 10, "heuristic": None}

#: (preset, match seed, level of both seats) → SHA-256 of the transcript.
PINNED: dict[tuple[str, int, str], str] = {
    # 57 actions, final scores [7, 0]
    ("AT20", 7, "2"): "4cc4b022fe00ff5ef65ab7aa34a3720bf5e2eae0d0e3bc5031ff9af47e0a4b0f",
    # 59 actions, final scores [7, 5]
    ("AT20", 20240, "heuristic"): "a3255603f4df7c93b6d122b4ed61df60551760622cc834a8a36a1f717ceaf7cd",
    # 134 actions, final scores [7, 4]
    ("DE24", 66, "2"): "f1c47fc56ab49e150ddbb05ccdeccfa417cbb5e7f2572dcdcd825e91738b72a1",
    # 125 actions, final scores [6, 7]
    ("DE24", 4242, "heuristic"): "41dafe5d34a6a22292bd5ebb559d548f099f2a1fdde4ea6745ee7f8eb7d66168",
    # 136 actions, final scores [6, 7]
    ("HU24", 24, "2"): "689551f3d4c5b1213074c7050a41637df4df6adebba544495c89b8c44046b50f",
    # 122 actions, final scores [4, 7]
    ("HU24", 1966, "heuristic"): "00980aaa8940cf4d57ff9dcb170c140b3be1d3ee86b7318f89feba99570661f9",
}

MAX_ACTIONS = 5000


def call(cmd: str, **args: Any) -> dict[str, Any]:
    response: dict[str, Any] = json.loads(handle(json.dumps({"v": 1, "id": cmd, "cmd": cmd, **args})))
    assert response["ok"], f"{cmd} {args} failed: {response['error']}"
    return response


def seat_to_move(game: str, view: dict[str, Any]) -> int:
    """The seat the match waits for: the one on turn, or (between deals) any seat with an action."""
    if view["to_act"] is not None:
        return int(view["to_act"])
    for seat in (0, 1):
        if call("legal", game=game, seat=seat)["actions"]:
            return seat
    raise AssertionError(f"nobody can act, phase {view['phase']!r}")


def play_match(preset: str, seed: int, level: str) -> dict[str, Any]:
    """One whole match, computer against computer; returns its transcript."""
    game = call("new_game", preset=preset, seed=seed, match=True)["game"]
    try:
        view = call("view", game=game, seat=0)["view"]
        actions: list[list[Any]] = []
        while view["phase"] != "match_over":
            assert len(actions) < MAX_ACTIONS, f"{preset} seed {seed}: no end after {MAX_ACTIONS} actions"
            seat = seat_to_move(game, view)
            move = call(
                "ai_move",
                game=game,
                seat=seat,
                observer=0,
                level=level,
                iterations=ITERATIONS[level],
                seed=seed * 10_000 + len(actions),
            )
            actions.append([seat, move["action"], move["events"]])
            view = move["view"]
        final = {seat: call("view", game=game, seat=seat)["view"] for seat in (0, 1)}
        record = call("save", game=game)["record"]
    finally:
        call("close_game", game=game)

    # The record must replay to the very same position.
    loaded = call("load", record=record)["game"]
    try:
        assert call("view", game=loaded, seat=0)["view"] == final[0]
    finally:
        call("close_game", game=loaded)

    return {
        "preset": preset,
        "seed": seed,
        "level": level,
        "actions": actions,
        "scores": final[0]["match"]["scores"],
        "deal_result": final[0]["deal_result"],
        "final_views": [final[0], final[1]],
        "record": record,
    }


def digest(transcript: dict[str, Any]) -> str:
    text = json.dumps(transcript, sort_keys=True, separators=(",", ":"), ensure_ascii=True, allow_nan=False)
    return hashlib.sha256(text.encode("ascii")).hexdigest()


@pytest.mark.parametrize(("preset", "seed", "level"), sorted(PINNED))
def test_seeded_match_is_reproducible(preset: str, seed: int, level: str) -> None:
    transcript = play_match(preset, seed, level)
    assert transcript["scores"] != [0, 0]
    assert digest(transcript) == PINNED[(preset, seed, level)], (
        f"{preset} seed {seed} level {level}: the game differs from the pinned one "
        f"({len(transcript['actions'])} actions, scores {transcript['scores']}). "
        "If the engine or the bot changed on purpose, re-pin with `python -m tests.test_determinism`."
    )


def test_same_seed_same_game_twice() -> None:
    """Within one interpreter: no hidden state (clock, hash order, global RNG) leaks into a game."""
    assert digest(play_match("AT20", 5, "2")) == digest(play_match("AT20", 5, "2"))


if __name__ == "__main__":
    for preset, seed, level in sorted(PINNED):
        t = play_match(preset, seed, level)
        actions, scores = len(t["actions"]), t["scores"]
        print(f"    # {actions} actions, final scores {scores}")
        print(f'    ("{preset}", {seed}, "{level}"): "{digest(t)}",')
