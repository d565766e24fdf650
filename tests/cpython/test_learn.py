"""The lab's learning commands (lab/learn): data made reproducibly, and weights that the engine reads as trained.

CPython only: the generator spreads deals over processes and training needs numpy.
"""

from __future__ import annotations

import json
import random
from pathlib import Path

import numpy as np
import pytest

from lab.learn import generate, train
from py_engine.ai.features import active_features
from py_engine.ai.value_model import OUTCOMES, ValueModel
from py_engine.core.deal import Deal
from py_engine.core.rules import PRESETS
from py_engine.service.match import shuffled_deck

ARGS = ["--deals", "12", "--player", "2", "--iterations", "20", "--presets", "AT20,HU24", "--seed", "3"]


def test_the_data_is_the_same_whatever_the_processes_and_a_stopped_run_resumes(tmp_path: Path) -> None:
    one, two, cut = tmp_path / "one.jsonl", tmp_path / "two.jsonl", tmp_path / "cut.jsonl"
    assert generate.main([*ARGS, "--out", str(one), "--procs", "1"]) == 0
    assert generate.main([*ARGS, "--out", str(two), "--procs", "2"]) == 0
    assert one.read_bytes() == two.read_bytes()
    lines = one.read_text().split("\n")
    assert len(lines) == 12 + 2  # the header, 12 deals, the final newline
    # A run stopped in the middle of a line: the whole lines are kept and the rest played again.
    cut.write_text("\n".join(lines[:6]) + "\n" + lines[6][:40])
    assert generate.main([*ARGS, "--out", str(cut), "--procs", "2"]) == 0
    assert cut.read_bytes() == one.read_bytes()
    record = json.loads(lines[1])
    assert record["deal"] == 0 and record["preset"] == "AT20"
    assert {seat for seat, _, _ in record["positions"]} == {0, 1}
    assert all(0 <= outcome < len(OUTCOMES) for _, outcome, _ in record["positions"])


def test_a_file_of_another_run_is_refused(tmp_path: Path) -> None:
    out = tmp_path / "data.jsonl"
    assert generate.main([*ARGS, "--out", str(out), "--procs", "1"]) == 0
    before = out.read_bytes()
    with pytest.raises(SystemExit, match="another run"):
        generate.main([*ARGS[:-1], "4", "--out", str(out), "--procs", "1"])
    assert out.read_bytes() == before


def test_trained_weights_score_positions_as_numpy_does(tmp_path: Path) -> None:
    data, weights = tmp_path / "data.jsonl", tmp_path / "weights.json"
    assert generate.main([*ARGS, "--deals", "30", "--out", str(data), "--procs", "2"]) == 0
    assert train.main([str(data), "--out", str(weights), "--epochs", "2", "--hidden", "8"]) == 0
    saved = json.loads(weights.read_text())
    assert saved["about"]["deals"] == 30 and saved["about"]["training"]["hidden"] == 8
    model = ValueModel.from_json(saved)
    w1 = np.array(model.rows, dtype=np.float64)
    b1 = np.array(model.hidden_bias)
    w2 = np.array(model.outputs)
    b2 = np.array(model.output_bias)
    rules = PRESETS["DE24"]
    rng = random.Random(1)
    for _ in range(20):
        deal = Deal(rules, shuffled_deck(rng, rules.deck), dealer=rng.randrange(2))
        x = np.zeros(len(model.rows))
        x[active_features(deal, 0)] = 1.0
        expected = np.maximum(x @ w1 + b1, 0.0) @ w2 + b2
        assert np.allclose(model.outcome_scores(deal, 0), expected, atol=1e-9)


def test_training_lowers_the_held_out_loss_below_the_outcome_frequencies(tmp_path: Path) -> None:
    """On data where the cards decide (the rule of thumb against itself), the network beats knowing nothing."""
    data = tmp_path / "data.jsonl"
    assert generate.main(["--deals", "400", "--player", "heuristic", "--presets", "AT20", "--out", str(data)]) == 0
    x, labels, held, _ = train.load([data])
    _, figures = train.train(x, labels, held, hidden=16, epochs=6, batch=128, rate=0.003, seed=1)
    assert figures["held_out_loss"] < figures["frequencies_loss"]


def test_fine_tuning_starts_from_the_given_weights_and_refuses_another_size(tmp_path: Path) -> None:
    """``--init`` continues from a weights file: the network before any step is that file's, exactly, and
    no epoch worse than the file is written."""
    data, weights = tmp_path / "data.jsonl", tmp_path / "weights.json"
    assert generate.main([*ARGS, "--deals", "30", "--out", str(data), "--procs", "1"]) == 0
    assert train.main([str(data), "--out", str(weights), "--epochs", "2", "--hidden", "8"]) == 0
    saved = json.loads(weights.read_text())
    started = train.Network(8, np.random.default_rng(5), saved)
    again = train.weights_json(started, saved["about"])
    assert all(again[key] == saved[key] for key in ("first", "first_bias", "second", "second_bias"))
    tuned = tmp_path / "tuned.json"
    # A step size that wrecks the network: its one epoch is worse than the file, so the file itself is written.
    wrecked = ["--epochs", "1", "--hidden", "8", "--rate", "5", "--init", str(weights)]
    assert train.main([str(data), "--out", str(tuned), *wrecked]) == 0
    written = json.loads(tuned.read_text())
    assert written["about"]["best_epoch"] == 0 and written["about"]["training"]["init"]["deals"] == 30
    assert all(written[key] == saved[key] for key in ("first", "first_bias", "second", "second_bias"))
    with pytest.raises(ValueError, match="8 hidden units, not 16"):
        train.main([str(data), "--out", str(tuned), "--hidden", "16", "--init", str(weights)])
