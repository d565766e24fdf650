"""Loading a saved match: a record replays action by action, or is refused."""

from __future__ import annotations

from typing import Any

from ..core.actions import NEXT, parse_action
from ..core.errors import BadRecordError, EngineError
from ..core.rules import RulesError, rules_from_dict
from .match import FORFEITS, SEED_LIMIT, Match, check_deck, is_seed

FORMAT = "py_engine/record"
VERSION = 1


def _need(condition: bool, message: str, reason: str = "damaged", **values: int) -> None:
    if not condition:
        raise BadRecordError(message, reason, values)


def is_seat(value: Any) -> bool:
    """0 or 1 as a JSON integer (not 0.0, not false)."""
    return type(value) is int and value in (0, 1)


def load_record(record: Any) -> Match:
    """Replay a record (docs/protocol.md, "Records") into a new :class:`Match`.

    Raises :class:`BadRecordError` naming the first thing that does not
    replay exactly (its ``reason`` says what kind of thing it is).
    """
    _need(isinstance(record, dict), "a record must be an object", "not_record")
    _need(record.get("format") == FORMAT, f"not a record: format must be {FORMAT!r}", "not_record")
    version = record.get("version")
    _need(
        type(version) is int and version == VERSION,
        f"unsupported record version {version!r} (expected {VERSION})",
        "version",
    )
    try:
        rules = rules_from_dict(record.get("rules"))
    except RulesError as e:
        raise BadRecordError(f"record rules: {e}", "rules") from None
    seed = record.get("seed")
    _need(is_seed(seed), f"record seed must be an integer of less than {SEED_LIMIT} in size")
    in_match = record.get("match", True)
    _need(isinstance(in_match, bool), "record match must be true or false")
    deals = record.get("deals")
    _need(isinstance(deals, list) and len(deals) > 0, "a record needs at least one deal")
    match: Match | None = None
    for number, entry in enumerate(deals, start=1):
        where = f"deal {number}"
        _need(isinstance(entry, dict), f"{where} must be an object", deal=number)
        dealer = entry.get("dealer")
        _need(is_seat(dealer), f"{where}: dealer must be 0 or 1", deal=number)
        try:
            deck = check_deck(rules, entry.get("deck"))
        except ValueError as e:
            raise BadRecordError(f"{where}: {e}", "damaged", {"deal": number}) from None
        if match is None:
            match = Match(rules, seed, dealer=dealer, deck=deck, single_deal=not in_match)
        else:
            _need(
                NEXT in match.legal(0),
                f"{where}: the previous deal is not over, or the game has ended",
                "no_replay",
                deal=number,
            )
            match.next_deal(deck)
            _need(
                match.dealer == dealer,
                f"{where}: the dealer must be seat {match.dealer}, not {dealer}",
                "no_replay",
                deal=number,
            )
        actions = entry.get("actions")
        _need(isinstance(actions, list), f"{where}: actions must be a list", deal=number)
        for index, item in enumerate(actions, start=1):
            _need(
                isinstance(item, list) and len(item) == 2 and is_seat(item[0]),
                f"{where}, action {index}: expected [seat, action]",
                deal=number,
                action=index,
            )
            seat, text = item
            try:
                action = parse_action(text)
                _need(
                    action != NEXT,
                    f"{where}, action {index}: 'next' is implied between deals, not recorded",
                    "no_replay",
                    deal=number,
                    action=index,
                )
                match.act(seat, action)
            except BadRecordError:
                raise
            except (EngineError, ValueError) as e:
                raise BadRecordError(
                    f"{where}, action {index} (seat {seat} {text!r}) does not replay: {e}",
                    "no_replay",
                    {"deal": number, "action": index},
                ) from None
    assert match is not None
    ended = record.get("ended")
    if ended is not None:
        _need(
            isinstance(ended, dict)
            and ended.get("reason") in FORFEITS
            and (ended.get("seat") is None or is_seat(ended.get("seat"))),
            "ended must be {seat, reason} with a seat 0, 1 or null and a reason " + ", ".join(FORFEITS),
        )
        try:
            match.forfeit(ended.get("seat"), ended["reason"])
        except (EngineError, ValueError) as e:
            raise BadRecordError(f"ended: {e}", "no_replay", {"deal": len(deals)}) from None
    return match
