"""Statistics of games against the computer: recording, the screen, export, import, reset and migration."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
from playwright.sync_api import FilePayload, Page, expect

from .conftest import BOOT_TIMEOUT_MS, STEP_TIMEOUT_MS, Site, Watch
from .helpers import do, new_game, open_table, phase, wait_ready
from .modes_helpers import set_preferences

pytestmark = pytest.mark.browser

# AT20, you (seat 0) lead: JH QH AH TH AD against AC TC KC QC JC, trump KH face up.
# Exchange, marry 40, close and claim wins before the computer takes a trick: Schwarz, 3 game points.
SCRIPTED_AT20 = {
    "preset": "AT20",
    "seed": 1,
    "dealer": 1,
    "deck": [
        *("JH", "QH", "AH"),
        *("AC", "TC", "KC"),
        "KH",
        *("TH", "AD"),
        *("QC", "JC"),
        *("AS", "TS", "KS", "QS", "JS", "TD", "KD", "QD", "JD"),
    ],
}
START, K = 1200, 32
LEVEL_RATING = {1: 800, 2: 1000, 3: 1200, 4: 1400, 5: 1600}


def expected(player: float, level: int) -> float:
    return 1 / (1 + 10 ** ((LEVEL_RATING[level] - player) / 400))


def stats(page: Page) -> dict[str, Any]:
    data: dict[str, Any] = page.evaluate("window.__test.stats()")
    return data


def win_scripted_match(page: Page) -> None:
    """The scripted AT20 deal as a one-point match: exchange, marriage, close, three hearts, claim."""
    new_game(page, **SCRIPTED_AT20, rules={"match_target": 1})
    for step in ("exchange", "marry:H", "close", "KH", "AH", "TH"):
        do(page, step)
    do(page, "claim")
    assert phase(page) == "match_over"


def lose_by_resigning(page: Page) -> None:
    new_game(page, preset="KLUB20", seed=3, dealer=1, rules={"match_target": 1})
    do(page, "resign")
    assert phase(page) == "match_over"


def open_stats(page: Page) -> None:
    page.locator("#open-help").click()
    page.locator("#help-dialog [data-action='open-stats']").click()
    expect(page.locator("#stats-dialog")).to_be_visible(timeout=STEP_TIMEOUT_MS)


def stat(page: Page, name: str, within: str = "#stats-dialog") -> str:
    text: str = page.locator(f"{within} [data-stat='{name}']").first.inner_text()
    return text


@pytest.mark.page_logic
def test_a_finished_match_updates_the_statistics(site: Site, page: Page, watch: Watch) -> None:
    watch.attach(page)
    open_table(page, site.url)
    assert stats(page)["buckets"] == {}
    win_scripted_match(page)
    s = stats(page)
    assert s["schema"] == 2
    # Custom rules (match_target 1) at the default level 3: counted apart from the plain preset.
    bucket = s["buckets"]["AT20*|3"]
    assert bucket["deals"] == {"won": 1, "lost": 0, "none": 0}
    assert bucket["matches"] == {"won": 1, "lost": 0}
    assert bucket["points"] == {"won": 3, "lost": 0}
    assert bucket["basis"] == {"schwarz": {"won": 1, "lost": 0}}
    assert bucket["closes"] == {"made": 1, "won": 1}
    assert bucket["marriages"] == {"count": 1, "points": 40}
    rating = START + K * (1 - expected(START, 3))
    assert s["rating"] == pytest.approx(rating) and s["rated"] == 1

    lose_by_resigning(page)
    s = stats(page)
    klub = s["buckets"]["KLUB20*|3"]
    assert klub["deals"]["lost"] == 1 and klub["matches"]["lost"] == 1
    assert klub["points"] == {"won": 0, "lost": 3}
    assert klub["closes"] == {"made": 0, "won": 0}
    rating += K * (0 - expected(rating, 3))
    assert s["rating"] == pytest.approx(rating) and s["rated"] == 2
    assert [p["won"] for p in s["history"]] == [True, False]

    # A reload shows the finished match again: it is not counted twice.
    page.reload()
    wait_ready(page, BOOT_TIMEOUT_MS)
    assert phase(page) == "match_over"
    assert stats(page) == s

    open_stats(page)
    assert stat(page, "rating") == str(round(rating))
    assert stat(page, "matches.won") == "1" and stat(page, "matches.lost") == "1"
    assert stat(page, "deals.won") == "1" and stat(page, "deals.lost") == "1"
    assert stat(page, "points.won") == "3" and stat(page, "points.lost") == "3"
    assert stat(page, "basis.schwarz.won") == "1" and stat(page, "basis.schwarz.lost") == "1"
    assert stat(page, "closes.made") == "1" and stat(page, "closes.rate") == "100 %"
    assert stat(page, "marriages.count") == "1" and stat(page, "marriages.points") == "40"
    assert stat(page, "matches", "tr[data-rules='AT20*']") == "1–0"
    assert stat(page, "matches", "tr[data-rules='KLUB20*']") == "0–1"
    assert stat(page, "deals", "tr[data-level='3']") == "1–1"
    # The charts: the rating from the start through two matches, and one bar pair per rule set.
    expect(page.locator("[data-chart='rating'] .chart-dot")).to_have_count(2)
    expect(page.locator("[data-chart='rules'] .chart-bar")).to_have_count(2)
    assert "⟦" not in page.locator("#stats-dialog").inner_text()
    page.locator("[data-action='stats-close']").click()
    expect(page.locator("#stats-dialog")).to_be_hidden()


@pytest.mark.page_logic
def test_a_deal_in_progress_and_a_new_game_count_nothing_new(site: Site, page: Page, watch: Watch) -> None:
    watch.attach(page)
    open_table(page, site.url)
    new_game(page, preset="KLUB20", seed=3, dealer=1, match=False)
    assert stats(page)["buckets"] == {}  # nothing finished yet
    do(page, "resign")
    s = stats(page)
    assert s["buckets"]["KLUB20|3"]["deals"]["lost"] == 1
    assert s["buckets"]["KLUB20|3"]["matches"] == {"won": 0, "lost": 0}  # a single deal is no match
    assert s["rated"] == 0


@pytest.mark.page_logic
def test_a_match_with_a_hint_or_an_undo_is_counted_but_not_rated(site: Site, page: Page, watch: Watch) -> None:
    watch.attach(page)
    open_table(page, site.url)
    set_preferences(page, mode="computer", ranked=False)
    # A hint before the first move: the match that follows is assisted.
    new_game(page, **SCRIPTED_AT20, rules={"match_target": 1})
    page.locator("[data-control='hint']").click()
    expect(page.locator("#hint-text")).to_be_visible(timeout=STEP_TIMEOUT_MS)
    assert stats(page)["current"]["assisted"] is True
    for step in ("exchange", "marry:H", "close", "KH", "AH", "TH"):
        do(page, step)
    do(page, "claim")
    assert phase(page) == "match_over"
    s = stats(page)
    assert s["buckets"]["AT20*|3"]["matches"] == {"won": 1, "lost": 0}  # counted in the totals
    assert s["rating"] == START and s["rated"] == 0 and s["history"] == []  # but not rated
    # A new game starts unassisted: the same match without help is rated.
    win_scripted_match(page)
    s = stats(page)
    assert "assisted" not in s["current"]
    assert s["rated"] == 1 and s["rating"] == pytest.approx(START + K * (1 - expected(START, 3)))
    open_stats(page)
    expect(page.locator("#stats-dialog [data-note='assisted']")).to_be_visible()


def pure(page: Page, script: str) -> Any:
    """Run ``script`` (the body of an async function with ``S`` = platform/stats.js) in the page."""
    return page.evaluate(f"async () => {{ const S = await import('./platform/stats.js'); {script} }}")


def engine(page: Page, request: dict[str, Any]) -> dict[str, Any]:
    """The engine's answer to a request through the page's worker: {ok, result} or {ok: false, code, message}."""
    answer: dict[str, Any] = page.evaluate("request => window.__test.request(request)", request)
    return answer


@pytest.mark.page_logic
def test_the_engine_decides_what_a_deal_counts(site: Site, page: Page, watch: Watch) -> None:
    watch.attach(page)
    open_table(page, site.url)
    view = {
        "seat": 0,
        "phase": "deal_over",
        "rules": {"id": "HU24", "deck": 24},
        "closed_by": 1,
        "marriages": [{"seat": 0, "points": 20}, {"seat": 1, "points": 40}],
        "match": {"match_number": 1, "deal_number": 2, "winner": None},
        "deal_result": {"winner": 1, "game_points": 2, "code": "close_success", "basis": "schneider"},
    }
    empty = pure(page, "return S.emptyStats(5);")
    begun = engine(page, {"cmd": "stats_begin", "stats": empty})["result"]["stats"]
    record = {"cmd": "stats_record", "view": view, "level": 2, "mode": "computer", "now": 9}
    once = engine(page, {**record, "stats": begun})["result"]
    assert once["changed"] is True
    bucket = once["stats"]["buckets"]["HU24*|2"]  # the rules differ from the preset's
    assert bucket["deals"] == {"won": 0, "lost": 1, "none": 0}
    assert bucket["basis"] == {"schneider": {"won": 0, "lost": 1}}
    assert bucket["closes"] == {"made": 0, "won": 0}  # the computer closed
    assert bucket["marriages"] == {"count": 1, "points": 20}  # only yours
    twice = engine(page, {**record, "stats": once["stats"]})["result"]
    assert twice["changed"] is False and twice["stats"] == once["stats"]
    tutorial = engine(page, {"cmd": "stats_begin", "stats": empty, "counted": False})["result"]["stats"]
    assert engine(page, {**record, "stats": tutorial})["result"]["stats"]["buckets"] == {}
    # Damaged statistics are refused in words, by the engine and by the page's storage check.
    damaged = {**empty, "rating": -1}
    refused = engine(page, {**record, "stats": damaged})
    assert refused["ok"] is False and refused["code"] == "bad_request"
    assert "argument 'stats': rating" in refused["message"]
    refused = pure(
        page,
        """const bad = S.emptyStats(1); bad.buckets['AT20|3'] = {preset: 'AT20'};
           try { S.validate(bad); return 'accepted'; } catch (e) { return e.name; }""",
    )
    assert refused == "StatsError"


SCHEMA_1 = {
    "schema": 1,
    "since": 1700000000000,
    "presets": {
        "HU24": {"dealsWon": 5, "dealsLost": 3, "matchesWon": 1, "matchesLost": 0, "pointsWon": 9, "pointsLost": 4}
    },
}


@pytest.mark.page_logic
def test_statistics_of_an_older_schema_are_migrated(site: Site, page: Page, watch: Watch) -> None:
    watch.attach(page)
    open_table(page, site.url)
    page.evaluate("data => localStorage.setItem('sixty-six.stats', JSON.stringify(data))", SCHEMA_1)
    page.reload()
    wait_ready(page, BOOT_TIMEOUT_MS)
    s = stats(page)
    assert s["schema"] == 2 and s["since"] == SCHEMA_1["since"] and s["rating"] == START
    bucket = s["buckets"]["HU24|0"]
    assert bucket["deals"] == {"won": 5, "lost": 3, "none": 0}
    assert bucket["matches"] == {"won": 1, "lost": 0}
    assert bucket["points"] == {"won": 9, "lost": 4}
    # Stored back in the new schema once read.
    stored = json.loads(page.evaluate("localStorage.getItem('sixty-six.stats')"))
    assert stored["schema"] == 2
    open_stats(page)
    expect(page.locator("tr[data-level='0'] th")).to_have_text("Level not recorded (older statistics)")
    assert stat(page, "deals", "tr[data-rules='HU24']") == "5–3"


def level_one_matches(n: int) -> dict[str, Any]:
    """Stored statistics of ``n`` rated matches, all at level 1, lost and won in turn around the start rating."""
    history = [
        {"t": 1_780_000_000_000 + i, "rating": START + (8 if i % 2 else -8), "level": 1, "won": bool(i % 2)}
        for i in range(n)
    ]
    won = n // 2
    bucket = {
        "preset": "AT20",
        "custom": False,
        "level": 1,
        "deals": {"won": won, "lost": n - won, "none": 0},
        "matches": {"won": won, "lost": n - won},
        "points": {"won": 3 * won, "lost": 3 * (n - won)},
        "basis": {},
        "closes": {"made": 0, "won": 0},
        "marriages": {"count": 0, "points": 0},
    }
    return {
        "schema": 2,
        "since": 1_780_000_000_000,
        "rating": history[-1]["rating"],
        "rated": n,
        "history": history,
        "buckets": {"AT20|1": bucket},
        "current": None,
    }


@pytest.mark.page_logic
def test_the_rating_chart_draws_only_the_levels_played(site: Site, page: Page, watch: Watch) -> None:
    # Level-1 matches around 1200, where level 3's rating is: only level 1 gets a line (here off the chart's range).
    watch.attach(page)
    open_table(page, site.url)
    page.evaluate("data => localStorage.setItem('sixty-six.stats', JSON.stringify(data))", level_one_matches(6))
    open_stats(page)
    expect(page.locator("[data-chart='rating'] .chart-dot")).to_have_count(6)
    labels = page.locator("[data-chart='rating'] .chart-mark-label").evaluate_all("els => els.map(e => e.textContent)")
    assert labels == [], labels
    # The same matches at level 3: its line is drawn.
    page.locator("[data-action='stats-close']").click()
    at_three = level_one_matches(6)
    for point in at_three["history"]:
        point["level"] = 3
    at_three["buckets"] = {"AT20|3": {**at_three["buckets"]["AT20|1"], "level": 3}}
    page.evaluate("data => localStorage.setItem('sixty-six.stats', JSON.stringify(data))", at_three)
    open_stats(page)
    labels = page.locator("[data-chart='rating'] .chart-mark-label").evaluate_all("els => els.map(e => e.textContent)")
    assert labels == ["level 3"], labels


def test_the_statistics_open_at_their_top(site: Site, page: Page, watch: Watch) -> None:
    """On a phone's height, with a long screen: the title has the focus and nothing is scrolled (both browsers)."""
    watch.attach(page)
    page.set_viewport_size({"width": 390, "height": 844})
    open_table(page, site.url)
    page.evaluate("data => localStorage.setItem('sixty-six.stats', JSON.stringify(data))", level_one_matches(6))
    open_stats(page)
    dialog = page.locator("#stats-dialog")
    assert dialog.evaluate("d => d.scrollHeight > d.clientHeight + 200"), "the screen is not long enough to tell"
    expect(page.locator("#stats-title")).to_be_focused()
    assert dialog.evaluate("d => d.scrollTop") == 0
    title = page.locator("#stats-title").bounding_box()
    assert title is not None and 0 <= title["y"] < 200, title


def stored_entries(page: Page) -> dict[str, str]:
    entries: dict[str, str] = page.evaluate(
        """() => Object.fromEntries(Object.keys(localStorage).filter(k => k.startsWith('sixty-six.'))
            .map(k => [k, localStorage.getItem(k)]))"""
    )
    return entries


def export_file(page: Page) -> tuple[str, str]:
    """Press Export and read the file it offers: the download link's name and the text of its blob.

    (Read in the page rather than from a download event, which Firefox over
    WebDriver BiDi does not report.)
    """
    page.evaluate(
        """() => {
            window.__export = {};
            const create = URL.createObjectURL;
            URL.createObjectURL = (blob) => { window.__export.blob = blob; return create(blob); };
            document.addEventListener('click', (event) => {
                const link = event.target.closest && event.target.closest('a[download]');
                if (link) window.__export.name = link.download;
            }, {capture: true});
        }"""
    )
    page.locator("[data-action='data-export']").click()
    expect(page.locator("#stats-message")).to_have_attribute("data-result", "ok")
    found: dict[str, str] = page.evaluate(
        "async () => ({name: window.__export.name, text: await window.__export.blob.text()})"
    )
    return found["name"], found["text"]


def import_file(page: Page, content: bytes, name: str = "data.json") -> None:
    payload: FilePayload = {"name": name, "mimeType": "application/json", "buffer": content}
    page.locator("#stats-import-file").set_input_files(files=[payload])


def test_export_import_and_reset_of_local_data(site: Site, page: Page, watch: Watch, tmp_path: Path) -> None:
    watch.attach(page)
    open_table(page, site.url)
    lose_by_resigning(page)
    page.locator("#open-settings").click()
    page.select_option("#setting-points", "both")
    page.locator("[data-action='settings-save']").click()
    # The settings are saved when the dialog's "close" event comes, a task after it is hidden.
    expect(page.locator("#table")).to_have_attribute("data-points", "both")
    before = stored_entries(page)
    assert {"sixty-six.stats", "sixty-six.settings.v1"} <= set(before)

    open_stats(page)
    name, text = export_file(page)
    assert name.startswith("sixty-six-data-") and name.endswith(".json")
    path = tmp_path / "export.json"
    path.write_text(text, encoding="utf-8")
    exported = json.loads(text)
    assert exported["format"] == "sixty-six/local-data" and exported["version"] == 1
    assert exported["data"]["sixty-six.settings.v1"]["points"] == "both"
    assert exported["data"]["sixty-six.stats"]["buckets"]["KLUB20*|3"]["matches"]["lost"] == 1

    # Malformed files are refused with a reason, and nothing changes.
    message = page.locator("#stats-message")
    damaged = json.loads(json.dumps(exported))
    damaged["data"]["sixty-six.stats"]["buckets"]["KLUB20*|3"]["deals"]["lost"] = -1
    for content, reason in (
        (b"{not json", "data.error.json"),
        (b'{"format": "something else", "version": 1, "data": {}}', "data.error.format"),
        (json.dumps(damaged).encode(), "data.error.stats"),
        (json.dumps({**exported, "data": {"evil": 1}}).encode(), "data.error.format"),
    ):
        import_file(page, content)
        expect(message).to_have_attribute("data-reason", reason)
        expect(message).to_have_attribute("data-result", "error")
        expect(message).to_contain_text("Nothing was imported")
        assert stored_entries(page) == before

    # Reset, after a confirmation: everything goes, the page starts afresh with the defaults.
    page.locator("[data-action='data-reset']").click()
    expect(page.locator("#stats-confirm")).to_be_visible()
    page.locator("[data-action='data-reset-cancel']").click()
    expect(page.locator("#stats-confirm")).to_be_hidden()
    assert stored_entries(page) == before
    page.locator("[data-action='data-reset']").click()
    with page.expect_event("load", timeout=BOOT_TIMEOUT_MS):
        page.locator("[data-action='data-reset-confirm']").click()
    wait_ready(page, BOOT_TIMEOUT_MS)
    assert stats(page)["buckets"] == {}
    assert page.evaluate("window.__test.settings()")["points"] == "auto"
    assert phase(page) != "match_over"  # the finished game was dropped too: a new one is dealt

    # Importing the exported file brings everything back.
    open_stats(page)
    expect(page.locator(".stats-empty")).to_be_visible()
    with page.expect_event("load", timeout=BOOT_TIMEOUT_MS):
        import_file(page, path.read_bytes())
    wait_ready(page, BOOT_TIMEOUT_MS)
    after = stored_entries(page)
    assert json.loads(after["sixty-six.settings.v1"]) == json.loads(before["sixty-six.settings.v1"])
    restored = json.loads(after["sixty-six.stats"])
    assert restored["buckets"] == json.loads(before["sixty-six.stats"])["buckets"]
    assert restored["rating"] == json.loads(before["sixty-six.stats"])["rating"]
    assert page.evaluate("window.__test.settings()")["points"] == "both"


@pytest.mark.page_logic
def test_an_import_of_older_statistics_is_migrated(site: Site, page: Page, watch: Watch) -> None:
    watch.attach(page)
    open_table(page, site.url)
    open_stats(page)
    file = {"format": "sixty-six/local-data", "version": 1, "data": {"sixty-six.stats": SCHEMA_1}}
    with page.expect_event("load", timeout=BOOT_TIMEOUT_MS):
        import_file(page, json.dumps(file).encode())
    wait_ready(page, BOOT_TIMEOUT_MS)
    s = stats(page)
    assert s["schema"] == 2 and s["buckets"]["HU24|0"]["deals"]["won"] == 5
    open_stats(page)
    assert stat(page, "deals", "tr[data-rules='HU24']") == "5–3"


def test_damaged_local_data_is_repaired_kept_and_said(site: Site, page: Page, watch: Watch) -> None:
    """One bad count and an impossible date keep the rest of the statistics; bad settings keep the good ones."""
    watch.attach(page)
    open_table(page, site.url)
    bucket = {
        "preset": "AT20",
        "custom": False,
        "level": 3,
        "deals": {"won": 4, "lost": 2, "none": 0},
        "matches": {"won": 1, "lost": 0},
        "points": {"won": 9, "lost": -1},  # the one bad count
        "basis": {"simple": {"won": 4, "lost": 2}},
        "closes": {"made": 1, "won": 1},
        "marriages": {"count": 2, "points": 60},
    }
    damaged = {
        "schema": 2,
        "since": 1e20,  # no Date can show it
        "rating": 1234,
        "rated": 1,
        "history": [],
        "buckets": {"AT20|3": bucket},
        "current": None,
    }
    texts = {
        "sixty-six.stats": json.dumps(damaged),
        "sixty-six.settings.v1": json.dumps({"level": 42, "deck": "tell", "language": "en"}),
    }
    page.evaluate("texts => Object.entries(texts).forEach(([k, v]) => localStorage.setItem(k, v))", texts)
    page.reload()
    wait_ready(page, BOOT_TIMEOUT_MS)
    notice = page.locator("#notice-text")
    expect(notice).to_contain_text("settings, statistics")
    expect(notice).to_contain_text("data export")
    s = stats(page)
    assert s["rating"] == 1234
    assert s["buckets"]["AT20|3"]["deals"] == bucket["deals"]
    assert s["buckets"]["AT20|3"]["points"] == {"won": 9, "lost": 0}
    settings = json.loads(page.evaluate("localStorage.getItem('sixty-six.settings.v1')"))
    assert (settings["level"], settings["deck"]) == (3, "tell")
    for key, text in texts.items():  # the damaged texts are kept, and go with the export
        assert (
            page.evaluate("key => localStorage.getItem(key)", key.replace("sixty-six.", "sixty-six.damaged.")) == text
        )
    open_stats(page)
    assert stat(page, "deals.won") == "4"
    expect(page.locator("#stats-dialog [data-action='data-export']")).to_be_visible()
    # Read once: the next visit says nothing more.
    page.reload()
    wait_ready(page, BOOT_TIMEOUT_MS)
    expect(page.locator("#notice")).to_be_hidden()
