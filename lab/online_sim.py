"""Two engines play whole online matches over a simulated channel: ``python -m lab.online_sim``.

Each seat is a :class:`~py_engine.service.online.referee.Referee` that holds
only its own seat's cards; the channel carries their messages in order, as
JSON text (so nothing but JSON crosses it). The players choose among the
legal moves at random, with the claim taken whenever it is valid. Prints, per
preset, the matches and deals played, the messages and bytes each way, and
the engines' time per deal; any refused honest message is a failure.

``--matches 500`` plays 500 matches spread over every preset.
"""

from __future__ import annotations

import argparse
import json
import random
import statistics
import sys
import time
from collections import deque
from collections.abc import Callable
from dataclasses import dataclass, field

from py_engine.core.actions import CLAIM
from py_engine.core.rules import PRESET_IDS, PRESETS, Rules
from py_engine.service.online.referee import Message, Referee


@dataclass
class Channel:
    """Two referees and the messages in flight between them (each as JSON text, in order)."""

    seats: tuple[Referee, Referee]
    queues: tuple[deque[str], deque[str]] = field(default_factory=lambda: (deque(), deque()))
    sent: list[int] = field(default_factory=lambda: [0, 0])
    bytes: list[int] = field(default_factory=lambda: [0, 0])
    #: Called with (seat, message) before each message leaves ``seat``; may return another message.
    tamper: Callable[[int, Message], Message] | None = None
    #: Which seat's messages are handed over first in each round.
    order: tuple[int, int] = (0, 1)

    def post(self, seat: int, messages: list[Message]) -> None:
        for message in messages:
            if self.tamper is not None:
                message = self.tamper(seat, message)
            text = json.dumps(message, separators=(",", ":"))
            self.sent[seat] += 1
            self.bytes[seat] += len(text)
            self.queues[1 - seat].append(text)

    def deliver(self) -> bool:
        """Hand every message in flight to its seat; whether any was."""
        moved = False
        for seat in self.order:
            queue = self.queues[seat]
            while queue:
                self.post(seat, self.seats[seat].receive(json.loads(queue.popleft())))
                moved = True
        return moved


def new_channel(
    rules: Rules, seed: int, first_dealer: int | None = None, tamper: Callable[[int, Message], Message] | None = None
) -> Channel:
    rng = random.Random(seed)
    dealer = rng.randrange(2) if first_dealer is None else first_dealer
    match_id = f"sim {seed}"
    seats = (
        Referee(0, rules, match_id, dealer, rng.randbytes(32)),
        Referee(1, rules, match_id, dealer, rng.randbytes(32)),
    )
    channel = Channel(seats, tamper=tamper)
    for seat in (0, 1):
        channel.post(seat, seats[seat].start())
    return channel


def random_move(referee: Referee, rng: random.Random) -> int | None:
    """A legal move of the referee's seat, if it has one now: the claim when valid, else any at random."""
    if not referee.playing:
        return None
    assert referee.match is not None
    legal = referee.match.legal(referee.seat)
    if not legal:
        return None
    if CLAIM in legal and referee.match.deal.claim_is_valid(referee.seat):
        return CLAIM
    return legal[int(rng.random() * len(legal))]


def run(channel: Channel, rng: random.Random, step: Callable[[], None] | None = None, limit: int = 20000) -> None:
    """Deliver and play until nothing more happens (the match is over, or a cheat stopped it)."""
    for _ in range(limit):
        moved = channel.deliver()
        for seat in (0, 1):  # the pages' idle time: the next deal's pack is shuffled during this one
            channel.post(seat, channel.seats[seat].prepare_next())
        if step is not None:
            step()
        for seat in (0, 1):
            action = random_move(channel.seats[seat], rng)
            if action is not None:
                channel.post(seat, channel.seats[seat].act(action))
                moved = True
                if step is not None:
                    step()
                break
        if not moved:
            return
    raise RuntimeError("the match did not end")


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--matches", type=int, default=16, help="matches in all, spread over the presets")
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args(argv)
    rows: dict[str, dict[str, list[float]]] = {}
    failures = 0
    for i in range(args.matches):
        preset = PRESET_IDS[i % len(PRESET_IDS)]
        seed = args.seed * 100_000 + i
        start = time.perf_counter()
        channel = new_channel(PRESETS[preset], seed)
        try:
            run(channel, random.Random(seed))
        except Exception as e:  # an honest message refused is the failure this tool looks for
            print(f"{preset} seed {seed}: {type(e).__name__}: {e}")
            failures += 1
            continue
        seconds = time.perf_counter() - start
        a, b = (s.match for s in channel.seats)
        assert a is not None and b is not None
        if not a.finished or a.record() != b.record():
            print(f"{preset} seed {seed}: the two engines' records differ or the match did not end")
            failures += 1
            continue
        row = rows.setdefault(preset, {"matches": [], "deals": [], "messages": [], "bytes": [], "ms_per_deal": []})
        deals = len(a.records)
        row["matches"].append(1)
        row["deals"].append(deals)
        row["messages"].append(sum(channel.sent))
        row["bytes"].append(sum(channel.bytes))
        row["ms_per_deal"].append(seconds * 1000 / deals)
    print("preset  matches  deals  messages/deal  KB/deal  engines' ms/deal (median)")
    for preset, row in rows.items():
        deals = int(sum(row["deals"]))
        print(
            f"{preset:7} {len(row['matches']):7} {deals:6} {sum(row['messages']) / deals:14.1f}"
            f" {sum(row['bytes']) / deals / 1024:8.1f} {statistics.median(row['ms_per_deal']):12.0f}"
        )
    print(f"matches: {sum(len(r['matches']) for r in rows.values())}, failures: {failures}")
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
