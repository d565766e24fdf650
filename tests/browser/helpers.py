"""Driving the table through its DOM hooks (tests/browser/README.md) and checking what the page may know."""

from __future__ import annotations

import json
import re
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from typing import Any

from playwright.sync_api import Locator, Page, expect

from py_engine.core.cards import CARD_NAMES, names
from py_engine.service.protocol import Engine

from .conftest import BOOT_TIMEOUT_MS, STEP_TIMEOUT_MS
from .conftest import TEST_QUERY as TEST_QUERY  # re-exported: tests import it with the other helpers

TABLE = "#table"
#: The phases in which a deal has ended (``#table[data-phase]``).
OVER = ("deal_over", "match_over")
CONFIRM = "#confirm-dialog"
#: For tests that import one of the page's modules by its path (in an async function in the page): the
#: page runs its modules bundled (page/), so a module imported on its own is a copy apart, whose
#: translations start empty. This gives them the language the page shows.
PAGE_LANGUAGE_JS = "await (await import('./platform/i18n.js')).setLanguage(document.documentElement.dataset.language);"
CARD_RE = re.compile(r'"([AKQJT9][HDCS])"')


def open_table(page: Page, url: str, query: str = TEST_QUERY) -> None:
    """Load the page and wait until the table is playable."""
    page.goto(url + query)
    wait_ready(page, BOOT_TIMEOUT_MS)


def table_data(page: Page) -> dict[str, str]:
    data: dict[str, str] = page.eval_on_selector(TABLE, "el => ({...el.dataset})")
    return data


def wait_ready(page: Page, timeout: int = STEP_TIMEOUT_MS) -> None:
    expect(page.locator(TABLE)).to_have_attribute("data-ready", "1", timeout=timeout)


def step_count(page: Page) -> int:
    return int(table_data(page).get("step", "0"))


def legal_cards(page: Page) -> list[str]:
    cards: list[str] = page.locator("#my-hand .card[data-legal='1']").evaluate_all(
        "els => els.map(e => e.dataset.card)"
    )
    return cards


def actions(page: Page) -> list[str]:
    """The protocol actions offered as buttons on the table now."""
    found: list[str] = page.locator("#table button[data-action]").evaluate_all("els => els.map(e => e.dataset.action)")
    return [a for a in found if a != "new-game"]


def answer_question(page: Page, ask: str, yes: bool = True) -> None:
    """Answer the question asked before a costly step (``ask``: its ``#confirm-dialog[data-ask]``)."""
    dialog = page.locator(CONFIRM)
    expect(dialog).to_be_visible()
    expect(dialog).to_have_attribute("data-ask", ask)
    dialog.locator(f"[data-action='confirm-{'yes' if yes else 'no'}']").click()
    expect(dialog).to_be_hidden()


def asks_first(page: Page, action: str) -> bool:
    """Does ``action`` ask first: resigning always, a claim unless the settings say not to?"""
    return action == "resign" or (action == "claim" and bool(page.evaluate("window.__test.settings().confirmClaim")))


def do(page: Page, what: str) -> None:
    """Play a card ("QH") or press an action button ("close", "marry:H", a claim or resignation answered yes),
    then wait for the computer."""
    before = step_count(page)
    if re.fullmatch(r"[AKQJT9][HDCS]", what):
        assert what in legal_cards(page), f"{what} is not offered as a legal card: {legal_cards(page)}"
        page.locator(f"#my-hand [data-card='{what}']").click()
    else:
        assert what in actions(page), f"{what} is not offered: {actions(page)}"
        asking = asks_first(page, what)
        page.locator(f"#table button[data-action='{what}']").first.click()
        if asking:
            answer_question(page, what)
    wait_moved(page, before)


def wait_moved(page: Page, before: int) -> None:
    """Wait until the table has gone past step ``before`` and is playable again (the computer answered)."""
    page.wait_for_function(
        "before => { const d = document.querySelector('#table').dataset;"
        " return Number(d.step) > before && d.ready === '1'; }",
        arg=before,
        timeout=STEP_TIMEOUT_MS,
    )


def drag(page: Page, card: str) -> None:
    """Play a card by dragging it onto the table with the mouse, then wait for the computer."""
    before = step_count(page)
    assert card in legal_cards(page), f"{card} is not offered as a legal card: {legal_cards(page)}"
    page.locator(f"#my-hand [data-card='{card}']").drag_to(page.locator("#trick"))
    wait_moved(page, before)


def phase(page: Page) -> str:
    return table_data(page)["phase"]


def new_game(page: Page, **options: Any) -> int:
    """Start a game through the test hook; return the index of the first worker message that belongs to it."""
    start: int = page.evaluate("window.__test.messages.length")
    page.evaluate("options => window.__test.newGame(options)", options)
    wait_ready(page)
    return start


def messages(page: Page, start: int = 0) -> list[str]:
    log: list[str] = page.evaluate("start => window.__test.messages.slice(start)", start)
    return log


def dom_cards(page: Page) -> set[str]:
    """Every card the document shows face up, by its data-card hook or its spoken label."""
    html = page.content()
    shown = set(re.findall(r'data-card="([AKQJT9][HDCS])"', html))
    labels = {f"{rank} of {suit}": code for code, rank, suit in _label_table()}
    shown |= {code for label, code in labels.items() if label in html}
    return shown


def _label_table() -> list[tuple[str, str, str]]:
    ranks = {"A": "Ace", "T": "Ten", "K": "King", "Q": "Queen", "J": "Jack", "9": "Nine"}
    suits = {"H": "hearts", "D": "diamonds", "C": "clubs", "S": "spades"}
    return [(r + s, ranks[r], suits[s]) for r in ranks for s in suits]


# ---------------------------------------------------------------- the oracle

_ACTION_EVENTS = {"exchange", "close", "claim", "pass", "resign", "next"}


@dataclass
class Oracle:
    """A full-information replica of the page's game, built with py_engine from the same cards.

    It follows the game through the events the page receives and says, after
    each message, which cards are still secret to seat 0: the opponent's
    unseen cards and the face-down talon.
    """

    new_game: dict[str, Any]
    engine: Engine = field(default_factory=Engine)
    game: str = ""
    seen: int = 0  # worker messages consumed by check_no_leak
    started: bool = False
    checked: int = 0

    def __post_init__(self) -> None:
        answer = self._call({"cmd": "new_game", **self.new_game})
        self.game = answer["game"]

    def _call(self, request: dict[str, Any]) -> dict[str, Any]:
        answer: dict[str, Any] = json.loads(self.engine.handle(json.dumps({"v": 1, **request})))
        assert answer["ok"], answer
        return answer

    @property
    def match(self) -> Any:
        return self.engine.games[self.game]

    def legal_of(self, seat: int) -> list[str]:
        """What the engine lets ``seat`` do now."""
        return list(self._call({"cmd": "legal", "game": self.game, "seat": seat})["actions"])

    def opponent_hand(self) -> list[str]:
        return names(self.match.deal.hands[1])

    def secret(self) -> set[str]:
        deal = self.match.deal
        if deal.over:
            return set()
        unseen = names(deal.hands[1] & ~deal.known[1])
        talon = [CARD_NAMES[c] for c in deal.talon[deal.talon_pos :]]
        return set(unseen) | set(talon)

    def follow(self, events: list[dict[str, Any]]) -> None:
        """Apply the actions behind ``events`` to the replica."""
        for event in events:
            kind = event["type"]
            if kind == "play":
                action = f"play:{event['card']}"
            elif kind == "marriage":
                action = f"marry:{event['suit']}"
            elif kind in _ACTION_EVENTS:
                action = kind
            elif kind == "deal_end" and event["code"] == "resigned" and not self.match.deal.over:
                action = "resign"  # the engine reports a resignation by its deal_end alone
                event = {**event, "seat": event["by"]}
            else:
                continue
            seat = event.get("seat", 0)
            self._call({"cmd": "act", "game": self.game, "seat": seat, "action": action})


def new_responses(
    log: list[str], oracle: Oracle, starts: Callable[[dict[str, Any]], bool]
) -> Iterator[tuple[str, dict[str, Any], bool]]:
    """The worker's responses in ``log`` that the oracle has not read yet, from its game's start on.

    Yields (raw message, result, is the game's start); the oracle follows each
    response's events before it is yielded. ``starts`` recognises the answer
    that started the oracle's game.
    """
    for raw in log[oracle.seen :]:
        oracle.seen += 1
        message = json.loads(raw)
        if message.get("type") != "response":
            continue
        result = message["result"]
        first = False
        if not oracle.started:
            if not starts(result):
                continue
            oracle.started = first = True
        elif result.get("ok") and "frames" in result:
            oracle.follow([frame["event"] for frame in result["frames"]])
        yield raw, result, first


def check_no_leak(log: list[str], oracle: Oracle) -> int:
    """Replay ``log`` (worker messages since the oracle's game was asked for) against the oracle.

    Fails if a message names a card that is still secret to seat 0 once that
    message's own actions are applied. Call it again with the longer log as
    the game goes on: messages already checked are skipped. Returns how many
    responses have been checked.
    """
    for raw, result, first in new_responses(log, oracle, lambda r: bool(r.get("ok") and "table" in r and "view" in r)):
        if first:
            assert result["view"]["hand"] == names(oracle.match.deal.hands[0]), "the oracle's deal differs"
        leaked = set(CARD_RE.findall(raw)) & oracle.secret()
        assert not leaked, f"the worker sent secret cards {sorted(leaked)} in {raw[:300]}"
        oracle.checked += 1
    assert oracle.started, "the new game's answer is not in the log"
    return oracle.checked


def tap(locator: Locator, browser_name: str) -> None:
    """A finger's tap: in Firefox a click (over WebDriver BiDi, Playwright's tap reaches no page there)."""
    if browser_name == "firefox":
        locator.click()
    else:
        locator.tap()
