"""The arena: paired deals, a reproducible command line, and settings and iterations for one side only."""

from __future__ import annotations

import json
from dataclasses import replace
from pathlib import Path
from typing import Any

import pytest

from lab import arena
from py_engine.ai import player
from py_engine.ai.config import DEFAULT_CONFIG
from py_engine.core.rules import PRESETS

from .scenario import record_searches


def test_one_side_settings_apply_to_that_sides_searches_only(monkeypatch: pytest.MonkeyPatch) -> None:
    searched = record_searches(monkeypatch)
    wider = DEFAULT_CONFIG.with_settings(("EXPLORATION=1.5",))
    job = arena.Job(PRESETS["AT20"], "2", "3", 5, False, None, iterations_a=30, iterations_b=20, config_a=wider)
    first = arena.play_pair(job)
    assert {(s.options["config"].exploration, s.options["iterations"]) for s in searched} == {
        (1.5, 30),
        (DEFAULT_CONFIG.exploration, 20),
    }  # A: 30 iterations, its constant; B: 20
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
        "`python -m lab.arena --a heuristic --b random --preset AT20 --pairs 3 --seed 4"
        " --iterations-a 9 --set-b ROLLOUT_RANDOM=0.5` |"
    )


def test_each_side_plays_its_levels_config_with_both_sides_settings_then_its_own(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    jobs: list[arena.Job] = []

    def recording(job: arena.Job) -> tuple[arena.Tally, arena.Tally]:
        jobs.append(job)
        return arena.Tally(), arena.Tally()

    monkeypatch.setattr(arena, "play_pair", recording)
    argv = ["--a", "5", "--b", "4", "--pairs", "1", "--procs", "1", "--set", "PRIOR_WEIGHT=1.5"]
    assert arena.main([*argv, "--set-a", "PRIOR_WEIGHT=2", "--set-b", "SOLVE_CARDS=8"]) == 0
    capsys.readouterr()
    [job] = jobs
    assert job.config_a == replace(player.TOP_CONFIG, prior_weight=2.0)  # A's own setting after both sides'
    assert job.config_b == replace(DEFAULT_CONFIG, prior_weight=1.5, solve_cards=8)
    # On a 24-card preset a level's own constants there are the base.
    assert arena.main([*argv, "--preset", "HU24", "--set-a", "PRIOR_WEIGHT=2"]) == 0
    capsys.readouterr()
    assert jobs[1].config_a == replace(player.TOP_CONFIG_24, prior_weight=2.0)
    assert player.level_named("5").configs == (player.TOP_CONFIG, player.TOP_CONFIG_24)  # the levels are unchanged


def test_a_bad_setting_is_refused_before_anything_is_played(capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit):
        arena.main(["--pairs", "1", "--set-a", "NO_SUCH=1"])
    assert "NO_SUCH" in capsys.readouterr().err


def test_a_journal_resumes_a_stopped_run_with_the_same_result(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    argv = ["--a", "heuristic", "--b", "1", "--pairs", "4", "--procs", "1", "--seed", "6"]
    assert arena.main(argv) == 0
    whole = capsys.readouterr().out.splitlines()[:3]
    journal = tmp_path / "run.jsonl"
    assert arena.main([*argv[:5], "2", *argv[6:], "--journal", str(journal)]) == 0  # the first two pairs
    capsys.readouterr()
    lines = journal.read_text().splitlines()
    assert len(lines) == 3 and '"run"' in lines[0] and "--pairs" not in lines[0]
    journal.write_text("\n".join(lines) + '\n{"seed": 6000')  # stopped while writing a third pair
    played: list[int] = []
    play_pair = arena.play_pair

    def counting(job: arena.Job) -> tuple[arena.Tally, arena.Tally]:
        played.append(job.seed)
        return play_pair(job)

    monkeypatch.setattr(arena, "play_pair", counting)
    assert arena.main([*argv, "--journal", str(journal)]) == 0
    out = capsys.readouterr().out
    assert out.splitlines()[:3] == whole  # the same shares as the run in one go
    assert "2 pairs read from" in out
    assert len(played) == 2  # only the two pairs not in the journal were played
    assert len(journal.read_text().splitlines()) == 5
    assert arena.main([*argv, "--journal", str(journal)]) == 0
    assert len(played) == 2  # all four read back, none played


def test_a_journal_of_another_run_or_a_damaged_one_is_refused(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    journal = tmp_path / "run.jsonl"
    argv = ["--a", "heuristic", "--b", "random", "--pairs", "1", "--procs", "1", "--journal", str(journal)]
    assert arena.main(argv) == 0
    capsys.readouterr()
    with pytest.raises(SystemExit):
        arena.main([*argv, "--seed", "2"])
    assert "is not the journal of this run" in capsys.readouterr().err
    before = journal.read_text()
    journal.write_text(before + "not json\n" + before.splitlines()[1] + "\n")
    with pytest.raises(SystemExit):
        arena.main(argv)
    assert "line 3: not a finished pair" in capsys.readouterr().err
    journal.write_text(before + "not json\n")  # a whole line, not one cut short: damaged, not stopped
    with pytest.raises(SystemExit):
        arena.main(argv)
    assert "line 3: not a finished pair" in capsys.readouterr().err
    header = json.loads(before.splitlines()[0])
    header["players"][1] = header["players"][1].replace("'random'", "'heuristic'")  # the code changed a level
    journal.write_text(json.dumps(header) + "\n" + before.splitlines()[1] + "\n")
    with pytest.raises(SystemExit):
        arena.main(argv)
    assert "with these players and constants" in capsys.readouterr().err


@pytest.mark.parametrize("preset_id", ["AT20", "DE24"])
def test_paired_bummerls_deal_the_same_packs_in_the_same_order_with_the_seats_swapped(
    preset_id: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    played: list[tuple[Any, tuple[str, str]]] = []
    play = arena._play

    def recording(match: Any, levels: tuple[player.Level, player.Level], *args: Any) -> list[arena.Tally]:
        tallies = play(match, levels, *args)
        played.append((match, (levels[0].name, levels[1].name)))
        return tallies

    monkeypatch.setattr(arena, "_play", recording)
    rules = PRESETS[preset_id]  # DE24: the winner deals next, so the halves' dealers part ways
    a, b = arena.play_pair(arena.Job(rules, "heuristic", "random", 12, True, None))
    (first, seats_first), (second, seats_second) = played
    assert seats_first == ("heuristic", "random") and seats_second == ("random", "heuristic")  # seats swapped
    for match in (first, second):  # each half is a whole Bummerl, played to the target
        assert match.match_over and max(match.scores) == rules.match_target
        assert len(match.records) > 1
    assert first.records[0].dealer == second.records[0].dealer
    shared = min(len(first.records), len(second.records))
    assert [r.deck for r in first.records[:shared]] == [r.deck for r in second.records[:shared]]
    assert len({tuple(r.deck) for r in first.records}) == len(first.records)  # a new pack every deal
    assert a.matches_won + b.matches_won == 2  # one Bummerl a half
    assert a.deals_won + b.deals_won <= len(first.records) + len(second.records)


def test_a_bummerl_run_reports_the_bummerl_and_the_game_point_shares_and_their_units(
    capsys: pytest.CaptureFixture[str],
) -> None:
    argv = ["--a", "heuristic", "--b", "random", "--pairs", "3", "--procs", "1", "--matches", "--markdown"]
    assert arena.main(argv) == 0
    lines = capsys.readouterr().out.strip().splitlines()
    assert lines[0] == "arena AT20: A=heuristic vs B=random, 3 pairs = 6 Bummerls (matches to 7)"
    units = {line.split()[0]: line for line in lines[1:4]}
    assert set(units) == {"game", "deals", "Bummerls"}
    assert units["Bummerls"].endswith("(Bummerls won: matches played to the preset's target)")
    assert units["game"].endswith("(game points the deals awarded, carried-over points left out)")
    row = lines[-1]
    assert row.startswith("| AT20 | heuristic | random | 3 | ") and row.count("%]") == 3
    assert row.endswith("--pairs 3 --matches` |")
    bummerls = units["Bummerls"].split("A share ")[1].split("  95% CI ")
    assert row.split(" | ")[4] == f"{bummerls[0]} {bummerls[1].split('  ')[0]}"  # the Bummerl share comes first


def test_share_intervals_resample_the_pairs() -> None:
    rng = __import__("random").Random(1)
    assert arena.share_interval([(2, 0)] * 50, rng) == (1.0, 1.0)
    # 400 pairs, each won 2:0 by one side or the other: a share of 50%, its standard error 2.5 points
    low, high = arena.share_interval([(2, 0), (0, 2)] * 200, rng)
    assert 0.44 < low < 0.46 and 0.54 < high < 0.56
    # Split pairs (1:1) carry no information about who is stronger: they narrow the interval
    low_split, high_split = arena.share_interval([(2, 0), (0, 2)] * 100 + [(1, 1)] * 200, rng)
    assert high_split - low_split < high - low
    assert low_split < 0.5 < high_split


def test_shares_count_each_unit_of_a_run() -> None:
    results = [
        (arena.Tally(game_points=5, deals_won=3, matches_won=2), arena.Tally(game_points=7, deals_won=4)),
        (
            arena.Tally(game_points=8, deals_won=5, matches_won=1),
            arena.Tally(game_points=6, deals_won=3, matches_won=1),
        ),
    ]
    figures = arena.shares(results, matches=True)
    assert [(f.unit, f.a, f.b) for f in figures] == [("game points", 13, 13), ("deals", 8, 7), ("Bummerls", 3, 1)]
    assert figures[2].value == 0.75 and figures[0].value == 0.5
    assert [f.unit for f in arena.shares(results, matches=False)] == ["game points", "deals"]
    assert all(f.low <= f.value <= f.high for f in figures)


def test_a_few_pairs_of_bummerls_that_all_split_still_leave_an_interval() -> None:
    split = [(arena.Tally(matches_won=1), arena.Tally(matches_won=1))] * 4
    bummerls = arena.shares(split, matches=True)[2]
    assert bummerls.value == 0.5 and bummerls.low < 0.4 and bummerls.high > 0.6  # not [50%, 50%]
    many = [(arena.Tally(matches_won=2), arena.Tally())] * 150 + [(arena.Tally(), arena.Tally(matches_won=2))] * 50
    wide = arena.shares(many, matches=True)[2]
    assert wide.value == 0.75 and 0.68 < wide.low < 0.70 and 0.80 < wide.high < 0.82  # the pseudo-pairs fade


def test_matches_can_start_from_a_score(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """At 6:6 on AT20 the first deal with a winner ends each match; the score is part of the run's journal."""
    journal = tmp_path / "run.jsonl"
    argv = ["--a", "heuristic", "--b", "1", "--preset", "AT20", "--matches", "--pairs", "6", "--procs", "1"]
    assert arena.main([*argv, "--from-score", "6:6", "--journal", str(journal)]) == 0
    assert "from A 6 : B 6" in capsys.readouterr().out
    lines = journal.read_text().splitlines()
    assert "--from-score 6:6" in json.loads(lines[0])["run"]
    for line in lines[1:]:
        pair = json.loads(line)
        assert pair["a"]["matches_won"] + pair["b"]["matches_won"] == 2
        assert pair["a"]["deals_won"] + pair["b"]["deals_won"] == 2  # one won deal ends each match
    job = arena.Job(PRESETS["AT20"], "heuristic", "1", 7, True, None, start=(0, 6))
    a, b = arena.play_pair(job)
    assert b.matches_won >= 1 and a.game_points >= 7 * a.matches_won  # A needs all 7 from 0
    for wrong in (["--from-score", "7:0"], ["--from-score", "6-6"], ["--from-score", "-1:2"]):
        with pytest.raises(SystemExit):
            arena.main([*argv, *wrong])
    with pytest.raises(SystemExit):
        arena.main([*argv[:6], *argv[7:], "--from-score", "3:3"])  # not without --matches
    assert "needs --matches" in capsys.readouterr().err


def test_a_score_blind_b_decides_as_at_nil_all_while_a_sees_the_score(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    searched = record_searches(monkeypatch)
    job = arena.Job(PRESETS["AT20"], "2", "3", 5, True, None, 30, 20, start=(5, 6), score_blind_b=True)
    arena.play_pair(job)
    seen = [(s.options["iterations"], s.utility.needs, s.utility.carry) for s in searched]
    assert {needs for its, needs, _ in seen if its == 20} == {(7, 7)}  # B: as at 0:0 all along
    assert {carry for its, _, carry in seen if its == 20} == {0}
    a_needs = {needs for its, needs, _ in seen if its == 30}
    assert a_needs and all(min(needs) <= 2 for needs in a_needs)  # A: from 5:6, both seats need 2 or 1
    journal = tmp_path / "run.jsonl"
    argv = ["--a", "heuristic", "--b", "1", "--matches", "--pairs", "2", "--procs", "1", "--score-blind-b"]
    assert arena.main([*argv, "--journal", str(journal)]) == 0
    assert "--score-blind-b" in json.loads(journal.read_text().splitlines()[0])["run"]


def test_a_scaled_side_searches_its_levels_counts_times_the_factor(monkeypatch: pytest.MonkeyPatch) -> None:
    searched = record_searches(monkeypatch)
    level = arena.scaled(player.level_named("5"), 0.01)
    assert (level.unclocked, level.unclocked_reading) == ((80, 49), (60, 38))
    assert arena.scaled(player.level_named("2"), 1.5).iterations == 150
    job = arena.Job(PRESETS["AT20"], "2", "2", 5, False, None, scale_a=0.5)
    arena.play_pair(job)
    assert {s.options["iterations"] for s in searched} == {50, 100}  # A 50 iterations, B its level's 100
    searched.clear()
    arena.play_pair(replace(job, scale_a=1.0, scale_b=0.3))
    assert {s.options["iterations"] for s in searched} == {100, 30}  # now B searches 30
    # The top level of 24-card presets before the learned value, as B: its former counts.
    before = arena.scaled(player.level_named("5"), 0.7142857)
    assert (before.unclocked, before.unclocked_reading) == ((5714, 3500), (4286, 2700))
    assert player.TOP_CONFIG_24.with_settings(("LEAF_VALUE=0", "LEAF_VALUE_STRICT=1")) == player.TOP_CONFIG


def test_a_journal_with_the_learned_value_belongs_to_its_weights(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    journal = tmp_path / "run.jsonl"
    argv = ["--a", "2", "--b", "2", "--iterations", "10", "--pairs", "1", "--procs", "1", "--journal", str(journal)]
    assert arena.main([*argv, "--set-a", "LEAF_VALUE=1"]) == 0
    header = json.loads(journal.read_text().splitlines()[0])
    assert len(header["value_weights"]) == 64  # a SHA-256 of the shipped weights
    guided = tmp_path / "guided.jsonl"
    assert arena.main([*argv[:-1], str(guided), "--set-b", "ROLLOUT_LEARNED=1"]) == 0
    assert json.loads(guided.read_text().splitlines()[0])["value_weights"] == header["value_weights"]
    plain = tmp_path / "plain.jsonl"
    assert arena.main([*argv[:-1], str(plain)]) == 0
    assert "value_weights" not in json.loads(plain.read_text().splitlines()[0])  # older journals stay readable
    capsys.readouterr()
    monkeypatch.setattr(arena.value_model, "weights_text", lambda: "other weights")
    with pytest.raises(SystemExit):
        arena.main([*argv, "--set-a", "LEAF_VALUE=1"])
    assert "with these players and constants" in capsys.readouterr().err
