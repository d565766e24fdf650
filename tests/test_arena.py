"""The arena: paired deals, a reproducible command line, and settings and iterations for one side only."""

from __future__ import annotations

import random

import pytest

from py_engine import arena
from py_engine.ai import heuristic, ismcts, tuning
from py_engine.ai.player import Decision, Level
from py_engine.deal import Deal
from py_engine.rules import PRESETS


def test_one_side_settings_apply_to_that_sides_decisions_only(monkeypatch: pytest.MonkeyPatch) -> None:
    seen: list[tuple[str, bool, object]] = []
    decide = arena.decide

    def recording(deal: Deal, seat: int, level: Level, rng: random.Random, *args: object, **kwargs: object) -> Decision:
        seen.append((level.name, ismcts.SEES_ALL, kwargs["iterations"]))
        return decide(deal, seat, level, rng, *args, **kwargs)  # type: ignore[arg-type]

    monkeypatch.setattr(arena, "decide", recording)
    job = arena.Job(
        PRESETS["AT20"], "2", "3", 5, False, None, iterations_a=30, iterations_b=20, settings_a=("SEES_ALL=1",)
    )
    first = arena.play_pair(job)
    assert {(sees, its) for name, sees, its in seen if name == "2"} == {(True, 30)}
    assert {(sees, its) for name, sees, its in seen if name == "3"} == {(False, 20)}
    assert ismcts.SEES_ALL is False  # the run leaves the defaults behind
    again = arena.play_pair(job)
    for ours, theirs in zip(first, again, strict=True):  # a pair depends on its seed alone (not the times)
        assert (ours.game_points, ours.deals_won, ours.iterations) == (
            theirs.game_points,
            theirs.deals_won,
            theirs.iterations,
        )


def test_the_arena_prints_shares_and_the_command_that_reproduces_them(capsys: pytest.CaptureFixture[str]) -> None:
    argv = [
        "--a",
        "heuristic",
        "--b",
        "random",
        "--pairs",
        "3",
        "--procs",
        "1",
        "--seed",
        "4",
        "--iterations-a",
        "9",
        "--set-b",
    ]
    assert arena.main([*argv, "ROLLOUT_RANDOM=0.5", "--markdown"]) == 0
    out = capsys.readouterr().out
    assert "A=heuristic vs B=random, 3 pairs = 6 deals" in out
    row = out.strip().splitlines()[-1]
    assert row.startswith("| AT20 | heuristic | random | 3 | ")
    assert row.endswith(
        "`python -m py_engine.arena --a heuristic --b random --preset AT20 --pairs 3 --seed 4"
        " --iterations-a 9 --set-b ROLLOUT_RANDOM=0.5` |"
    )
    assert heuristic.ROLLOUT_RANDOM == tuning.DEFAULTS["ROLLOUT_RANDOM"] == 0.15  # B's setting did not stay


def test_a_bad_setting_is_refused_before_anything_is_played(capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit):
        arena.main(["--pairs", "1", "--set-a", "NO_SUCH=1"])
    assert "NO_SUCH" in capsys.readouterr().err
