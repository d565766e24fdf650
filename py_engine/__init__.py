"""The 66 family (Schnapsen, Snapszer, Sechsundsechzig, Sznaps, Romanian 66): rules engine and protocol."""

from .actions import action_name, parse_action
from .cards import card_name, parse_card
from .deal import Deal
from .match import Match
from .rules import PRESET_IDS, PRESETS, Rules, make_rules, preset

__all__ = [
    "PRESETS",
    "PRESET_IDS",
    "Deal",
    "Match",
    "Rules",
    "action_name",
    "card_name",
    "make_rules",
    "parse_action",
    "parse_card",
    "preset",
]
__version__ = "0.1.0"
