"""The arena: paired deals, a reproducible command line, and settings and iterations for one side only."""

from __future__ import annotations

from typing import Any

import pytest

from py_engine import arena
from py_engine.ai import heuristic, ismcts, player
from py_engine.deal import Deal
from py_engine.rules import PRESETS


def test_one_side_settings_apply_to_that_sides_searches_only(monkeypatch: pytest.MonkeyPatch) -> None:
    seen: list[tuple[bool, int | None]] = []
    search = player.search

    def recording(deal: Deal, seat: int, *args: Any, **kwargs: Any) -> ismcts.SearchResult:
        seen.append((ismcts.SEES_ALL, kwargs["iterations"]))
        return search(deal, seat, *args, **kwargs)

    monkeypatch.setattr(player, "search", recording)
    job = arena.Job(
        PRESETS["AT20"], "2", "3", 5, False, None, iterations_a=30, iterations_b=20, settings_a=("SEES_ALL=1",)
    )
    first = arena.play_pair(job)
    assert set(seen) == {(True, 30), (False, 20)}  # A searches 30 iterations seeing all, B 20 without
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
    assert heuristic.ROLLOUT_RANDOM == 0.15  # B's setting did not stay


def test_a_bad_setting_is_refused_before_anything_is_played(capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit):
        arena.main(["--pairs", "1", "--set-a", "NO_SUCH=1"])
    assert "NO_SUCH" in capsys.readouterr().err
