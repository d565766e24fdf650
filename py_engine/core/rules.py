"""The rules as data: every parameter of docs/rules.md §3.1 and the eight presets of §3.2.

A :class:`Rules` value is frozen. :func:`preset` looks a preset up by id;
:func:`make_rules` applies overrides parameter by parameter and refuses
unknown parameters, wrong values and contradictory combinations with
:class:`RulesError`.
"""

from __future__ import annotations

import dataclasses
from dataclasses import dataclass
from typing import Any, Literal, TypeAlias, TypedDict, cast

#: The ``reason`` of every :class:`RulesError` (a front end words each in its own language).
RULES_ERROR_REASONS = (
    "not_object",
    "unknown_parameter",
    "bad_value",
    "deck_hand_size",
    "deck_deal_pattern",
    "marriage_auto_king",
    "unknown_preset",
    "missing_parameters",
)


# The values of each enumerated parameter, as types (docs/rules.md §3.1): they equal CHOICES (a test checks it),
# and the page's types (types/engine.d.ts) are generated from them.
Deck: TypeAlias = Literal[20, 24]
"""The cards in the pack."""
HandSize: TypeAlias = Literal[5, 6]
"""The cards of a hand."""
DealPattern: TypeAlias = Literal["3T2", "33T"]
"""How the hands are dealt: three, the trump card, two; or three, three, the trump card."""
NextDealer: TypeAlias = Literal["alternate", "winner", "loser"]
"""Who deals the next deal."""
OpenRule: TypeAlias = Literal["free", "must_win"]
"""What an answer must do while the talon is open."""
MarriageCredit: TypeAlias = Literal["immediate", "after_any_trick", "after_later_trick"]
"""When a marriage's points count."""
MarriageLeadCard: TypeAlias = Literal["either", "king"]
"""Which card of a marriage is led."""
CloseBasis: TypeAlias = Literal["at_close", "at_end"]
"""When a successful close's award is judged."""
FailedClose3If: TypeAlias = Literal[
    "noncloser_no_trick_at_close",
    "noncloser_no_trick_at_end",
    "closer_no_trick_at_close",
    "closer_no_trick_at_end",
]
"""When a failed close costs 3 game points."""
FailedClose: TypeAlias = Literal["award", "natural_end"]
"""What a failed close ends in."""
ClaimMode: TypeAlias = Literal["manual", "auto"]
"""Whether 66 is claimed by the player or seen by the engine."""
ClaimWindow: TypeAlias = Literal["own_gain", "any_time"]
"""When a player may claim 66."""
WrongClaim: TypeAlias = Literal["penalty_2_3", "penalty_2", "mirror", "as_loss"]
"""What a wrong claim of 66 costs."""
LastTrickBonus: TypeAlias = Literal[0, 10]
"""The card points of the last trick's bonus."""
No66Winner: TypeAlias = Literal["last_trick", "higher_total"]
"""Who wins a deal where nobody reached 66."""
No66Tie: TypeAlias = Literal["last_trick", "carry_over", "void"]
"""A deal without 66 and level scores."""
No66Award: TypeAlias = Literal["1", "table"]
"""What a deal without 66 is worth."""
No66Basis: TypeAlias = Literal["total", "cards"]
"""Which points decide a deal without 66."""
SchneiderBasis: TypeAlias = Literal["cards", "total"]
"""Which points Schneider is judged on."""
MatchTarget: TypeAlias = Literal[1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16, 17, 18, 19, 20, 21]
"""The game points that win a match (Bummerl)."""
SessionBummerls: TypeAlias = Literal[1, 2, 3]
"""The matches (Bummerls) a session wins."""


class RuleSet(TypedDict):
    """A complete rule set as JSON (a view's, a preset's: ``Rules.to_dict()``): every parameter, and the preset's
    id and name. Its fields are the dataclass's (a test checks it); docs/rules.md §3.1 says what each means."""

    id: str
    name: str
    deck: Deck
    hand_size: HandSize
    deal_pattern: DealPattern
    next_dealer: NextDealer
    open_rule: OpenRule
    exchange_first_lead: bool
    exchange_last_open_trick: bool
    marriage_first_lead: bool
    marriage_credit: MarriageCredit
    marriage_after_close: bool
    marriage_after_exhaustion: bool
    marriage_lead_card: MarriageLeadCard
    marriage_auto: bool
    claim_on_marriage: bool
    close_first_lead: bool
    close_last_open_trick: bool
    close_basis: CloseBasis
    failed_close_3_if: FailedClose3If
    failed_close: FailedClose
    claim_mode: ClaimMode
    claim_window: ClaimWindow
    wrong_claim: WrongClaim
    last_trick_bonus: LastTrickBonus
    no66_winner: No66Winner
    no66_tie: No66Tie
    no66_award: No66Award
    no66_basis: No66Basis
    schneider_basis: SchneiderBasis
    resign: bool
    match_target: MatchTarget
    session_bummerls: SessionBummerls


class RulesError(ValueError):
    """A rules value or override that cannot be played.

    Besides the message in words, ``reason`` names the problem and ``values``
    gives its particulars, so that a front end can say it in its own words:
    ``not_object``; ``unknown_parameter``, ``bad_value`` {param}; ``deck_hand_size``
    {deck, hand_size}, ``deck_deal_pattern`` {deck, deal_pattern} (what that deck
    needs); ``marriage_auto_king``; in a saved record's rules also ``unknown_preset`` and
    ``missing_parameters``.
    """

    def __init__(self, message: str, reason: str, values: dict[str, Any] | None = None):
        super().__init__(message)
        self.reason = reason
        self.values: dict[str, Any] = values or {}


@dataclass(frozen=True, slots=True)
class Rules:
    """One complete rule set. Field names and values are those of docs/rules.md §3.1."""

    id: str
    name: str
    deck: Deck
    hand_size: HandSize
    deal_pattern: DealPattern
    next_dealer: NextDealer
    open_rule: OpenRule
    exchange_first_lead: bool
    exchange_last_open_trick: bool
    marriage_first_lead: bool
    marriage_credit: MarriageCredit
    marriage_after_close: bool
    marriage_after_exhaustion: bool
    marriage_lead_card: MarriageLeadCard
    marriage_auto: bool
    claim_on_marriage: bool
    close_first_lead: bool
    close_last_open_trick: bool
    close_basis: CloseBasis
    failed_close_3_if: FailedClose3If
    failed_close: FailedClose
    claim_mode: ClaimMode
    claim_window: ClaimWindow
    wrong_claim: WrongClaim
    last_trick_bonus: LastTrickBonus
    no66_winner: No66Winner
    no66_tie: No66Tie
    no66_award: No66Award
    no66_basis: No66Basis
    schneider_basis: SchneiderBasis
    resign: bool
    match_target: MatchTarget
    session_bummerls: SessionBummerls

    def to_dict(self) -> RuleSet:
        return cast("RuleSet", dataclasses.asdict(self))

    def replace(self, **changes: Any) -> Rules:
        """A copy with some parameters changed, validated like an override."""
        return make_rules(self, changes)


#: The allowed values of each enumerated or numeric parameter (docs/rules.md §3.1).
CHOICES: dict[str, tuple[Any, ...]] = {
    "deck": (20, 24),
    "hand_size": (5, 6),
    "deal_pattern": ("3T2", "33T"),
    "next_dealer": ("alternate", "winner", "loser"),
    "open_rule": ("free", "must_win"),
    "marriage_credit": ("immediate", "after_any_trick", "after_later_trick"),
    "marriage_lead_card": ("either", "king"),
    "close_basis": ("at_close", "at_end"),
    "failed_close_3_if": (
        "noncloser_no_trick_at_close",
        "noncloser_no_trick_at_end",
        "closer_no_trick_at_close",
        "closer_no_trick_at_end",
    ),
    "failed_close": ("award", "natural_end"),
    "claim_mode": ("manual", "auto"),
    "claim_window": ("own_gain", "any_time"),
    "wrong_claim": ("penalty_2_3", "penalty_2", "mirror", "as_loss"),
    "last_trick_bonus": (0, 10),
    "no66_winner": ("last_trick", "higher_total"),
    "no66_tie": ("last_trick", "carry_over", "void"),
    "no66_award": ("1", "table"),
    "no66_basis": ("total", "cards"),
    "schneider_basis": ("cards", "total"),
    "match_target": tuple(range(1, 22)),
    "session_bummerls": (1, 2, 3),
}
BOOLEANS = (
    "exchange_first_lead",
    "exchange_last_open_trick",
    "marriage_first_lead",
    "marriage_after_close",
    "marriage_after_exhaustion",
    "marriage_auto",
    "claim_on_marriage",
    "close_first_lead",
    "close_last_open_trick",
    "resign",
)
PARAMETERS = tuple(f.name for f in dataclasses.fields(Rules) if f.name not in ("id", "name"))

_COLUMNS = ("HU24", "PL24", "KLUB20", "SZLI20", "RO24", "RO20", "AT20", "DE24")
_NAMES = {
    "HU24": "Snapszer (Hungarian, 24 cards)",
    "PL24": "Sznaps (Polish)",
    "KLUB20": "Snapszer Klub 20-card",
    "SZLI20": "Snapszli",
    "RO24": "Romanian 66 (Austrian 24)",
    "RO20": "Romanian 66 — 'German' (20)",
    "AT20": "Austrian Schnapsen",
    "DE24": "German Sixty-Six",
}
# The table of docs/rules.md §3.2, one row a parameter, columns in _COLUMNS order.
_Y, _N = True, False
_TABLE: dict[str, tuple[Any, ...]] = {
    "deck": (24, 24, 20, 20, 24, 20, 20, 24),
    "hand_size": (6, 6, 5, 5, 6, 5, 5, 6),
    "deal_pattern": ("33T", "33T", "3T2", "3T2", "33T", "3T2", "3T2", "33T"),
    "next_dealer": ("alternate",) * 7 + ("winner",),
    "open_rule": ("free",) * 8,
    "exchange_first_lead": (_N, _N, _Y, _Y, _Y, _Y, _Y, _N),
    "exchange_last_open_trick": (_Y,) * 8,
    "marriage_first_lead": (_Y,) * 8,
    "marriage_credit": (
        "immediate",
        "after_later_trick",
        "after_any_trick",
        "immediate",
        "after_any_trick",
        "after_any_trick",
        "after_any_trick",
        "after_any_trick",
    ),
    "marriage_after_close": (_Y, _N, _Y, _Y, _N, _N, _Y, _Y),
    "marriage_after_exhaustion": (_Y, _N, _Y, _Y, _N, _N, _Y, _Y),
    "marriage_lead_card": ("either",) * 8,
    "marriage_auto": (_N, _N, _Y, _N, _N, _N, _N, _N),
    "claim_on_marriage": (_Y,) * 8,
    "close_first_lead": (_Y,) * 8,
    "close_last_open_trick": (_Y, _Y, _Y, _Y, _N, _N, _Y, _Y),
    "close_basis": ("at_close", "at_end", "at_close", "at_close", "at_end", "at_end", "at_close", "at_end"),
    "failed_close_3_if": (
        "closer_no_trick_at_close",
        "closer_no_trick_at_end",
        "noncloser_no_trick_at_close",
        "closer_no_trick_at_end",
        "noncloser_no_trick_at_end",
        "noncloser_no_trick_at_end",
        "noncloser_no_trick_at_close",
        "noncloser_no_trick_at_close",
    ),
    "failed_close": ("award",) * 8,
    "claim_mode": ("manual", "manual", "auto", "manual", "manual", "manual", "manual", "manual"),
    "claim_window": ("any_time", "own_gain", "own_gain", "any_time", "own_gain", "own_gain", "own_gain", "own_gain"),
    "wrong_claim": (
        "penalty_2_3",
        "mirror",
        "penalty_2_3",
        "as_loss",
        "penalty_2_3",
        "penalty_2_3",
        "penalty_2_3",
        "penalty_2",
    ),
    "last_trick_bonus": (0, 10, 0, 10, 0, 0, 0, 10),
    "no66_winner": (
        "higher_total",
        "higher_total",
        "last_trick",
        "higher_total",
        "higher_total",
        "higher_total",
        "last_trick",
        "higher_total",
    ),
    "no66_tie": (
        "carry_over",
        "void",
        "last_trick",
        "carry_over",
        "last_trick",
        "last_trick",
        "last_trick",
        "carry_over",
    ),
    "no66_award": ("table", "table", "1", "table", "1", "1", "table", "table"),
    "no66_basis": ("cards", "total", "total", "total", "cards", "cards", "total", "total"),
    "schneider_basis": ("cards", "total", "total", "total", "cards", "cards", "total", "total"),
    "resign": (_N, _N, _Y, _N, _N, _N, _N, _N),
    "match_target": (7,) * 8,
    "session_bummerls": (1, 1, 1, 2, 1, 1, 1, 1),
}

PRESETS: dict[str, Rules] = {
    pid: Rules(id=pid, name=_NAMES[pid], **{p: _TABLE[p][i] for p in PARAMETERS}) for i, pid in enumerate(_COLUMNS)
}
PRESET_IDS: tuple[str, ...] = _COLUMNS


def preset(preset_id: str) -> Rules:
    """The preset with that id. Raises ``KeyError`` for an unknown id."""
    try:
        return PRESETS[preset_id]
    except (KeyError, TypeError):
        raise KeyError(f"unknown preset {preset_id!r}; the presets are {', '.join(PRESET_IDS)}") from None


def _check_value(param: str, value: Any) -> None:
    if param in BOOLEANS:
        if not isinstance(value, bool):
            raise RulesError(f"{param} must be true or false, not {value!r}", "bad_value", {"param": param})
        return
    choices = CHOICES[param]
    # bool is an int subclass: refuse true/false for numeric parameters.
    if isinstance(value, bool) or value not in choices or type(value) is not type(choices[0]):
        shown = f"{choices[0]}..{choices[-1]}" if param == "match_target" else ", ".join(map(str, choices))
        raise RulesError(f"{param} must be one of {shown}, not {value!r}", "bad_value", {"param": param})


def _check_combination(rules: Rules) -> None:
    expected_hand, expected_pattern = (5, "3T2") if rules.deck == 20 else (6, "33T")
    if rules.hand_size != expected_hand:
        raise RulesError(
            f"a {rules.deck}-card deck is dealt {expected_hand} cards a hand, not {rules.hand_size}",
            "deck_hand_size",
            {"deck": rules.deck, "hand_size": expected_hand},
        )
    if rules.deal_pattern != expected_pattern:
        raise RulesError(
            f"a {rules.deck}-card deck is dealt by the {expected_pattern} pattern, not {rules.deal_pattern}",
            "deck_deal_pattern",
            {"deck": rules.deck, "deal_pattern": expected_pattern},
        )
    if rules.marriage_auto and rules.marriage_lead_card == "king":
        raise RulesError(
            "marriage_auto (leading K or Q declares) contradicts marriage_lead_card = king"
            " (a marriage must lead the K)",
            "marriage_auto_king",
        )


def make_rules(base: Rules, overrides: dict[str, Any] | None) -> Rules:
    """``base`` with ``overrides`` applied; raises :class:`RulesError` with the reason."""
    if not overrides:
        return base
    if not isinstance(overrides, dict):
        raise RulesError("rules overrides must be an object of parameter: value", "not_object")
    for param, value in overrides.items():
        if param not in PARAMETERS:
            raise RulesError(f"unknown rules parameter {param!r}", "unknown_parameter", {"param": str(param)})
        _check_value(param, value)
    changed = {p: v for p, v in overrides.items() if getattr(base, p) != v}
    if not changed:
        return base
    rules = dataclasses.replace(base, name=f"{base.name} (custom)", **changed)
    _check_combination(rules)
    return rules


def rules_from_dict(data: Any) -> Rules:
    """Rebuild a rules value saved by :meth:`Rules.to_dict` (in a record)."""
    if not isinstance(data, dict):
        raise RulesError("rules must be an object", "not_object")
    preset_id = data.get("id", "")
    base = PRESETS.get(preset_id) if isinstance(preset_id, str) else None
    if base is None:
        raise RulesError(f"rules name an unknown preset {data.get('id')!r}", "unknown_preset")
    overrides = {k: v for k, v in data.items() if k not in ("id", "name")}
    missing = [p for p in PARAMETERS if p not in overrides]
    if missing:
        raise RulesError(f"rules lack {', '.join(missing)}", "missing_parameters")
    return make_rules(base, overrides)


for _rules in PRESETS.values():
    _check_combination(_rules)
