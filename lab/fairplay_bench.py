"""The shared pack's cost: ``python -m lab.fairplay_bench [--pyodide]``.

For a 20- and a 24-card pack, the median and the worst of several runs of:

* **shuffle**: the four steps of :mod:`py_engine.fairplay.pack`, both sides in
  turn (what two pages wait for, less the channel's latency), and each side's
  own share of it;
* **deal**: the shuffle, then each side opening its hand (the other's keys)
  and both opening the trump card: the wait before a deal's first move;
* **audit**: one side checking the other's two steps with its released keys
  at the end of the deal (each side does this at the same time);
* **a move** of protocol 2: the mover's engine (its check and its
  signature) and the other's (the signature, the chain and the referee);
  and **between deals**, each page's engine time from a deal's last move
  until it can play the next (the audit, the dealing's keys; the next pack
  was shuffled during the deal), the channel's latency not counted;
* the same group operation beside a reference: one ristretto255 scalar
  multiplication and one 2048-bit modular exponentiation (RFC 3526 group 14),
  the alternative cipher, measured in the same run.

``--pyodide`` runs the same inside Pyodide under Node and prints both.
"""

from __future__ import annotations

import argparse
import json
import platform
import random
import statistics
import subprocess
import sys
import time
from collections.abc import Callable
from pathlib import Path

from py_engine.core.cards import deck_cards
from py_engine.core.deal import deal_hands
from py_engine.fairplay import group
from py_engine.fairplay.pack import FIRST, SECOND, Shuffle, context_of

# RFC 3526, group 14: the 2048-bit MODP safe prime.
_MODP_2048 = int(
    "FFFFFFFFFFFFFFFFC90FDAA22168C234C4C6628B80DC1CD129024E088A67CC74020BBEA63B139B22514A08798E3404DD"
    "EF9519B3CD3A431B302B0A6DF25F14374FE1356D6D51C245E485B576625E7EC6F44C42E9A637ED6B0BFF5CB6F406B7ED"
    "EE386BFB5A899FA5AE9F24117C4B1FE649286651ECE45B3DC2007CB8A163BF0598DA48361C55D39A69163FA8FD24CF5F"
    "83655D23DCA3AD961C62F356208552BB9ED529077096966D670C354E4ABC9804F1746C08CA18217C32905E462E36CE3B"
    "E39E772C180E86039B2783A2EC07A28FB5C55DF06F4C52C9DE2BCBF6955817183995497CEA956AE515D2261898FA0510"
    "15728E5A8AACAA68FFFFFFFFFFFFFFFF",
    16,
)


def _timed(work: Callable[[], object]) -> float:
    start = time.perf_counter()
    work()
    return (time.perf_counter() - start) * 1000


def one_deal(size: int, seed: int) -> dict[str, float]:
    """One deal's shuffle, dealing and audit between two sides; milliseconds of each part."""
    cards = deck_cards(size)
    context = context_of(f"bench {seed}", 1)
    rng = random.Random(seed)
    times: dict[str, float] = {}
    start = time.perf_counter()
    first = Shuffle(FIRST, cards, context, random.Random(rng.getrandbits(64)))
    second = Shuffle(SECOND, cards, context, random.Random(rng.getrandbits(64)))
    m1: list[str] = []
    m2: list[str] | None = None
    m3: list[str] | None = None
    m4: list[str] | None = None

    def step1() -> None:
        m1.extend(first.start())

    def step2() -> None:
        nonlocal m2
        m2 = second.answer(m1)

    def step3() -> None:
        nonlocal m3
        m3 = first.answer(m2)

    def step4() -> None:
        nonlocal m4
        m4 = second.answer(m3)
        first.answer(m4)

    t1, t2, t3, t4 = _timed(step1), _timed(step2), _timed(step3), _timed(step4)
    times["shuffle"] = (time.perf_counter() - start) * 1000
    times["first side"] = t1 + t3
    times["second side"] = t2 + t4
    pattern = "3T2" if size == 20 else "3-3"
    non_dealer, dealer, up, _ = deal_hands(list(range(size)), pattern)

    def dealing() -> None:
        for position in non_dealer:
            first.open(position, second.key(position))
        for position in dealer:
            second.open(position, first.key(position))
        first.open(up, second.key(up))
        second.open(up, first.key(up))

    times["deal"] = times["shuffle"] + _timed(dealing)
    times["audit"] = _timed(lambda: first.audit(second.keys()))
    return times


def move_costs(moves: int, seed: int) -> dict[str, list[float]]:
    """Milliseconds of one move on each page (protocol 2): the mover's engine (check, sign) and the other's
    (signature, chain, referee), over the first ``moves`` card plays of a match."""
    from py_engine.core.rules import PRESETS
    from py_engine.fairplay import p256
    from py_engine.service.online.peer import PeerSession

    rng = random.Random(seed)
    keys = [p256.new_key(rng), p256.new_key(rng)]
    identities = (keys[0][1], keys[1][1])

    def signer(seat: int) -> Callable[[bytes], str]:
        return lambda text: p256.sign(keys[seat][0], text, rng)

    pages = [PeerSession(s, PRESETS["AT20"], f"bench {seed}", identities, rng.randbytes(32), signer(s)) for s in (0, 1)]
    queues: list[list[str]] = [[], []]
    queues[1] += pages[0].start(0)
    times: dict[str, list[float]] = {"move: mover": [], "move: other": [], "between deals, each page": []}
    waiting = [0.0, 0.0]  # engine time each page spent since the last deal ended, until it can play the next
    deals = [0, 0]
    now = 0
    while len(times["move: other"]) < moves or len(times["between deals, each page"]) < 4:
        now += 1000
        for seat in (0, 1):
            while queues[seat]:
                start = time.perf_counter()
                queues[1 - seat] += pages[seat].receive(queues[seat].pop(0), now)["send"]
                waiting[seat] += (time.perf_counter() - start) * 1000
        for seat, page in enumerate(pages):
            referee = page.referee
            played = 0 if referee is None or referee.match is None else len(referee.match.records)
            if page.status()["playing"] and played != deals[seat]:
                if deals[seat]:
                    times["between deals, each page"].append(waiting[seat])
                deals[seat] = played
            if page.status()["playing"]:
                waiting[seat] = 0.0
        for seat, page in enumerate(pages):  # a second passes on each page: its idle time
            queues[1 - seat] += page.tick(now)
        mover = next((p for p in pages if p.status()["legal"]), None)
        if mover is None:
            if all(p.ending is not None for p in pages):
                break
            continue
        legal = [a for a in mover.status()["legal"] if a.startswith("play:")]
        if not legal:
            legal = mover.status()["legal"]
        start = time.perf_counter()
        sent = mover.act(legal[0], now)
        spent = (time.perf_counter() - start) * 1000
        waiting[mover.seat] = spent  # a deal's last move starts the wait for the next
        times["move: mover"].append(spent)
        other = pages[1 - mover.seat]
        start = time.perf_counter()
        answers = [other.receive(text, now) for text in sent[:1]]
        spent = (time.perf_counter() - start) * 1000
        waiting[other.seat] = spent
        times["move: other"].append(spent)
        queues[1 - mover.seat] += sent[1:]
        for answer in answers:
            queues[mover.seat] += answer["send"]
    return times


def measure(runs: int) -> dict[str, object]:
    rng = random.Random(7)
    k = rng.randrange(1, group.ORDER)
    point = group.hash_to_element(b"bench")
    x = rng.randrange(2, _MODP_2048 - 1)
    e = rng.randrange(2, _MODP_2048 - 1)
    mult = statistics.median(_timed(lambda: group.multiply(k, point)) for _ in range(max(runs, 5) * 4))
    modexp = statistics.median(_timed(lambda: pow(x, e, _MODP_2048)) for _ in range(max(runs, 5)))
    packs: dict[str, dict[str, list[float]]] = {}
    for size in (20, 24):
        rows: dict[str, list[float]] = {}
        for run in range(runs):
            for name, ms in one_deal(size, run).items():
                rows.setdefault(name, []).append(ms)
        packs[str(size)] = rows
    packs["moves"] = move_costs(max(runs, 5) * 4, 1)
    return {"python": platform.python_implementation(), "mult_ms": mult, "modexp_ms": modexp, "packs": packs}


def _print(label: str, figures: dict[str, object]) -> None:
    mult, modexp = figures["mult_ms"], figures["modexp_ms"]
    assert isinstance(mult, float) and isinstance(modexp, float)
    print(f"{label}: ristretto255 multiply {mult:.2f} ms, 2048-bit pow {modexp:.2f} ms ({modexp / mult:.1f}x)")
    packs = figures["packs"]
    assert isinstance(packs, dict)
    for size, rows in packs.items():
        parts = ", ".join(f"{name} {statistics.median(v):.0f} (worst {max(v):.0f})" for name, v in rows.items())
        what = "a card played, protocol 2" if size == "moves" else f"{size} cards"
        print(f"  {what}, ms median (worst): {parts}")


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--runs", type=int, default=7, help="deals per pack size (default 7)")
    parser.add_argument("--pyodide", action="store_true", help="also measure inside Pyodide under Node")
    parser.add_argument("--json", action="store_true", help=argparse.SUPPRESS)
    args = parser.parse_args(argv)
    figures = measure(args.runs)
    if args.json:
        print(json.dumps(figures))
        return 0
    _print(f"CPython {platform.python_version()}", figures)
    if args.pyodide:
        root = Path(__file__).resolve().parents[1]
        out = subprocess.run(
            ["node", str(root / "tests/pyodide/run_module.mjs"), __spec__.name, "--runs", str(args.runs), "--json"],
            capture_output=True,
            text=True,
            check=True,
            cwd=root,
        ).stdout
        inside = json.loads(out.strip().splitlines()[-1])
        _print("Pyodide", inside)
        for size, rows in inside["packs"].items():
            cpython_rows = figures["packs"]
            assert isinstance(cpython_rows, dict)
            name = "move: other" if size == "moves" else "deal"
            ratio = statistics.median(rows[name]) / statistics.median(cpython_rows[size][name])
            print(f"  {size}: Pyodide / CPython {name} time {ratio:.2f}x")
    return 0


if __name__ == "__main__":
    sys.exit(main())
