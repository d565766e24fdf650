"""Fixtures for the browser tests: Debian's Chromium or Firefox, the built site served locally, a page helper.

The site is served from ``dist/`` (built once if missing) by a threading HTTP
server on a free port in a background thread.

A test's ``context`` (and so its ``page``) is, by default, one browser context
per test process that has already booted the site once: its service worker
and the engine's memory snapshot are in place, so the page boots warm, in
about a second instead of five. Between tests everything the game keeps about
a player is wiped: the test's pages are closed, localStorage cleared and the
saved game's database deleted, in the context's parked page (see
parked_page), which stays open so that the site's renderer lives on. A test
that needs a first visit (no service worker, no snapshot, no HTTP cache) is
marked ``fresh_browser``, or asks for ``new_context``, or uses ``site_copy``
(another origin), and gets a new context.
The players of online tests borrow such warm contexts from ``warm_contexts``
(one pool per test process), so that each need not pay a first visit.
"""

from __future__ import annotations

import contextlib
import os
import shutil
import subprocess
import sys
import threading
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import pytest
from playwright.sync_api import Browser, BrowserContext, Page, Playwright, expect
from playwright.sync_api import Error as PlaywrightError

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT))

import build  # noqa: E402  (the project's build script: its server and service-worker writer)

BOOT_TIMEOUT_MS = 90_000
#: The query of the page under test: its test hooks, and short pauses (tests/browser/README.md).
TEST_QUERY = "?test=1&fast=1"
STEP_TIMEOUT_MS = 30_000
#: A new page of a site joins the renderer of the site's other pages (each context's parked page) instead of
#: starting one: a test's page then boots on the warm renderer, with its compiled WebAssembly, for about 1.4 s
#: of CPU instead of 3.1 (tests/browser/README.md, "Where a test's page lives").
CHROMIUM_ONE_PROCESS_PER_SITE = ["--process-per-site"]
#: WebAssembly compiled by Liftoff, V8's baseline compiler, only: no TurboFan tier-up of hot functions. Each
#: first visit and the first boots of a context tiered up anew, 1.5-5.8 s of TurboFan on a helper thread per
#: first visit (Chromium's trace, test_table.py); Pyodide's code then runs slower (the worker's CPU 160 s ->
#: 184 s), but the Chromium tests took 722 s of CPU instead of 856 s, 442 s instead of 500 s of wall time
#: (tests/browser/README.md, "Where a test's page lives"). Tests time no WebAssembly.
CHROMIUM_WASM_BASELINE_ONLY = ["--js-flags=--liftoff-only"]
#: Firefox's own: by default it spreads a site's pages over up to 4 processes, started and ended as pages come
#: and go (with the parked page, 2.9-3.5 s of CPU a cycle against 2.4-2.5 s with this).
FIREFOX_ONE_PROCESS_PER_SITE = {"dom.ipc.processCount.webIsolated": 1}
#: Chromium's switch and Firefox's preference that put the machine's own addresses in WebRTC candidates
#: instead of mDNS ``.local`` names, so that no multicast name lookup leaves the machine (online tests).
CHROMIUM_WEBRTC_ARGS = ["--disable-features=WebRtcHideLocalIpsWithMdns"]
FIREFOX_WEBRTC_PREFS = {"media.peerconnection.ice.obfuscate_host_addresses": False}
#: A fake microphone, granted without a prompt: a beep (Chromium) or a tone (Firefox) for the voice tests. Only
#: they ask for one; a page's own question before the browser's (its consent) is what they test.
CHROMIUM_FAKE_MEDIA_ARGS = ["--use-fake-device-for-media-stream", "--use-fake-ui-for-media-stream"]
FIREFOX_FAKE_MEDIA_PREFS = {"media.navigator.streams.fake": True, "media.navigator.permission.disabled": True}


def find_chromium() -> str:
    """Debian's Chromium binary (the /usr/bin wrapper is a shell script that execs it)."""
    for name in ("CHROMIUM_PATH", "CHROME_PATH"):
        if os.environ.get(name):
            return os.environ[name]
    for command in ("chromium", "chromium-browser"):
        wrapper = shutil.which(command)
        if wrapper:
            real = Path(wrapper).resolve().parent.parent / "lib" / "chromium" / "chromium"
            return str(real if real.is_file() else wrapper)
    pytest.fail("Chromium not found: install it (apt-get install chromium) or set CHROMIUM_PATH")


def find_firefox() -> str:
    """Debian's Firefox ESR (or any Firefox on PATH); FIREFOX_PATH overrides."""
    if os.environ.get("FIREFOX_PATH"):
        return os.environ["FIREFOX_PATH"]
    for command in ("firefox-esr", "firefox"):
        found = shutil.which(command)
        if found:
            return found
    pytest.fail("Firefox not found: install it (apt-get install firefox-esr) or set FIREFOX_PATH")


#: What pytest-playwright's own launch options hold that belongs to one browser type, set here by launch_options.
BROWSER_SPECIFIC_OPTIONS = ("executable_path", "args", "channel", "firefox_user_prefs")


def launch_options(browser_name: str, given: dict[str, Any]) -> dict[str, Any]:
    """How to launch the system's ``browser_name`` (chromium or firefox), from pytest-playwright's ``given`` options.

    Playwright's own browser builds cannot be downloaded here. Debian's Firefox
    is driven over WebDriver BiDi, which Playwright selects with the
    ``moz-firefox`` channel. Both are launched ready for the online tests
    (CHROMIUM_WEBRTC_ARGS, FIREFOX_WEBRTC_PREFS) and the voice tests (CHROMIUM_FAKE_MEDIA_ARGS,
    FIREFOX_FAKE_MEDIA_PREFS): one browser per test process, whose warm contexts every test can use.
    """
    if browser_name == "chromium":
        return {
            **given,
            "executable_path": find_chromium(),
            "args": [
                "--disable-dev-shm-usage",
                "--disable-gpu",
                "--disable-background-networking",
                "--disable-component-update",
                "--no-first-run",
                *CHROMIUM_ONE_PROCESS_PER_SITE,
                *CHROMIUM_WASM_BASELINE_ONLY,
                *CHROMIUM_WEBRTC_ARGS,
                *CHROMIUM_FAKE_MEDIA_ARGS,
            ],
        }
    if browser_name == "firefox":
        prefs = {
            **given.get("firefox_user_prefs", {}),
            **FIREFOX_ONE_PROCESS_PER_SITE,
            **FIREFOX_WEBRTC_PREFS,
            **FIREFOX_FAKE_MEDIA_PREFS,
        }
        return {"channel": "moz-firefox", **given, "executable_path": find_firefox(), "firefox_user_prefs": prefs}
    pytest.fail(f"no system build of {browser_name} can be driven by Playwright here: use chromium or firefox")


@pytest.fixture(scope="session")
def browser_type_launch_args(browser_type_launch_args: dict[str, Any], browser_name: str) -> dict[str, Any]:
    """Launch the system's browser: ``--browser chromium`` (the default) or ``--browser firefox`` (launch_options)."""
    return launch_options(browser_name, browser_type_launch_args)


@dataclass
class Site:
    """A directory served over HTTP on 127.0.0.1."""

    directory: Path
    url: str
    stop: Callable[[], None]


def serve(directory: Path) -> Site:
    os.environ.setdefault("BUILD_SERVE_QUIET", "1")
    server = build.make_server(directory, port=0)
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()

    stopped = threading.Event()

    def stop() -> None:
        if not stopped.is_set():
            stopped.set()
            server.shutdown()
            server.server_close()

    return Site(directory, f"http://127.0.0.1:{server.server_address[1]}/", stop)


@pytest.fixture(scope="session")
def dist() -> Path:
    """The built site; built here only if the test command has not built it."""
    if not (build.DIST / "sw.js").is_file() or not (build.DIST / "build.json").is_file():
        subprocess.run([sys.executable, str(ROOT / "build.py"), "build"], cwd=ROOT, check=True)
    return build.DIST


@pytest.fixture(scope="session")
def site(dist: Path) -> Iterator[Site]:
    served = serve(dist)
    yield served
    served.stop()


# The engine worker's database of the saved game (web/engine/worker.js).
SAVE_DATABASE = "sixty-six"
FORGET_THE_PLAYER = """async (name) => {
  localStorage.clear();
  await new Promise((resolve, reject) => {
    const request = indexedDB.deleteDatabase(name);
    request.onsuccess = () => resolve();
    request.onerror = () => reject(request.error);
  });
}"""


#: The engine's WebAssembly, compiled once by each Chromium context's parked page and held there: V8 keeps a
#: module compiled in a process while any page holds it, and gives it to every boot of the same bytes in that
#: process, with the functions compiled so far, instead of compiling it again (see parked_page).
ENGINE_WASM = "pyodide/pyodide.asm.wasm"
HOLD_THE_ENGINE_CODE = """async (url) => {
  window.heldEngineCode = await WebAssembly.compileStreaming(fetch(url));
}"""

#: Each warm context's parked page (see parked_page).
PARKED: dict[BrowserContext, Page] = {}


def parked_page(context: BrowserContext, site: Site) -> Page:
    """``context``'s page parked on a plain document of the site (its icon), opened once and left open.

    It keeps the site's renderer process alive between tests (with
    CHROMIUM_ONE_PROCESS_PER_SITE and FIREFOX_ONE_PROCESS_PER_SITE, a site's pages
    share one): a test's new page boots in it, with the engine's WebAssembly
    already compiled in Chromium (held by this page: ENGINE_WASM). Being no game, it takes no part in what a
    second tab of the game sees. The player is wiped in it (forget_the_player).
    """
    page = PARKED.get(context)
    if page is None or page.is_closed():
        page = context.new_page()
        page.goto(site.url + "icon.svg")
        if context.browser is not None and context.browser.browser_type.name == "chromium":
            page.evaluate(HOLD_THE_ENGINE_CODE, ENGINE_WASM)
        PARKED[context] = page
    return page


def forget_the_player(context: BrowserContext, site: Site) -> None:
    """Close the test's pages and wipe what the game keeps about a player on ``site``'s origin.

    The service worker, its caches and the memory snapshot stay: they belong
    to the build, not to the player. The wiping runs in the context's parked
    page, a plain document of the origin, so that no game boots for it; one
    that no longer answers (crashed) is replaced.
    """
    parked = PARKED.get(context)
    for page in list(context.pages):
        if page is not parked:
            page.close()
    try:
        parked_page(context, site).evaluate(FORGET_THE_PLAYER, SAVE_DATABASE)
    except PlaywrightError:
        stale = PARKED.pop(context, None)
        if stale is not None:
            with contextlib.suppress(PlaywrightError):
                stale.close()
        parked_page(context, site).evaluate(FORGET_THE_PLAYER, SAVE_DATABASE)


def close_context(context: BrowserContext) -> None:
    """Close ``context`` (and forget its parked page); one already closed, or whose browser is gone, is left."""
    PARKED.pop(context, None)
    with contextlib.suppress(PlaywrightError):
        context.close()


def visit_and_wipe(context: BrowserContext, site: Site, until: dict[str, str]) -> None:
    """Open the game in a new page of ``context``, wait until the table has the attributes ``until`` names
    with their values, then close it and wipe the player (forget_the_player)."""
    page = context.new_page()
    page.goto(site.url + TEST_QUERY)
    table = page.locator("#table")
    for name, value in until.items():
        expect(table).to_have_attribute(name, value, timeout=BOOT_TIMEOUT_MS)
    forget_the_player(context, site)


def warmed_up(context: BrowserContext, site: Site) -> BrowserContext:
    """``context`` after one first visit that stored the snapshot and the offline cache."""
    visit_and_wipe(context, site, {"data-snapshot": "stored", "data-sw": "ready"})
    return context


#: A phone's screen and input: the options of the phone context.
PHONE = {"viewport": {"width": 360, "height": 740}, "has_touch": True, "is_mobile": True}


@pytest.fixture(scope="session")
def warm_context(browser: Browser, browser_context_args: dict[str, Any], site: Site) -> Iterator[BrowserContext]:
    """This test process's shared context, warmed up (see warmed_up)."""
    context = warmed_up(browser.new_context(**browser_context_args), site)
    yield context
    close_context(context)


@pytest.fixture(scope="session")
def warm_phone_context(browser: Browser, browser_context_args: dict[str, Any], site: Site) -> Iterator[BrowserContext]:
    """This test process's shared phone context (PHONE), warmed up once like warm_context."""
    context = warmed_up(browser.new_context(**{**browser_context_args, **PHONE}), site)
    yield context
    close_context(context)


#: What the players of online tests may do in their contexts (the invitation's copy and paste buttons).
PLAYER_PERMISSIONS = ["clipboard-read", "clipboard-write"]


class WarmContexts:
    """Contexts of one browser that have visited the site once (see warmed_up), lent to players.

    A player's page boots warm in one instead of paying a first visit (about 6 s
    of CPU against 2.5 s). A context given back is wiped like the shared one
    (forget_the_player) and lent again; one that was closed is dropped. Scripts
    and a fake clock belong to the context for good, so a borrower adds its
    scripts to its page, and a player with Playwright's clock borrows a context
    for good: it boots warm, and its context is closed afterwards. The contexts have the browser's
    own locale: a player's language is the one chosen in its settings (online_helpers.new_player),
    so any idle context serves any player, and a test process pays as many first visits as it has
    players at once.
    """

    def __init__(self, browser: Browser, options: dict[str, Any], site: Site) -> None:
        self.browser = browser
        self.options = options
        self.site = site
        self.idle: list[BrowserContext] = []
        self.lent: set[BrowserContext] = set()
        #: Lent for good (see take): closed when given back.
        self.spoiled: set[BrowserContext] = set()
        #: How many contexts were warmed up (first visits paid), and how many loans were made.
        self.made = 0
        self.loans = 0

    def take(self, *, for_good: bool = False) -> BrowserContext:
        """A warm context; ``for_good``: the borrower changes it for good (Playwright's clock), and it is
        closed when given back, not lent again."""
        if self.idle:
            context = self.idle.pop()
        else:
            options = {**self.options, "permissions": PLAYER_PERMISSIONS}
            context = warmed_up(self.browser.new_context(**options), self.site)
            self.made += 1
        self.lent.add(context)
        self.loans += 1
        if for_good:
            self.spoiled.add(context)
        return context

    def give_back(self, context: BrowserContext) -> None:
        self.lent.discard(context)
        if context in self.spoiled:
            self.spoiled.discard(context)
            close_context(context)
            return
        try:
            forget_the_player(context, self.site)
        except PlaywrightError:  # closed by its test, or its browser is gone: not lent again
            close_context(context)
            return
        self.idle.append(context)

    def close(self) -> None:
        for context in [*self.lent, *self.idle]:
            close_context(context)


@pytest.fixture(scope="session")
def warm_contexts(browser: Browser, browser_context_args: dict[str, Any], site: Site) -> Iterator[WarmContexts]:
    """This test process's pool of warm contexts for the players of online tests (WarmContexts)."""
    pool = WarmContexts(browser, browser_context_args, site)
    yield pool
    print(f"\nwarm contexts: {pool.made} first visits for {pool.loans} players")
    pool.close()


#: The other browser of the stories that play pages of both (marker two_browsers).
OTHER_BROWSER = {"chromium": "firefox", "firefox": "chromium"}


@pytest.fixture(scope="session")
def other_browser(
    playwright: Playwright, browser_type_launch_args: dict[str, Any], browser_name: str
) -> Iterator[Browser]:
    """The other of Chromium and Firefox (OTHER_BROWSER), launched like the suite's (launch_options)."""
    name = OTHER_BROWSER[browser_name]
    given = {k: v for k, v in browser_type_launch_args.items() if k not in BROWSER_SPECIFIC_OPTIONS}
    browser = getattr(playwright, name).launch(**launch_options(name, given))
    yield browser
    browser.close()


@pytest.fixture(scope="session")
def other_warm_contexts(
    other_browser: Browser, browser_context_args: dict[str, Any], site: Site
) -> Iterator[WarmContexts]:
    """The other browser's pool of warm contexts (WarmContexts), for the stories marked two_browsers."""
    pool = WarmContexts(other_browser, browser_context_args, site)
    yield pool
    pool.close()


@pytest.fixture
def browsers(request: pytest.FixtureRequest, browser_name: str, warm_contexts: WarmContexts) -> dict[str, WarmContexts]:
    """The warm contexts of Chromium and of Firefox, by name, for a story whose players use both (two_browsers).

    Such a story runs once, with pages of both browsers meeting each other, in the suite's step whose browser is
    Chromium; the Firefox step deselects it. Each browser plays a seat of its own, and the stories share the
    roles out so that each browser hosts and joins.
    """
    if not request.node.get_closest_marker("two_browsers"):
        pytest.fail("a test that uses the browsers fixture must be marked two_browsers")
    other: WarmContexts = request.getfixturevalue("other_warm_contexts")
    return {browser_name: warm_contexts, OTHER_BROWSER[browser_name]: other}


@pytest.fixture
def phone_context(request: pytest.FixtureRequest, site: Site) -> Iterator[BrowserContext]:
    """A phone's context (PHONE) that has visited the site before; the player is wiped after the test."""
    shared: BrowserContext = request.getfixturevalue("warm_phone_context")
    yield shared
    forget_the_player(shared, site)


@pytest.fixture
def context(
    request: pytest.FixtureRequest, new_context: Callable[..., BrowserContext], site: Site
) -> Iterator[BrowserContext]:
    """The test's browser context: the warm shared one, or a new one for a first visit (see the module's docstring)."""
    if request.node.get_closest_marker("fresh_browser") or "site_copy" in request.fixturenames:
        yield new_context()
        return
    shared: BrowserContext = request.getfixturevalue("warm_context")  # only started when a test needs it
    yield shared
    forget_the_player(shared, site)


@pytest.fixture
def site_copy(dist: Path, tmp_path: Path) -> Iterator[Site]:
    """A private copy of the site that a test may change (a new deploy)."""
    copy = tmp_path / "site"
    shutil.copytree(dist, copy)
    served = serve(copy)
    yield served
    served.stop()


@dataclass
class Watch:
    """Console errors and uncaught exceptions of the pages a test opened."""

    errors: list[str] = field(default_factory=list)

    def attach(self, page: Any) -> None:
        page.on("console", lambda m: self.errors.append(f"console.{m.type}: {m.text}") if m.type == "error" else None)
        page.on("pageerror", lambda e: self.errors.append(f"page error: {e}"))


@pytest.fixture
def watch() -> Iterator[Watch]:
    """Fails the test if any page it watched logged an error."""
    w = Watch()
    yield w
    assert w.errors == [], "the page logged errors:\n" + "\n".join(w.errors)
