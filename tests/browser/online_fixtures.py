"""Fixtures for tests of online play: a real local Nostr relay, and browsers set up for WebRTC tests.

* ``nostr_relay``: the PyPI package ``nostr-relay`` (pinned in ``tests/run.py``), installed into
  ``.cache/nostr-relay/`` by the test command's set-up (``python tests/run.py setup``), started on a free port of
  127.0.0.1 with a configuration and database in a temporary folder, and stopped (terminated, then
  killed if it lingers) after the module's tests. Its URL is ``ws://127.0.0.1:PORT``. It stays in the
  test process's group and dies with that process, so a test run that is killed leaves no relay behind.
* ``webrtc_browser``: the suite's browser (``--browser chromium`` or ``firefox``), which conftest.py launches
  with host-address obfuscation off (Chromium ``--disable-features=WebRtcHideLocalIpsWithMdns``, Firefox
  ``media.peerconnection.ice.obfuscate_host_addresses``): the candidates then name the machine's own
  addresses instead of mDNS ``.local`` names, so no multicast name lookup leaves the machine. Its players
  borrow warm contexts from conftest.py's ``warm_contexts``.
  The same browser has a fake microphone granted without asking (conftest.py's CHROMIUM_FAKE_MEDIA_ARGS and
  FIREFOX_FAKE_MEDIA_PREFS), for the voice tests.
* ``transport_page``: a new page in a new context of that browser, on a plain document of the served site
  (its icon), where a test imports the modules of ``web/online/``.

Tests of online play give the local relay only, and ``iceServers: []``: nothing leaves this machine.
"""

from __future__ import annotations

import contextlib
import ctypes
import os
import signal
import socket
import subprocess
import time
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from pathlib import Path

import pytest
from playwright.sync_api import Browser, ConsoleMessage, Page

from ..run import RELAY_VENV
from .conftest import Site

#: The lobby's topic and its offers' kind (web/online/lobby-relays.js), for whatever writes to or reads the relay.
LOBBY = ("sixty-six-lobby-1", "30666")
RELAY_START_TIMEOUT_S = 30.0
RELAY_STOP_TIMEOUT_S = 5.0
PR_SET_PDEATHSIG = 1  # prctl(2)
RELAY_CONFIG = """\
relay_name: sixty-six test relay
storage:
  sqlalchemy.url: sqlite+aiosqlite:///nostr.sqlite3
  validators: [nostr_relay.validators.is_signed, nostr_relay.validators.is_recent]
gunicorn: {{bind: "127.0.0.1:{port}", workers: 1, loglevel: warning}}
authentication: {{enabled: false}}
verification: {{nip05_verification: disabled}}
max_event_size: 65536
"""


def relay_command() -> Path:
    """The relay's command: $NOSTR_RELAY, else the one the test set-up installed."""
    given = os.environ.get("NOSTR_RELAY")
    path = Path(given) if given else RELAY_VENV / "bin" / "nostr-relay"
    if not path.is_file():
        pytest.fail(f"the Nostr relay is not installed ({path}): run  python tests/run.py setup")
    return path


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port: int = s.getsockname()[1]
        return port


@dataclass
class Relay:
    """A running relay: its URL, its process and its log."""

    url: str
    port: int
    process: subprocess.Popen[bytes]
    log: Path
    started_s: float

    def log_tail(self, lines: int = 30) -> str:
        text = self.log.read_text(encoding="utf-8", errors="replace") if self.log.is_file() else ""
        return "\n".join(text.splitlines()[-lines:])


def accepts_connections(port: int) -> bool:
    with socket.socket() as s:
        s.settimeout(0.5)
        return s.connect_ex(("127.0.0.1", port)) == 0


def start_relay(folder: Path) -> Relay:
    """Start a relay in ``folder`` (its configuration, database and log) on a free port; wait until it listens."""
    command = relay_command()
    port = free_port()
    (folder / "relay.yaml").write_text(RELAY_CONFIG.format(port=port), encoding="utf-8")
    log = folder / "relay.log"
    t0 = time.perf_counter()
    with log.open("wb") as out:
        # One process (uvicorn), in the test process's group: a test run that is killed takes it along.
        process = subprocess.Popen(
            [str(command), "-c", "relay.yaml", "serve", "--use-uvicorn"],
            cwd=folder,
            stdout=out,
            stderr=subprocess.STDOUT,
            stdin=subprocess.DEVNULL,
            preexec_fn=die_with_parent,
        )
    relay = Relay(f"ws://127.0.0.1:{port}", port, process, log, 0.0)
    deadline = t0 + RELAY_START_TIMEOUT_S
    while not accepts_connections(port):
        if process.poll() is not None:
            pytest.fail(f"the Nostr relay exited with code {process.returncode}:\n{relay.log_tail()}")
        if time.perf_counter() > deadline:
            stop_relay(relay)
            pytest.fail(f"the Nostr relay did not listen within {RELAY_START_TIMEOUT_S} s:\n{relay.log_tail()}")
        time.sleep(0.05)  # polling the port: the relay gives no other sign that it is ready
    relay.started_s = time.perf_counter() - t0
    return relay


def die_with_parent() -> None:
    """In the relay's process, before it starts: Linux ends it if the test process dies (even by SIGKILL)."""
    with contextlib.suppress(OSError, AttributeError):
        ctypes.CDLL("libc.so.6", use_errno=True).prctl(PR_SET_PDEATHSIG, signal.SIGTERM)


def stop_relay(relay: Relay) -> None:
    """Terminate the relay; kill it if it has not stopped within RELAY_STOP_TIMEOUT_S."""
    if relay.process.poll() is not None:
        return
    relay.process.terminate()
    try:
        relay.process.wait(RELAY_STOP_TIMEOUT_S)
    except subprocess.TimeoutExpired:
        relay.process.kill()
        relay.process.wait(RELAY_STOP_TIMEOUT_S)


@pytest.fixture(scope="module")
def nostr_relay(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Relay]:
    """A local Nostr relay for the tests of one module (see the module's docstring); each room has its own code."""
    relay = start_relay(tmp_path_factory.mktemp("nostr-relay"))
    try:
        yield relay
    finally:
        stop_relay(relay)
    assert relay.process.returncode is not None


@pytest.fixture
def webrtc_browser(browser: Browser) -> Browser:
    """The suite's browser, launched with real addresses in its WebRTC candidates (see the module's docstring)."""
    return browser


def from_favicon(message: ConsoleMessage) -> bool:
    """A console message about the favicon, which a plain document asks for and the site has not."""
    return str(message.location.get("url", "")).endswith("/favicon.ico")


@pytest.fixture
def transport_page(webrtc_browser: Browser, site: Site) -> Iterator[Callable[[], Page]]:
    """Makes pages, each in its own new context, on a plain document of the site; all are closed after the test.

    A page's console errors and uncaught exceptions are kept in ``page.errors`` (a list) for the test.
    """
    contexts = []

    def make() -> Page:
        context = webrtc_browser.new_context()
        contexts.append(context)
        page = context.new_page()
        page.goto(site.url + "icon.svg")
        # From here on (a missing favicon of the document is no error of the code under test).
        errors: list[str] = []
        page.on("console", lambda m: errors.append(m.text) if m.type == "error" and not from_favicon(m) else None)
        page.on("pageerror", lambda e: errors.append(f"page error: {e}"))
        page.errors = errors  # type: ignore[attr-defined]
        return page

    yield make
    for context in contexts:
        with contextlib.suppress(Exception):
            context.close()
