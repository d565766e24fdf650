"""Checking a reported online game: the verdict the page (``peer_verify_report``) and the command
(``python -m lab.verify_match FILE``) both give.

A report (the page's "Report" control) holds the reporting page's saved game:
both seats' signed transcript and the reporter's secret for that match. The
check replays it as the reporting page would after a reload
(:meth:`~py_engine.service.online.peer.PeerSession.restore`):

* every link's signature and both chains are checked;
* the reporter's own messages are made again from its secret and must be
  the very ones it signed: the reporter played an honest engine;
* every message of the other seat is checked again by the reporter's
  referee: each finished deal is audited with both sides' keys and replayed
  with every card; a cheat is found again at the same message.

"""

from __future__ import annotations

from typing import Any

from .messages import PeerError
from .peer import REPORT_FORMAT, PeerSession


def _no_signing(_: bytes) -> str:
    raise PeerError("a report is checked, never added to")


def verdict(report: Any) -> dict[str, Any]:
    """The verdict on a report as JSON: ``ok`` and, when it checks out, what the game proves."""
    if not (isinstance(report, dict) and report.get("format") == REPORT_FORMAT and "game" in report):
        return {"ok": False, "why": "not a report of an online game of this version"}
    try:
        session = PeerSession.restore(report["game"], _no_signing)
    except PeerError as e:
        return {"ok": False, "why": str(e)}
    referee = session.referee
    match = None if referee is None else referee.match
    verified = 0 if referee is None else referee.verified
    cheat = session.cheat
    return {
        "ok": True,
        "reporter": session.seat,
        "links": list(session.transcript.counts),
        "deals_verified": verified,
        "scores": None if match is None else list(match.scores),
        "ending": session.ending,
        "signed_by_both": session.result is not None,
        "cheat": None if cheat is None else {"by": cheat.by, "what": cheat.what, "detail": cheat.detail},
        "chat": report.get("chat", []),
    }


def describe(found: dict[str, Any]) -> list[str]:
    if not found["ok"]:
        return [f"The report does not check out: {found['why']}."]
    seat = found["reporter"]
    lines = [
        f"Reported by seat {seat}. Links: {found['links'][0]} of seat 0 and {found['links'][1]} of seat 1,"
        " every signature holds, both chains unbroken, the reporter's own messages made again from its secret.",
        f"Deals checked with every card: {found['deals_verified']} (each pack audited, every move legal,"
        " every result recomputed).",
    ]
    ending = found["ending"]
    if ending is None:
        lines.append(f"The match was still being played; score {found['scores']}.")
    else:
        winner = "nobody" if ending["winner"] is None else f"seat {ending['winner']}"
        signed = "signed by both seats" if found["signed_by_both"] else f"signed by seat {seat} only"
        lines.append(f"Result: {winner} wins ({ending['reason']}), {signed}.")
    if found["cheat"] is not None:
        cheat = found["cheat"]
        lines.append(f"Cheat proven against seat {cheat['by']}: {cheat['what']} ({cheat['detail']}).")
    return lines
