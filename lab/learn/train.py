"""Train the learned value on generated data: ``python -m lab.learn.train DATA... --out WEIGHTS``.

DATA are files of :mod:`lab.learn.generate`. The network is that of
:mod:`py_engine.ai.value_model`: the features, one hidden layer of ``--hidden``
rectified units, and one output per outcome, fitted by least squares to the
outcome that followed each position (a one-hot target: each output then
estimates its outcome's chance). Adam over mini-batches, in numpy (the
``learn`` extra: ``pip install -e '.[learn]'``); every deal whose number ends
in 0 is held out, and the epoch with the lowest held-out loss is the one
written. It prints both losses each epoch, beside the loss of always
predicting the training outcomes' frequencies, and the held-out error of the
expected game points. ``--init WEIGHTS`` fine-tunes a weights file instead
of starting from random weights; the file itself counts as epoch 0, so no
epoch worse than it is written.

A run depends on its data, ``--seed`` and ``--init`` alone on one machine
(numpy's matrix products may round differently on another).
"""

from __future__ import annotations

import argparse
import json
import sys
import time
from pathlib import Path
from typing import Any

import numpy as np
import numpy.typing as npt

from py_engine.ai.features import CLOSED_BY_OPPONENT, CLOSED_BY_SEAT, EXHAUSTED, FEATURES
from py_engine.ai.value_model import FORMAT, OUTCOMES, ValueModel, encode_floats

Floats = npt.NDArray[np.float32]
#: Each outcome's signed game points for the seat (the held-out error is counted in these).
GAME_POINTS = np.array([0 if o is None else o[1] if o[0] else -o[1] for o in OUTCOMES], dtype=np.float32)


def load(
    paths: list[Path],
) -> tuple[npt.NDArray[np.uint8], npt.NDArray[np.int64], npt.NDArray[np.bool_], dict[str, Any]]:
    """Features (positions × FEATURES, 0/1), outcome indices, the held-out mask, and what the data is."""
    rows: list[list[int]] = []
    labels: list[int] = []
    held: list[bool] = []
    headers = []
    deals = 0
    for path in paths:
        with path.open() as lines:
            headers.append(json.loads(next(lines))["header"])
            for line in lines:
                record = json.loads(line)
                deals += 1
                out = record["deal"] % 10 == 0
                for _seat, outcome, features in record["positions"]:
                    rows.append(features)
                    labels.append(outcome)
                    held.append(out)
    x = np.zeros((len(rows), FEATURES), dtype=np.uint8)
    for i, features in enumerate(rows):
        x[i, features] = 1
    about = {"data": headers, "deals": deals, "positions": len(rows)}
    return x, np.array(labels, dtype=np.int64), np.array(held, dtype=np.bool_), about


class Network:
    """The value network's weights as numpy arrays, with its forward pass and a step of Adam."""

    def __init__(self, hidden: int, rng: np.random.Generator, start: dict[str, Any] | None = None) -> None:
        self.params: list[Floats] = (
            weights_arrays(start)
            if start is not None
            else [
                (rng.standard_normal((FEATURES, hidden)) * 0.1).astype(np.float32),
                np.zeros(hidden, dtype=np.float32),
                (rng.standard_normal((hidden, len(OUTCOMES))) * 0.05).astype(np.float32),
                np.full(len(OUTCOMES), 1.0 / len(OUTCOMES), dtype=np.float32),
            ]
        )
        if self.params[0].shape != (FEATURES, hidden):
            raise ValueError(f"the starting weights have {self.params[0].shape[1]} hidden units, not {hidden}")
        self.moments = [np.zeros_like(p) for p in self.params]
        self.squares = [np.zeros_like(p) for p in self.params]
        self.steps = 0

    def forward(self, x: Floats) -> tuple[Floats, Floats]:
        w1, b1, w2, b2 = self.params
        hidden = np.maximum(x @ w1 + b1, 0.0)
        return hidden, hidden @ w2 + b2

    def loss(self, x: Floats, target: Floats) -> float:
        return float(np.mean(np.sum((self.forward(x)[1] - target) ** 2, axis=1)))

    def step(self, x: Floats, target: Floats, rate: float) -> None:
        """One Adam step on the mean squared error of one mini-batch."""
        w2 = self.params[2]
        hidden, out = self.forward(x)
        d_out = 2.0 * (out - target) / len(x)
        d_hidden = (d_out @ w2.T) * (hidden > 0)
        grads = [x.T @ d_hidden, d_hidden.sum(axis=0), hidden.T @ d_out, d_out.sum(axis=0)]
        self.steps += 1
        for p, g, m, v in zip(self.params, grads, self.moments, self.squares, strict=True):
            m *= 0.9
            m += 0.1 * g
            v *= 0.999
            v += 0.001 * g * g
            p -= (rate * (m / (1 - 0.9**self.steps)) / (np.sqrt(v / (1 - 0.999**self.steps)) + 1e-8)).astype(np.float32)


def weights_arrays(data: dict[str, Any]) -> list[Floats]:
    """The four arrays of a weights file, read by the engine's own reader (the inverse of :func:`weights_json`)."""
    model = ValueModel.from_json(data)
    return [
        np.array(model.rows, dtype=np.float32),
        np.array(model.hidden_bias, dtype=np.float32),
        np.array(model.outputs, dtype=np.float32),
        np.array(model.output_bias, dtype=np.float32),
    ]


def weights_json(network: Network, about: dict[str, Any]) -> dict[str, Any]:
    """The weights file of :mod:`py_engine.ai.value_model` for ``network``."""
    w1, b1, w2, b2 = network.params
    return {
        "format": FORMAT,
        "features": FEATURES,
        "hidden": int(w1.shape[1]),
        "first": encode_floats(w1.reshape(-1).tolist()),
        "first_bias": encode_floats(b1.tolist()),
        "second": encode_floats(w2.reshape(-1).tolist()),
        "second_bias": encode_floats(b2.tolist()),
        "about": about,
    }


def train(
    x: npt.NDArray[np.uint8],
    labels: npt.NDArray[np.int64],
    held: npt.NDArray[np.bool_],
    *,
    hidden: int,
    epochs: int,
    batch: int,
    rate: float,
    seed: int,
    start: dict[str, Any] | None = None,
    log: Any = sys.stdout,
) -> tuple[Network, dict[str, float]]:
    """The network of the best held-out epoch, and its figures."""
    rng = np.random.default_rng(seed)
    targets = np.eye(len(OUTCOMES), dtype=np.float32)[labels]
    train_x, train_t = x[~held], targets[~held]
    test_x, test_t = x[held].astype(np.float32), targets[held]
    frequencies = train_t.mean(axis=0)
    baseline = float(np.mean(np.sum((test_t - frequencies) ** 2, axis=1)))
    network = Network(hidden, rng, start)
    # A fine-tuned file is epoch 0: an epoch must beat it to be written.
    first = network.loss(test_x, test_t) if start is not None else np.inf
    best: tuple[float, list[Floats], int] = (first, [p.copy() for p in network.params], 0)
    for epoch in range(1, epochs + 1):
        started = time.perf_counter()
        order = rng.permutation(len(train_x))
        epoch_rate = rate * (0.5 ** ((epoch - 1) // max(1, epochs // 3)))
        for first in range(0, len(order), batch):
            chosen = order[first : first + batch]
            network.step(train_x[chosen].astype(np.float32), train_t[chosen], epoch_rate)
        held_loss = network.loss(test_x, test_t)
        train_loss = network.loss(train_x[:50_000].astype(np.float32), train_t[:50_000])
        print(
            f"epoch {epoch}: training loss {train_loss:.4f}, held-out {held_loss:.4f} "
            f"(frequencies alone {baseline:.4f}), {time.perf_counter() - started:.1f} s",
            file=log,
            flush=True,
        )
        if held_loss < best[0]:
            best = (held_loss, [p.copy() for p in network.params], epoch)
    network.params = best[1]
    expected = network.forward(test_x)[1] @ GAME_POINTS
    actual = test_t @ GAME_POINTS
    figures = {
        "held_out_loss": round(best[0], 5),
        "frequencies_loss": round(baseline, 5),
        "best_epoch": best[2],
        "held_out_game_points_rmse": round(float(np.sqrt(np.mean((expected - actual) ** 2))), 4),
        "held_out_game_points_rmse_of_mean": round(float(np.sqrt(np.mean((actual - actual.mean()) ** 2))), 4),
        "training_positions": len(train_x),
        "held_out_positions": len(test_x),
    }
    return network, figures


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("data", type=Path, nargs="+", help="files written by lab.learn.generate")
    parser.add_argument("--out", type=Path, required=True, help="the weights file to write")
    parser.add_argument("--hidden", type=int, default=32)
    parser.add_argument("--epochs", type=int, default=12)
    parser.add_argument("--batch", type=int, default=256)
    parser.add_argument("--rate", type=float, default=0.002, help="Adam's step size (halved each third of the epochs)")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument(
        "--open-only",
        action="store_true",
        help="train on the positions where the talon is open only (for LEAF_VALUE_STRICT=0)",
    )
    parser.add_argument("--init", type=Path, help="a weights file to start from (fine-tuning) instead of random ones")
    args = parser.parse_args(argv)
    start = json.loads(args.init.read_text()) if args.init else None
    started = time.perf_counter()
    x, labels, held, about = load(args.data)
    if args.open_only:
        keep = x[:, [CLOSED_BY_SEAT, CLOSED_BY_OPPONENT, EXHAUSTED]].sum(axis=1) == 0
        x, labels, held = x[keep], labels[keep], held[keep]
        about["positions"] = len(x)
        about["open_only"] = True
    print(f"{about['positions']} positions of {about['deals']} deals ({held.mean():.0%} held out)", flush=True)
    network, figures = train(
        x,
        labels,
        held,
        hidden=args.hidden,
        epochs=args.epochs,
        batch=args.batch,
        rate=args.rate,
        seed=args.seed,
        start=start,
    )
    about.update(figures)
    about["training"] = {
        "hidden": args.hidden,
        "epochs": args.epochs,
        "batch": args.batch,
        "rate": args.rate,
        "seed": args.seed,
        **({"init": start["about"]} if start else {}),
        "seconds": round(time.perf_counter() - started),
    }
    args.out.write_text(json.dumps(weights_json(network, about), indent=1) + "\n")
    print(json.dumps(figures))
    return 0


if __name__ == "__main__":
    sys.exit(main())
