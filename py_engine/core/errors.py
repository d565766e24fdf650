"""Exceptions of the engine; each carries the protocol's error code."""

from __future__ import annotations


class EngineError(ValueError):
    """Base of every refusal; ``code`` is the protocol's error code."""

    code = "bad_request"


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


class BadRecordError(EngineError):
    code = "bad_record"
