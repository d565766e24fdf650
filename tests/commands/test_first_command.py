"""The README's first command on a fresh clone: ``python build.py serve`` sets up, builds and serves.

A fresh clone has no ``node_modules/`` and no ``dist/``; the command must run
``npm ci`` itself (it once stopped and asked for it), build the site and
serve it. The clone is a copy of the files git tracks, as they are in the
working tree.
"""

from __future__ import annotations

import re
import shutil
import subprocess
import sys
import urllib.request
from collections.abc import Iterator
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
SERVING = re.compile(r"serving dist/ at (http://[\d.]+:\d+/)")


def tracked_copy(target: Path) -> None:
    names = subprocess.run(
        ["git", "ls-files", "-z"], cwd=ROOT, check=True, capture_output=True, text=True
    ).stdout.split("\0")
    for name in filter(None, names):
        source = ROOT / name
        if source.is_file():
            (target / name).parent.mkdir(parents=True, exist_ok=True)
            shutil.copy2(source, target / name)


@pytest.fixture
def fresh_clone(tmp_path: Path) -> Iterator[Path]:
    clone = tmp_path / "clone"
    clone.mkdir()
    tracked_copy(clone)
    assert not (clone / "node_modules").exists() and not (clone / "dist").exists()
    yield clone


def test_build_py_serve_sets_up_builds_and_serves(fresh_clone: Path) -> None:
    server = subprocess.Popen(
        [sys.executable, "build.py", "serve", "--port", "0"],
        cwd=fresh_clone,
        stdout=subprocess.PIPE,
        stderr=subprocess.STDOUT,
        text=True,
    )
    output: list[str] = []
    try:
        assert server.stdout is not None
        url = None
        for line in server.stdout:  # ends when the command exits
            output.append(line)
            found = SERVING.search(line)
            if found:
                url = found.group(1)
                break
        assert url, "build.py serve did not start serving:\n" + "".join(output)
        assert any("running npm ci" in line for line in output), "no npm ci on a clone without node_modules/"
        with urllib.request.urlopen(url, timeout=30) as page:
            html = page.read().decode("utf-8")
        assert page.status == 200 and "<title" in html and 'src="boot.js"' in html
        with urllib.request.urlopen(url + "pyodide/pyodide.mjs", timeout=30) as runtime:
            assert runtime.status == 200 and len(runtime.read()) > 1000
        assert (fresh_clone / "node_modules" / "pyodide" / "pyodide.asm.wasm").is_file()
    finally:
        server.terminate()
        server.wait(timeout=30)


def test_missing_npm_is_said_in_words(fresh_clone: Path, tmp_path: Path) -> None:
    bare_path = tmp_path / "bin"
    bare_path.mkdir()
    (bare_path / "python3").symlink_to(sys.executable)
    done = subprocess.run(
        [sys.executable, "build.py", "build"],
        cwd=fresh_clone,
        capture_output=True,
        text=True,
        env={"PATH": str(bare_path)},
    )
    assert done.returncode == 2
    assert "Node.js 20+ with npm is needed" in done.stderr
    assert not (fresh_clone / "dist").exists()
