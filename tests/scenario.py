"""Building exact deals for rules tests: explicit hands, trump card and talon order."""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from typing import Any

import pytest

from py_engine.core.actions import action_name, parse_action
from py_engine.core.cards import CARD_NAMES, deck_cards, parse_card
from py_engine.core.deal import pack_of
from py_engine.core.rules import Rules, make_rules, preset
from py_engine.service.match import Match


def rules_of(preset_id: str, **overrides: object) -> Rules:
    return make_rules(preset(preset_id), dict(overrides))


def make_deck(
    rules: Rules,
    non_dealer: Sequence[str],
    dealer: Sequence[str],
    trump: str,
    talon: Sequence[str] = (),
) -> list[str]:
    """A full pack, in the deal order of docs/rules.md §1.2, giving exactly these hands.

    ``talon`` lists the first face-down cards in draw order; the rest of the
    face-down talon is filled with the remaining cards in canonical order.
    """
    n = rules.hand_size
    if len(non_dealer) != n or len(dealer) != n:
        raise ValueError(f"each hand needs {n} cards")
    used = [*non_dealer, *dealer, trump, *talon]
    if len(set(used)) != len(used):
        raise ValueError(f"a card is given twice: {used}")
    rest = [CARD_NAMES[c] for c in deck_cards(rules.deck) if CARD_NAMES[c] not in used]
    face_down = [*talon, *rest]
    deck = pack_of(rules.deal_pattern, non_dealer, dealer, trump, face_down)
    assert len(deck) == rules.deck
    for c in deck:
        parse_card(c)
    return deck


def start(
    preset_id: str,
    non_dealer: Sequence[str],
    dealer: Sequence[str],
    trump: str,
    talon: Sequence[str] = (),
    *,
    dealer_seat: int = 0,
    single_deal: bool = True,
    **overrides: object,
) -> Match:
    """A match whose first deal has exactly these hands (non-dealer = seat 1 - dealer_seat)."""
    rules = rules_of(preset_id, **overrides)
    deck = make_deck(rules, non_dealer, dealer, trump, talon)
    return Match(rules, seed=0, dealer=dealer_seat, deck=[parse_card(c) for c in deck], single_deal=single_deal)


def play(match: Match, moves: Iterable[tuple[int, str] | str]) -> None:
    """Apply moves (checked). A bare string is played by the seat on turn."""
    for move in moves:
        if isinstance(move, str):
            seat, text = match.deal.to_act, move
        else:
            seat, text = move
        match.act(seat, parse_action(text))


def legal(match: Match, seat: int | None = None) -> list[str]:
    s = match.deal.to_act if seat is None else seat
    return sorted(action_name(a) for a in match.legal(s))


def record_reads(monkeypatch: pytest.MonkeyPatch) -> list[tuple[bool, float]]:
    """Each reading of the opponent's play from now on: (whether it read worlds, its search's prior_weight)."""
    from py_engine.ai import ismcts
    from py_engine.ai.config import SearchConfig

    reads: list[tuple[bool, float]] = []
    real = ismcts.read_worlds

    def recording(deal: Any, knowledge: Any, rng: Any, config: SearchConfig) -> Any:
        worlds = real(deal, knowledge, rng, config)
        reads.append((worlds is not None, config.prior_weight))
        return worlds

    monkeypatch.setattr(ismcts, "read_worlds", recording)
    return reads


@dataclass(frozen=True)
class Searched:
    """One search the computer player asked for: the seat, the utility and the options it passed."""

    seat: int
    utility: Any
    options: dict[str, Any]


def record_searches(monkeypatch: pytest.MonkeyPatch, **overrides: Any) -> list[Searched]:
    """Each search the computer player asks for from now on; each runs with ``overrides`` in its options
    (fewer iterations, say), recorded as asked."""
    from py_engine.ai import player

    searched: list[Searched] = []
    real = player.search

    def recording(deal: Any, seat: int, rng: Any, utility: Any, **options: Any) -> Any:
        searched.append(Searched(seat, utility, options))
        return real(deal, seat, rng, utility, **{**options, **overrides})

    monkeypatch.setattr(player, "search", recording)
    return searched
