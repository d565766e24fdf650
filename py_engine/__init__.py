"""The 66 family (Schnapsen, Snapszer, Sechsundsechzig, Sznaps, Romanian 66): rules engine and protocol."""

from .core.actions import action_name, parse_action
from .core.cards import card_name, parse_card
from .core.deal import Deal
from .core.rules import PRESET_IDS, PRESETS, Rules, make_rules, preset
from .service.match import Match

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
