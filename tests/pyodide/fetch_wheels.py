"""Download the wheels that run the tests inside Pyodide into .cache/pyodide-wheels/.

Usage: ``python tests/pyodide/fetch_wheels.py`` (from anywhere). Only pinned
wheels that are not in the cache yet are downloaded; with everything present
it does nothing and asks no registry. ``--check`` only reports what is
missing (exit status 1 if anything is).

The pins live in ``tests/pyodide/requirements.txt``. Wheels are chosen for
Pyodide's Python version and ABI, read from ``node_modules/pyodide/pyodide-lock.json``
(so a pyodide bump moves the platform tag too): pure-Python wheels, or the
``pyemscripten_<abi>_wasm32`` wheel where a package ships native code
(hypothesis). ``run_pytest.mjs`` matches files the same way.
"""

from __future__ import annotations

import json
import re
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
REQUIREMENTS = ROOT / "tests" / "pyodide" / "requirements.txt"
CACHE = ROOT / ".cache" / "pyodide-wheels"
LOCK = ROOT / "node_modules" / "pyodide" / "pyodide-lock.json"

# What npm pyodide 314.0.7 reports; used only when node_modules is not there yet.
DEFAULT_PYTHON = "3.14"
DEFAULT_ABI = "2026_0"

PLATFORM_PREFIXES = ("pyemscripten_", "pyodide_", "emscripten_")


def requirements(path: Path = REQUIREMENTS) -> list[tuple[str, str]]:
    """The pinned ``(name, version)`` pairs, in file order."""
    pins = []
    for number, raw in enumerate(path.read_text(encoding="utf-8").splitlines(), start=1):
        line = raw.split("#", 1)[0].strip()
        if not line:
            continue
        match = re.fullmatch(r"([A-Za-z0-9][A-Za-z0-9._-]*)\s*==\s*([A-Za-z0-9.+!_-]+)", line)
        if match is None:
            raise SystemExit(f"{path}:{number}: expected 'name==version', got {raw!r}")
        pins.append((match[1], match[2]))
    return pins


def canonical(name: str) -> str:
    """A distribution name as it appears in a wheel's file name."""
    return re.sub(r"[-_.]+", "_", name).lower()


def wheel_fits(filename: str, name: str, version: str) -> bool:
    """Whether ``filename`` is the wheel of ``name==version`` that Pyodide can load."""
    if not filename.endswith(".whl"):
        return False
    parts = filename[: -len(".whl")].split("-")
    if len(parts) not in (5, 6):
        return False
    dist, ver, platforms = parts[0], parts[1], parts[-1]
    if canonical(dist) != canonical(name) or ver != version:
        return False
    return all(p == "any" or p.startswith(PLATFORM_PREFIXES) for p in platforms.split("."))


def find_wheel(name: str, version: str, cache: Path = CACHE) -> Path | None:
    if not cache.is_dir():
        return None
    fits = sorted(p for p in cache.iterdir() if wheel_fits(p.name, name, version))
    return fits[0] if fits else None


def pyodide_target() -> tuple[str, str]:
    """Pyodide's ``(python major.minor, abi_version)``."""
    if LOCK.is_file():
        info = json.loads(LOCK.read_text(encoding="utf-8"))["info"]
        python = ".".join(str(info["python"]).split(".")[:2])
        return python, str(info["abi_version"])
    print(f"fetch_wheels: {LOCK.relative_to(ROOT)} not found (run `npm ci`); assuming Python {DEFAULT_PYTHON}")
    return DEFAULT_PYTHON, DEFAULT_ABI


def main(argv: list[str]) -> int:
    check_only = "--check" in argv
    pins = requirements()
    missing = [(n, v) for n, v in pins if find_wheel(n, v) is None]
    if not missing:
        print(f"fetch_wheels: all {len(pins)} Pyodide wheels present in {CACHE.relative_to(ROOT)}/")
        return 0
    listed = ", ".join(f"{n}=={v}" for n, v in missing)
    if check_only:
        print(f"fetch_wheels: missing {listed}")
        return 1
    python, abi = pyodide_target()
    tag = python.replace(".", "")
    CACHE.mkdir(parents=True, exist_ok=True)
    command = [
        sys.executable,
        "-m",
        "pip",
        "download",
        "--no-deps",
        "--only-binary=:all:",
        "--python-version",
        python,
        "--implementation",
        "cp",
        "--abi",
        f"cp{tag}",
        "--platform",
        f"pyemscripten_{abi}_wasm32",
        "--platform",
        f"pyodide_{abi}_wasm32",
        "--dest",
        str(CACHE),
        *(f"{n}=={v}" for n, v in missing),
    ]
    print(f"fetch_wheels: downloading {listed} for Python {python} (Pyodide ABI {abi})", flush=True)
    status = subprocess.run(command, check=False).returncode
    still = [f"{n}=={v}" for n, v in missing if find_wheel(n, v) is None]
    if status != 0 or still:
        print(f"fetch_wheels: FAILED (pip exit {status}); still missing: {', '.join(still) or 'none'}")
        return 1
    print(f"fetch_wheels: {len(missing)} wheel(s) saved in {CACHE.relative_to(ROOT)}/")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
