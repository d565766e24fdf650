"""What the two browsers say to each other: limits, times, chat lines and names as plain text, refusals."""

from __future__ import annotations

from typing import Any

from ...core.errors import EngineError
from ..json_text import JsonTextError, parse_json, plain_text
from ..requests import ProtocolError

#: A player's hand stays face up to the other for this long after "show my cards".
SHOW_MS = 10_000
#: A pause: after this long, the computer plays for the player until they press OK.
PAUSE_MS = 20_000
#: After a lost connection: the time to come back before the game is lost on time.
RETURN_MS = 60_000
CHAT_MAX = 500
NAME_MAX = 24
#: What one chat message may be instead of text: a phrase each page words in its own language.
PHRASES = ("hello", "good_luck", "well_played", "thanks", "sorry", "one_moment", "good_game", "bye")
CHAT_KEPT = 50
#: The latest time a page's clock can say (``now``, milliseconds since 1970): the end of a JavaScript Date's
#: range. Bounded, so every sum of times stays an exact double on the page and a float in the engine.
NOW_MAX = 8_640_000_000_000_000


class PeerError(EngineError):
    """A message from the other browser that is refused (it changed nothing)."""

    code = "bad_peer_message"


def clean_text(text: Any, limit: int) -> str:
    """A name or a chat line from the other browser as plain text (json_text.plain_text, newlines kept)."""
    return plain_text(text, limit, lines=True)


def chat_line(message: dict[str, Any]) -> dict[str, Any]:
    """A chat message's content: ``{"text"}`` or ``{"phrase"}``; raises PeerError."""
    phrase = message.get("phrase")
    if phrase is not None:
        if phrase not in PHRASES:
            raise PeerError(f"unknown chat phrase {phrase!r}")
        return {"phrase": phrase}
    text = message.get("text")
    if not isinstance(text, str) or len(text) > CHAT_MAX:
        raise PeerError(f"a chat message is text of at most {CHAT_MAX} characters")
    cleaned = clean_text(text, CHAT_MAX)
    if not cleaned:
        raise PeerError("an empty chat message")
    return {"text": cleaned}


def is_time(value: Any) -> bool:
    """A time of the page's clock: an integer of milliseconds from 0 to NOW_MAX."""
    return type(value) is int and 0 <= value <= NOW_MAX


def time_refusal(now: Any) -> str:
    """Why ``now`` is not a time (the text of its refusal)."""
    if type(now) is int and abs(now) > NOW_MAX:
        shown = "a larger integer"  # (its digits may be too many even to write)
    else:
        shown = repr(now) if len(repr(now)) <= 40 else f"{repr(now)[:40]}..."
    return f"'now' must be the time in milliseconds, an integer from 0 to {NOW_MAX}, not {shown}"


def request_now(req: dict[str, Any]) -> int:
    """A request's ``now``, the page's clock: an integer of milliseconds from 0 to NOW_MAX (a huge one would
    break later sums); a ``bad_request`` otherwise."""
    now: Any = req.get("now")
    if not is_time(now):
        raise ProtocolError("bad_request", time_refusal(now))
    return int(now)


def check_now(now: Any) -> int:
    if not is_time(now):
        raise PeerError(time_refusal(now))
    return int(now)


def json_object(text: Any, limit: int) -> dict[str, Any]:
    """A peer's message text → its JSON object, at most ``limit`` characters; raises PeerError."""
    if not isinstance(text, str):
        raise PeerError("a message must be JSON text")
    try:
        message = parse_json(text, limit)
    except JsonTextError as e:
        raise PeerError(f"the message {e}") from None
    if not isinstance(message, dict):
        raise PeerError("a message must be a JSON object")
    return message
