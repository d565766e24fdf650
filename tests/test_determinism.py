"""Same rules + seed + actions ⇒ the same game, on CPython and on Pyodide alike.

Whole seeded matches are played through the JSON protocol with ``ai_move`` for
both seats (fixed bot seeds, no time budget). Each is compared twice:

* with a readable playthrough in ``tests/golden/`` (every action and what it
  did, as text), so a failure shows the first line that changed;
* with a SHA-256 of the whole transcript (every action with its events, the
  final scores and the ``save`` record) pinned here.

This file runs unchanged under CPython (``pytest``) and inside Pyodide
(``node tests/pyodide/run_pytest.mjs``): both must reproduce the same games.

Both change whenever the rules engine, the shuffle or the computer player
changes what it does (a rules fix, a new search heuristic, another shuffle).
Then check that the change is intended and run ``python -m tests.test_determinism``:
it rewrites the playthroughs and prints the new digests to paste below.
"""

from __future__ import annotations

import difflib
import hashlib
import json
from pathlib import Path
from typing import Any

import pytest

from py_engine.service.protocol import handle

#: The computer levels that play, with a fixed iteration count each (never a time
#: budget: that would make the game depend on the machine's speed). Level "2"
#: is the ISMCTS search (kept cheap: the whole file also runs in Pyodide).
ITERATIONS: dict[str, int | None] = {"2": 10, "heuristic": None}

#: (preset, match seed, level of both seats) → SHA-256 of the transcript.
PINNED: dict[tuple[str, int, str], str] = {
    # 57 actions, final scores [7, 0]
    ("AT20", 7, "2"): "dba5df8032f675c3f4d23446b8a88eb0b1b1e423cfb3c72f70f5d314c2e0c095",
    # 59 actions, final scores [7, 5]
    ("AT20", 20240, "heuristic"): "3074757706ddb2df117cfe4403c872effad9ae83d3a9b1a1155ec17882283ff2",
    # 134 actions, final scores [7, 4]
    ("DE24", 66, "2"): "931aee03aaf7407e19674f48170134297903632b7b7c9f317fc2f4b1d91a325c",
    # 125 actions, final scores [6, 7]
    ("DE24", 4242, "heuristic"): "c0e2299652c958d14490f4db7cf54c30111c6f0e708e771feb18e1701ad2f066",
    # 136 actions, final scores [6, 7]
    ("HU24", 24, "2"): "ac70440d72132bb0f7145ec9dccc82e7d43258c3bc8ef09887e2f200182ab6b2",
    # 122 actions, final scores [4, 7]
    ("HU24", 1966, "heuristic"): "67d4a70456ada616bd7bc1ed1ee16f99fdcefbddf6450891cea109b0cc39b391",
}

MAX_ACTIONS = 5000
GOLDEN = Path(__file__).resolve().parent / "golden"


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
        "record": record,
    }


def describe(event: dict[str, Any]) -> str:
    """One event in a few words (the card texts as the protocol writes them)."""
    kind = event["type"]
    if kind == "trick":
        return f"trick {' '.join(event['cards'])} to {event['winner']} (+{event['points']})"
    if kind == "play":
        return f"{event['seat']} plays {event['card']}"
    if kind == "draw":
        return f"{event['seat']} draws {event.get('card', 'a card')}"
    if kind == "deal_end":
        return f"deal to {event['winner']}: {event['game_points']} ({event['code']}, {event['basis']})"
    if kind == "deal":
        return f"deal by {event['dealer']}, trump {event['trump_card']}"
    extra = {k: v for k, v in event.items() if k not in ("type", "seat") and not isinstance(v, (list, dict))}
    who = f"{event['seat']} " if "seat" in event else ""
    return f"{who}{kind}" + "".join(f" {k}={v}" for k, v in sorted(extra.items()))


def playthrough(transcript: dict[str, Any]) -> str:
    """The match as text: one line per action, then the final scores."""
    lines = [f"{transcript['preset']} seed {transcript['seed']}, level {transcript['level']} on both seats"]
    for number, (seat, action, events) in enumerate(transcript["actions"], 1):
        said = "; ".join(describe(e) for e in events if e["type"] != "play" or e["seat"] != seat)
        lines.append(f"{number:4} seat {seat} {action:<10} {said}".rstrip())
    lines.append(f"final scores {transcript['scores']}")
    return "\n".join(lines) + "\n"


def golden_path(preset: str, seed: int, level: str) -> Path:
    return GOLDEN / f"{preset}-{seed}-{level}.txt"


def digest(transcript: dict[str, Any]) -> str:
    text = json.dumps(transcript, sort_keys=True, separators=(",", ":"), ensure_ascii=True, allow_nan=False)
    return hashlib.sha256(text.encode("ascii")).hexdigest()


@pytest.mark.parametrize(("preset", "seed", "level"), sorted(PINNED))
def test_seeded_match_is_reproducible(preset: str, seed: int, level: str) -> None:
    transcript = play_match(preset, seed, level)
    assert transcript["scores"] != [0, 0]
    expected = golden_path(preset, seed, level).read_text(encoding="utf-8")
    played = playthrough(transcript)
    if played != expected:
        diff = difflib.unified_diff(expected.splitlines(), played.splitlines(), "pinned", "played", n=1, lineterm="")
        raise AssertionError(f"{preset} seed {seed} level {level} plays differently:\n" + "\n".join(list(diff)[:12]))
    assert digest(transcript) == PINNED[(preset, seed, level)], (
        f"{preset} seed {seed} level {level}: the game differs from the pinned one "
        f"({len(transcript['actions'])} actions, scores {transcript['scores']}). "
        "If the engine or the bot changed on purpose, re-pin with `python -m tests.test_determinism`."
    )


def test_same_seed_same_game_twice() -> None:
    """Within one interpreter: no hidden state (clock, hash order, global RNG) leaks into a game."""
    assert digest(play_match("AT20", 5, "2")) == digest(play_match("AT20", 5, "2"))


if __name__ == "__main__":
    GOLDEN.mkdir(exist_ok=True)
    for preset, seed, level in sorted(PINNED):
        t = play_match(preset, seed, level)
        golden_path(preset, seed, level).write_text(playthrough(t), encoding="utf-8")
        actions, scores = len(t["actions"]), t["scores"]
        print(f"    # {actions} actions, final scores {scores}")
        print(f'    ("{preset}", {seed}, "{level}"): "{digest(t)}",')
