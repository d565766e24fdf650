"""Card drawing benchmark: the card sprites and a hand of faces, timed in headless Chromium.

``python -m tests.browser.bench_cards [--runs N] [--against REF] [--json FILE]``

Serves web/ as it is (no build: only the card modules, the translations and the
style sheet are used) and, with ``--against REF``, the web/ of another commit
(``git archive``) beside it, alternating their runs so that the load of the
machine hits both alike. Each run opens a new page on a bare document with
the page's style sheet, loads the language of the pattern (Hungarian for
Tell, English for French) and times with ``performance.now()``:

- ``sprites``: ``installCardSprites()``, the shared symbols (suit signs, backs);
- ``figures``: ``buildCourtSymbols()`` where there is one, the pattern's twelve
  court figures (the page builds them when it is next idle after the sprites);
- ``hand``: a hand of six cards, four of them court cards, 104 px wide:
  ``cardFace`` for each and appended (``build``), then until style and layout
  are done (read back: ``layout``), then until the frame after it has been
  produced (a task posted from ``requestAnimationFrame``: ``frame``);
- ``again``: the same hand drawn once more (the figures' symbols now exist);
- ``deck``: all 24 faces at once, to the frame after (the review and the end
  of a deal show many cards).

``again`` and ``deck`` are the fastest of 9 draws in the page, the others are
timed once per run: on a busy machine the fastest draw is the one least
disturbed by other processes.

It prints the median and range of each figure per pattern, in milliseconds.
"""

from __future__ import annotations

import argparse
import http.server
import json
import os
import statistics
import subprocess
import tarfile
import tempfile
import threading
from collections.abc import Iterator, Sequence
from contextlib import ExitStack, contextmanager
from io import BytesIO
from pathlib import Path
from typing import Any

from playwright.sync_api import Browser, sync_playwright

from .conftest import ROOT, find_chromium

HAND = ["KH", "QD", "JC", "AS", "QS", "TH"]
DECK = [rank + suit for suit in "HDCS" for rank in "AKQJT9"]
LANGUAGE = {"tell": "hu", "french": "en"}
PAGE = '<!doctype html><meta charset="utf-8"><link rel="stylesheet" href="styles.css"><body></body>'

REPEAT = 9
MEASURE = """async ({deck, language, hand, all, REPEAT}) => {
    const i18n = await import('./platform/i18n.js');
    await i18n.setLanguage(language);
    const cards = await import('./table/cards.js');
    cards.setDeckStyle(deck);
    const frame = () => new Promise((done) => requestAnimationFrame(() => setTimeout(done, 0)));
    await frame();
    const result = {};
    let start = performance.now();
    cards.installCardSprites();
    result.sprites = performance.now() - start;
    if (cards.buildCourtSymbols) {
        // Done when the page is idle after installCardSprites; timed here at once.
        start = performance.now();
        cards.buildCourtSymbols();
        result['figures'] = performance.now() - start;
    }
    // The page is idle a while before its first hand (the engine boots meanwhile).
    await new Promise((done) => requestIdleCallback(done));
    await frame();
    const draw = async (codes, name, detail) => {
        const row = document.createElement('div');
        row.style.cssText = 'display: flex; flex-wrap: wrap; gap: 4px';
        start = performance.now();
        for (const code of codes) {
            const card = document.createElement('div');
            card.className = 'card';
            card.style.cssText = 'width: 104px; height: 145.6px';
            card.append(cards.cardFace(code));
            row.append(card);
        }
        document.body.append(row);
        if (detail) result[name + ' build'] = performance.now() - start;
        row.getBoundingClientRect();
        if (detail) result[name + ' layout'] = performance.now() - start;
        await frame();
        result[name + (detail ? ' frame' : '')] = performance.now() - start;
        row.remove();
        await frame();
    };
    await draw(hand, 'hand', true);
    // Drawn again: the fastest of REPEAT draws (the figures' symbols exist by now; on a busy
    // machine the fastest is the one least disturbed by other processes).
    const repeated = {};
    for (let i = 0; i < REPEAT; i++) {
        await draw(hand, 'again', true);
        await draw(all, 'deck', false);
        for (const name of ['again build', 'again layout', 'again frame', 'deck']) {
            (repeated[name] ??= []).push(result[name]);
        }
    }
    for (const [name, values] of Object.entries(repeated)) result[name] = Math.min(...values);
    return result;
}"""


class QuietHandler(http.server.SimpleHTTPRequestHandler):
    def log_message(self, format: str, *args: Any) -> None:
        pass


@contextmanager
def serving(directory: Path) -> Iterator[str]:
    def handler(*args: Any, **kwargs: Any) -> Any:
        return QuietHandler(*args, directory=str(directory), **kwargs)

    server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), handler)
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    try:
        yield f"http://127.0.0.1:{server.server_address[1]}/"
    finally:
        server.shutdown()
        server.server_close()


def extract_web(ref: str, into: Path) -> Path:
    """The web/ folder of commit ``ref``."""
    archive = subprocess.run(["git", "archive", ref, "web"], cwd=ROOT, capture_output=True, check=True).stdout
    with tarfile.open(fileobj=BytesIO(archive)) as tar:
        tar.extractall(into, filter="data")
    return into / "web"


def run_once(browser: Browser, url: str, deck: str) -> dict[str, float]:
    context = browser.new_context(viewport={"width": 1280, "height": 800})
    try:
        page = context.new_page()
        page.route(url + "bench.html", lambda route: route.fulfill(body=PAGE, content_type="text/html"))
        page.goto(url + "bench.html")
        measured: dict[str, float] = page.evaluate(
            MEASURE, {"deck": deck, "language": LANGUAGE[deck], "hand": HAND, "all": DECK, "REPEAT": REPEAT}
        )
        return measured
    finally:
        context.close()


def summary(runs: Sequence[dict[str, float]]) -> dict[str, str]:
    names = list(runs[0])
    out = {}
    for name in names:
        values = [run[name] for run in runs]
        out[name] = f"{statistics.median(values):6.2f} ({min(values):.2f}-{max(values):.2f})"
    return out


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--runs", type=int, default=15, help="runs of each variant and pattern (default 15)")
    parser.add_argument("--against", metavar="REF", help="also time the web/ of this commit (e.g. main)")
    parser.add_argument("--json", type=Path, help="also write every measurement to this file")
    args = parser.parse_args(argv)
    if args.runs < 1:
        parser.error("--runs must be at least 1")
    results: dict[str, dict[str, list[dict[str, float]]]] = {}
    with tempfile.TemporaryDirectory(prefix="bench-cards-") as tmp:
        variants = {"this": ROOT / "web"}
        if args.against:
            variants[args.against] = extract_web(args.against, Path(tmp))
        with sync_playwright() as p:
            browser = p.chromium.launch(executable_path=find_chromium(), headless=True)
            with ExitStack() as stack:
                urls = {name: stack.enter_context(serving(folder)) for name, folder in variants.items()}
                for name in urls:
                    results[name] = {deck: [] for deck in LANGUAGE}
                    run_once(browser, urls[name], "tell")  # unmeasured: warm the OS and HTTP caches
                for i in range(args.runs):
                    order = list(urls) if i % 2 == 0 else list(reversed(urls))
                    for deck in LANGUAGE:
                        for name in order:
                            results[name][deck].append(run_once(browser, urls[name], deck))
            browser.close()
    print(f"card drawing, ms: median (range) of {args.runs} runs, {os.cpu_count()} CPUs")
    for deck in LANGUAGE:
        print(f"\n{deck}:")
        table = {name: summary(results[name][deck]) for name in results}
        names = list(next(iter(table.values())))
        print(f"  {'':12}" + "".join(f"{variant:>24}" for variant in table))
        for measure in names:
            print(f"  {measure:12}" + "".join(f"{table[variant].get(measure, '-'):>24}" for variant in table))
    if args.json:
        args.json.write_text(json.dumps(results, indent=1), encoding="utf-8")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
