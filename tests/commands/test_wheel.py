"""The engine wheel the page downloads: without the lab, docstrings and comments, and still the same engine."""

from __future__ import annotations

import ast
import io
import json
import subprocess
import sys
import zipfile
from pathlib import Path

import build

ROOT = Path(__file__).resolve().parents[2]


def wheel_bytes() -> bytes:
    return build.build_wheel(build.read_project(), build.ENGINE)[1]


def wheel() -> zipfile.ZipFile:
    return zipfile.ZipFile(io.BytesIO(wheel_bytes()))


def test_the_wheel_leaves_out_the_docstrings() -> None:
    names = wheel().namelist()
    assert "py_engine/service/protocol.py" in names and "py_engine/ai/ismcts.py" in names
    source = wheel().read("py_engine/service/table.py").decode("utf-8")
    assert '"""' not in source and "#: " not in source and "class Table" in source


def _module_of(member: str) -> str:
    """``py_engine/ai/player.py`` → ``py_engine.ai.player``; a package's ``__init__.py`` → the package."""
    parts = member.removesuffix(".py").split("/")
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


def _imports(module: str, is_package: bool, source: str) -> list[tuple[str, str | None]]:
    """Every import of ``source`` as (module, name or None), absolute, the relative ones resolved:
    ``import m`` gives (m, None), ``from m import n`` gives (m, n)."""
    package = module if is_package else module.rpartition(".")[0]
    found: list[tuple[str, str | None]] = []
    for node in ast.walk(ast.parse(source)):
        if isinstance(node, ast.Import):
            found += [(alias.name, None) for alias in node.names]
        elif isinstance(node, ast.ImportFrom):
            base = node.module or ""
            if node.level:
                parts = package.split(".")
                base = ".".join([*parts[: len(parts) - (node.level - 1)], *([base] if base else [])])
            found += [(base, alias.name) for alias in node.names]
    return found


def _bound_names(source: str) -> set[str]:
    """The names a module binds at its top level (what ``from it import name`` may take)."""
    names: set[str] = set()
    for node in ast.parse(source).body:
        if isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef | ast.ClassDef):
            names.add(node.name)
        elif isinstance(node, ast.Import | ast.ImportFrom):
            names |= {(alias.asname or alias.name).partition(".")[0] for alias in node.names}
        elif isinstance(node, ast.Assign | ast.AnnAssign):
            targets = node.targets if isinstance(node, ast.Assign) else [node.target]
            names |= {n.id for t in targets for n in ast.walk(t) if isinstance(n, ast.Name)}
    return names


def _unshipped_imports(archive: zipfile.ZipFile) -> list[str]:
    """Each import of a shipped module that is the lab's, or neither the wheel's nor the standard library's."""
    sources = {_module_of(n): (n, archive.read(n).decode("utf-8")) for n in archive.namelist() if n.endswith(".py")}
    wrong = []
    for module, (member, source) in sources.items():
        for name, attribute in _imports(module, member.endswith("/__init__.py"), source):
            top = name.partition(".")[0]
            if top != "lab" and (top in sys.stdlib_module_names or top == "__future__"):
                continue
            shipped = top != "lab" and name in sources
            if shipped and attribute is not None and attribute != "*":
                shipped = f"{name}.{attribute}" in sources or attribute in _bound_names(sources[name][1])
            if not shipped:
                wrong.append(f"{member}: {name}" + (f" ({attribute})" if attribute else ""))
    return wrong


def test_no_shipped_module_imports_the_lab_or_anything_not_shipped() -> None:
    """The wheel is py_engine/ alone: no lab file in it, and no module of it imports one (or any other
    module the wheel lacks, but the standard library's), absolutely or relatively."""
    archive = wheel()
    names = archive.namelist()
    assert not [n for n in names if not n.startswith(("py_engine/", "py_engine-"))]
    modules = [p for p in (ROOT / "lab").rglob("*.py") if p.name != "__init__.py"]  # (its __init__ is a docstring)
    lab = {build.shipped_source(p.read_text("utf-8")): p.name for p in modules}
    assert {"arena.py", "psellos.py", "puzzle_generate.py"} <= set(lab.values())
    assert not [(n, lab[data]) for n in names if (data := archive.read(n)) in lab]  # not under another name either
    assert _imports("py_engine.ai.player", False, "from ..core import deal\nfrom . import x\nimport lab.arena") == [
        ("py_engine.core", "deal"),
        ("py_engine.ai", "x"),
        ("lab.arena", None),
    ]
    assert _unshipped_imports(archive) == []


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


# Loads a wheel into Pyodide under Node as the page does (the zip on sys.path), imports the
# engine, plays a computer move and prints where a function's code came from.
PYODIDE_IMPORT_JS = """
import { loadPyodide } from "PYODIDE_MJS";
import fs from "node:fs";
const py = await loadPyodide();
py.FS.mkdirTree("/opt/test");
py.FS.writeFile("/opt/test/engine.whl", fs.readFileSync(process.argv[1]));
process.stdout.write(py.runPython(`
import json, sys
sys.path.insert(0, "/opt/test/engine.whl")
from py_engine.service import protocol, table
def call(**r): return json.loads(protocol.handle(json.dumps({"v": 1, **r})))
t = call(cmd="table_new", preset="AT20", seed=3, seating={"mode": "watch", "levels": [5, 5]})["table"]
move = call(cmd="table_computer", table=t, seed=1, timed=False)
json.dumps({"file": table.Table.computer_move.__code__.co_filename, "action": move.get("action")})
`));
"""


def _in_pyodide(wheel_bytes: bytes, tmp_path: Path) -> dict[str, object]:
    path = tmp_path / "engine.whl"
    path.write_bytes(wheel_bytes)
    script = PYODIDE_IMPORT_JS.replace("PYODIDE_MJS", (build.PYODIDE_SRC / "pyodide.mjs").as_uri())
    result = subprocess.run(
        ["node", "--input-type=module", "-e", script, str(path)], capture_output=True, text=True, check=True
    )
    found: dict[str, object] = json.loads(result.stdout)
    return found


def test_pyodide_imports_the_shipped_bytecode_and_falls_back_to_the_source(tmp_path: Path) -> None:
    """Every module has Pyodide's bytecode beside it; Pyodide runs it, and the source if it cannot."""
    archive = wheel()
    names = archive.namelist()
    modules = [n for n in names if n.endswith(".py")]
    assert modules and all(n + "c" in names for n in modules)
    header = archive.read("py_engine/service/table.pyc")[:16]
    assert int.from_bytes(header[4:8], "little") == 0b01  # hash-based, not checked against the source
    shipped = _in_pyodide(wheel_bytes(), tmp_path)
    assert shipped["file"] == "py_engine/service/table.py"  # compiled by the build, not on import
    assert shipped["action"]
    damaged = io.BytesIO()
    with zipfile.ZipFile(damaged, "w") as copy:
        for name in names:
            data = archive.read(name)
            copy.writestr(name, b"\0\0\0\0" + data[4:] if name.endswith(".pyc") else data)  # another Python's
    from_source = _in_pyodide(damaged.getvalue(), tmp_path)
    assert from_source["file"] == "/opt/test/engine.whl/py_engine/service/table.py"
    assert from_source["action"] == shipped["action"]
