"""The computer player, as the protocol asks for it: :func:`choose` a move, :func:`rank` the options for a hint.

Importing this package imports the whole search (the protocol does so on
the first ``ai_move`` or ``hint`` only). The search's constants are one
value, :class:`SearchConfig`; a level (:mod:`.player`) is its configuration
and its limits.
"""

from .config import SearchConfig
from .open_cards import OpenCards
from .player import Decision, match_utility
from .service import Request, choose, rank, rank_all_cards, rank_exactly

__all__ = [
    "Decision",
    "OpenCards",
    "Request",
    "SearchConfig",
    "choose",
    "match_utility",
    "rank",
    "rank_all_cards",
    "rank_exactly",
]
