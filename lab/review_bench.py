"""How long one review request holds the engine: ``python -m lab.review_bench [--budget MS]``.

Plays a few single-deal games (the computer at both seats, few iterations),
then reviews each with both seats' decisions evaluated at ``--budget`` ms a
decision, asking part by part while the answer names a ``next_step`` (an
engine without parts answers in one request), and prints each request's
time: the longest and the median request, and the median whole review.
Only the protocol is used, so the file also measures an earlier engine.
"""

from __future__ import annotations

import argparse
import json
import statistics
import sys
import time
from typing import Any

from py_engine.service.protocol import Engine

#: The deals reviewed: (preset, seed).
DEALS = (("HU24", 1), ("AT20", 2), ("DE24", 3), ("PL24", 4), ("KLUB20", 5))


def _call(engine: Engine, **request: Any) -> dict[str, Any]:
    answer: dict[str, Any] = json.loads(engine.handle(json.dumps({"v": 1, **request})))
    if not answer["ok"]:
        raise SystemExit(f"{request['cmd']}: {answer['error']}")
    return answer


def review_times(preset: str, seed: int, budget_ms: int) -> list[float]:
    """The seconds of each request of one evaluated review of a deal played by the computer."""
    engine = Engine()
    seating = {"mode": "watch"}
    table = _call(engine, cmd="table_new", preset=preset, seed=seed, match=False, seating=seating)["table"]
    move = {"cmd": "table_computer", "table": table, "iterations": 200, "seed": 1, "timed": False}
    while not _call(engine, **move)["view"]["game_over"]:
        pass
    times: list[float] = []
    start: int | None = 0
    while start is not None:
        request: dict[str, Any] = {"table": table, "deal": 0, "evaluate": [0, 1], "budget_ms": budget_ms}
        if start:
            request["from_step"] = start
        began = time.perf_counter()
        review = _call(engine, cmd="table_review", **request)["review"]
        times.append(time.perf_counter() - began)
        start = review.get("next_step")
    return times


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--budget", type=int, default=300, help="ms a decision (default 300, the page's)")
    parser.add_argument("--deals", type=int, default=3, help=f"deals reviewed, at most {len(DEALS)} (default 3)")
    args = parser.parse_args(argv)
    requests: list[float] = []
    reviews: list[float] = []
    for preset, seed in DEALS[: args.deals]:
        times = review_times(preset, seed, args.budget)
        requests += times
        reviews.append(sum(times))
        print(f"{preset} seed {seed}: {len(times)} request(s), {sum(times):.2f} s, longest {max(times):.2f} s")
    print(
        f"budget {args.budget} ms a decision: longest request {max(requests):.2f} s, "
        f"median request {statistics.median(requests):.2f} s, median review {statistics.median(reviews):.2f} s"
    )
    return 0


if __name__ == "__main__":
    sys.exit(main())
