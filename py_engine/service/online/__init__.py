"""Two browsers at one table, and no referee (protocol 2; docs/online.md, "Fair play with no referee").

Each page's engine runs a :class:`~.peer.PeerSession` for its own seat: the
signed transcript of both seats, and a :class:`~.referee.Referee` that holds
only the cards its seat may see and checks every move of the other. The
pages only carry the texts these produce over a WebRTC data channel, and draw
the answers (:mod:`.peer_commands`). Times are each page's own clock in
milliseconds (``now``), passed with every request: the engine never reads a
clock, so a test can play a whole match, pauses and time-outs included, in no
time at all.
"""

from .messages import PAUSE_MS, PHRASES, RETURN_MS, SHOW_MS, PeerError

__all__ = ["PAUSE_MS", "PHRASES", "RETURN_MS", "SHOW_MS", "PeerError"]
