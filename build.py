#!/usr/bin/env python3
"""Build, serve and test the static web game (standard library only).

Subcommands:

* ``build`` (default): assemble ``dist/``: the page from ``web/``, the
  Pyodide runtime files the page needs (from ``node_modules/pyodide``), the
  npm packages of online play bundled into ``vendor/`` (by esbuild, from
  ``node_modules``), the page's own modules bundled into ``page/`` (by
  esbuild: the page loads a few files instead of sixty), the engine as a
  pure-Python wheel built here from ``py_engine/`` (with each module's
  bytecode compiled by the pinned Pyodide under Node), generated icons,
  ``manifest.webmanifest``, ``build.json``, a precache manifest with a
  content hash per file and the service worker whose cache name derives from
  those hashes. Unchanged files are not copied again.
* ``types``: write ``types/engine.d.ts``, the page's types of the engine's
  answers, from the Python types that define them
  (``py_engine/service/contract.py``); every build does it first.
* ``serve``: build, then serve ``dist/`` on 127.0.0.1 (``--port``, default 8000).
* ``test``: run ``python tests/run.py`` with the remaining arguments.

Every URL in the site is relative, so it also works under a project sub-path
(GitHub Pages).
"""

from __future__ import annotations

import argparse
import ast
import base64
import functools
import hashlib
import http.server
import io
import json
import math
import os
import re
import shutil
import struct
import subprocess
import sys
import tempfile
import tomllib
import zipfile
import zlib
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent
WEB = ROOT / "web"
ENGINE = ROOT / "py_engine"
PYODIDE_SRC = ROOT / "node_modules" / "pyodide"
DIST = ROOT / "dist"
CACHE = ROOT / ".cache"

#: The runtime files the page loads; nothing else of the npm package is shipped.
PYODIDE_FILES = ("pyodide.mjs", "pyodide.asm.mjs", "pyodide.asm.wasm", "python_stdlib.zip", "pyodide-lock.json")
#: The npm packages online play uses (web/online/), each bundled into one module of ``dist/vendor/``.
ESBUILD = ROOT / "node_modules" / "esbuild" / "bin" / "esbuild"


@dataclass(frozen=True)
class Vendor:
    """One bundled module: its file name, the module esbuild starts from, the packages it holds."""

    name: str
    entry: str
    packages: tuple[str, ...]


VENDOR = (
    # Room codes over Nostr relays: trystero's Nostr strategy and what it imports.
    Vendor(
        "trystero.mjs",
        'export * from "trystero";',
        ("trystero", "@trystero-p2p/nostr", "@trystero-p2p/core", "@noble/secp256k1"),
    ),
    # Meeting strangers (web/online/lobby-relays.js): Nostr events and their signatures, the relay pool and
    # NIP-44 encryption of join requests; only what the lobby imports is bundled.
    Vendor(
        "nostr-tools.mjs",
        'export { finalizeEvent, generateSecretKey, getPublicKey, verifyEvent } from "nostr-tools/pure";'
        ' export { SimplePool } from "nostr-tools/pool";'
        ' export * as nip44 from "nostr-tools/nip44";'
        ' export { bytesToHex, hexToBytes } from "nostr-tools/utils";',
        ("nostr-tools", "@noble/curves", "@noble/hashes", "@noble/ciphers", "@scure/base"),
    ),
    # Drawing QR codes (an ES module already; bundled the same way, minified).
    Vendor("qrcode-generator.mjs", 'export { default } from "qrcode-generator";', ("qrcode-generator",)),
    # Reading QR codes (the package ships only a UMD script).
    Vendor("jsqr.mjs", 'export { default } from "jsqr";', ("jsqr",)),
)
#: How esbuild bundles here: one ES module for today's browsers, no licence comments (vendor/LICENSES.txt).
ESBUILD_BUNDLE = ("--bundle", "--format=esm", "--target=es2022", "--legal-comments=none", "--log-level=warning")
#: The vendor packages are minified; the page's own bundle is not (readable in the browser's tools).
ESBUILD_ARGS = (*ESBUILD_BUNDLE, "--minify")
#: The page's modules (web/app.js and all it imports) are bundled into this folder of dist/. It is one
#: level deep, as every module but app.js is, so that the bundle's relative URLs (../boot.js, ../vendor/,
#: the translations' ../i18n/) mean what they mean in the sources. The sources are copied too (tests
#: import single modules), but only the bundle is precached.
PAGE_BUNDLE = "page"
PAGE_ENTRY = "app.js"
#: Modules of web/ that run as they are: the entry point (which starts the engine worker before the
#: bundle loads, and whose state the bundle shares: the bundle imports it, never copies it), and the two workers.
UNBUNDLED = ("boot.js", "sw.js", "engine/worker.js")
#: Files of web/ that are not copied as they are.
SW_TEMPLATE = "sw.js"
SW_PLACEHOLDER = '"__PRECACHE_MANIFEST__"'
ICON_SIZES = (192, 512)
APP_NAME = "Sixty-Six"
APP_SHORT_NAME = "66"
THEME_COLOR = "#14532d"
BACKGROUND_COLOR = "#0f3d22"
#: Package data the engine reads at run time, shipped as it is (the typing marker, the built-in puzzles).
WHEEL_DATA = (".typed", ".json")
#: A fixed timestamp for every wheel member (the zip format cannot go below 1980).
ZIP_EPOCH = (1980, 1, 1, 0, 0, 0)

MIME_TYPES = {
    ".wasm": "application/wasm",
    ".mjs": "text/javascript",
    ".js": "text/javascript",
    ".json": "application/json",
    ".webmanifest": "application/manifest+json",
    ".whl": "application/zip",
    ".zip": "application/zip",
    ".svg": "image/svg+xml",
    ".png": "image/png",
    ".css": "text/css",
    ".html": "text/html",
}


class BuildError(Exception):
    """Something the build needs is missing or wrong; the message says what to do."""


def sha256_hex(data: bytes) -> str:
    return hashlib.sha256(data).hexdigest()


def file_sha256(path: Path) -> str:
    digest = hashlib.sha256()
    with path.open("rb") as f:
        for chunk in iter(functools.partial(f.read, 1 << 20), b""):
            digest.update(chunk)
    return digest.hexdigest()


@dataclass
class Stats:
    """What one build did, for the summary line."""

    written: int = 0
    skipped: int = 0
    removed: int = 0


def write_if_changed(path: Path, data: bytes, stats: Stats) -> None:
    """Write ``data`` unless the file already holds exactly that."""
    if path.is_file() and path.stat().st_size == len(data) and path.read_bytes() == data:
        stats.skipped += 1
        return
    path.parent.mkdir(parents=True, exist_ok=True)
    tmp = path.with_name(path.name + ".tmp")
    tmp.write_bytes(data)
    tmp.replace(path)
    stats.written += 1


def copy_if_changed(src: Path, dst: Path, stats: Stats) -> None:
    """Copy ``src`` unless ``dst`` already has its size and modification time."""
    src_stat = src.stat()
    if dst.is_file():
        dst_stat = dst.stat()
        if dst_stat.st_size == src_stat.st_size and dst_stat.st_mtime_ns == src_stat.st_mtime_ns:
            stats.skipped += 1
            return
    dst.parent.mkdir(parents=True, exist_ok=True)
    shutil.copy2(src, dst)
    stats.written += 1


# --------------------------------------------------------------------- wheel


@dataclass(frozen=True)
class Project:
    name: str
    version: str
    summary: str
    requires_python: str


def read_project() -> Project:
    data = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))
    project = data["project"]
    return Project(
        name=str(project["name"]),
        version=str(project["version"]),
        summary=str(project.get("description", "")),
        requires_python=str(project.get("requires-python", "")),
    )


def _record_hash(data: bytes) -> str:
    return "sha256=" + base64.urlsafe_b64encode(hashlib.sha256(data).digest()).rstrip(b"=").decode("ascii")


def shipped_source(source: str) -> bytes:
    """A module as the page downloads it: the same code without docstrings and comments.

    The browser never reads them, and they are a third of the engine's bytes.
    ``ast.unparse`` gives the same code back (the engine never reads a ``__doc__``).
    """
    tree = ast.parse(source)
    for node in ast.walk(tree):
        body = getattr(node, "body", None)
        if (
            isinstance(node, ast.Module | ast.ClassDef | ast.FunctionDef | ast.AsyncFunctionDef)
            and isinstance(body, list)
            and body
            and isinstance(body[0], ast.Expr)
            and isinstance(body[0].value, ast.Constant)
            and isinstance(body[0].value.value, str)
        ):
            node.body = body[1:] or [ast.Pass()]
    return (ast.unparse(tree) + "\n").encode("utf-8")


#: Compiles modules with the pinned Pyodide under Node: reads {name: source} as JSON on stdin, writes
#: {name: base64 bytecode} (hash-based and unchecked: the wheel's sources never change under it).
PYODIDE_COMPILE_JS = """
import { loadPyodide } from "PYODIDE_MJS";
const chunks = [];
for await (const chunk of process.stdin) chunks.push(chunk);
const py = await loadPyodide({
  env: { PYTHONNODEBUGRANGES: "1" }, // no column ranges: a third smaller, tracebacks without carets
  stdout: () => {},
  stderr: (line) => process.stderr.write(line + "\\n"),
});
py.globals.set("sources_json", Buffer.concat(chunks).toString("utf-8"));
process.stdout.write(py.runPython(`
import base64, json, os, py_compile
out = {}
for name, source in json.loads(sources_json).items():
    path = "/tmp/compile/" + name
    os.makedirs(os.path.dirname(path), exist_ok=True)
    with open(path, "w", encoding="utf-8") as file:
        file.write(source)
    target = py_compile.compile(path, cfile=path + "c", dfile=name, doraise=True,
                                invalidation_mode=py_compile.PycInvalidationMode.UNCHECKED_HASH)
    with open(target, "rb") as file:
        out[name] = base64.b64encode(file.read()).decode("ascii")
json.dumps(out)
`));
"""


def pyodide_bytecode(sources: dict[str, bytes], root: Path = ROOT) -> dict[str, bytes]:
    """Each module's bytecode for the pinned Pyodide's Python, by source name; cached in .cache/bytecode/.

    Pyodide compiles a module on import four to five times slower than CPython (about 0.45 s for
    the computer player); zipimport reads ``name.pyc`` beside ``name.py`` first, and falls back to
    the source if the bytecode is for another Python.
    """
    if not sources:
        return {}
    runtime = str(package_info("pyodide", root)["version"])
    key = sha256_hex(json.dumps([runtime, sorted((n, sha256_hex(s)) for n, s in sources.items())]).encode())[:16]
    cached = CACHE / "bytecode" / f"{key}.json"
    if not cached.is_file():
        _compile_for_pyodide(sources, cached, root)
    stored = json.loads(cached.read_text(encoding="utf-8"))
    return {name: base64.b64decode(data) for name, data in stored.items()}


def _compile_for_pyodide(sources: dict[str, bytes], cached: Path, root: Path) -> None:
    """Compile ``sources`` with the pinned Pyodide under Node into ``cached``, the one file of its folder."""
    node = shutil.which("node")
    if node is None:
        raise BuildError("Node.js 20+ is needed to compile the engine for Pyodide: install it, then build again")
    script = PYODIDE_COMPILE_JS.replace("PYODIDE_MJS", (PYODIDE_SRC / "pyodide.mjs").as_uri())
    result = subprocess.run(
        [node, "--input-type=module", "-e", script],
        input=json.dumps({name: data.decode("utf-8") for name, data in sources.items()}).encode("utf-8"),
        cwd=root,
        capture_output=True,
        check=False,
    )
    if result.returncode != 0:
        raise BuildError(f"Pyodide could not compile the engine: {result.stderr.decode(errors='replace')[-2000:]}")
    json.loads(result.stdout)  # a whole answer, or an error here rather than a damaged cache
    cached.parent.mkdir(parents=True, exist_ok=True)
    for old in cached.parent.glob("*.json"):
        old.unlink()
    cached.write_bytes(result.stdout)


def build_wheel(project: Project, package_dir: Path, bytecode: bool = True) -> tuple[str, bytes]:
    """A pure-Python wheel of ``package_dir`` as (file name, bytes), byte-for-byte reproducible.

    With ``bytecode``, each module's Pyodide bytecode lies beside it (``pyodide_bytecode``).
    """
    dist_name = re.sub(r"[-_.]+", "_", project.name)
    dist_info = f"{dist_name}-{project.version}.dist-info"
    members: list[tuple[str, bytes]] = []
    for path in sorted(package_dir.rglob("*")):
        inside = path.relative_to(package_dir).parts
        if "__pycache__" in inside:
            continue
        if path.is_file() and path.suffix == ".py":
            members.append((path.relative_to(package_dir.parent).as_posix(), shipped_source(path.read_text("utf-8"))))
        elif path.is_file() and path.suffix in WHEEL_DATA:
            members.append((path.relative_to(package_dir.parent).as_posix(), path.read_bytes()))
    if not members:
        raise BuildError(f"no Python files found in {package_dir.name}/")
    if bytecode:
        compiled = pyodide_bytecode({name: data for name, data in members if name.endswith(".py")})
        members = sorted([*members, *((name + "c", data) for name, data in compiled.items())])
    metadata = [
        "Metadata-Version: 2.1",
        f"Name: {project.name}",
        f"Version: {project.version}",
    ]
    if project.summary:
        metadata.append(f"Summary: {project.summary}")
    if project.requires_python:
        metadata.append(f"Requires-Python: {project.requires_python}")
    wheel_text = "Wheel-Version: 1.0\nGenerator: build.py\nRoot-Is-Purelib: true\nTag: py3-none-any\n"
    members.append((f"{dist_info}/METADATA", ("\n".join(metadata) + "\n").encode("utf-8")))
    members.append((f"{dist_info}/WHEEL", wheel_text.encode("utf-8")))
    record_lines = [f"{name},{_record_hash(data)},{len(data)}" for name, data in members]
    record_lines.append(f"{dist_info}/RECORD,,")
    members.append((f"{dist_info}/RECORD", ("\n".join(record_lines) + "\n").encode("utf-8")))

    buffer = io.BytesIO()
    with zipfile.ZipFile(buffer, "w") as wheel:
        for name, data in members:
            info = zipfile.ZipInfo(name, date_time=ZIP_EPOCH)
            info.compress_type = zipfile.ZIP_DEFLATED
            info.external_attr = 0o644 << 16
            info.create_system = 3
            wheel.writestr(info, data, compresslevel=9)
    return f"{dist_name}-{project.version}-py3-none-any.whl", buffer.getvalue()


# --------------------------------------------------------------------- icons

RGB = tuple[float, float, float]


def _hex_rgb(color: str) -> RGB:
    return (int(color[1:3], 16) / 255, int(color[3:5], 16) / 255, int(color[5:7], 16) / 255)


def _mix(a: RGB, b: RGB, t: float) -> RGB:
    """``a`` blended towards ``b`` by ``t`` (0..1)."""
    return (a[0] + (b[0] - a[0]) * t, a[1] + (b[1] - a[1]) * t, a[2] + (b[2] - a[2]) * t)


def _sd_round_rect(x: float, y: float, half_w: float, half_h: float, radius: float) -> float:
    qx = abs(x) - half_w + radius
    qy = abs(y) - half_h + radius
    outside = math.hypot(max(qx, 0.0), max(qy, 0.0))
    return outside + min(max(qx, qy), 0.0) - radius


def _sd_circle(x: float, y: float, cx: float, cy: float, r: float) -> float:
    return math.hypot(x - cx, y - cy) - r


def _sd_heart(x: float, y: float) -> float:
    """A heart about two units tall centred on the origin, point down (y grows downwards)."""
    # A square turned by 45 degrees, with a circle on each of its two upper edges.
    side, centre = 0.9, 0.066
    u = (x + y - centre) / math.sqrt(2)
    v = (y - centre - x) / math.sqrt(2)
    square = max(abs(u), abs(v)) - side / 2
    offset = side / (2 * math.sqrt(2))
    left = _sd_circle(x, y, -offset, centre - offset, side / 2)
    right = _sd_circle(x, y, offset, centre - offset, side / 2)
    return min(square, left, right)


def _sd_spade(x: float, y: float) -> float:
    body = _sd_heart(x, -y - 0.12)
    stem = max(abs(x) - 0.07 - 0.3 * max(y - 0.35, 0.0), abs(y - 0.62) - 0.3)
    return min(body, stem)


@dataclass(frozen=True)
class Card:
    cx: float
    cy: float
    angle: float
    fill: RGB
    pip: Callable[[float, float], float]
    pip_color: RGB
    pip_x: float


def draw_icon(size: int) -> list[list[RGB]]:
    """The app icon as rows of RGB pixels: two fanned cards on green felt.

    The background is full-bleed and the cards stay inside the central circle
    of radius 0.4 * size, so the same picture works as a maskable icon.
    """
    felt_centre = _hex_rgb("#1f7a46")
    felt_edge = _hex_rgb(BACKGROUND_COLOR)
    half_w, half_h, radius = 0.17, 0.245, 0.03
    cards = (
        Card(0.60, 0.49, math.radians(14), _hex_rgb("#f4efe3"), _sd_spade, _hex_rgb("#1b1b1f"), 0.07),
        Card(0.40, 0.51, math.radians(-12), _hex_rgb("#ffffff"), _sd_heart, _hex_rgb("#c8102e"), 0.0),
    )
    px = 1.0 / size
    rows: list[list[RGB]] = []
    for j in range(size):
        y = (j + 0.5) * px
        row: list[RGB] = []
        for i in range(size):
            x = (i + 0.5) * px
            t = min(1.0, math.hypot(x - 0.5, y - 0.5) / 0.71)
            r, g, b = _mix(felt_centre, felt_edge, t)
            for card in cards:
                dx, dy = x - card.cx, y - card.cy
                if abs(dx) > 0.34 or abs(dy) > 0.34:
                    continue
                cos, sin = math.cos(card.angle), math.sin(card.angle)
                lx, ly = cos * dx + sin * dy, -sin * dx + cos * dy
                # Soft shadow, a little down and to the right.
                sd = _sd_round_rect(lx - 0.008, ly - 0.012, half_w, half_h, radius)
                shadow = 0.35 * min(1.0, max(0.0, (0.02 - sd) / 0.04))
                r, g, b = r * (1 - shadow), g * (1 - shadow), b * (1 - shadow)
                d = _sd_round_rect(lx, ly, half_w, half_h, radius)
                cover = min(1.0, max(0.0, 0.5 - d / px))
                if cover <= 0:
                    continue
                scale = 0.1
                pd = card.pip((lx - card.pip_x) / scale, ly / scale) * scale
                pip_cover = min(1.0, max(0.0, 0.5 - pd / px))
                fill = _mix(card.fill, card.pip_color, pip_cover)
                # A thin border so the cards read on any mask shape.
                border = min(1.0, max(0.0, 0.5 - abs(d + 0.004) / px)) * 0.35
                fill = _mix(fill, (0.0, 0.0, 0.0), border)
                r, g, b = _mix((r, g, b), fill, cover)
            row.append((r, g, b))
        rows.append(row)
    return rows


def encode_png(rows: Sequence[Sequence[RGB]]) -> bytes:
    """An 8-bit RGB PNG of ``rows`` (deterministic: no timestamps, fixed compression)."""
    height = len(rows)
    width = len(rows[0])
    raw = bytearray()
    for row in rows:
        raw.append(0)  # filter: none
        for r, g, b in row:
            raw.extend((round(r * 255), round(g * 255), round(b * 255)))

    def chunk(kind: bytes, data: bytes) -> bytes:
        return struct.pack(">I", len(data)) + kind + data + struct.pack(">I", zlib.crc32(kind + data) & 0xFFFFFFFF)

    header = struct.pack(">IIBBBBB", width, height, 8, 2, 0, 0, 0)
    return (
        b"\x89PNG\r\n\x1a\n"
        + chunk(b"IHDR", header)
        + chunk(b"IDAT", zlib.compress(bytes(raw), 9))
        + chunk(b"IEND", b"")
    )


def icon_png(size: int) -> bytes:
    """The icon at ``size``, cached in .cache/ by a hash of this file (drawing is slow in pure Python)."""
    key = sha256_hex(Path(__file__).read_bytes())[:16]
    cached = CACHE / "icons" / f"icon-{size}-{key}.png"
    if cached.is_file():
        return cached.read_bytes()
    data = encode_png(draw_icon(size))
    cached.parent.mkdir(parents=True, exist_ok=True)
    for old in cached.parent.glob(f"icon-{size}-*.png"):
        old.unlink()
    cached.write_bytes(data)
    return data


def web_manifest() -> bytes:
    icons: list[dict[str, str]] = []
    for purpose in ("any", "maskable"):
        for size in ICON_SIZES:
            icons.append(
                {"src": f"icons/icon-{size}.png", "sizes": f"{size}x{size}", "type": "image/png", "purpose": purpose}
            )
    manifest = {
        "name": APP_NAME,
        "short_name": APP_SHORT_NAME,
        "description": (
            "Schnapsen, Snapszer, Sechsundsechzig, Sznaps and Romanian 66 against the computer. Plays offline."
        ),
        "start_url": "./",
        "scope": "./",
        "display": "standalone",
        "orientation": "any",
        "background_color": BACKGROUND_COLOR,
        "theme_color": THEME_COLOR,
        "icons": icons,
    }
    return (json.dumps(manifest, indent=2) + "\n").encode("utf-8")


# ---------------------------------------------------------------- set-up


def stale_node_packages(root: Path = ROOT) -> list[str]:
    """The packages of ``package-lock.json`` missing from ``node_modules/`` or at another version."""
    locked = json.loads((root / "package-lock.json").read_text(encoding="utf-8"))
    stale = []
    for where, entry in sorted(locked.get("packages", {}).items()):
        if not where.startswith("node_modules/") or entry.get("optional") or entry.get("link"):
            continue
        installed = root / where / "package.json"
        have = json.loads(installed.read_text(encoding="utf-8")).get("version") if installed.is_file() else None
        if have != entry.get("version"):
            stale.append(f"{where.removeprefix('node_modules/')} {have or 'missing'} (locked {entry.get('version')})")
    return stale


def ensure_node_modules(root: Path = ROOT) -> bool:
    """Run ``npm ci`` when a locked package is missing or stale; True if it ran.

    Raises BuildError (with what to install) when npm is needed and absent, or fails.
    """
    stale = stale_node_packages(root)
    if not stale:
        return False
    npm = shutil.which("npm")
    if npm is None or shutil.which("node") is None:
        raise BuildError(
            "Node.js 20+ with npm is needed to set up the pinned Pyodide runtime "
            f"({', '.join(stale[:3])}); install Node.js, then run this command again"
        )
    print(f"node_modules/ is not what package-lock.json pins ({', '.join(stale[:3])}): running npm ci", flush=True)
    if subprocess.call([npm, "ci", "--no-audit", "--no-fund"], cwd=root) != 0:
        raise BuildError("`npm ci` failed (see its output above)")
    return True


# -------------------------------------------------------------------- vendor


def package_info(name: str, root: Path = ROOT) -> dict[str, Any]:
    """``node_modules/<name>/package.json``."""
    path = root / "node_modules" / name / "package.json"
    if not path.is_file():
        raise BuildError(f"node_modules/{name} is missing: run `npm ci`")
    info: dict[str, Any] = json.loads(path.read_text(encoding="utf-8"))
    return info


def vendor_module(vendor: Vendor, root: Path = ROOT) -> bytes:
    """``vendor`` bundled by esbuild, with a first line naming its packages; cached in .cache/vendor/."""
    versions = [(name, str(package_info(name, root)["version"])) for name in vendor.packages]
    esbuild_version = str(package_info("esbuild", root)["version"])
    key = sha256_hex(json.dumps([vendor.entry, versions, esbuild_version, ESBUILD_ARGS]).encode("utf-8"))[:16]
    cached = CACHE / "vendor" / f"{vendor.name}-{key}"
    if cached.is_file():
        return cached.read_bytes()
    if not ESBUILD.is_file():
        raise BuildError("node_modules/esbuild is missing: run `npm ci`")
    result = subprocess.run(
        [str(ESBUILD), *ESBUILD_ARGS],
        input=vendor.entry.encode("utf-8"),
        cwd=root,
        capture_output=True,
        check=False,
    )
    if result.returncode != 0:
        raise BuildError(f"esbuild could not bundle vendor/{vendor.name}: {result.stderr.decode(errors='replace')}")
    names = ", ".join(
        f"{name} {version} ({package_info(name, root).get('license', '?')})" for name, version in versions
    )
    banner = f"/*! {names}; licences: vendor/LICENSES.txt */\n".encode()
    data = banner + result.stdout
    cached.parent.mkdir(parents=True, exist_ok=True)
    for old in cached.parent.glob(f"{vendor.name}-*"):
        old.unlink()
    cached.write_bytes(data)
    return data


@dataclass(frozen=True)
class PageBundle:
    """The page's modules bundled: the files of ``page/`` by name, and the web/ modules they hold."""

    files: dict[str, bytes]
    sources: frozenset[str]  # paths relative to web/
    externals: frozenset[str]  # what the bundle imports from outside it, relative to page/


def page_bundle(web: Path = WEB, root: Path = ROOT) -> PageBundle:
    """web/app.js and every module it imports, bundled by esbuild (dynamic imports become chunks)."""
    if not ESBUILD.is_file():
        raise BuildError("node_modules/esbuild is missing: run `npm ci`")
    with tempfile.TemporaryDirectory(prefix="page-bundle-") as tmp:
        out = Path(tmp)
        result = subprocess.run(
            [
                str(ESBUILD),
                str(web / PAGE_ENTRY),
                *ESBUILD_BUNDLE,
                "--splitting",
                "--charset=utf8",
                "--entry-names=[name]",
                "--chunk-names=[name]-[hash]",
                "--external:../boot.js",
                "--external:../vendor/*",
                f"--outdir={out / 'files'}",
                f"--metafile={out / 'meta.json'}",
            ],
            cwd=root,
            capture_output=True,
            check=False,
        )
        if result.returncode != 0:
            raise BuildError(f"esbuild could not bundle the page: {result.stderr.decode(errors='replace')}")
        meta = json.loads((out / "meta.json").read_text(encoding="utf-8"))
        files = {path.name: path.read_bytes() for path in sorted((out / "files").iterdir())}
    web_rel = web.relative_to(root).as_posix() + "/"
    sources = frozenset(name.removeprefix(web_rel) for name in meta["inputs"])
    externals = frozenset(
        entry["path"] for output in meta["outputs"].values() for entry in output["imports"] if entry.get("external")
    )
    return PageBundle(files=files, sources=sources, externals=externals)


def check_page_bundle(bundle: PageBundle, dist: Path, web: Path = WEB) -> None:
    """Every page module is in the bundle, and everything the bundle imports from outside is in dist/."""
    modules = {p.relative_to(web).as_posix() for p in web.rglob("*.js")} - set(UNBUNDLED)
    if missing := sorted(modules - bundle.sources):
        raise BuildError(f"web/{PAGE_ENTRY} does not reach these modules (unused?): {', '.join(missing)}")
    for path in sorted(bundle.externals):
        if not (dist / PAGE_BUNDLE / path).resolve().is_file():
            raise BuildError(f"the page bundle imports {path}, which dist/{PAGE_BUNDLE}/ does not have")


def vendor_licences(root: Path = ROOT) -> bytes:
    """The licence of every bundled package, as one text file."""
    parts = []
    for name in sorted({p for vendor in VENDOR for p in vendor.packages}):
        info = package_info(name, root)
        author = info.get("author")
        if isinstance(author, dict):
            author = author.get("name")
        head = f"{name} {info['version']}, {info.get('license', 'licence not stated')}" + (
            f", by {author}" if author else ""
        )
        folder = root / "node_modules" / name
        texts = [p for p in sorted(folder.iterdir()) if p.name.upper().startswith(("LICENSE", "LICENCE", "COPYING"))]
        body = "\n".join(p.read_text(encoding="utf-8").strip() for p in texts) or (
            f"(the package ships no licence file; its package.json says {info.get('license', 'nothing')})"
        )
        parts.append(f"{'=' * 72}\n{head}\n{'=' * 72}\n{body}\n")
    return "\n".join(parts).encode("utf-8")


# --------------------------------------------------------------------- types

#: The page's types of the engine's answers, written from the Python that defines them (``build.py types``,
#: and every build): the rules' value types, then the contract, in the order of their modules.
TYPES_FILE = ROOT / "types" / "engine.d.ts"
TYPES_SOURCES = (ENGINE / "core" / "rules.py", ENGINE / "service" / "contract.py")
TYPES_HEADER = """\
// GENERATED by `python build.py types` (and every build) from py_engine/service/contract.py and the rules'
// types in py_engine/core/rules.py: do not edit. Change the Python types, then run it again;
// tests/commands/test_contract.py fails while this file differs from what they give.
//
// What the engine answers the page, as the page's modules read it (types only; nothing here is shipped).
// The modules import them with JSDoc: /** @import { View } from "../../types/engine.js" */.
"""
TYPES_FOOTER = """\
/** A command the page sends. */
export type Command = keyof Answers;

/** A request of the protocol without "v" and "id" (the client adds them): the command and its arguments. */
export type Request<C extends Command = Command> = { cmd: C } & Record<string, unknown>;

// The worker's own messages (web/engine/worker.js), written by hand beside this file.
export type { Notice, Progress, ReadyInfo, ResumeAnswer } from "./worker.js";
"""
_TS_NAMES = {"str": "string", "int": "number", "float": "number", "bool": "boolean", "Any": "unknown"}
_TS_WIDTH = 120


class TypesError(BuildError):
    """A contract the generator cannot write as TypeScript."""


def _ts_type(node: ast.expr, known: set[str]) -> str:
    """A Python annotation (its syntax tree) as a TypeScript type."""
    if isinstance(node, ast.Constant):
        if node.value is None:
            return "null"
        if isinstance(node.value, bool):
            return "true" if node.value else "false"
        if isinstance(node.value, str):
            return json.dumps(node.value)
        if isinstance(node.value, int):
            return str(node.value)
    if isinstance(node, ast.Name):
        if node.id in _TS_NAMES:
            return _TS_NAMES[node.id]
        if node.id in known:
            return node.id
        raise TypesError(f"types: unknown name {node.id!r} in an annotation")
    if isinstance(node, ast.BinOp) and isinstance(node.op, ast.BitOr):
        return f"{_ts_type(node.left, known)} | {_ts_type(node.right, known)}"
    if isinstance(node, ast.Subscript) and isinstance(node.value, ast.Name):
        args = list(node.slice.elts) if isinstance(node.slice, ast.Tuple) else [node.slice]
        name = node.value.id
        if name == "Literal":
            return " | ".join(_ts_type(a, known) for a in args)
        if name == "list" and len(args) == 1:
            inner = _ts_type(args[0], known)
            return f"({inner})[]" if " | " in inner else f"{inner}[]"
        if name == "tuple":
            return "[" + ", ".join(_ts_type(a, known) for a in args) + "]"
        if name == "dict" and len(args) == 2:
            return f"Record<{_ts_type(args[0], known)}, {_ts_type(args[1], known)}>"
    raise TypesError(f"types: cannot write {ast.unparse(node)!r} as TypeScript")


def _doc_comment(text: str, indent: str) -> list[str]:
    """A docstring as a JSDoc comment: one line if it fits, else wrapped; paragraphs stay apart."""
    paragraphs = [" ".join(p.split()) for p in inspect_cleandoc(text).split("\n\n") if p.strip()]
    one = f"{indent}/** {paragraphs[0]} */" if len(paragraphs) == 1 else ""
    if one and len(one) <= _TS_WIDTH:
        return [one]
    lines = [f"{indent}/**"]
    for i, paragraph in enumerate(paragraphs):
        if i:
            lines.append(f"{indent} *")
        line = ""
        for word in paragraph.split(" "):
            if line and len(indent) + 3 + len(line) + 1 + len(word) > _TS_WIDTH:
                lines.append(f"{indent} * {line}")
                line = word
            else:
                line = f"{line} {word}" if line else word
        lines.append(f"{indent} * {line}")
    return [*lines, f"{indent} */"]


def inspect_cleandoc(text: str) -> str:
    """``inspect.cleandoc`` without importing inspect for it: the docstring's lines, its indentation removed."""
    lines = text.expandtabs().split("\n")
    indents = [len(line) - len(line.lstrip()) for line in lines[1:] if line.strip()]
    margin = min(indents, default=0)
    return "\n".join([lines[0].strip(), *(line[margin:] for line in lines[1:])]).strip()


def _docstring(body: list[ast.stmt], index: int) -> str | None:
    """The string literal right after statement ``index`` (an attribute's docstring), if any."""
    if index + 1 < len(body):
        after = body[index + 1]
        if isinstance(after, ast.Expr) and isinstance(after.value, ast.Constant) and isinstance(after.value.value, str):
            return after.value.value
    return None


def _top_level_members(union: str) -> list[str]:
    """The members of a TypeScript union, split at its top level only (not inside brackets or a string)."""
    members, depth, quoted, start = [], 0, False, 0
    for i, char in enumerate(union):
        if char == '"':
            quoted = not quoted
        elif not quoted and char in "([{<":
            depth += 1
        elif not quoted and char in ")]}>":
            depth -= 1
        elif not quoted and depth == 0 and union.startswith(" | ", i):
            members.append(union[start:i])
            start = i + 3
    return [*members, union[start:]]


def _wrapped_union(head: str, union: str, indent: str, end: str) -> list[str]:
    """``head union end`` on one line, or (too long) one union member a line, as Biome writes them."""
    line = f"{indent}{head} {union}{end}"
    members = _top_level_members(union)
    if len(line) <= _TS_WIDTH or len(members) == 1:
        return [line]
    return [f"{indent}{head}", *(f"{indent}  | {m}" for m in members[:-1]), f"{indent}  | {members[-1]}{end}"]


def engine_types(sources: Sequence[Path] = TYPES_SOURCES) -> str:
    """types/engine.d.ts as the Python types give it (each module's ``TypeAlias``es and ``TypedDict``s, in order;
    its other classes are not the contract's). ``PAGE_EXTENDS`` is read from the last module."""
    trees = [ast.parse(path.read_text("utf-8")) for path in sources]
    known: set[str] = set()
    for tree in trees:
        for node in tree.body:
            if isinstance(node, ast.AnnAssign) and isinstance(node.target, ast.Name):
                known.add(node.target.id)
            elif isinstance(node, ast.ClassDef):
                known.add(node.name)
    page_extends: dict[str, str] = {}
    for node in trees[-1].body:
        if isinstance(node, ast.AnnAssign) and ast.unparse(node.target) == "PAGE_EXTENDS" and node.value is not None:
            page_extends = ast.literal_eval(node.value)
    out = [TYPES_HEADER]
    for tree in trees:
        body = tree.body
        for i, node in enumerate(body):
            if (
                isinstance(node, ast.AnnAssign)
                and isinstance(node.target, ast.Name)
                and ast.unparse(node.annotation) == "TypeAlias"
                and node.value is not None
            ):
                doc = _docstring(body, i)
                out += _doc_comment(doc, "") if doc else []
                out += _wrapped_union(f"export type {node.target.id} =", _ts_type(node.value, known), "", ";")
                out.append("")
            elif isinstance(node, ast.ClassDef) and any(ast.unparse(b) in ("TypedDict", *known) for b in node.bases):
                out += _ts_interface(node, known, page_extends)
                out.append("")
    out.append(TYPES_FOOTER)
    return "\n".join(out)


def _ts_interface(node: ast.ClassDef, known: set[str], page_extends: dict[str, str]) -> list[str]:
    """A ``TypedDict`` class as an interface (its bases other than TypedDict extended), its docstrings as JSDoc."""
    bases = [ast.unparse(b) for b in node.bases]
    if "TypedDict" not in bases and not set(bases) <= known:
        raise TypesError(f"types: {node.name} is not a TypedDict")
    extends = [b for b in bases if b != "TypedDict"] + ([page_extends[node.name]] if node.name in page_extends else [])
    body = node.body
    lines: list[str] = []
    doc = ast.get_docstring(node, clean=False)
    if doc:
        lines += _doc_comment(doc, "")
    fields = []
    for i, item in enumerate(body):
        if not (isinstance(item, ast.AnnAssign) and isinstance(item.target, ast.Name)):
            continue
        annotation = item.annotation
        optional = ""
        if isinstance(annotation, ast.Subscript) and ast.unparse(annotation.value) == "NotRequired":
            annotation, optional = annotation.slice, "?"
        field_doc = _docstring(body, i)
        fields += _doc_comment(field_doc, "  ") if field_doc else []
        fields += _wrapped_union(f"{item.target.id}{optional}:", _ts_type(annotation, known), "  ", ";")
    if not fields and not extends:
        return [*lines, f"export type {node.name} = Record<string, never>;"]
    head = f"export interface {node.name}" + (f" extends {', '.join(extends)}" if extends else "")
    return [*lines, head + " {", *fields, "}"]


def write_types(path: Path = TYPES_FILE) -> bool:
    """Write types/engine.d.ts if it differs from what the Python types give; True if it did."""
    text = engine_types()
    if path.is_file() and path.read_text("utf-8") == text:
        return False
    path.write_text(text, "utf-8")
    return True


# ---------------------------------------------------------------------- site


def pyodide_version() -> str:
    package = PYODIDE_SRC / "package.json"
    if not package.is_file():
        raise BuildError("node_modules/pyodide is missing: run `npm ci` first")
    return str(json.loads(package.read_text(encoding="utf-8"))["version"])


def precache_entries(dist: Path, exclude: Iterable[str]) -> list[dict[str, object]]:
    """Every file of ``dist`` (but ``exclude``) with its size and SHA-256, sorted by URL."""
    skip = set(exclude)
    entries: list[dict[str, object]] = []
    for path in sorted(dist.rglob("*")):
        if not path.is_file():
            continue
        url = path.relative_to(dist).as_posix()
        if url in skip:
            continue
        entries.append({"url": url, "sha256": file_sha256(path), "size": path.stat().st_size})
    return entries


def write_service_worker(
    dist: Path, template: Path | None = None, stats: Stats | None = None, unlisted: Iterable[str] = ()
) -> str:
    """Write ``precache-manifest.json`` and ``sw.js`` for the files now in ``dist``; return the version.

    The version (and so the service worker's cache name) is a hash over every
    file's path and content hash: any change to any file makes a new cache.
    ``unlisted`` files (the page's single modules, which the page loads bundled)
    are left out.
    """
    stats = stats or Stats()
    template = template or WEB / SW_TEMPLATE
    files = precache_entries(dist, exclude=("sw.js", "precache-manifest.json", *unlisted))
    fingerprint = "\n".join(f"{e['url']} {e['sha256']}" for e in files)
    version = sha256_hex(fingerprint.encode("utf-8"))[:16]
    manifest = {"version": version, "files": files}
    write_if_changed(dist / "precache-manifest.json", (json.dumps(manifest, indent=1) + "\n").encode("utf-8"), stats)
    source = template.read_text(encoding="utf-8")
    if SW_PLACEHOLDER not in source:
        raise BuildError(f"web/{SW_TEMPLATE} lacks the placeholder {SW_PLACEHOLDER}")
    script = source.replace(SW_PLACEHOLDER, json.dumps(manifest, separators=(",", ":")))
    write_if_changed(dist / "sw.js", script.encode("utf-8"), stats)
    return version


def build(dist: Path = DIST) -> str:
    """Assemble the site in ``dist``; return its version."""
    stats = Stats()
    if write_types():
        print(f"wrote {TYPES_FILE.relative_to(ROOT).as_posix()} from the engine's Python types")
    runtime_version = pyodide_version()
    expected: set[Path] = set()

    def track(path: Path) -> Path:
        expected.add(path)
        return path

    # The page.
    for src in sorted(WEB.rglob("*")):
        if not src.is_file() or src.name.startswith("."):
            continue
        rel = src.relative_to(WEB)
        if rel.as_posix() == SW_TEMPLATE:
            continue
        copy_if_changed(src, track(dist / rel), stats)

    # The runtime.
    for name in PYODIDE_FILES:
        src = PYODIDE_SRC / name
        if not src.is_file():
            raise BuildError(f"node_modules/pyodide/{name} is missing: run `npm ci`")
        copy_if_changed(src, track(dist / "pyodide" / name), stats)

    # The page's modules, bundled.
    bundle = page_bundle()
    for name, data in bundle.files.items():
        write_if_changed(track(dist / PAGE_BUNDLE / name), data, stats)

    # The packages of online play, bundled.
    for vendor in VENDOR:
        write_if_changed(track(dist / "vendor" / vendor.name), vendor_module(vendor), stats)
    write_if_changed(track(dist / "vendor" / "LICENSES.txt"), vendor_licences(), stats)

    # The engine wheel.
    project = read_project()
    wheel_name, wheel = build_wheel(project, ENGINE)
    write_if_changed(track(dist / wheel_name), wheel, stats)

    # Icons and the web app manifest.
    for size in ICON_SIZES:
        write_if_changed(track(dist / "icons" / f"icon-{size}.png"), icon_png(size), stats)
    write_if_changed(track(dist / "manifest.webmanifest"), web_manifest(), stats)

    info = {
        "app": APP_NAME,
        "engine_version": project.version,
        "pyodide": runtime_version,
        "pyodide_files": list(PYODIDE_FILES),
        "wheel": wheel_name,
        "wheel_sha256": sha256_hex(wheel),
    }
    write_if_changed(track(dist / "build.json"), (json.dumps(info, indent=1) + "\n").encode("utf-8"), stats)

    # Drop whatever an earlier build left behind that is no longer part of the site.
    track(dist / "sw.js")
    track(dist / "precache-manifest.json")
    for path in sorted(dist.rglob("*"), reverse=True):
        if path.is_file() and path not in expected:
            path.unlink()
            stats.removed += 1
        elif path.is_dir() and not any(path.iterdir()):
            path.rmdir()

    check_page_bundle(bundle, dist)
    version = write_service_worker(dist, stats=stats, unlisted=bundle.sources)
    total = sum(p.stat().st_size for p in dist.rglob("*") if p.is_file())
    print(
        f"built {dist.name}/ version {version}: {stats.written} written, {stats.skipped} unchanged, "
        f"{stats.removed} removed, {total / 1e6:.1f} MB"
    )
    return version


# --------------------------------------------------------------------- serve


class SiteHandler(http.server.SimpleHTTPRequestHandler):
    """Static files with the MIME types Pyodide needs, never cached by the browser's HTTP cache."""

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        self.extensions_map = {**self.extensions_map, **MIME_TYPES}
        super().__init__(*args, **kwargs)

    def end_headers(self) -> None:
        self.send_header("Cache-Control", "no-cache")
        super().end_headers()

    def log_message(self, format: str, *args: object) -> None:
        if os.environ.get("BUILD_SERVE_QUIET") != "1":
            super().log_message(format, *args)


class SiteServer(http.server.ThreadingHTTPServer):
    """A page's first visit asks for dozens of files at once: a listen queue of 5 (the default) can refuse some."""

    request_queue_size = 128
    daemon_threads = True


def make_server(directory: Path, host: str = "127.0.0.1", port: int = 8000) -> http.server.ThreadingHTTPServer:
    """A threading HTTP server for ``directory`` (port 0 picks a free port)."""
    handler = functools.partial(SiteHandler, directory=str(directory))
    return SiteServer((host, port), handler)


def serve(port: int, host: str) -> None:
    build()
    server = make_server(DIST, host, port)
    bound_host, bound_port = server.server_address[:2]
    print(f"serving {DIST.name}/ at http://{bound_host!s}:{bound_port}/ (Ctrl+C stops)", flush=True)
    try:
        server.serve_forever()
    except KeyboardInterrupt:
        print()
    finally:
        server.server_close()


# ---------------------------------------------------------------------- main


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    sub = parser.add_subparsers(dest="command")
    sub.add_parser("build", help="build dist/ (default)")
    serve_parser = sub.add_parser("serve", help="build, then serve dist/ on 127.0.0.1")
    serve_parser.add_argument("--port", type=int, default=8000)
    serve_parser.add_argument("--host", default="127.0.0.1")
    sub.add_parser("types", help="write types/engine.d.ts from the engine's Python types (every build does too)")
    sub.add_parser("test", help="run python tests/run.py (extra arguments are passed on)")
    args, rest = parser.parse_known_args(argv)
    command = args.command or "build"
    if rest and command != "test":
        parser.error(f"unrecognized arguments: {' '.join(rest)}")
    try:
        if command == "build":
            ensure_node_modules()
            build()
        elif command == "types":
            changed = write_types()
            print(f"{TYPES_FILE.relative_to(ROOT).as_posix()}: {'written' if changed else 'unchanged'}")
        elif command == "serve":
            ensure_node_modules()
            serve(args.port, args.host)
        else:
            runner = ROOT / "tests" / "run.py"
            if not runner.is_file():
                raise BuildError("tests/run.py is missing")
            return subprocess.call([sys.executable, str(runner), *rest], cwd=ROOT)
    except BuildError as e:
        print(f"build.py: {e}", file=sys.stderr)
        return 2
    return 0


if __name__ == "__main__":
    sys.exit(main())
