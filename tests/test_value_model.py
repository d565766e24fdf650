"""The learned value (py_engine/ai/value_model.py): its shipped weights, its features, the search that uses it.

This file runs unchanged under CPython (``pytest``) and inside Pyodide
(``node tests/pyodide/run_pytest.mjs``): the model's scores of fixed positions
are pinned below by their SHA-256, so both runtimes must give the same bits.
When the weights change on purpose, run ``python -m tests.test_value_model``
and paste the digest it prints.
"""

from __future__ import annotations

import gzip
import hashlib
import random
from collections.abc import Iterator
from importlib import resources

import pytest

from py_engine.ai import value_model
from py_engine.ai.config import DEFAULT_CONFIG
from py_engine.ai.features import FEATURES, active_features, lead_change
from py_engine.ai.heuristic import after_claims, heuristic_action
from py_engine.ai.ismcts import Utility, _playout, search
from py_engine.ai.player import seat_to_decide
from py_engine.ai.value_model import OUTCOMES, ValueModel, shipped_model
from py_engine.core.actions import CLOSE, is_play
from py_engine.core.cards import KING, QUEEN, card_of
from py_engine.core.deal import Deal, pack_of
from py_engine.core.rules import PRESETS, make_rules
from py_engine.core.scoring import DealResult
from py_engine.service.match import shuffled_deck

#: SHA-256 of the shipped model's scores of :func:`fixed_positions` (see the module's docstring).
PINNED_SCORES = "7a92571f3dc29b7eec909fbc16adee2b2107fdecf3fadd3cdd9324a8a1bd5d31"


def fixed_positions() -> Iterator[tuple[Deal, int]]:
    """Positions of every stage on four presets: seeded packs played on by the rule of thumb, both seats' sides."""
    for preset in ("AT20", "KLUB20", "HU24", "DE24"):
        rules = PRESETS[preset]
        for seed in range(6):
            rng = random.Random(seed)
            deal = Deal(rules, shuffled_deck(rng, rules.deck), dealer=seed % 2)
            while deal.result is None:
                yield deal.clone(), 0
                yield deal.clone(), 1
                deal.apply(heuristic_action(deal, seat_to_decide(deal), rng, 0.0), seat_to_decide(deal))


def scores_digest(model: ValueModel) -> str:
    text = "\n".join(repr(model.outcome_scores(deal, seat)) for deal, seat in fixed_positions())
    return hashlib.sha256(text.encode()).hexdigest()


def test_the_shipped_weights_load_and_are_small() -> None:
    model = shipped_model()
    assert len(model.rows) == FEATURES and len(model.output_bias) == len(OUTCOMES)
    raw = resources.files(value_model.__package__).joinpath(value_model.WEIGHTS_FILE).read_bytes()
    assert len(gzip.compress(raw, 9)) < 150_000, "the issue allows the wheel 150 KB more at most"
    assert model.about.get("positions", 0) > 0, "the file says what it was trained on"


def test_the_scores_of_fixed_positions_are_the_pinned_ones() -> None:
    assert scores_digest(shipped_model()) == PINNED_SCORES


def test_weights_beyond_the_fixed_point_are_refused() -> None:
    """The hidden layer's integer lanes cannot overflow: weights that could make them are refused on loading."""
    model = shipped_model()
    rows = [tuple(row) for row in model.rows]
    rows[3] = (2.0**20, *rows[3][1:])
    with pytest.raises(ValueError, match="fixed point"):
        ValueModel(rows, model.hidden_bias, model.outputs, model.output_bias)
    assert ValueModel(list(model.rows), model.hidden_bias, model.outputs, model.output_bias).sums([3]) == model.sums(
        [3]
    )


def test_the_values_follow_the_outcome_scores_under_any_utility() -> None:
    model = shipped_model()
    utilities = [
        Utility(0),
        Utility(0, needs=(1, 2), carry=1),
        Utility(0, values=tuple(i / 10 - 0.4 for i in range(9))),
    ]
    for utility in utilities:
        valuer = model.valuer(0, utility)
        for count, (deal, seat) in enumerate(fixed_positions()):
            if seat or count % 7:
                continue
            values = [
                utility(DealResult(None if o is None else 0 if o[0] else 1, 0 if o is None else o[1], "", "", None))
                for o in OUTCOMES
            ]
            expected = sum(s * v for s, v in zip(model.outcome_scores(deal, 0), values, strict=True))
            expected = min(max(expected, min(values)), max(values))
            # The valuer keeps the folded output weights to 2**-FIXED_BITS: values agree to far below a playout's.
            assert abs(valuer(deal) - expected) < 1e-6


def test_a_seat_holding_the_top_trumps_is_valued_above_one_whose_opponent_holds_them() -> None:
    """Trained weights know what every player knows; random or broken ones fail this."""
    model = shipped_model()
    rules = PRESETS["AT20"]
    rng = random.Random(5)
    ahead, behind = [], []
    for _ in range(300):
        deal = Deal(rules, shuffled_deck(rng, rules.deck), dealer=rng.randrange(2))
        ace, ten = card_of(deal.trump, 0), card_of(deal.trump, 1)
        for seat in (0, 1):
            hand = deal.hands[seat]
            if hand >> ace & 1 and hand >> ten & 1:
                ahead.append(model.valuer(seat, Utility(seat))(deal))
                behind.append(model.valuer(1 - seat, Utility(1 - seat))(deal))
    assert len(ahead) > 10
    assert sum(ahead) / len(ahead) > sum(behind) / len(behind) + 0.1


def test_features_are_the_same_for_every_trump_suit() -> None:
    """Suits are counted from trumps: turning every suit of a pack one step gives the same features."""
    for preset in ("AT20", "HU24"):
        rules = PRESETS[preset]
        rng = random.Random(9)
        for _ in range(40):
            pack = shuffled_deck(rng, rules.deck)
            turned = [card_of((card // 6 + 1) % 4, card % 6) for card in pack]
            one, other = Deal(rules, pack, 0), Deal(rules, turned, 0)
            assert one.trump != other.trump
            for seat in (0, 1):
                features = active_features(one, seat)
                assert sorted(features) == sorted(active_features(other, seat))
                assert len(set(features)) == len(features) and all(0 <= i < FEATURES for i in features)


def test_a_search_on_the_learned_value_is_repeatable_and_plays_a_legal_card() -> None:
    config = DEFAULT_CONFIG.with_settings(["LEAF_VALUE=1"])
    rules = PRESETS["AT20"]
    deal = Deal(rules, shuffled_deck(random.Random(4), rules.deck), dealer=1)
    seat = deal.to_act
    first = search(deal, seat, random.Random(1), Utility(seat), config=config, iterations=300)
    again = search(deal, seat, random.Random(1), Utility(seat), config=config, iterations=300)
    assert first.ranking == again.ranking and first.iterations == 300
    assert first.ranking[0][0] in deal.legal_actions()


def test_learned_rollouts_guide_the_open_talon_only() -> None:
    """They change the search while a card may be drawn, repeatably, and nothing once the deal is closed."""
    rules = PRESETS["AT20"]
    rng = random.Random(8)
    deal = Deal(rules, shuffled_deck(rng, rules.deck), dealer=0)
    seat = deal.to_act
    guided = DEFAULT_CONFIG.with_settings(["ROLLOUT_LEARNED=1"])
    plain = search(deal, seat, random.Random(2), Utility(seat), iterations=300)
    first = search(deal, seat, random.Random(2), Utility(seat), config=guided, iterations=300)
    assert first.ranking != plain.ranking
    assert search(deal, seat, random.Random(2), Utility(seat), config=guided, iterations=300).ranking == first.ranking
    close_after_play(deal, rng)
    seat = deal.to_act
    plain = search(deal, seat, random.Random(2), Utility(seat), iterations=200)
    assert search(deal, seat, random.Random(2), Utility(seat), config=guided, iterations=200).ranking == plain.ranking


def test_the_values_after_each_lead_are_those_of_the_world_after_it() -> None:
    """``Valuer.after_leads`` skips making the world after a lead; it must value it to the bit as that world."""
    model = shipped_model()
    valuers = [model.valuer(seat, Utility(seat)) for seat in (0, 1)]
    checked = 0
    for deal, seat in fixed_positions():
        if deal.result is not None or deal.lead >= 0:
            continue
        leads = [a for a in deal.legal_actions() if is_play(a)]
        expected = []
        for card in leads:
            after = deal.clone()
            after.apply(card)
            expected.append(valuers[seat](after_claims(after)))
        assert valuers[seat].after_leads(deal, leads) == expected
        checked += len(leads)
    assert checked > 1000


@pytest.mark.parametrize("preset", sorted(PRESETS))
def test_a_lead_changes_only_the_features_lead_change_names(preset: str) -> None:
    """Whatever the weights: the features after each lead are those before, less and plus ``lead_change``'s."""
    rules = PRESETS[preset]
    checked = 0
    for seed in range(8):
        rng = random.Random(seed)
        deal = Deal(rules, shuffled_deck(rng, rules.deck), dealer=seed % 2)
        while deal.result is None:
            if deal.lead < 0:
                for card in (a for a in deal.legal_actions() if is_play(a)):
                    after = deal.clone()
                    after.apply(card)
                    assert after_claims(after) is after
                    for seat in (0, 1):
                        removed, added = lead_change(deal, seat, card)
                        expected = (set(active_features(deal, seat)) - set(removed)) | set(added)
                        assert sorted(expected) == sorted(active_features(after, seat))
                        checked += 1
            deal.apply(heuristic_action(deal, seat_to_decide(deal), rng, 0.0), seat_to_decide(deal))
    assert checked > 200


def test_a_learned_playout_with_only_marriages_to_play_declares_one() -> None:
    """Random moves are cards; with only marriages legal (a hand of three pairs that must be married) the
    guide chooses."""
    rules = make_rules(PRESETS["HU24"], {"marriage_auto": True})
    pairs = [card_of(suit, rank) for suit in range(3) for rank in (KING, QUEEN)]
    others = [card for card in range(24) if card not in pairs]
    deal = Deal(rules, pack_of(rules.deal_pattern, pairs, others[:6], others[6], others[7:]), dealer=1)
    seat = deal.to_act
    assert not [a for a in deal.legal_actions() if is_play(a)]
    guide = shipped_model().valuer(seat, Utility(seat))
    value = _playout(deal.clone(), seat, Utility(seat), {}, random.Random(1), 6, 1.0, guide)
    assert -1.0 <= value <= 1.0


if __name__ == "__main__":
    print(scores_digest(shipped_model()))


def close_after_play(deal: Deal, rng: random.Random) -> None:
    """Play ``deal`` on by the rule of thumb until a seat may close, and close."""
    while CLOSE not in deal.legal_actions():
        deal.apply(heuristic_action(deal, seat_to_decide(deal), rng, 0.0), seat_to_decide(deal))
    deal.apply(CLOSE)


def test_without_the_strict_leaves_a_closed_deal_is_searched_as_by_playouts() -> None:
    """``LEAF_VALUE_STRICT=0`` leaves the worlds where no card is drawn to the playouts and the solver."""
    rules = PRESETS["HU24"]
    rng = random.Random(8)
    deal = Deal(rules, shuffled_deck(rng, rules.deck), dealer=0)
    close_after_play(deal, rng)
    seat = deal.to_act
    plain = search(deal, seat, random.Random(2), Utility(seat), iterations=200)
    config = DEFAULT_CONFIG.with_settings(["LEAF_VALUE=1", "LEAF_VALUE_STRICT=0"])
    assert search(deal, seat, random.Random(2), Utility(seat), config=config, iterations=200).ranking == plain.ranking
    learned = DEFAULT_CONFIG.with_settings(["LEAF_VALUE=1"])
    assert search(deal, seat, random.Random(2), Utility(seat), config=learned, iterations=200).ranking != plain.ranking
