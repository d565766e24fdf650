"""Exceptions of the engine; each carries the protocol's error code."""

from __future__ import annotations

from typing import Any


class EngineError(ValueError):
    """Base of every refusal; ``code`` is the protocol's error code.

    ``detail`` is what an error answer carries besides its message (None: nothing).
    """

    code = "bad_request"

    @property
    def detail(self) -> dict[str, Any] | None:
        return None


class UnknownLevelError(EngineError):
    """A computer level that does not exist: the request is wrong (``bad_request``)."""

    code = "bad_request"


class IllegalActionError(EngineError):
    """A well-formed action that is not legal now; the message says why."""

    code = "illegal_action"


class NotYourTurnError(EngineError):
    code = "not_your_turn"


class GameOverError(EngineError):
    code = "game_over"


class BadActionError(EngineError):
    """Text that is not an action at all."""

    code = "bad_action"


#: Why a record was refused (``BadRecordError.reason``): not a record at all, made by another version,
#: rules this engine cannot play, a field missing or malformed, or a deal whose moves do not replay.
RECORD_ERROR_REASONS = ("not_record", "version", "rules", "damaged", "no_replay")


class BadRecordError(EngineError):
    """A record (a file, a saved game) that cannot be loaded.

    Besides the message in words (English, naming the field), ``reason`` (one of
    ``RECORD_ERROR_REASONS``) names the problem and ``values`` its particulars
    (``deal``, ``action``: 1-based), so that a page can say it in its own words.
    """

    code = "bad_record"

    def __init__(self, message: str, reason: str = "damaged", values: dict[str, Any] | None = None):
        super().__init__(message)
        assert reason in RECORD_ERROR_REASONS, reason
        self.reason = reason
        self.values: dict[str, Any] = values or {}

    @property
    def detail(self) -> dict[str, Any]:
        return {"reason": self.reason, "values": self.values}
