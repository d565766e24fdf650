"""A saved online game read back field by field: anything out of shape is refused in words, naming the field.

The worker stores what ``online_save`` answered and gives it back to
``online_restore``; a stored game may be damaged (or from elsewhere), so
nothing of it is taken on trust: a field of the wrong type, length or range
refuses the whole game (a PeerError, and no session is made).
"""

from __future__ import annotations

from typing import Any

from ...core.rules import Rules, RulesError, rules_from_dict
from . import fair_pack
from .messages import NOW_MAX, PeerError, chat_line, is_time

#: The largest count a saved game holds (messages sent and received, deals proved, matches): the page's
#: largest exact integer.
COUNT_MAX = 2**53 - 1


def damaged(name: str, what: str) -> PeerError:
    return PeerError(f"the saved online game is damaged ({name!r} must be {what})")


class SavedGame:
    """One side's saved game (``side``: ``"host"`` or ``"guest"``), its fields checked as they are read."""

    def __init__(self, saved: Any, side: str) -> None:
        if not isinstance(saved, dict) or saved.get("online") != side:
            raise PeerError("not a saved online game")
        self.saved: dict[str, Any] = saved

    def field(self, name: str) -> Any:
        if name not in self.saved:
            raise PeerError(f"the saved online game is damaged ({name!r} is missing)")
        return self.saved[name]

    def count(self, name: str, least: int = 0) -> int:
        value = self.field(name)
        if type(value) is not int or not least <= value <= COUNT_MAX:
            raise damaged(name, f"an integer from {least} to {COUNT_MAX}")
        return int(value)

    def time(self, name: str) -> int:
        value = self.field(name)
        if not is_time(value):
            raise damaged(name, f"a time in milliseconds, an integer from 0 to {NOW_MAX}")
        return int(value)

    def time_or_none(self, name: str) -> int | None:
        return None if self.field(name) is None else self.time(name)

    def seat(self, name: str) -> int:
        value = self.field(name)
        if not is_seat(value):
            raise damaged(name, "a seat, 0 or 1")
        return int(value)

    def seats(self, name: str) -> set[int]:
        value = self.field(name)
        if not isinstance(value, list) or not all(is_seat(s) for s in value):
            raise damaged(name, "a list of seats (0 and 1)")
        return set(value)

    def text(self, name: str, limit: int) -> str:
        value = self.field(name)
        if not isinstance(value, str) or len(value) > limit:
            raise damaged(name, f"text of at most {limit} characters")
        return value

    def pair(self, name: str, limit: int) -> list[str]:
        """Two texts, one a seat (names, identities)."""
        value = self.field(name)
        if not isinstance(value, list) or len(value) != 2 or not all(_is_text(v, limit) for v in value):
            raise damaged(name, f"two texts of at most {limit} characters, one a seat")
        return list(value)

    def secret(self, name: str) -> str:
        value = self.field(name)
        if not fair_pack.is_secret(value):
            raise damaged(name, f"a secret of {fair_pack.SECRET_HEX} lowercase hex digits")
        return str(value)

    def secret_or_none(self, name: str) -> str | None:
        return None if self.saved.get(name) is None else self.secret(name)

    def rules(self, name: str = "rules") -> Rules:
        return checked_rules(self.field(name), name)

    def mapping(self, name: str) -> dict[str, Any]:
        value = self.field(name)
        if not isinstance(value, dict):
            raise damaged(name, "an object")
        return value

    def deadlines(self, name: str) -> dict[int, int]:
        """Seat → time (the host's pauses): keys "0" and "1"."""
        value = self.mapping(name)
        if not all(k in ("0", "1") and is_time(v) for k, v in value.items()):
            raise damaged(name, 'an object of seats ("0", "1") and times in milliseconds')
        return {int(k): int(v) for k, v in value.items()}

    def chat(self, name: str, kept: int) -> list[dict[str, Any]]:
        """The chat's lines (the last ``kept``), each ``{seat, text or phrase, at}`` as the host wrote it."""
        value = self.field(name)
        if not isinstance(value, list):
            raise damaged(name, "a list of chat lines")
        lines = []
        for line in value[-kept:]:
            if not isinstance(line, dict) or not is_seat(line.get("seat")) or not is_time(line.get("at")):
                raise damaged(name, "chat lines of a seat, a text or phrase, and a time")
            try:
                content = chat_line(line)
            except PeerError as e:
                raise damaged(name, f"chat lines of text or a known phrase ({e})") from None
            lines.append({"seat": line["seat"], **content, "at": line["at"]})
        return lines


def checked_rules(value: Any, name: str) -> Rules:
    try:
        return rules_from_dict(value)
    except RulesError as e:
        raise damaged(name, f"valid rules ({e})") from None


def is_seat(value: Any) -> bool:
    return type(value) is int and value in (0, 1)


def _is_text(value: Any, limit: int) -> bool:
    return isinstance(value, str) and len(value) <= limit
