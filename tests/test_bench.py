"""The benchmark command: search settings reach the measured search, and bad ones are refused."""

from __future__ import annotations

import pytest

from lab import bench

from .scenario import record_reads


def test_a_setting_reaches_the_measured_search(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    read = record_reads(monkeypatch)
    argv = ["--ai", "--runs", "1", "--seconds", "0.02", "--preset", "AT20", "--set", "READ_PLAY=1"]
    assert bench.main(argv) == 0
    out = capsys.readouterr().out
    assert "median of 1 runs of 0.02 s, with READ_PLAY=1" in out
    assert "search it/s" in out
    assert [r for r, _ in read] == [True]  # the position keeps its event log, so the search read the opponent's play


def test_a_bad_setting_is_refused(capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit):
        bench.main(["--ai", "--set", "READ_PLAY=maybe"])
    assert "READ_PLAY is true or false" in capsys.readouterr().err


def test_the_review_benchmark_prints_its_figures(capsys: pytest.CaptureFixture[str]) -> None:
    from lab import review_bench

    assert review_bench.main(["--budget", "20", "--deals", "1"]) == 0
    out = capsys.readouterr().out
    assert out.startswith("HU24 seed 1: ") and "budget 20 ms a decision: longest request" in out
