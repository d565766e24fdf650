"""Two browsers at one table: the host's authority and the guest's side of the conversation.

The host's engine holds the table (:class:`HostSession`); the guest's engine
holds what the guest may know and checks the host (:class:`GuestSession`).
The pages only carry the messages these produce (JSON texts over a WebRTC
data channel) and draw the answers. Every message from the other browser is
checked here: its size, its JSON, its shape, its sequence number (a replayed
or repeated message is refused), its rate, and, for a move, the rules. A
refused message changes nothing but the rate count.

Times are the host page's clock in milliseconds (``now``), passed with every
request: the engine never reads a clock, so a test can play a whole
exchange, pauses and time-outs included, in no time at all.

Messages (each ``{"v": 1, "t": type, "n": sequence, ...}``; see docs/online.md):

* host → guest: ``room`` (the rules, the host's name and commitment: the
  guest sees the rules before joining), ``state`` (everything the guest
  draws, after joining and on reconnecting), ``frames`` (a change: the
  guest's frames and view), ``status`` (presence, pauses, shown hands,
  rematch offers, voice), ``proof`` (a finished deal's record and secret),
  ``chat``, ``refused`` (why a guest message was refused).
* guest → host: ``join`` (name and secret), ``hello`` (reconnecting), ``act``,
  ``show_cards``, ``pause``, ``back``, ``resign``, ``rematch``, ``chat``,
  ``voice`` (ask, accept, decline, hang up, mute: :mod:`.voice` keeps the
  consent; the sound goes straight between the browsers).
"""

from .guest import GuestSession
from .host import HostSession
from .messages import PAUSE_MS, PHRASES, RETURN_MS, SHOW_MS, PeerError

__all__ = ["PAUSE_MS", "PHRASES", "RETURN_MS", "SHOW_MS", "GuestSession", "HostSession", "PeerError"]
