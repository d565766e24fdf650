"""The engine wheel the page downloads: without the tools, docstrings and comments, and still the same engine."""

from __future__ import annotations

import io
import json
import subprocess
import sys
import zipfile
from pathlib import Path

import build

ROOT = Path(__file__).resolve().parents[2]


def wheel() -> zipfile.ZipFile:
    _, data = build.build_wheel(build.read_project(), build.ENGINE)
    return zipfile.ZipFile(io.BytesIO(data))


def test_the_wheel_leaves_out_the_tools_and_the_docstrings() -> None:
    names = wheel().namelist()
    assert "py_engine/service/protocol.py" in names and "py_engine/ai/ismcts.py" in names
    assert not [n for n in names if n.startswith("py_engine/tools/")]
    source = wheel().read("py_engine/service/table.py").decode("utf-8")
    assert '"""' not in source and "#: " not in source and "class Table" in source


def test_the_shipped_engine_plays_the_same_game(tmp_path: Path) -> None:
    """A seeded game through the shipped wheel's protocol equals the same game through the sources."""
    wheel().extractall(tmp_path)
    script = (
        "import json, sys; from py_engine.service.protocol import handle\n"
        "def call(**r): return json.loads(handle(json.dumps({'v': 1, **r})))\n"
        "t = call(cmd='table_new', preset='HU24', seed=7, seating={'mode': 'watch', 'levels': [2, 1]})['table']\n"
        "out = []\n"
        "for _ in range(40):\n"
        "    a = call(cmd='table_computer', table=t, seed=len(out), timed=False)\n"
        "    out.append([a.get('action'), a.get('view')])\n"
        "print(json.dumps(out, sort_keys=True))\n"
    )
    runs = [
        subprocess.run([sys.executable, "-c", script], cwd=where, capture_output=True, text=True, check=True).stdout
        for where in (tmp_path, ROOT)
    ]
    assert runs[0] == runs[1] and len(json.loads(runs[0])) == 40


def test_the_wheel_ships_the_built_in_puzzles() -> None:
    """The puzzle catalogue is package data: in the wheel byte for byte, and it loads there."""
    from py_engine.puzzles import catalogue

    archive = wheel()
    name = "py_engine/puzzles/catalogue.json"
    assert name in archive.namelist()
    data = archive.read(name)
    assert data == (ROOT / name).read_bytes()
    assert len(catalogue.loads(data.decode("utf-8"))) >= 300
