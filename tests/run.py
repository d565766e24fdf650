"""The project's one test command: ``python tests/run.py`` (or ``python -m tests.run``).

Runs, in this order, and stops at the first failure:

1. set-up: ``npm ci`` when a package of package.json (Pyodide, TypeScript,
   Biome, esbuild, the online-play packages) is missing from ``node_modules``
   or not the locked version, the Pyodide wheels in ``.cache/pyodide-wheels/``,
   and the Nostr relay the online-play tests start (PyPI ``nostr-relay``, in
   its own virtual environment in ``.cache/nostr-relay/``);
2. ``ruff format --check .``;
3. ``ruff check .``;
4. ``mypy`` (configured in pyproject.toml);
5. ``tsc`` on the JavaScript files marked ``// @ts-check``: ``tsc -p
   tsconfig.json`` (the page) and ``tsc -p tsconfig.worker.json`` (the
   service worker and the engine worker);
6. ``biome ci`` (lint and format check) on the files listed in biome.json;
7. ``node --test tests/js/*.test.mjs``: the page's pure modules under Node;
8. ``python build.py build`` (the web build in ``dist/``; skipped with a note
   while build.py does not exist);
9. pytest under CPython on all of ``tests/`` (browser tests included: the
   Playwright suite in Chromium, with the stories of online play between a
   Chromium page and a Firefox page, and the WebKitGTK smoke test through
   Selenium under Xvfb);
10. the Playwright browser suite again in Firefox:
    ``pytest tests/browser --browser firefox -m "not webkit and not chromium_only and not page_logic and not
    two_browsers"`` (the stories marked two_browsers ran in step 9, with pages of both browsers at once);
11. the same engine tests inside Pyodide: ``node tests/pyodide/run_pytest.mjs``, in one shard per CPU
    (at most 4) side by side (``SHARD=i/n``).

Any pytest run collecting no test (exit code 5) is a failure, and so is a
``node --test`` run without tests. Each step's time is printed, and a summary
at the end (its test counts include the Node tests); the exit status is
non-zero if any step failed.

Options: name steps to run only those (``python tests/run.py pytest pyodide``);
``--keep-going`` runs every step even after a failure; ``--list`` lists the steps.
"""

from __future__ import annotations

import argparse
import contextlib
import importlib.util
import os
import re
import shutil
import signal
import subprocess
import sys
import tempfile
import threading
import time
import tomllib
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import IO

ROOT = Path(__file__).resolve().parent.parent
STEP_TIMEOUT_S = 30 * 60  # a hung step (e.g. a browser without a display) must not eat CI's whole budget
#: pytest-timeout's limit for one test of the CPython and Firefox steps: the longest story takes about a minute
#: on a loaded 2-core machine, and a call that never returns (once: a new page in Firefox) fails its test.
TEST_TIMEOUT_S = 300

PYTEST_NO_TESTS = 5
SUMMARY_RE = re.compile(
    r"\b(\d+ (passed|failed|errors?|skipped|deselected|xfailed|xpassed)|no tests ran)\b.* in [\d.]+s"
)
COUNT_RE = re.compile(r"(\d+) (passed|failed|errors?|skipped|xfailed|xpassed)\b")
#: The totals ``node --test`` prints last ("ℹ pass 12" with the spec reporter, "# pass 12" with TAP).
NODE_COUNT_RE = re.compile(r"^[ℹ#] (tests|pass|fail|cancelled|skipped|todo) (\d+)$")
NODE_TESTS = "tests/js/*.test.mjs"


@dataclass
class Result:
    name: str
    ok: bool
    seconds: float
    note: str = ""
    counts: dict[str, int] = field(default_factory=dict)


class StepFailed(Exception):
    def __init__(self, message: str, counts: dict[str, int] | None = None):
        super().__init__(message)
        self.counts = counts or {}


def banner(text: str) -> None:
    print(f"\n===== {text} =====", flush=True)


def run(
    command: list[str], *, env: dict[str, str] | None = None, on_line: Callable[[str], None] | None = None
) -> tuple[int, str]:
    """Run ``command`` in the repository root, echoing its output; return (exit code, last pytest summary line).

    ``on_line`` is also given every line of the output.
    """
    print("$ " + " ".join(command), flush=True)
    full_env = {**os.environ, "PYTHONUNBUFFERED": "1", **(env or {})}
    try:
        proc = subprocess.Popen(
            command,
            cwd=ROOT,
            env=full_env,
            stdout=subprocess.PIPE,
            stderr=subprocess.STDOUT,
            stdin=subprocess.DEVNULL,
            start_new_session=True,
        )
    except FileNotFoundError as e:
        raise StepFailed(f"cannot run {command[0]!r}: {e}") from None
    timed_out = threading.Event()

    def kill() -> None:
        timed_out.set()
        with contextlib.suppress(ProcessLookupError):
            os.killpg(proc.pid, signal.SIGKILL)

    timer = threading.Timer(STEP_TIMEOUT_S, kill)
    timer.start()
    summary = ""
    assert proc.stdout is not None
    try:
        for raw in proc.stdout:
            line = raw.decode("utf-8", errors="replace")
            sys.stdout.write(line)
            sys.stdout.flush()
            if on_line is not None:
                on_line(line)
            if SUMMARY_RE.search(line):
                summary = line.strip().strip("=").strip()
        code = proc.wait()
    finally:
        timer.cancel()
    if timed_out.is_set():
        raise StepFailed(f"timed out after {STEP_TIMEOUT_S} s and was killed")
    return code, summary


def python_tool(name: str) -> list[str]:
    """How to run a Python command-line tool installed with the test extra."""
    if importlib.util.find_spec(name) is not None:
        return [sys.executable, "-m", name]
    found = shutil.which(name)
    if found:
        return [found]
    raise StepFailed(f"{name} is not installed: run  python -m pip install -e '.[test]'")


def check(command: list[str], what: str, *, env: dict[str, str] | None = None) -> str:
    code, _ = run(command, env=env)
    if code != 0:
        raise StepFailed(f"{what} failed (exit code {code})")
    return ""


def add_counts(counts: dict[str, int], summary: str) -> dict[str, int]:
    """Add the test counts of a pytest summary line to ``counts`` (errors under one key); returns ``counts``."""
    for number, kind in COUNT_RE.findall(summary):
        key = "errors" if kind.startswith("error") else kind
        counts[key] = counts.get(key, 0) + int(number)
    return counts


def pytest_step(command: list[str], what: str, *, env: dict[str, str] | None = None) -> tuple[str, dict[str, int]]:
    code, summary = run(command, env=env)
    counts = add_counts({}, summary)
    print(f"{what}: {summary or '(no pytest summary line seen)'}", flush=True)
    if code == PYTEST_NO_TESTS:
        raise StepFailed(f"{what} collected no tests (pytest exit code 5): {summary}", counts)
    if code != 0:
        raise StepFailed(f"{what} failed (exit code {code}): {summary}", counts)
    return summary, counts


# ------------------------------------------------------------------------ steps


#: Debian packages the browser tests drive, by the command each provides.
BROWSER_PACKAGES = {
    "chromium": "chromium",
    "firefox-esr": "firefox-esr",
    "WebKitWebDriver": "webkit2gtk-driver",
    "Xvfb": "xvfb",
}


#: Modules of the test extra (pyproject.toml) that the steps import or run.
PYTHON_TEST_MODULES = (
    "pytest",
    "hypothesis",
    "ruff",
    "mypy",
    "playwright",
    "pytest_playwright",
    "pytest_timeout",
    "xdist",
    "selenium",
    "axe_playwright_python",
    "rbcl",
    "cryptography",
)


def ensure_python_tools() -> str:
    """Install the project with its test extra when a test tool is missing (a fresh machine)."""
    missing = [m for m in PYTHON_TEST_MODULES if not importlib.util.find_spec(m)]
    if not missing:
        return ""
    print(f"missing Python test tools ({', '.join(missing)}): installing the project with its test extra")
    check([sys.executable, "-m", "pip", "install", "-e", ".[test]"], "pip install -e '.[test]'")
    return "pip install"


def ensure_browsers() -> str:
    """Install Debian's browsers when missing and allowed (root with apt-get), else say what is needed."""
    missing = [pkg for cmd, pkg in BROWSER_PACKAGES.items() if shutil.which(cmd) is None]
    if not missing:
        return ""
    if shutil.which("apt-get") is None or os.geteuid() != 0:
        raise StepFailed(f"browsers missing: install the Debian packages {' '.join(missing)} (and xauth)")
    print(f"missing browsers: apt-get install {' '.join(missing)}")
    check(["apt-get", "update", "-q"], "apt-get update")
    check(
        ["apt-get", "install", "-y", "-q", "--no-install-recommends", *missing, "xauth"],
        "apt-get install",
        env={"DEBIAN_FRONTEND": "noninteractive"},
    )
    return "apt-get install"


#: The Nostr relay the online-play tests start (tests/browser/online_fixtures.py), pinned, and where it lives.
RELAY_REQUIREMENT = "nostr-relay==1.14"
RELAY_VENV = ROOT / ".cache" / "nostr-relay"


def ensure_nostr_relay() -> str:
    """Install the relay into its own virtual environment (its dependencies stay out of the project's)."""
    marker = RELAY_VENV / "installed.txt"
    command = RELAY_VENV / "bin" / "nostr-relay"
    if command.is_file() and marker.is_file() and marker.read_text(encoding="utf-8").strip() == RELAY_REQUIREMENT:
        print(f"{RELAY_VENV.relative_to(ROOT)}/: {RELAY_REQUIREMENT}")
        return ""
    print(f"installing {RELAY_REQUIREMENT} into {RELAY_VENV.relative_to(ROOT)}/ for the online-play tests")
    t0 = time.perf_counter()
    if RELAY_VENV.exists():
        shutil.rmtree(RELAY_VENV)
    check([sys.executable, "-m", "venv", str(RELAY_VENV)], "python -m venv (for the Nostr relay)")
    pip = [str(RELAY_VENV / "bin" / "python"), "-m", "pip", "install", "--disable-pip-version-check", "-q"]
    check([*pip, RELAY_REQUIREMENT], f"pip install {RELAY_REQUIREMENT}")
    marker.write_text(RELAY_REQUIREMENT + "\n", encoding="utf-8")
    print(f"installed {RELAY_REQUIREMENT} in {time.perf_counter() - t0:.1f} s")
    return "nostr-relay"


def step_setup() -> str:
    notes = [n for n in (ensure_python_tools(), ensure_browsers()) if n]
    if shutil.which("node") is None:
        raise StepFailed("node is not on PATH (Node.js 20+ is needed for the JavaScript checks and the Pyodide tests)")
    sys.path.insert(0, str(ROOT))
    from build import BuildError, ensure_node_modules

    try:
        if ensure_node_modules(ROOT):
            notes.append("npm ci")
        else:
            print("node_modules/: as package-lock.json pins it")
    except BuildError as e:
        raise StepFailed(str(e)) from None
    check([sys.executable, "tests/pyodide/fetch_wheels.py"], "fetching the Pyodide wheels")
    notes.append(ensure_nostr_relay())
    return ", ".join(n for n in notes if n)


def step_format() -> str:
    return check([*python_tool("ruff"), "format", "--check", "."], "ruff format --check")


def step_lint() -> str:
    return check([*python_tool("ruff"), "check", "."], "ruff check")


def step_types() -> str:
    # mypy reads its settings from pyproject.toml; while a configured file does
    # not exist yet (build.py), name the existing ones explicitly instead.
    config = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))
    files = config.get("tool", {}).get("mypy", {}).get("files", [])
    files = [files] if isinstance(files, str) else list(files)
    existing = [f for f in files if (ROOT / f).exists()]
    if existing != files:
        print(f"note: mypy skips missing {', '.join(sorted(set(files) - set(existing)))}")
        check([*python_tool("mypy"), *existing], "mypy")
        return "checked " + " ".join(existing)
    return check(python_tool("mypy"), "mypy")


def node_tool(package: str, script: str) -> list[str]:
    """How to run a command-line tool of an npm package installed by ``npm ci`` (no download, unlike npx)."""
    path = ROOT / "node_modules" / package / script
    if not path.is_file():
        raise StepFailed(f"node_modules/{package} is missing: run  npm ci")
    return [shutil.which("node") or "node", str(path.relative_to(ROOT))]


def step_tsc() -> str:
    # Two projects: the page's modules (DOM globals) and the workers (worker globals).
    tsc = node_tool("typescript", "bin/tsc")
    for project in ("tsconfig.json", "tsconfig.worker.json"):
        check([*tsc, "-p", project], f"tsc -p {project}")
    return ""


def step_biome() -> str:
    # The files are biome.json's files.includes; warnings fail the step too.
    return check([*node_tool("@biomejs/biome", "bin/biome"), "ci", "--colors=off", "--error-on-warnings"], "biome ci")


def step_node_tests() -> tuple[str, dict[str, int]]:
    files = sorted(p.relative_to(ROOT).as_posix() for p in ROOT.glob(NODE_TESTS))
    if not files:
        raise StepFailed(f"no Node tests ({NODE_TESTS})")
    totals: dict[str, int] = {}

    def count(line: str) -> None:
        match = NODE_COUNT_RE.match(line.strip())
        if match:
            totals[match.group(1)] = int(match.group(2))

    node = shutil.which("node") or "node"
    # $PYTHON: the rules-text tests ask the engine through this interpreter.
    code, _ = run([node, "--test", "--test-reporter=spec", *files], env={"PYTHON": sys.executable}, on_line=count)
    counts = {
        "passed": totals.get("pass", 0),
        "failed": totals.get("fail", 0) + totals.get("cancelled", 0),
        "skipped": totals.get("skipped", 0) + totals.get("todo", 0),
    }
    summary = f"{counts['passed']} passed, {counts['failed']} failed" + (
        f", {counts['skipped']} skipped" if counts["skipped"] else ""
    )
    print(f"Node tests: {summary}", flush=True)
    if not totals.get("tests"):
        raise StepFailed(f"node --test ran no tests (exit code {code})", counts)
    if code != 0:
        raise StepFailed(f"node --test failed (exit code {code}): {summary}", counts)
    return summary, counts


def step_build() -> str:
    if not (ROOT / "build.py").is_file():
        print("note: build.py does not exist yet: web build skipped")
        return "skipped: no build.py"
    return check([sys.executable, "build.py", "build"], "python build.py build")


def parallel_options() -> list[str]:
    """pytest-xdist workers, one per CPU (at most 4), idle ones taking tests from busy ones.

    A browser test alone leaves part of a 2-CPU machine idle (it waits on
    timers, animations and the worker's answers). Every test has its own
    browser context and each worker serves ``dist/`` itself, so tests may run
    in any order and place. ``--durations`` names the slowest tests, for
    whoever wants CI faster; ``--timeout`` fails a test that hangs (TEST_TIMEOUT_S).
    """
    workers = min(4, os.cpu_count() or 1)
    parallel = ["-n", str(workers), "--dist", "worksteal"] if workers > 1 else []
    return ["--durations=15", f"--timeout={TEST_TIMEOUT_S}", *parallel]


FIREFOX_PYTEST = [sys.executable, "-m", "pytest", "tests/browser", "--browser", "firefox"]
FIREFOX_PYTEST += ["-m", "not webkit and not chromium_only and not page_logic and not two_browsers"]


def step_pytest() -> tuple[str, dict[str, int]]:
    return pytest_step([sys.executable, "-m", "pytest", "tests", *parallel_options()], "CPython pytest")


def step_firefox() -> tuple[str, dict[str, int]]:
    # The Playwright suite (tests/browser) in Firefox over WebDriver BiDi; conftest.py
    # launches the system's Firefox ESR. The WebKit test already ran in the pytest step.
    return pytest_step(
        [*FIREFOX_PYTEST, *parallel_options()],
        "Firefox pytest",
    )


def pyodide_shards() -> int:
    """Node runs Pyodide's pytest on one core: one shard per CPU (at most 4) takes the step down as many times."""
    return max(1, min(4, os.cpu_count() or 1))


def step_pyodide() -> tuple[str, dict[str, int]]:
    """The engine tests in Pyodide, in shards run side by side (``SHARD=i/n``: every n-th test from the i-th).

    Each shard's output is printed whole when it ends; any shard failing, or collecting no test, fails the step.
    """
    node = shutil.which("node") or "node"
    count = pyodide_shards()
    command = [node, "tests/pyodide/run_pytest.mjs"]
    print("$ " + " ".join(command) + f"  (SHARD=i/{count}, i = 0..{count - 1}, side by side)", flush=True)
    with contextlib.ExitStack() as stack:
        logs = [stack.enter_context(tempfile.TemporaryFile()) for _ in range(count)]
        return run_pyodide_shards(command, logs)


def run_pyodide_shards(command: list[str], logs: list[IO[bytes]]) -> tuple[str, dict[str, int]]:
    count = len(logs)
    procs = [
        subprocess.Popen(
            command,
            cwd=ROOT,
            env={**os.environ, "PYTHONUNBUFFERED": "1", "PYTHON": sys.executable, "SHARD": f"{i}/{count}"},
            stdout=log,
            stderr=subprocess.STDOUT,
            stdin=subprocess.DEVNULL,
        )
        for i, log in enumerate(logs)
    ]
    deadline = time.monotonic() + STEP_TIMEOUT_S
    codes = []
    for proc in procs:
        try:
            codes.append(proc.wait(max(1.0, deadline - time.monotonic())))
        except subprocess.TimeoutExpired:
            for other in procs:
                other.kill()
            raise StepFailed(f"timed out after {STEP_TIMEOUT_S} s and was killed") from None
    counts: dict[str, int] = {}
    problems = []
    for i, (log, code) in enumerate(zip(logs, codes, strict=True)):
        log.seek(0)
        text = log.read().decode("utf-8", errors="replace")
        banner(f"Pyodide shard {i}/{count}")
        sys.stdout.write(text)
        summaries = [line.strip().strip("=").strip() for line in text.splitlines() if SUMMARY_RE.search(line)]
        summary = summaries[-1] if summaries else "(no pytest summary line seen)"
        add_counts(counts, summary)
        if code == PYTEST_NO_TESTS:
            problems.append(f"shard {i}/{count} collected no tests (pytest exit code 5)")
        elif code != 0:
            problems.append(f"shard {i}/{count} failed (exit code {code}): {summary}")
    total = ", ".join(f"{n} {kind}" for kind, n in counts.items())
    print(f"Pyodide pytest: {total} in {count} shards", flush=True)
    if problems:
        raise StepFailed("; ".join(problems), counts)
    return f"{total} ({count} shards)", counts


STEPS: dict[str, tuple[str, Callable[[], object]]] = {
    "setup": ("set-up (npm ci, Pyodide wheels, the Nostr relay of the online tests)", step_setup),
    "format": ("ruff format --check .", step_format),
    "lint": ("ruff check .", step_lint),
    "types": ("mypy", step_types),
    "tsc": ("tsc: the JavaScript files marked // @ts-check (page and workers)", step_tsc),
    "biome": ("biome ci: lint and format check of the files in biome.json", step_biome),
    "node": ("node --test tests/js/: the page's pure modules under Node", step_node_tests),
    "build": ("python build.py build", step_build),
    "pytest": ("pytest under CPython (tests/; browser tests in Chromium, with Firefox, and WebKitGTK)", step_pytest),
    "firefox": ("the browser suite in Firefox (tests/browser --browser firefox)", step_firefox),
    "pyodide": ("pytest inside Pyodide (tests/ minus tests/browser/)", step_pyodide),
}


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0] if __doc__ else None)
    parser.add_argument("steps", nargs="*", metavar="STEP", help=f"run only these steps: {', '.join(STEPS)}")
    parser.add_argument("--keep-going", action="store_true", help="run every step even after a failure")
    parser.add_argument("--list", action="store_true", help="list the steps and exit")
    args = parser.parse_args(argv)
    if args.list:
        for name, (title, _) in STEPS.items():
            print(f"{name:8} {title}")
        return 0
    unknown = [s for s in args.steps if s not in STEPS]
    if unknown:
        parser.error(f"unknown step(s) {', '.join(unknown)}; the steps are {', '.join(STEPS)}")
    chosen = [s for s in STEPS if not args.steps or s in args.steps]

    print(f"tests/run.py: {sys.executable} (Python {sys.version.split()[0]}), steps: {' '.join(chosen)}", flush=True)
    results: list[Result] = []
    started = time.perf_counter()
    for name in chosen:
        title, function = STEPS[name]
        banner(f"{name}: {title}")
        t0 = time.perf_counter()
        try:
            outcome = function()
        except StepFailed as e:
            results.append(Result(name, False, time.perf_counter() - t0, str(e), e.counts))
            print(f"FAILED: {name}: {e}  [{time.perf_counter() - t0:.1f} s]", flush=True)
            if not args.keep_going:
                break
            continue
        if isinstance(outcome, tuple):
            note, counts = outcome
            results.append(Result(name, True, time.perf_counter() - t0, note, counts))
        else:
            results.append(Result(name, True, time.perf_counter() - t0, str(outcome or "")))
        print(f"ok: {name}  [{time.perf_counter() - t0:.1f} s]", flush=True)

    banner("summary")
    ran = {r.name for r in results}
    for r in results:
        print(f"{'ok  ' if r.ok else 'FAIL'}  {r.name:8} {r.seconds:7.1f} s  {r.note}")
    for name in chosen:
        if name not in ran:
            print(f"--    {name:8}       -    not run (an earlier step failed)")
    total = time.perf_counter() - started
    failed = [r.name for r in results if not r.ok]
    passed = sum(r.counts.get("passed", 0) for r in results)
    bad = sum(r.counts.get("failed", 0) + r.counts.get("errors", 0) for r in results)
    skipped = sum(r.counts.get("skipped", 0) for r in results)
    print(f"total {total:.1f} s; " + (f"FAILED: {', '.join(failed)}" if failed else "all steps passed"))
    if any(r.counts for r in results):
        print(f"tests: {passed} passed, {bad} failed" + (f", {skipped} skipped" if skipped else ""))
    return 1 if failed or len(results) < len(chosen) else 0


if __name__ == "__main__":
    sys.exit(main())
