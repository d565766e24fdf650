"""Random-playout fuzzing of the engine's invariants.

``python -m lab.fuzz --deals 100000`` plays random deals under every
preset and prints the number of invariant violations (it must be 0). The
test suite runs the same checks on fewer deals.

Checked after every action:

* cards are conserved: hands, talon, tricks and the table hold each card of
  the pack exactly once;
* card points in play add up to 120 (24 or 20 cards alike);
* every legal action applies; an illegal one (sampled) is refused with an
  engine error and leaves the state unchanged;
* per-seat views and events name no unseen opponent card and no talon card;
* at the end: a result with a winner (or a recorded tie), game points 0–3,
  and the record replays to the identical state.
"""

from __future__ import annotations

import argparse
import json
import random
import sys
import time
from collections.abc import Iterator
from typing import Any

from py_engine.core.actions import CLAIM, NEXT, NUM_ACTIONS, PASS, RESIGN, action_name
from py_engine.core.cards import CARD_NAMES, POINTS, cards_of, deck_mask
from py_engine.core.deal import Deal
from py_engine.core.errors import EngineError
from py_engine.core.events import Event
from py_engine.core.rules import PRESET_IDS, PRESETS, Rules
from py_engine.service.match import Match
from py_engine.service.record import load_record
from py_engine.service.views import filter_events, view

_CARD_NAME_SET = frozenset(CARD_NAMES)


def random_action(actions: list[int], rng: random.Random) -> int:
    """A random legal action; ending moves (claim, resign) only now and then, to keep deals long."""
    regular = [a for a in actions if a not in (CLAIM, RESIGN, PASS)]
    if regular and rng.random() < 0.97:
        return rng.choice(regular)
    return rng.choice(actions)


def fingerprint(deal: Deal) -> tuple[Any, ...]:
    """Every field of the deal's state (to prove a refused action changed nothing), but its log and the copies of
    itself it keeps along the log (``shots``)."""
    return tuple(
        (tuple(v) if isinstance(v, list) else v)
        for k in Deal.__slots__
        if k not in ("log", "shots")
        for v in [getattr(deal, k)]
    )


def conservation_errors(deal: Deal) -> Iterator[str]:
    full = deck_mask(deal.rules.deck)
    parts = [deal.hands[0], deal.hands[1]]
    for _, lead, resp, _ in deal.history:
        parts.append((1 << lead) | (1 << resp))
    if deal.lead >= 0:
        parts.append(1 << deal.lead)
    for c in deal.talon[deal.talon_pos :]:
        parts.append(1 << c)
    if deal.upcard >= 0:
        parts.append(1 << deal.upcard)
    union = 0
    for p in parts:
        if union & p:
            yield f"a card is in two places: {[CARD_NAMES[c] for c in cards_of(union & p)]}"
        union |= p
    if union != full:
        yield f"cards missing: {[CARD_NAMES[c] for c in cards_of(full & ~union)]}"
    by_winner = [0, 0]
    for _, lead, resp, winner in deal.history:
        by_winner[winner] += POINTS[lead] + POINTS[resp]
    if by_winner != deal.card_points:
        yield f"card points {deal.card_points} differ from the tricks taken {by_winner}"
    uncaptured = sum(POINTS[c] for p in parts[:2] for c in cards_of(p))
    uncaptured += sum(POINTS[c] for c in deal.talon[deal.talon_pos :])
    uncaptured += POINTS[deal.upcard] if deal.upcard >= 0 else 0
    uncaptured += POINTS[deal.lead] if deal.lead >= 0 else 0
    if sum(by_winner) + uncaptured != 120:
        yield f"card points do not add up to 120: captured {sum(by_winner)} + uncaptured {uncaptured}"


def hidden_from(deal: Deal, seat: int) -> frozenset[str]:
    """Card names ``seat`` must not see while the deal runs: the unseen cards of its information state."""
    if deal.over:
        return frozenset()
    return frozenset(CARD_NAMES[c] for c in cards_of(deal.info_state(seat, story=False).unseen))


def truly_hidden(deal: Deal, seat: int) -> int:
    """The cards ``seat`` cannot have seen, from the referee's state: the check of the information state."""
    other = 1 - seat
    mask = deal.hands[other] & ~deal.known[other]
    for card in deal.talon[deal.talon_pos :]:
        mask |= 1 << card
    return mask


def strings_in(value: Any) -> Iterator[str]:
    if isinstance(value, str):
        yield value
    elif isinstance(value, dict):
        for k, v in value.items():
            yield k
            yield from strings_in(v)
    elif isinstance(value, list | tuple):
        for v in value:
            yield from strings_in(v)


def leak_errors(match: Match, events: list[Event]) -> Iterator[str]:
    deal = match.deal
    for seat in (0, 1):
        if not deal.over and deal.info_state(seat, story=False).unseen != truly_hidden(deal, seat):
            yield f"seat {seat}'s information state does not match the cards it has not seen"
        hidden = hidden_from(deal, seat)
        if not hidden:
            continue
        seen = set(strings_in(view(match, seat))) | set(strings_in(filter_events(events, seat)))
        leaked = seen & hidden
        if leaked:
            yield f"seat {seat} can see hidden cards {sorted(leaked)}"


def refusal_errors(match: Match, rng: random.Random) -> Iterator[str]:
    """Try one illegal action for a random seat: it must raise and change nothing."""
    seat = rng.randrange(2)
    legal = set(match.legal(seat))
    illegal = [a for a in range(NUM_ACTIONS) if a not in legal]
    if not illegal:
        return
    action = rng.choice(illegal)
    before = fingerprint(match.deal)
    n_events = len(match.events)
    try:
        match.act(seat, action)
    except EngineError:
        pass
    else:
        yield f"illegal {action_name(action)} by seat {seat} was accepted"
        return
    if fingerprint(match.deal) != before or len(match.events) != n_events:
        yield f"refused {action_name(action)} by seat {seat} changed the state"


def fuzz_match(rules: Rules, seed: int, *, deals: int, deep: bool) -> tuple[int, list[str]]:
    """Play ``deals`` random deals (as one or more matches); return (deals played, violations)."""
    rng = random.Random(seed)
    match = Match(rules, seed)
    errors: list[str] = []
    played = 0
    while played < deals:
        deal = match.deal
        if deal.over:
            played += 1
            result = deal.result
            assert result is not None
            if not 0 <= result.game_points <= 3 or (result.winner is None and result.game_points):
                errors.append(f"bad result {result}")
            if deep:
                errors.extend(record_errors(match))
            if match.finished:
                if match.match_winner is None:
                    errors.append("the game finished without a match winner")
                match = Match(rules, rng.randrange(2**31))
            else:
                match.act(0, NEXT)
            continue
        start = len(match.events)
        seat = deal.to_act
        other = 1 - seat
        if deal.windows >> other & 1 and rng.random() < 0.02:
            seat = other
        actions = match.legal(seat)
        if not actions:
            errors.append(f"seat {seat} on turn has no legal action")
            break
        action = random_action(actions, rng)
        try:
            match.act(seat, action)
        except EngineError as e:
            errors.append(f"legal {action_name(action)} refused: {e}")
            break
        errors.extend(conservation_errors(match.deal))
        if deep:
            errors.extend(leak_errors(match, match.events[start:]))
            errors.extend(refusal_errors(match, rng))
        if errors:
            break
    return played, errors


def record_errors(match: Match) -> Iterator[str]:
    record = match.record()
    try:
        replay = load_record(json.loads(json.dumps(record)))
    except EngineError as e:
        yield f"record does not replay: {e}"
        return
    if fingerprint(replay.deal) != fingerprint(match.deal) or replay.scores != match.scores:
        yield "replayed record differs from the game"
    for seat in (0, 1):
        if view(replay, seat) != view(match, seat):
            yield f"replayed view of seat {seat} differs"


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--deals", type=int, default=100_000, help="deals per preset (default 100000)")
    parser.add_argument("--preset", choices=PRESET_IDS, action="append", help="only these presets")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--deep", action="store_true", help="also check views, refusals and records (slower)")
    args = parser.parse_args(argv)
    total_violations = 0
    for pid in args.preset or PRESET_IDS:
        t0 = time.perf_counter()
        played, errors = fuzz_match(PRESETS[pid], args.seed, deals=args.deals, deep=args.deep)
        total_violations += len(errors)
        print(f"{pid:7} deals {played:7}  violations {len(errors)}  ({time.perf_counter() - t0:.1f} s)")
        for e in errors[:5]:
            print(f"    {e}")
    print(f"violations: {total_violations}")
    return 1 if total_violations else 0


if __name__ == "__main__":
    sys.exit(main())
