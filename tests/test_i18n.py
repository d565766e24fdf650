"""The translations in web/i18n/: every language has every key, and every key the page uses exists.

The page looks words up with ``t("key")``, ``tp("key", n)`` (plural forms)
and ``has("key")`` in the page's modules (web/**/*.js), and with ``data-i18n``, ``data-i18n-label``
and ``data-i18n-title`` in web/index.html. Keys built at run time (template
literals such as ``t(`suit.${deck}.${suit}`)``) are checked as families, from
the engine's own lists (presets, deal-result codes and bases) and the page's
(languages, deck styles, settings choices, boot stages).
"""

from __future__ import annotations

import json
import re
import unicodedata
from html.parser import HTMLParser
from pathlib import Path
from typing import Any, ClassVar

import pytest

from py_engine.core.errors import RECORD_ERROR_REASONS
from py_engine.core.events import _CODE_WORDS
from py_engine.core.rules import BOOLEANS, CHOICES, PARAMETERS, PRESETS, RULES_ERROR_REASONS
from py_engine.core.scoring import BASIS_POINTS
from py_engine.puzzles.catalogue import KINDS, THEMES
from py_engine.puzzles.rating import BANDS
from py_engine.service.links import LINK_ERROR_REASONS
from py_engine.service.match import FORFEITS
from py_engine.service.online.voice import VOICE_ENDINGS

ROOT = Path(__file__).resolve().parent.parent
WEB = ROOT / "web"
I18N = WEB / "i18n"

LANGUAGES = ("en", "hu", "de", "ro", "pl", "sr")
#: The CLDR plural categories of whole numbers (Intl.PluralRules), plus "other", which every rule has.
PLURALS = {
    "en": {"one", "other"},
    "hu": {"one", "other"},
    "de": {"one", "other"},
    "ro": {"one", "few", "other"},
    "pl": {"one", "few", "many", "other"},
    "sr": {"one", "few", "other"},
}
PLACEHOLDER = re.compile(r"\{(\w+)\}")
#: t("key"), tp("key", n), has("key"); {key: "..."} (a boot failure); _fail(message, "key") (engine/engine-client.js);
#: new DataError("key") (platform/local-data.js: why an import was refused).
STATIC_CALL = re.compile(
    r'\b(?:t|tp|has)\(\s*"([^"]+)"|\bkey:\s*"([^"]+)"|\b_fail\([^,()]+,\s*"([^"]+)"|\bnew DataError\(\s*"([^"]+)"'
)
TEMPLATE_CALL = re.compile(r"\b(?:t|tp|has)\(\s*`([^`]+)`")
ATTRIBUTES = ("data-i18n", "data-i18n-label", "data-i18n-title")
SIDES = ("me", "opp")
SUITS = "HDCS"
RANKS = "ATKQJ9"


def _no_duplicates(pairs: list[tuple[str, Any]]) -> dict[str, Any]:
    keys = [k for k, _ in pairs]
    duplicates = {k for k in keys if keys.count(k) > 1}
    assert not duplicates, f"duplicate keys {sorted(duplicates)}"
    return dict(pairs)


def load(language: str) -> dict[str, Any]:
    data: dict[str, Any] = json.loads(
        (I18N / f"{language}.json").read_text(encoding="utf-8"), object_pairs_hook=_no_duplicates
    )
    return data


@pytest.fixture(scope="module")
def strings() -> dict[str, dict[str, Any]]:
    return {language: load(language) for language in LANGUAGES}


def _code(source: str) -> str:
    """The source without its comment lines (their examples are not uses)."""
    return "\n".join(line for line in source.splitlines() if not line.lstrip().startswith(("//", "*", "/*")))


def js_sources() -> dict[str, str]:
    """Every module of the page (web/ and its folders), by its path in web/ ("platform/i18n.js")."""
    return {p.relative_to(WEB).as_posix(): _code(p.read_text(encoding="utf-8")) for p in sorted(WEB.rglob("*.js"))}


def js_list(source: str, name: str) -> list[str]:
    """The items of ``export const NAME = [...]`` in a JS source (strings or numbers)."""
    match = re.search(rf"\b{name}\s*=\s*\[([^\]]*)\]", source)
    assert match, f"{name} not found"
    return [text or number for text, number in re.findall(r'"([^"]*)"|(\d+)', match.group(1))]


def html_keys() -> set[str]:
    html = (WEB / "index.html").read_text(encoding="utf-8")
    return {key for attr in ATTRIBUTES for key in re.findall(rf'\s{attr}="([^"]+)"', html)}


def static_keys() -> set[str]:
    keys = set(html_keys())
    for source in js_sources().values():
        keys |= {"".join(groups) for groups in STATIC_CALL.findall(source)}
    return keys


def templates() -> list[str]:
    found = []
    for source in js_sources().values():
        found += TEMPLATE_CALL.findall(source)
    return found


def template_regex(template: str) -> re.Pattern[str]:
    parts = re.split(r"\$\{[^}]*\}", template)
    return re.compile("[A-Za-z0-9_]+".join(re.escape(p) for p in parts) + r"\Z")


def families() -> set[str]:
    """Every key built at run time, from the lists it is built from."""
    sources = js_sources()
    keys: set[str] = set()
    for deck in js_list(sources["table/cards.js"], "DECK_STYLES"):
        keys |= {f"suit.{deck}.{s}" for s in SUITS}
        keys |= {f"rank.{deck}.{r}" for r in RANKS}
        keys |= {f"rankShort.{deck}.{r}" for r in RANKS}
        keys.add(f"deck.{deck}")
        keys.add(f"deck.{deck}.suits")
    keys |= {f"lang.{code}" for code in js_list(sources["platform/i18n.js"], "LANGUAGES")}
    keys |= {f"level.{n}" for n in js_list(sources["screens/settings.js"], "LEVELS")}
    keys |= {f"dealer.{k}" for k in js_list(sources["screens/settings.js"], "DEALERS")}
    keys |= {f"points.{k}" for k in js_list(sources["screens/settings.js"], "POINTS_MODES")}
    keys |= {f"preset.{p}" for p in PRESETS}
    keys |= {f"presetShort.{p}" for p in ("RO24", "RO20")}  # the names too long for a phone's select
    stages = set(re.findall(r'\bprogress\(\s*"(\w+)"', sources["engine/worker.js"]))
    for source in sources.values():
        stages |= set(re.findall(r'bootProgress\(\{\s*stage:\s*"(\w+)"', source))
    assert stages, "no boot stages found"
    keys |= {f"boot.stage.{s}" for s in stages}
    for side in SIDES:
        keys |= {
            f"stock.closedBy.{side}",
            f"pile.tricks.{side}",
            f"panel.played.{side}",
            f"panel.trickWon.{side}",
            f"marriage.title.{side}",
            f"marriage.pending.{side}",
            f"result.match.{side}",
            f"result.deal.{side}",
            f"result.gain.{side}",
            f"result.atClose.{side}",
        }
    keys.add("result.deal.none")
    keys |= {f"modes.mode.{k}" for k in js_list(sources["screens/modes.js"], "MODES")}
    keys |= {f"pace.{k}" for k in js_list(sources["screens/settings.js"], "PACES")}
    keys |= {f"damaged.what.{k}" for k in [*js_list(sources["game/start.js"], "DAMAGE_NAMES"), "other"]}
    keys |= {f"elsewhere.{why}" for why in ("open", "moved")}  # game/one-table.js: showElsewhere(why)
    # screens/records.js: why the engine refused a record file, in the engine's own list.
    assert js_list(sources["screens/records.js"], "RECORD_ERRORS") == list(RECORD_ERROR_REASONS)
    keys |= {f"modes.import.error.{reason}" for reason in RECORD_ERROR_REASONS}
    keys |= {f"modes.named.{k}" for k in js_list(sources["table/names.js"], "NAMED")}
    # screens/links.js: why the engine refused a link, in the engine's own list.
    assert js_list(sources["screens/links.js"], "LINK_ERRORS") == list(LINK_ERROR_REASONS)
    keys |= {f"links.error.{reason}" for reason in LINK_ERROR_REASONS}
    # The score sheet (screens/sheet.js): each deal-result code, the bases it names, how a game ended early.
    keys |= {f"sheet.code.{code}" for code in _CODE_WORDS}
    keys |= {f"sheet.basis.{basis}" for basis in js_list(sources["screens/sheet.js"], "NAMED_BASES")}
    keys |= {f"sheet.ended.{reason}" for reason in FORFEITS}
    # The puzzles (screens/puzzles.js): the engine's themes and difficulty bands, the player's results.
    puzzles = sources["screens/puzzles.js"]
    assert js_list(puzzles, "PUZZLE_THEMES") == list(THEMES)
    assert js_list(puzzles, "PUZZLE_BANDS") == [name for name, _ in BANDS]
    assert js_list(puzzles, "PUZZLE_KINDS") == list(KINDS)
    keys |= {f"puzzles.theme.{theme}" for theme in THEMES}
    keys |= {f"puzzles.band.{name}" for name, _ in BANDS}
    keys |= {f"puzzles.state.{state}" for state in js_list(puzzles, "PUZZLE_STATES")}
    keys |= rule_keys()
    keys |= online_keys(sources)
    return keys


def online_keys(sources: dict[str, str]) -> set[str]:
    """Online play: the transport's error codes, the chat's phrases, the network settings' problems, the endings
    of a game and of a voice call."""
    errors = sources["online/errors.js"]
    messages = errors[errors.index("MESSAGES") : errors.index("});")]
    keys = {f"online.error.{code}" for code in re.findall(r"^\s+(\w+):", messages, re.MULTILINE)}
    keys |= {f"online.phrase.{p}" for p in js_list(sources["table/online-bar.js"], "PHRASES")}
    defaults = (WEB / "online" / "network-defaults.js").read_text(encoding="utf-8")  # the codes are in a JSDoc type
    problem = re.search(r"@typedef \{(.*)\} ProblemCode", defaults)
    assert problem, "network-defaults.js: no ProblemCode"
    keys |= {f"online.network.problem.{code}" for code in re.findall(r'"(\w+)"', problem.group(1))}
    keys |= {f"online.ended.{reason}.{side}" for reason in FORFEITS if reason != "abandoned" for side in SIDES}
    keys |= {f"voice.ended.{why}" for why in VOICE_ENDINGS}
    return keys


def rule_keys() -> set[str]:
    """The rules in words (screens/rules-text.js): each parameter's name and a sentence per value (engine lists)."""
    keys = {f"rulesError.{reason}" for reason in RULES_ERROR_REASONS}
    for param in PARAMETERS:
        keys.add(f"param.{param}")
        if param in BOOLEANS:
            keys |= {f"rule.{param}.yes", f"rule.{param}.no"}
        elif isinstance(CHOICES[param][0], int):
            keys.add(f"rule.{param}.n")
        else:
            keys |= {f"rule.{param}.{value}" for value in CHOICES[param]}
    return keys


def result_keys(en: dict[str, Any]) -> set[str]:
    """The deal-result keys: each code and basis either on its own or once per side (me/opp)."""
    keys = set()
    for prefix, names in (("result.code", set(_CODE_WORDS)), ("result.basis", set(BASIS_POINTS) - {"none"})):
        for name in names:
            plain = f"{prefix}.{name}"
            sided = {f"{plain}.{side}" for side in SIDES}
            assert plain in en or sided <= set(en), f"{plain} (or .me and .opp) is missing"
            keys |= {plain} if plain in en else sided
    return keys


def placeholders(value: Any) -> set[str]:
    texts = value.values() if isinstance(value, dict) else [value]
    return {name for text in texts for name in PLACEHOLDER.findall(text)}


@pytest.mark.parametrize("language", LANGUAGES)
def test_every_language_has_every_key(strings: dict[str, dict[str, Any]], language: str) -> None:
    en, other = strings["en"], strings[language]
    assert sorted(set(en) - set(other)) == [], f"{language}.json lacks these keys"
    assert sorted(set(other) - set(en)) == [], f"{language}.json has keys that en.json lacks"


@pytest.mark.parametrize("language", LANGUAGES)
def test_values_are_complete(strings: dict[str, dict[str, Any]], language: str) -> None:
    en = strings["en"]
    for key, value in strings[language].items():
        if isinstance(en.get(key), dict):
            assert isinstance(value, dict), f"{language}: {key} needs plural forms"
            assert set(value) == PLURALS[language], f"{language}: {key} has forms {sorted(value)}"
            assert all(isinstance(v, str) and "{n}" in v for v in value.values()), f"{language}: {key}"
        else:
            assert isinstance(value, str) and value.strip(), f"{language}: {key} is empty or not text"
        assert placeholders(value) == placeholders(en[key]), f"{language}: {key} placeholders differ from en"


def bare(text: str) -> str:
    """``text`` without accents, in capitals: "Á" and "A" are the same index at a glance on a small card."""
    return "".join(c for c in unicodedata.normalize("NFD", text) if not unicodedata.combining(c)).upper()


@pytest.mark.parametrize("language", LANGUAGES)
def test_corner_indices_differ_by_more_than_an_accent(strings: dict[str, dict[str, Any]], language: str) -> None:
    """In every pattern the ranks' corner indices are told apart by their letters, not by an accent alone."""
    for deck in ("french", "tell"):
        indices = {rank: strings[language][f"rankShort.{deck}.{rank}"] for rank in RANKS}
        seen: dict[str, str] = {}
        for rank, index in indices.items():
            assert bare(index) not in seen, f"{language} {deck}: {rank} {index!r} and {seen[bare(index)]} look alike"
            seen[bare(index)] = f"{rank} {index!r}"


def test_the_files_list_exactly_the_languages() -> None:
    assert sorted(p.stem for p in I18N.glob("*.json")) == sorted(LANGUAGES)
    assert js_list(js_sources()["platform/i18n.js"], "LANGUAGES") == list(LANGUAGES)


def test_every_key_the_page_uses_is_defined(strings: dict[str, dict[str, Any]]) -> None:
    en = strings["en"]
    used = static_keys() | families() | result_keys(en)
    assert sorted(used - set(en)) == [], "keys used by the page but not defined"


def test_every_run_time_key_belongs_to_a_family(strings: dict[str, dict[str, Any]]) -> None:
    """Each template literal can produce only defined keys of a checked family."""
    known = families() | result_keys(strings["en"])
    for template in templates():
        pattern = template_regex(template)
        matches = {key for key in strings["en"] if pattern.match(key)}
        assert matches, f"`{template}` matches no key"
        assert matches <= known, f"`{template}` matches keys outside the checked families: {sorted(matches - known)}"


def test_every_defined_key_is_used(strings: dict[str, dict[str, Any]]) -> None:
    en = strings["en"]
    used = static_keys() | families() | result_keys(en)
    patterns = [template_regex(t) for t in templates()]
    unused = [k for k in en if k not in used and not any(p.match(k) for p in patterns)]
    assert unused == [], "keys no page code uses"


#: Where a rules name ({rules}) would need a grammar it cannot take: German declines a name after a preposition
#: ("nach den Regeln von Deutschem Sechsundsechzig"), Hungarian takes "a" or "az" by its first sound.
NAME_GRAMMAR = {
    "de": re.compile(r"\b(?:von|vom|nach|mit|zu|zum|bei|aus|des|dem|den)\s+\{rules\}"),
    "hu": re.compile(r"\b[Aa]\(z\)|\b[Aa]z?\s+\{rules\}"),
}


@pytest.mark.parametrize("language", sorted(NAME_GRAMMAR))
def test_rules_names_stand_where_they_need_no_case_or_article(
    strings: dict[str, dict[str, Any]], language: str
) -> None:
    wrong = {
        key: value
        for key, value in strings[language].items()
        if isinstance(value, str) and NAME_GRAMMAR[language].search(value)
    }
    assert wrong == {}, "a rules name after a preposition or an article it may not fit"


class _VisibleText(HTMLParser):
    """Collects the text and the labelling attributes of index.html's body that are not translated."""

    SKIP: ClassVar[set[str]] = {"noscript", "script", "style", "svg"}

    def __init__(self) -> None:
        super().__init__()
        self.stack: list[str] = []
        self.in_body = False
        self.text: list[str] = []
        self.attributes: list[str] = []

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        if tag == "body":
            self.in_body = True
        names = {name for name, _ in attrs}
        for attr in ("aria-label", "title", "alt", "placeholder"):
            if attr in names:
                self.attributes.append(f"<{tag} {attr}>")
        if tag not in ("meta", "link", "input", "br", "img", "path"):
            self.stack.append(tag)

    def handle_endtag(self, tag: str) -> None:
        if tag in self.stack:
            while self.stack and self.stack.pop() != tag:
                pass

    def handle_data(self, data: str) -> None:
        if self.in_body and not (set(self.stack) & self.SKIP) and re.search(r"[^\W\d_]", data):
            self.text.append(data.strip())


def test_index_html_has_no_untranslated_words() -> None:
    """The words of the page come from the translations; only <noscript> (no script to translate it) may hold any."""
    parser = _VisibleText()
    parser.feed((WEB / "index.html").read_text(encoding="utf-8"))
    assert parser.text == [], "text in index.html outside the translations"
    assert parser.attributes == [], "use data-i18n-label / data-i18n-title instead"
