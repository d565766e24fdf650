"""Start-up benchmark of the built site against a bare Pyodide page.

``python -m tests.browser.bench_startup [--runs N] [--no-build] [--no-trace] [--json FILE] [--check] [--nice N]``

Builds ``dist/`` (incrementally, unless ``--no-build``) and a *bare page* in a
temporary folder, next to a copy of the same Pyodide runtime files: it boots
Pyodide, loads a one-module wheel and imports it, nothing else. Both are
served on 127.0.0.1 and driven in headless Chromium (Debian's, found as in
the browser tests). Site and bare runs alternate, so that the load of this
machine hits both alike; medians are printed with their range.

Each run starts a browser on a new, empty profile:

* **cold**: the first visit, from navigation start until the table is
  playable (``#table[data-boot-ms]``; the bare page sets ``data-boot-ms`` on
  ``<body>`` once its package is imported). For the site the visit goes on
  until the service worker has cached every file and the memory snapshot is
  stored; what the server sent for the whole visit is the transfer.
* **warm**: a reload. The site is then served by its service worker and
  restored from the memory snapshot (checked); the bare page has only the
  HTTP cache. So a third page measures the floor of a warm start: the bare
  page with what the site adds for one (*bare snapshot*: a service worker
  that precaches the runtime, and a module worker that restores Pyodide from
  the memory snapshot it stored in the origin-private file system on the
  first visit, the tiny package imported). No page with Pyodide and a
  snapshot starts faster on this machine.
* **a computer move** (site): you click a legal card and the computer answers
  at level 5 with its 1-second budget (the page's normal mode, not the test
  mode); *thinking* is the time from the page sending ``table_computer`` to the
  worker's answer, *move* runs from the click until the table is playable.

Main-thread tasks are measured two ways. The ``longtask`` entries of a
``PerformanceObserver`` (every task of 50 ms or more, in wall-clock time);
on a loaded machine they also count the time the OS gave to other processes,
so a trace of the page's main thread (Chrome's ``toplevel`` category,
recorded in every run of both pages) also gives each task's own CPU time.
Nothing of the benchmark runs in the page during the measured windows: it
follows the page's ``data-*`` hooks through console messages.

Transfer counts the response bodies the server sent; the gzip figure
compresses each response at level 6, as a static host would. Targets (the
issue "The table as a regular player wants it"): cold within 1.1x the bare
page, warm at most 0.7 s; and of the issue "The game in the browser":
transfer within 1.15x, no main-thread task over 50 ms during boot or
thinking. ``--check`` exits with status 1 if one is missed. ``--nice -10``
(as root) runs the browser ahead of the machine's other jobs, for figures
closer to a quiet machine; the report says which niceness it ran at.
"""

from __future__ import annotations

import argparse
import gzip
import http.server
import json
import os
import shutil
import statistics
import subprocess
import sys
import tempfile
import threading
import time
from collections.abc import Callable, Iterator, Sequence
from contextlib import contextmanager
from dataclasses import asdict, dataclass, field
from pathlib import Path
from typing import Any

from playwright.sync_api import BrowserContext, CDPSession, Page, Playwright, sync_playwright

import build

from .conftest import find_chromium

LAUNCH_ARGS = [
    "--disable-dev-shm-usage",
    "--disable-gpu",
    "--disable-background-networking",
    "--disable-component-update",
    "--no-first-run",
]
TIMEOUT_S = 180.0
LONG_TASK_MS = 50.0
TARGET_COLD_RATIO = 1.1
TARGET_WARM_MS = 700.0
TARGET_TRANSFER_RATIO = 1.15
TRACE_CATEGORIES = ["toplevel", "blink.user_timing", "__metadata"]

# The player's settings for the site runs (web/screens/settings.js): level 5 (a 1 s
# budget), and the computer deals, so you lead and the table is idle after boot.
SETTINGS_KEY = "sixty-six.settings.v1"
SETTINGS = {"preset": "AT20", "level": 5, "dealer": "computer", "points": "auto"}

# Runs in every document before its own scripts. It records the long tasks,
# the requests the page sends to its worker and when they are answered, and
# reports the data-* attributes of #table (or of <body>) on the console, so
# that the benchmark can wait for them without running code in the page.
PROBE = """
(() => {
  const t0 = performance.now();
  performance.mark(`bench:t0:${t0.toFixed(3)}`, { startTime: t0 });
  const doc = `${Date.now()}-${Math.random()}`; // tells this document's reports from the one before a reload
  const bench = { doc, t0, longTasks: [], requests: {}, click: null, seen: {}, readyAt: null, worker: null };
  window.__bench = bench;
  try {
    new PerformanceObserver((list) => {
      for (const e of list.getEntries()) bench.longTasks.push({ start: e.startTime, duration: e.duration });
    }).observe({ type: "longtask", buffered: true });
  } catch {
    bench.longTasks = null;
  }
  const NativeWorker = window.Worker;
  if (NativeWorker) {
    window.Worker = class extends NativeWorker {
      constructor(...args) {
        super(...args);
        this.addEventListener("message", (event) => {
          const data = event.data || {};
          const entry = bench.requests[data.id];
          if (entry && data.type === "response") entry.answered = performance.now();
          if (data.type === "ready") {
            // The worker's boot stages, moved onto this document's clock.
            const shift = (data.timeOrigin || performance.timeOrigin) - performance.timeOrigin;
            bench.worker = { received: performance.now(), mode: data.mode, started: shift };
            for (const [stage, ms] of Object.entries(data.timings || {})) bench.worker[stage] = ms + shift;
          }
        });
      }
      postMessage(message, ...rest) {
        if (message && message.id !== undefined) {
          const cmd = message.payload && message.payload.cmd ? message.payload.cmd : message.type;
          bench.requests[message.id] = { cmd, sent: performance.now(), answered: null };
        }
        return super.postMessage(message, ...rest);
      }
    };
  }
  document.addEventListener("click", (event) => { bench.click = event.timeStamp; }, true);
  document.addEventListener("DOMContentLoaded", () => {
    const node = document.getElementById("table") || document.body;
    const report = () => {
      const now = performance.now();
      for (const [key, value] of Object.entries(node.dataset)) bench.seen[`${key}=${value}`] ??= now;
      if (node.dataset.ready === "1") bench.readyAt = now;
      console.debug("__bench__" + JSON.stringify({ doc, data: { ...node.dataset } }));
    };
    new MutationObserver(report).observe(node, { attributes: true });
    report();
  });
})();
"""
SITE_INIT = PROBE + (
    f"try {{ localStorage.setItem({json.dumps(SETTINGS_KEY)}, {json.dumps(json.dumps(SETTINGS))}); }} catch {{}}\n"
)

BARE_PACKAGE = "bench_tiny"
BARE_HTML = """<!doctype html>
<html lang="en">
<head><meta charset="utf-8"><title>Bare Pyodide</title><script type="module" src="bare.js"></script></head>
<body data-ready="0"><p>Booting Pyodide…</p></body>
</html>
"""
BARE_JS = """// Boots Pyodide, installs a one-module wheel and imports it: the floor for any Pyodide page.
import { loadPyodide } from "./pyodide/pyodide.mjs";

const pyodide = await loadPyodide({ indexURL: new URL("pyodide/", import.meta.url).href });
let failure = null;
await pyodide.loadPackage(new URL("__WHEEL__", import.meta.url).href, {
  errorCallback: (message) => {
    failure = message;
  },
});
if (failure) throw new Error(failure);
pyodide.runPython("import __PACKAGE__");
document.body.dataset.bootMs = String(Math.round(performance.now()));
document.body.dataset.ready = "1";
"""

# The bare snapshot page (the floor of a warm start): its page, worker and service worker.
SNAPSHOT_HTML = """<!doctype html>
<html lang="en">
<head><meta charset="utf-8"><title>Bare Pyodide, snapshot</title><script type="module" src="page.js"></script></head>
<body data-ready="0"><p>Booting Pyodide…</p></body>
</html>
"""
SNAPSHOT_PAGE_JS = """// Starts the worker first, then registers the service worker (as the site does).
const body = document.body;
const worker = new Worker(new URL("worker.js", import.meta.url), { type: "module" });
worker.onmessage = ({ data }) => {
  if (data.type === "ready") {
    body.dataset.bootMode = data.mode;
    body.dataset.bootMs = String(Math.round(performance.now()));
    body.dataset.ready = "1";
  }
  if (data.type === "snapshot") body.dataset.snapshot = "stored";
};
navigator.serviceWorker.register("sw.js").then(() => navigator.serviceWorker.ready).then(() => {
  body.dataset.sw = "ready";
});
"""
SNAPSHOT_WORKER_JS = """// Restores Pyodide from the snapshot in the origin-private file system, or
// boots it, imports the tiny package and stores a snapshot.
const runtime = import("./pyodide/pyodide.mjs");
const indexURL = new URL("pyodide/", self.location.href).href;
const folder = await navigator.storage.getDirectory();
let stored = null;
try {
  const handle = await (await folder.getFileHandle("snapshot.bin")).createSyncAccessHandle();
  stored = new Uint8Array(handle.getSize());
  handle.read(stored, { at: 0 });
  handle.close();
} catch {
  // the first visit
}
const { loadPyodide } = await runtime;
if (stored) {
  const pyodide = await loadPyodide({ indexURL, _loadSnapshot: stored });
  pyodide.runPython("import __PACKAGE__");
  postMessage({ type: "ready", mode: "snapshot" });
} else {
  const pyodide = await loadPyodide({ indexURL, _makeSnapshot: true });
  // Imported from its wheel (zipimport), as the site does: loadPackage leaves what a snapshot cannot hold.
  const wheel = await (await fetch(new URL("__WHEEL__", self.location.href))).arrayBuffer();
  pyodide.FS.writeFile("/tmp/__WHEEL__", new Uint8Array(wheel));
  pyodide.runPython("import sys; sys.path.insert(0, '/tmp/__WHEEL__'); import __PACKAGE__");
  const snapshot = pyodide.makeMemorySnapshot();
  postMessage({ type: "ready", mode: "cold" });
  const handle = await (await folder.getFileHandle("snapshot.bin", { create: true })).createSyncAccessHandle();
  handle.write(snapshot, { at: 0 });
  handle.flush();
  handle.close();
  postMessage({ type: "snapshot" });
}
"""
SNAPSHOT_SW_JS = """// Precaches every file of the page, then serves them from the cache.
const FILES = __FILES__;
self.addEventListener("install", (event) => event.waitUntil(caches.open("bare").then((c) => c.addAll(FILES))));
self.addEventListener("activate", (event) => event.waitUntil(self.clients.claim()));
self.addEventListener("fetch", (event) => {
  event.respondWith(caches.match(event.request).then((hit) => hit || fetch(event.request)));
});
"""

# ------------------------------------------------------------------- serving


@dataclass
class Served:
    path: str
    status: int
    size: int  # body bytes sent


class Meter:
    """What an HTTP server sent, request by request (thread-safe)."""

    def __init__(self) -> None:
        self._lock = threading.Lock()
        self._log: list[Served] = []

    def add(self, entry: Served) -> None:
        with self._lock:
            self._log.append(entry)

    def take(self) -> list[Served]:
        with self._lock:
            log, self._log = self._log, []
        return log


class MeteredHandler(build.SiteHandler):
    """The build's static handler (same MIME types and headers) that counts the body bytes it sends."""

    meter: Meter

    def copyfile(self, source: Any, outputfile: Any) -> None:
        sent = 0
        while chunk := source.read(1 << 16):
            outputfile.write(chunk)
            sent += len(chunk)
        self.meter.add(Served(self.path.split("?", 1)[0], 200, sent))

    def send_response(self, code: int, message: str | None = None) -> None:
        if code != 200:
            self.meter.add(Served(self.path.split("?", 1)[0], code, 0))
        super().send_response(code, message)

    def log_message(self, format: str, *args: object) -> None:
        pass


@dataclass
class Server:
    directory: Path
    url: str
    meter: Meter
    stop: Callable[[], None]


def serve(directory: Path) -> Server:
    meter = Meter()
    handler_class = type("Handler", (MeteredHandler,), {"meter": meter})

    def handler(*args: Any, **kwargs: Any) -> Any:
        return handler_class(*args, directory=str(directory), **kwargs)

    server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), handler)
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()

    def stop() -> None:
        server.shutdown()
        server.server_close()

    return Server(directory, f"http://127.0.0.1:{server.server_address[1]}/", meter, stop)


_gzip_sizes: dict[Path, int] = {}


def gzip_size(path: Path) -> int:
    if path not in _gzip_sizes:
        _gzip_sizes[path] = len(gzip.compress(path.read_bytes(), compresslevel=6, mtime=0))
    return _gzip_sizes[path]


@dataclass
class Transfer:
    requests: int = 0
    raw: int = 0
    gzipped: int = 0
    files: dict[str, int] = field(default_factory=dict)


def transfer(log: Sequence[Served], directory: Path) -> Transfer:
    total = Transfer(requests=len(log))
    for entry in log:
        if entry.status != 200 or not entry.size:
            continue
        rel = entry.path.lstrip("/") or "index.html"
        if rel.endswith("/"):
            rel += "index.html"
        total.raw += entry.size
        total.gzipped += gzip_size(directory / rel)
        total.files[rel] = total.files.get(rel, 0) + entry.size
    return total


# ----------------------------------------------------------------- bare page


def build_bare_page(folder: Path, snapshot: bool = False) -> Path:
    """The bare page in ``folder``: index.html, a tiny wheel and the same Pyodide files as dist/.

    Without ``snapshot``, bare.js boots Pyodide on the page; with it, the bare snapshot page's files.
    """
    runtime = folder / "pyodide"
    runtime.mkdir(parents=True)
    for name in build.PYODIDE_FILES:
        shutil.copy2(build.PYODIDE_SRC / name, runtime / name)
    package = folder / "src" / BARE_PACKAGE
    package.mkdir(parents=True)
    (package / "__init__.py").write_text('"""The smallest package there is."""\n\nANSWER = 42\n', encoding="utf-8")
    project = build.Project(name=BARE_PACKAGE, version="0.0.1", summary="", requires_python="")
    wheel_name, wheel = build.build_wheel(project, package)
    (folder / wheel_name).write_bytes(wheel)
    shutil.rmtree(folder / "src")
    if not snapshot:
        (folder / "index.html").write_text(BARE_HTML, encoding="utf-8")
        script = BARE_JS.replace("__WHEEL__", wheel_name).replace("__PACKAGE__", BARE_PACKAGE)
        (folder / "bare.js").write_text(script, encoding="utf-8")
        return folder
    (folder / "index.html").write_text(SNAPSHOT_HTML, encoding="utf-8")
    (folder / "page.js").write_text(SNAPSHOT_PAGE_JS, encoding="utf-8")
    worker = SNAPSHOT_WORKER_JS.replace("__WHEEL__", wheel_name).replace("__PACKAGE__", BARE_PACKAGE)
    (folder / "worker.js").write_text(worker, encoding="utf-8")
    files = ["./", *sorted(p.relative_to(folder).as_posix() for p in folder.rglob("*") if p.is_file())]
    (folder / "sw.js").write_text(SNAPSHOT_SW_JS.replace("__FILES__", json.dumps(files)), encoding="utf-8")
    return folder


# ------------------------------------------------------------- the page side


class Probe:
    """The page's data-* hooks as its console reports them (see PROBE)."""

    def __init__(self, page: Page) -> None:
        self.page = page
        self.data: dict[str, str] = {}
        self.doc = ""  # the document the data comes from
        self.retired: set[str] = set()
        self.errors: list[str] = []
        page.on("console", self._console)
        page.on("pageerror", lambda error: self.errors.append(str(error)))

    def _console(self, message: Any) -> None:
        text = message.text
        if text.startswith("__bench__"):
            report = json.loads(text[len("__bench__") :])
            if report["doc"] not in self.retired:  # a late report of the document before a reload
                self.doc, self.data = report["doc"], report["data"]

    def new_document(self) -> None:
        """Forget the current document's hooks (call it before a reload or navigation)."""
        self.retired.add(self.doc)
        self.data = {}

    def wait(self, what: str, condition: Callable[[dict[str, str]], bool], timeout: float = TIMEOUT_S) -> None:
        """Wait (without running anything in the page) until ``condition(data)`` holds."""
        deadline = time.monotonic() + timeout
        while not condition(self.data):
            if self.errors:
                raise RuntimeError(f"the page failed while waiting for {what}: {'; '.join(self.errors)}")
            if self.data.get("boot") == "failed":
                raise RuntimeError(f"the page failed to boot while waiting for {what}")
            if time.monotonic() > deadline:
                raise TimeoutError(f"{what}: not within {timeout:.0f} s (hooks: {self.data})")
            self.page.wait_for_timeout(20)

    def bench(self) -> dict[str, Any]:
        """The probe's record of the current document (long tasks, worker requests, clicks)."""
        record: dict[str, Any] = self.page.evaluate("window.__bench")
        if record.get("doc") != self.doc:
            raise RuntimeError("the page is not the document whose hooks were read")
        if record.get("longTasks") is None:
            raise RuntimeError("this browser does not report long tasks")
        return record


# --------------------------------------------------------------- the trace


@dataclass(frozen=True)
class Task:
    start: float  # ms on the document's clock (performance.now())
    wall: float  # ms
    cpu: float  # ms of the main thread's own CPU time
    source: str  # where the task was posted from


class Trace:
    """A Chrome trace of one browser (``toplevel`` tasks and user-timing marks) through CDP."""

    def __init__(self, context: BrowserContext, page: Page) -> None:
        self.page = page
        self.session: CDPSession = context.new_cdp_session(page)
        self.events: list[dict[str, Any]] = []
        self.complete = False
        self.session.on("Tracing.dataCollected", lambda params: self.events.extend(params["value"]))
        self.session.on("Tracing.tracingComplete", lambda params: setattr(self, "complete", True))
        self.session.send(
            "Tracing.start",
            {"traceConfig": {"includedCategories": TRACE_CATEGORIES}, "transferMode": "ReportEvents"},
        )

    def stop(self) -> None:
        self.session.send("Tracing.end")
        deadline = time.monotonic() + 60
        while not self.complete and time.monotonic() < deadline:
            self.page.wait_for_timeout(50)

    def main_thread_tasks(self, t0: float) -> list[Task]:
        """The top-level tasks of the main thread of the document whose probe started at ``t0``."""
        return self.tasks_of_mark(f"bench:t0:{t0:.3f}", t0)

    def tasks_of_mark(self, name: str, t0: float = 0.0) -> list[Task]:
        """The top-level tasks of the thread that made the user-timing mark ``name`` (``performance.mark``),
        timed from ``t0`` ms before the mark; none if the mark is not in the trace."""
        mark = next((e for e in self.events if e.get("name") == name), None)
        if mark is None:
            return []
        origin_us = mark["ts"] - t0 * 1000.0
        runs = sorted(
            (
                e
                for e in self.events
                if e.get("ph") == "X"
                and e.get("name") == "ThreadControllerImpl::RunTask"
                and e.get("pid") == mark["pid"]
                and e.get("tid") == mark["tid"]
            ),
            key=lambda e: e["ts"],
        )
        tasks: list[Task] = []
        end = float("-inf")
        for e in runs:
            if e["ts"] < end:
                continue  # a task nested in another (a nested run loop)
            end = e["ts"] + e.get("dur", 0)
            args = e.get("args", {})
            source = f"{args.get('src_file', '?').rsplit('/', 1)[-1]}:{args.get('src_func', '?')}"
            tasks.append(
                Task(
                    start=(e["ts"] - origin_us) / 1000.0,
                    wall=e.get("dur", 0) / 1000.0,
                    cpu=e.get("tdur", e.get("dur", 0)) / 1000.0,
                    source=source,
                )
            )
        return tasks


@dataclass
class Window:
    """What the main thread did in one stretch of time."""

    longest_longtask: float = 0.0  # ms, PerformanceObserver "longtask" (wall clock)
    longtasks: int = 0
    longest_cpu: float = 0.0  # ms, the trace's longest task in CPU time
    longest_cpu_source: str = ""
    longest_wall: float = 0.0  # ms, the trace's longest task in wall-clock time
    duration: float = 0.0  # ms


def window(record: dict[str, Any], tasks: Sequence[Task], start: float, end: float) -> Window:
    long = [t["duration"] for t in record["longTasks"] if start <= t["start"] < end]
    inside = [t for t in tasks if start <= t.start < end]
    top = max(inside, key=lambda t: t.cpu, default=None)
    return Window(
        longest_longtask=max(long, default=0.0),
        longtasks=len(long),
        longest_cpu=top.cpu if top else 0.0,
        longest_cpu_source=top.source if top else "",
        longest_wall=max((t.wall for t in inside), default=0.0),
        duration=end - start,
    )


# -------------------------------------------------------------- measurements


@dataclass
class Run:
    cold_ms: float
    warm_ms: float
    transfer: Transfer
    windows: dict[str, Window] = field(default_factory=dict)
    timings: dict[str, Any] = field(default_factory=dict)


# The boot stages of the site, in order: (key, label).
STAGES = (
    ("started", "worker script running"),
    ("info", "build.json loaded"),
    ("module", "Pyodide's module loaded"),
    ("store", "snapshot store opened"),
    ("restore", "snapshot found, restore begins"),
    ("restored", "interpreter restored"),
    ("runtime", "loadPyodide begins"),
    ("engine", "Pyodide loaded"),
    ("installed", "engine imported"),
    ("snapshot", "memory snapshot made"),
    ("ready", "worker ready"),
    ("received", "page gets 'ready'"),
    ("first_game", "page has the game (resume/table_new answered)"),
    ("playable", "table playable (data-boot-ms)"),
)


def boot_timeline(record: dict[str, Any], playable: float) -> dict[str, float]:
    """When each boot stage happened, in ms since navigation start."""
    timeline: dict[str, float] = {k: v for k, v in (record.get("worker") or {}).items() if isinstance(v, int | float)}
    answered = [
        r["answered"] for r in record["requests"].values() if r["cmd"] in ("resume", "table_new") and r["answered"]
    ]
    if answered:
        timeline["first_game"] = min(max(answered), playable)
    timeline["playable"] = playable
    return timeline


@contextmanager
def fresh_profile(playwright: Playwright, init_script: str) -> Iterator[tuple[BrowserContext, Page]]:
    """A browser started on a new, empty profile (with a disk cache, as a real first visit has)."""
    with tempfile.TemporaryDirectory(prefix="bench-profile-") as profile:
        context = playwright.chromium.launch_persistent_context(
            profile,
            executable_path=find_chromium(),
            args=LAUNCH_ARGS,
            headless=True,
            reduced_motion="no-preference",
            viewport={"width": 1280, "height": 800},
        )
        try:
            context.add_init_script(init_script)
            page = context.pages[0] if context.pages else context.new_page()
            yield context, page
        finally:
            context.close()


def site_run(playwright: Playwright, server: Server, trace: bool) -> Run:
    with fresh_profile(playwright, SITE_INIT) as (context, page):
        probe = Probe(page)
        tracer = Trace(context, page) if trace else None
        server.meter.take()
        # Cold: a first visit.
        page.goto(server.url, wait_until="commit")
        probe.wait("the first visit", lambda d: d.get("ready") == "1")
        cold = float(probe.data["bootMs"])
        if probe.data.get("bootMode") != "cold":
            raise RuntimeError(f"the first visit booted in mode {probe.data.get('bootMode')!r}")
        # The rest of the first visit: the snapshot is stored, every file cached for offline play.
        probe.wait("the snapshot", lambda d: d.get("snapshot") == "stored")
        probe.wait("the service worker", lambda d: d.get("sw") == "ready")
        # The first visit's last idle work, so that it does not run into the reload (as a later visit's would not).
        probe.wait("the computer player loaded ahead", lambda d: d.get("computer") == "loaded")
        cold_record = probe.bench()
        seen = cold_record["seen"]
        background_end = max(seen["snapshot=stored"], seen["sw=ready"], seen["computer=loaded"])
        sent = transfer(server.meter.take(), server.directory)
        # Warm: a reload, served by the service worker and restored from the snapshot.
        probe.new_document()
        page.reload(wait_until="commit")
        probe.wait("the reload", lambda d: d.get("ready") == "1")
        warm = float(probe.data["bootMs"])
        if probe.data.get("bootMode") != "snapshot":
            raise RuntimeError(f"the reload booted in mode {probe.data.get('bootMode')!r}, not from the snapshot")
        # A computer move: click a legal card; the computer answers (level 5, 1 s budget).
        step = int(probe.data["step"])
        box = page.locator("#my-hand .card[data-legal='1']").first.bounding_box()
        if box is None:
            raise RuntimeError("no legal card to play")
        page.mouse.click(box["x"] + box["width"] / 2, box["y"] + box["height"] / 2)
        probe.wait("the computer's answer", lambda d: int(d.get("step", 0)) >= step + 2 and d.get("ready") == "1")
        warm_record = probe.bench()
        if tracer:
            tracer.stop()
        cold_tasks = tracer.main_thread_tasks(cold_record["t0"]) if tracer else []
        warm_tasks = tracer.main_thread_tasks(warm_record["t0"]) if tracer else []
        thinking = [r for r in warm_record["requests"].values() if r["cmd"] == "table_computer" and r["answered"]]
        if not thinking:
            raise RuntimeError("the computer did not move")
        click = warm_record["click"]
        windows = {
            "boot_cold": window(cold_record, cold_tasks, 0, cold),
            "background": window(cold_record, cold_tasks, cold, background_end),
            "boot_warm": window(warm_record, warm_tasks, 0, warm),
            "thinking": window(warm_record, warm_tasks, thinking[0]["sent"], thinking[0]["answered"]),
            "move": window(warm_record, warm_tasks, click, warm_record["readyAt"]),
        }
        timings = {"cold": boot_timeline(cold_record, cold), "warm": boot_timeline(warm_record, warm)}
        return Run(cold_ms=cold, warm_ms=warm, transfer=sent, windows=windows, timings=timings)


def bare_run(playwright: Playwright, server: Server, trace: bool) -> Run:
    with fresh_profile(playwright, PROBE) as (context, page):
        probe = Probe(page)
        tracer = Trace(context, page) if trace else None
        server.meter.take()
        page.goto(server.url, wait_until="commit")
        probe.wait("the bare page", lambda d: d.get("ready") == "1")
        cold = float(probe.data["bootMs"])
        sent = transfer(server.meter.take(), server.directory)
        probe.new_document()
        page.reload(wait_until="commit")
        probe.wait("the bare page's reload", lambda d: d.get("ready") == "1")
        warm = float(probe.data["bootMs"])
        if tracer:
            tracer.stop()
        return Run(cold_ms=cold, warm_ms=warm, transfer=sent)


def snapshot_run(playwright: Playwright, server: Server) -> float:
    """The bare snapshot page: its first visit (snapshot and service worker ready), then a reload: its ms."""
    with fresh_profile(playwright, PROBE) as (_, page):
        probe = Probe(page)
        page.goto(server.url, wait_until="commit")
        probe.wait("the bare snapshot page", lambda d: d.get("ready") == "1")
        probe.wait("its snapshot", lambda d: d.get("snapshot") == "stored")
        probe.wait("its service worker", lambda d: d.get("sw") == "ready")
        probe.new_document()
        page.reload(wait_until="commit")
        probe.wait("the bare snapshot page's reload", lambda d: d.get("ready") == "1")
        if probe.data.get("bootMode") != "snapshot":
            raise RuntimeError(f"the bare snapshot page's reload booted in mode {probe.data.get('bootMode')!r}")
        return float(probe.data["bootMs"])


# ------------------------------------------------------------------- report

WINDOWS = (
    ("boot_cold", "boot, cold visit", True),
    ("boot_warm", "boot, warm reload", True),
    ("thinking", "thinking (table_computer level 5, 1 s)", True),
    ("move", "whole move (your card, the answer, animations)", False),
    ("background", "after a cold boot (snapshot, offline cache)", False),
)


def median(values: Sequence[float]) -> float:
    return float(statistics.median(values)) if values else 0.0


def spread(values: Sequence[float], unit: float = 1000.0, digits: int = 2) -> str:
    return f"{median(values) / unit:.{digits}f} ({min(values) / unit:.{digits}f}-{max(values) / unit:.{digits}f})"


def verdict(ok: bool) -> str:
    return "ok" if ok else "MISSED"


def report(
    site: list[Run], bare: list[Run], floor: list[float], meta: dict[str, Any]
) -> tuple[list[str], bool, dict[str, Any]]:
    n = len(site)
    floor_ms = median(floor)
    floor_paired = median([s.warm_ms / f for s, f in zip(site, floor, strict=True)])
    cold_s, cold_b = median([r.cold_ms for r in site]), median([r.cold_ms for r in bare])
    warm_s, warm_b = median([r.warm_ms for r in site]), median([r.warm_ms for r in bare])
    raw_s, raw_b = median([r.transfer.raw for r in site]), median([r.transfer.raw for r in bare])
    gz_s, gz_b = median([r.transfer.gzipped for r in site]), median([r.transfer.gzipped for r in bare])
    # The ratio of medians, and the median of each run's ratio (site and bare ran back to back).
    cold_ratio = cold_s / cold_b
    paired = median([s.cold_ms / b.cold_ms for s, b in zip(site, bare, strict=True)])
    ok_cold = cold_ratio <= TARGET_COLD_RATIO
    ok_warm = warm_s < TARGET_WARM_MS
    ok_raw = raw_s / raw_b <= TARGET_TRANSFER_RATIO
    ok_gz = gz_s / gz_b <= TARGET_TRANSFER_RATIO
    lines = [
        f"Start-up on 127.0.0.1, headless {meta['chromium']}: {n} runs of each page, median (min-max).",
        f"Load average (1 min) {meta['load_before']:.1f} before, {meta['load_after']:.1f} after,"
        f" on {meta['cpus']} CPUs; the browser ran at niceness {meta['niceness']}.",
        "",
        f"{'':28}{'site':>22}{'bare Pyodide':>22}{'ratio':>9}   target",
        f"{'cold time-to-playable, s':28}{spread([r.cold_ms for r in site]):>22}{spread([r.cold_ms for r in bare]):>22}"
        f"{cold_ratio:>8.2f}x   <= {TARGET_COLD_RATIO}x {verdict(ok_cold)} (per-run ratio {paired:.2f}x)",
        f"{'warm time-to-playable, s':28}{spread([r.warm_ms for r in site]):>22}{spread([r.warm_ms for r in bare]):>22}"
        f"{warm_s / warm_b:>8.2f}x   <= {TARGET_WARM_MS / 1000:.1f} s {verdict(ok_warm)}",
        f"{'  the floor: bare snapshot':28}{'':>22}{spread(floor):>22}{warm_s / floor_ms:>8.2f}x"
        f"   (per-run ratio {floor_paired:.2f}x)",
        f"{'transfer, MB':28}{raw_s / 1e6:>22.3f}{raw_b / 1e6:>22.3f}{raw_s / raw_b:>8.3f}x"
        f"   <= {TARGET_TRANSFER_RATIO}x {verdict(ok_raw)}",
        f"{'transfer gzip -6, MB':28}{gz_s / 1e6:>22.3f}{gz_b / 1e6:>22.3f}{gz_s / gz_b:>8.3f}x"
        f"   <= {TARGET_TRANSFER_RATIO}x {verdict(ok_gz)}",
        f"{'requests (cold visit)':28}{median([r.transfer.requests for r in site]):>22.0f}"
        f"{median([r.transfer.requests for r in bare]):>22.0f}",
        "",
        "Site main thread, per window: the longest task, median of runs / worst run (ms).",
        f"  {'':50}{'longtask API':>16}{'trace, CPU':>16}{'trace, wall':>16}   target < {LONG_TASK_MS:.0f} ms",
    ]
    ok_tasks = True
    traced = any(r.windows[name].longest_cpu for r in site for name, _, _ in WINDOWS)
    summary_windows: dict[str, Any] = {}
    for name, label, targeted in WINDOWS:
        windows = [r.windows[name] for r in site]

        def cell(values: list[float]) -> str:
            return f"{median(values):.0f} / {max(values):.0f}"

        longtask = [w.longest_longtask for w in windows]
        cpu = [w.longest_cpu for w in windows]
        wall = [w.longest_wall for w in windows]
        line = f"  {label:50}{cell(longtask):>16}"
        line += f"{cell(cpu):>16}{cell(wall):>16}" if traced else f"{'-':>16}{'-':>16}"
        if targeted:
            # The page's own work is what the target is about: its CPU time when traced.
            worst = max(cpu) if traced else max(longtask)
            ok = worst < LONG_TASK_MS
            ok_tasks = ok_tasks and ok
            line += f"   {verdict(ok)}"
        lines.append(line)
        summary_windows[name] = {
            "longtask_ms": longtask,
            "cpu_ms": cpu,
            "wall_ms": wall,
            "duration_ms": [w.duration for w in windows],
        }
    worst_cpu = max((r.windows[n] for r in site for n, _, t in WINDOWS if t), key=lambda w: w.longest_cpu)
    if traced:
        lines.append(f"  (the most CPU of one task in a targeted window: {worst_cpu.longest_cpu:.0f} ms, posted by")
        lines.append(f"   {worst_cpu.longest_cpu_source})")
    lines.append("")
    lines.append("Site boot stages, ms since navigation start (median):")
    lines.append(f"  {'':50}{'cold':>10}{'warm':>10}")
    for key, label in STAGES:
        cells = []
        for mode in ("cold", "warm"):
            values = [r.timings[mode][key] for r in site if key in r.timings.get(mode, {})]
            cells.append(f"{median(values):>10.0f}" if values else f"{'-':>10}")
        lines.append(f"  {label:50}{''.join(cells)}")
    think = [r.windows["thinking"].duration for r in site]
    move = [r.windows["move"].duration for r in site]
    lines.append(f"  thinking took {spread(think)} s, the whole move {spread(move)} s")
    lines.append("")
    files = sorted(site[0].transfer.files.items(), key=lambda kv: -kv[1])
    lines.append("Site, first visit, bytes by file: " + ", ".join(f"{name} {size:,}" for name, size in files))
    ok = ok_cold and ok_warm and ok_raw and ok_gz and ok_tasks
    lines.append("All targets met." if ok else "Some targets are MISSED.")
    summary = {
        **meta,
        "runs": n,
        "site": [asdict(r) for r in site],
        "bare": [asdict(r) for r in bare],
        "bare_snapshot_warm_ms": floor,
        "median": {
            "cold_ms": {"site": cold_s, "bare": cold_b, "ratio": cold_ratio, "per_run_ratio": paired},
            "warm_ms": {
                "site": warm_s,
                "bare": warm_b,
                "ratio": warm_s / warm_b,
                "bare_snapshot": floor_ms,
                "ratio_to_bare_snapshot": warm_s / floor_ms,
                "per_run_ratio_to_bare_snapshot": floor_paired,
            },
            "transfer_raw": {"site": raw_s, "bare": raw_b, "ratio": raw_s / raw_b},
            "transfer_gzip": {"site": gz_s, "bare": gz_b, "ratio": gz_s / gz_b},
        },
        "windows": summary_windows,
        "targets_met": ok,
    }
    return lines, ok, summary


def chromium_version() -> str:
    try:
        out = subprocess.run([find_chromium(), "--version"], capture_output=True, text=True, timeout=30).stdout
    except (OSError, subprocess.SubprocessError):
        return "Chromium"
    return out.strip() or "Chromium"


# --------------------------------------------------------------------- main


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--runs", type=int, default=5, help="runs of each page (default 5)")
    parser.add_argument("--no-build", action="store_true", help="measure dist/ as it is")
    parser.add_argument("--no-trace", action="store_true", help="no Chrome trace (long tasks from the page only)")
    parser.add_argument("--json", type=Path, help="also write every measurement to this file")
    parser.add_argument("--check", action="store_true", help="exit with status 1 if a target is missed")
    parser.add_argument(
        "--nice",
        type=int,
        default=0,
        help="change this process's niceness (inherited by the browser) by N first; below 0 needs root",
    )
    args = parser.parse_args(argv)
    if args.runs < 1:
        parser.error("--runs must be at least 1")
    if args.nice:
        try:
            os.nice(args.nice)
        except OSError as error:
            parser.error(f"--nice {args.nice}: {error}")
    if not args.no_build:
        build.build()
    elif not (build.DIST / "sw.js").is_file():
        parser.error("dist/ is not built: run `python build.py build` or drop --no-build")
    trace = not args.no_trace
    meta: dict[str, Any] = {
        "chromium": chromium_version(),
        "cpus": os.cpu_count(),
        "niceness": os.nice(0),
        "load_before": os.getloadavg()[0],
    }

    site: list[Run] = []
    bare: list[Run] = []
    floor: list[float] = []
    with tempfile.TemporaryDirectory(prefix="bench-bare-") as tmp:
        bare_dir = build_bare_page(Path(tmp) / "bare")
        snapshot_dir = build_bare_page(Path(tmp) / "snapshot", snapshot=True)
        site_server, bare_server, snapshot_server = serve(build.DIST), serve(bare_dir), serve(snapshot_dir)
        try:
            with sync_playwright() as p:
                # One unmeasured visit of each, so that all start from a warm OS file cache.
                site_run(p, site_server, trace)
                bare_run(p, bare_server, trace)
                snapshot_run(p, snapshot_server)
                for i in range(args.runs):
                    started = time.perf_counter()
                    # Alternate which goes first, so none always follows another.
                    if i % 2 == 0:
                        site.append(site_run(p, site_server, trace))
                        bare.append(bare_run(p, bare_server, trace))
                        floor.append(snapshot_run(p, snapshot_server))
                    else:
                        floor.append(snapshot_run(p, snapshot_server))
                        bare.append(bare_run(p, bare_server, trace))
                        site.append(site_run(p, site_server, trace))
                    s, b = site[-1], bare[-1]
                    boot_cpu = max(s.windows["boot_cold"].longest_cpu, s.windows["boot_warm"].longest_cpu)
                    print(
                        f"run {i + 1}/{args.runs}: site cold {s.cold_ms / 1000:.2f} s, warm {s.warm_ms / 1000:.2f} s;"
                        f" bare cold {b.cold_ms / 1000:.2f} s, warm {b.warm_ms / 1000:.2f} s;"
                        f" bare snapshot warm {floor[-1] / 1000:.2f} s;"
                        f" longest task CPU: boot {boot_cpu:.0f} ms, thinking"
                        f" {s.windows['thinking'].longest_cpu:.0f} ms ({time.perf_counter() - started:.0f} s,"
                        f" load {os.getloadavg()[0]:.1f})",
                        flush=True,
                    )
        finally:
            site_server.stop()
            bare_server.stop()
            snapshot_server.stop()
    meta["load_after"] = os.getloadavg()[0]

    lines, ok, summary = report(site, bare, floor, meta)
    print()
    print("\n".join(lines))
    if args.json:
        args.json.write_text(json.dumps(summary, indent=1) + "\n", encoding="utf-8")
    return 1 if args.check and not ok else 0


if __name__ == "__main__":
    sys.exit(main())
