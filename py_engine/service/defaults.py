"""What the engine does where a request leaves the computer's level or time open: each defined here once.

A level's own time for a move is on its :class:`~py_engine.ai.player.Level` (``budget_ms``); the time
of the other searches the page asks for (a hint, a review, an analysis) is :data:`BUDGETS`, read by
every command that searches. The page sends none of these numbers: it leaves them out and the engine
answers with its own (a test page asks for shorter searches to run quickly).

Nothing here imports the computer player, so the table and the protocol read it at start-up.
"""

from __future__ import annotations

from dataclasses import dataclass

#: The computer's levels a table offers (the ``presets`` answer's ``levels``).
LEVELS = (1, 2, 3, 4, 5)
#: The computer's level when none is given: at a new table (a new player's first opponent) and for an
#: ``ai_move``. The page keeps the same number (``DEFAULT_LEVEL`` in web/screens/settings.js: its settings
#: exist before the engine has started) and a test checks both agree; the ``presets`` answer says it.
DEFAULT_LEVEL = 3


@dataclass(frozen=True, slots=True)
class Budgets:
    """The search time, in milliseconds, of a request that names none (its ``budget_ms``)."""

    #: A hint: the top level ranks the player's options (``hint``, ``table_hint``).
    hint_ms: int = 700
    #: Each evaluated decision of a review (``review``, ``table_review``); one request spends at most
    #: ``MAX_REVIEW_MS`` in all and the rest comes in the next part.
    review_ms: int = 300
    #: An analysis board's evaluation from what the seat to move knew (``analysis_evaluate``).
    analysis_ms: int = 1000
    #: An analysis board's evaluation with every card known (``analysis_evaluate`` with ``all_cards``):
    #: the exact minimax has 60% of it, and a position it settles is kept for the next request.
    all_cards_ms: int = 1500


#: The engine's budgets: every command that searches without a ``budget_ms`` reads them here.
BUDGETS = Budgets()
