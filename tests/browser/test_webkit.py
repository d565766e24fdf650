"""WebKit-family smoke test: WebKitGTK's MiniBrowser boots the built site and plays a whole deal.

Playwright's own WebKit build cannot be downloaded here, so this drives
Debian's WebKitGTK through its WebDriver (``WebKitWebDriver``, package
webkit2gtk-driver) with Selenium. MiniBrowser has no headless mode: a fixture
starts Xvfb on a free display number. A missing driver or Xvfb is a failure,
not a skip, and pytest-timeout bounds the test (a WebDriver session without a
working display hangs forever).
"""

from __future__ import annotations

import os
import shutil
import subprocess
import threading
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from .conftest import Site
from .helpers import OVER, TEST_QUERY

pytestmark = [
    pytest.mark.browser,
    pytest.mark.webkit,
    pytest.mark.timeout(300),
    # Selenium's own call into its RemoteConnection; nothing this test can change.
    pytest.mark.filterwarnings("ignore:setting remote_server_addr:DeprecationWarning"),
]

BOOT_TIMEOUT_S = 150  # Pyodide boots in 5-8 s in MiniBrowser on an idle machine
STEP_TIMEOUT_S = 60
DISPLAYS = range(90, 190)


def require(command: str, package: str) -> str:
    found = shutil.which(command)
    if found is None:
        pytest.fail(f"{command} not found: install the Debian package {package} (the WebKit test needs it)")
    return found


@pytest.fixture(scope="module")
def xvfb(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    """An Xvfb server on the first free display number; yields its DISPLAY (":<n>").

    Readiness is the server's socket /tmp/.X11-unix/X<n> appearing (``-displayfd``
    does not work inside pytest). A number another server grabbed first makes
    Xvfb exit at once: the next number is tried.
    """
    binary = require("Xvfb", "xvfb")
    log = tmp_path_factory.mktemp("xvfb") / "xvfb.log"
    for number in DISPLAYS:
        socket = Path(f"/tmp/.X11-unix/X{number}")
        if socket.exists() or Path(f"/tmp/.X{number}-lock").exists():
            continue
        with log.open("ab") as out:
            server = subprocess.Popen(
                [binary, f":{number}", "-screen", "0", "1280x900x24", "-nolisten", "tcp", "-noreset"],
                stdin=subprocess.DEVNULL,
                stdout=out,
                stderr=subprocess.STDOUT,
            )
        deadline = time.monotonic() + 20
        while server.poll() is None and not socket.exists() and time.monotonic() < deadline:
            time.sleep(0.05)
        if server.poll() is not None:
            continue  # lost the race for this number
        if not socket.exists():
            server.kill()
            server.wait()
            pytest.fail(f"Xvfb :{number} did not create its socket in 20 s:\n{log.read_text(errors='replace')}")
        try:
            yield f":{number}"
        finally:
            server.terminate()
            try:
                server.wait(10)
            except subprocess.TimeoutExpired:
                server.kill()
                server.wait()
        return
    pytest.fail(f"no free X display number in {DISPLAYS}")


@pytest.fixture
def webkit(xvfb: str, tmp_path: Path) -> Iterator[Any]:
    """A Selenium session in WebKitGTK's MiniBrowser (started by WebKitWebDriver) on the Xvfb display."""
    from selenium import webdriver
    from selenium.webdriver.webkitgtk.options import Options
    from selenium.webdriver.webkitgtk.service import Service

    driver_path = require("WebKitWebDriver", "webkit2gtk-driver")
    # GTK's "no animations" setting is WebKitGTK's prefers-reduced-motion: reduce. Under
    # Xvfb every frame is painted in software, and the boot screen's endless CSS animations
    # (progress shimmer, dots) made the Pyodide boot some 2x slower on this 2-core machine.
    # ?fast=1 already removes the table's own animations, so the test loses nothing.
    config = tmp_path / "config"
    for gtk in ("gtk-3.0", "gtk-4.0"):
        (config / gtk).mkdir(parents=True)
        (config / gtk / "settings.ini").write_text("[Settings]\ngtk-enable-animations=false\n", encoding="utf-8")
    env = {**os.environ, "DISPLAY": xvfb, "NO_AT_BRIDGE": "1", "XDG_CONFIG_HOME": str(config)}
    env.pop("WAYLAND_DISPLAY", None)
    service = Service(executable_path=driver_path, log_output=str(tmp_path / "webkitwebdriver.log"), env=env)
    driver = webdriver.WebKitGTK(options=Options(), service=service)
    try:
        driver.set_window_size(1280, 860)
        yield driver
    finally:
        # Selenium's HTTP calls have no timeout: a hung session must not hang the teardown
        # too (pytest-timeout has fired by then). Kill the driver; Xvfb's end takes MiniBrowser.
        closer = threading.Thread(target=driver.quit, daemon=True)
        closer.start()
        closer.join(30)
        if closer.is_alive() and service.process is not None:
            service.process.kill()


def wait_for(driver: Any, script: str, *args: Any, timeout: float, what: str) -> Any:
    """Poll ``script`` (a function body returning a value) until it returns something truthy."""
    deadline = time.monotonic() + timeout
    while True:
        value = driver.execute_script(script, *args)
        if value:
            return value
        if time.monotonic() > deadline:
            state = driver.execute_script(
                "const t = document.querySelector('#table');"
                " return {data: t ? {...t.dataset} : null,"
                " error: document.querySelector('#boot-error')?.textContent ?? null};"
            )
            pytest.fail(f"timed out after {timeout:.0f} s waiting for {what}; table: {state}")
        time.sleep(0.1)


READY = "const d = document.querySelector('#table')?.dataset; return d?.ready === '1';"
AFTER_STEP = (
    "const d = document.querySelector('#table').dataset; return Number(d.step) > arguments[0] && d.ready === '1';"
)


def table_data(driver: Any) -> dict[str, str]:
    data: dict[str, str] = driver.execute_script("return {...document.querySelector('#table').dataset};")
    return data


def test_webkit_plays_a_whole_deal(site: Site, webkit: Any) -> None:
    from selenium.webdriver.common.by import By

    driver = webkit
    started = time.monotonic()
    driver.get(site.url + TEST_QUERY)
    wait_for(driver, READY, timeout=BOOT_TIMEOUT_S, what="the first boot")
    boot = time.monotonic() - started
    data = table_data(driver)
    assert data["boot"] == "ready", data
    timings = driver.execute_script(
        "return window.__test.messages.map(m => JSON.parse(m)).find(m => m.type === 'ready')?.timings;"
    )
    version = driver.capabilities.get("browserVersion")
    reduced = driver.execute_script("return matchMedia('(prefers-reduced-motion: reduce)').matches")
    print(f"\nWebKitGTK {version}: playable after {boot:.1f} s (worker boot stages, ms: {timings})")
    print(f"WebKitGTK: prefers-reduced-motion: reduce = {reduced}")

    # A fixed deal against the computer (HU24: six cards each), through the page's test hook.
    started_game = driver.execute_async_script(
        "const done = arguments[arguments.length - 1];"
        " window.__test.newGame(arguments[0]).then(() => done(true), e => done(String(e)));",
        {"preset": "HU24", "seed": 20261129, "dealer": 0},
    )
    assert started_game is True, started_game
    wait_for(driver, READY, timeout=STEP_TIMEOUT_S, what="the new game")
    assert len(driver.find_elements(By.CSS_SELECTOR, "#my-hand .card[data-card]")) == 6

    moves = 0
    while table_data(driver)["phase"] not in OVER:
        legal = driver.find_elements(By.CSS_SELECTOR, "#my-hand .card[data-legal='1']")
        offered = {
            b.get_attribute("data-action"): b
            for b in driver.find_elements(By.CSS_SELECTOR, "#table button[data-action]")
            if b.is_displayed()
        }
        if legal:
            target = legal[0]
        elif "pass" in offered:
            target = offered["pass"]
        else:
            target = next(b for a, b in offered.items() if a not in ("next", "new-game"))
        before = int(table_data(driver)["step"])
        action = target.get_attribute("data-action")
        target.click()
        if action in ("claim", "resign"):  # a costly step asks first
            driver.find_element(By.CSS_SELECTOR, "[data-action='confirm-yes']").click()
        wait_for(driver, AFTER_STEP, before, timeout=STEP_TIMEOUT_S, what=f"the answer to move {moves + 1}")
        moves += 1
        assert moves < 40, "the deal does not end"

    # The deal is over: the result is shown and every card is revealed.
    view: dict[str, Any] = driver.execute_script("return window.__test.view();")
    assert view["deal_result"], view
    result = driver.find_element(By.CSS_SELECTOR, "#result")
    assert result.is_displayed()
    assert driver.find_element(By.CSS_SELECTOR, "#result .result-reason").text.strip()
    shown = set(driver.execute_script("return [...document.querySelectorAll('[data-card]')].map(e => e.dataset.card);"))
    revealed = set(view["reveal"]["hands"][1]) | set(view["reveal"]["talon"])
    assert revealed <= shown, sorted(revealed - shown)
    data = table_data(driver)
    print(
        f"WebKitGTK: a whole deal in {moves} moves, {time.monotonic() - started:.1f} s in all"
        f" (service worker: {data.get('sw', '-')}, memory snapshot: {data.get('snapshot', '-')})"
    )
