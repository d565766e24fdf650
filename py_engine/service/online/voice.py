"""Voice between the two players: who asked, who accepted, who muted, and how the last call ended.

A call is on only when both players want it: one asks, the other accepts
(or asks too); either may decline a request, withdraw its own, mute or hang
up, and anyone may ask again later. A lost connection ends the call. Only
the consent lives here: the sound travels straight between the browsers
(web/online/voice.js) and never through an engine.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from ...core.errors import IllegalActionError
from .messages import PeerError

if TYPE_CHECKING:
    from ..contract import LastCall, OnlineVoice, VoiceEnding

#: What a player may do about voice (the ``do`` of a ``voice`` message).
VOICE_STEPS = ("ask", "accept", "decline", "hang_up", "mute", "unmute")
#: How a call or a request ended: the other declined, its asker withdrew it, a player hung up, the connection broke.
VOICE_ENDINGS = ("declined", "withdrawn", "hung_up", "lost")
SEATS = (0, 1)


@dataclass
class Voice:
    """The consent to a voice call, as the host's engine keeps it and sends it in every status."""

    asked: int | None = None  # the seat that asked and waits for the other's answer
    on: bool = False
    call: int = 0  # counts the calls put through: the pages' media signals name theirs
    muted: set[int] = field(default_factory=set)
    last: LastCall | None = None  # how the last call or request ended: {"by": seat, "why": VOICE_ENDINGS}

    def step(self, seat: int, what: Any) -> None:
        """``seat`` does ``what`` (one of VOICE_STEPS); raises PeerError or IllegalActionError and changes nothing."""
        if what not in VOICE_STEPS:
            raise PeerError(f"unknown voice step {what!r}")
        other = 1 - seat
        if what == "ask" and self.asked == other:
            what = "accept"  # both asked: both want it
        if what == "ask":
            if self.on:
                raise IllegalActionError("the voice call is already on")
            if self.asked == seat:
                raise IllegalActionError("you have asked already: wait for the answer")
            self.asked, self.last = seat, None
        elif what in ("accept", "decline"):
            if self.asked != other:
                raise IllegalActionError("nobody is asking you for a voice call")
            self.asked = None
            if what == "accept":
                self.on, self.call, self.last = True, self.call + 1, None
            else:
                self.last = {"by": seat, "why": "declined"}
        elif what == "hang_up":
            if self.on:
                self.end(seat, "hung_up")
            elif self.asked == seat:
                self.end(seat, "withdrawn")
            else:
                raise IllegalActionError("there is no voice call to end")
        else:
            if not self.on:
                raise IllegalActionError("there is no voice call")
            if what == "mute":
                self.muted.add(seat)
            else:
                self.muted.discard(seat)

    def end(self, seat: int, why: VoiceEnding) -> None:
        self.on, self.asked, self.last = False, None, {"by": seat, "why": why}
        self.muted.clear()

    def lost(self, seat: int) -> None:
        """The connection to ``seat`` broke: a call or a request ends."""
        if self.on or self.asked is not None:
            self.end(seat, "lost")

    def status(self) -> OnlineVoice:
        return {"on": self.on, "call": self.call, "asked": self.asked, "muted": sorted(self.muted), "last": self.last}

    @classmethod
    def from_status(cls, status: Any) -> Voice:
        """The voice part of a host's status, checked (the guest's engine reads it); raises PeerError."""
        if status is None:
            return cls()
        try:
            assert isinstance(status, dict) and isinstance(status["on"], bool)
            call, asked, muted, last = status["call"], status["asked"], status["muted"], status["last"]
            assert isinstance(call, int) and not isinstance(call, bool) and call >= 0
            assert asked is None or asked in SEATS
            assert isinstance(muted, list) and all(s in SEATS for s in muted)
            assert last is None or (isinstance(last, dict) and last.get("by") in SEATS)
            assert last is None or last.get("why") in VOICE_ENDINGS
        except (AssertionError, KeyError, TypeError):
            raise PeerError("the host's voice status is not valid") from None
        return cls(
            asked, status["on"], call, set(muted), None if last is None else {"by": last["by"], "why": last["why"]}
        )
