"""docs/rules.md against the engine and the code that cites it.

* §3.1 lists every parameter of :mod:`py_engine.core.rules` with every value it accepts (and no
  other), each with a meaning;
* §3.2 gives every preset's name and value of every parameter, as the engine has them;
* every section the code cites (``§1.8``, ``§4.13``, ... in py_engine/, web/ and tests/) is a
  heading of the document;
* every edge case of §4 names tests that exist;
* the glossary of §5 uses the page's own words (web/i18n/<lang>.json) where it names a key.

The two tables of §3 come from the functions below. To print them (§3.2 whole, §3.1 with
the meanings already written in the document, new rows marked TODO)::

    python -m tests.test_rules_doc
"""

from __future__ import annotations

import json
import re
from pathlib import Path
from typing import Any

import pytest

from py_engine.core.rules import BOOLEANS, CHOICES, PARAMETERS, PRESET_IDS, PRESETS

ROOT = Path(__file__).resolve().parent.parent
DOC = ROOT / "docs" / "rules.md"
I18N = ROOT / "web" / "i18n"
#: Where the code cites the rules by section, and the files looked at there.
CITING_DIRS = ("py_engine", "web", "tests")
CITING_SUFFIXES = (".py", ".js", ".mjs")

HEADING = re.compile(r"^#{1,6}\s+(\d+(?:\.\d+)*)\.?\s", re.MULTILINE)
REFERENCE = re.compile(r"§\s?(\d+(?:\.\d+)*)")
PLACEHOLDER = re.compile(r"\{\w+\}")
TEST_REF = re.compile(r"(tests/[\w/]+\.py)::(\w+)")

# ------------------------------------------------------------------ the generator


def value_cells(param: str) -> list[str]:
    """The values of a parameter as §3.1 writes them: one cell each, a long run of integers as one range."""
    if param in BOOLEANS:
        return ["`true`", "`false`"]
    values = CHOICES[param]
    if (
        len(values) > 3
        and all(isinstance(v, int) for v in values)
        and list(values) == list(range(values[0], values[-1] + 1))
    ):
        return [f"`{values[0]}`–`{values[-1]}`"]
    return [f"`{v}`" for v in values]


def preset_cell(value: Any) -> str:
    """A preset's value as the §3.2 table writes it."""
    if isinstance(value, bool):
        return "yes" if value else "no"
    return str(value)


def render_parameter_table(meanings: dict[tuple[str, str], tuple[str, str]]) -> str:
    """§3.1: one row per parameter value; ``meanings`` keeps the prose already written."""
    lines = ["| parameter | value | meaning | see |", "|---|---|---|---|"]
    for param in PARAMETERS:
        for i, cell in enumerate(value_cells(param)):
            meaning, see = meanings.get((param, cell), ("TODO", "TODO"))
            lines.append(f"| {f'`{param}`' if i == 0 else ''} | {cell} | {meaning} | {see} |")
    return "\n".join(lines)


def render_preset_table() -> str:
    """§3.2: one column per preset, one row per parameter (and the name)."""
    lines = ["| parameter | " + " | ".join(PRESET_IDS) + " |", "|---|" + "---|" * len(PRESET_IDS)]
    lines.append("| name | " + " | ".join(PRESETS[p].name for p in PRESET_IDS) + " |")
    for param in PARAMETERS:
        row = [preset_cell(PRESETS[p].to_dict()[param]) for p in PRESET_IDS]
        lines.append(f"| `{param}` | " + " | ".join(row) + " |")
    return "\n".join(lines)


# ------------------------------------------------------------------ reading the document


def doc_text() -> str:
    return DOC.read_text(encoding="utf-8")


def section(number: str, text: str | None = None) -> str:
    """The text under the heading numbered ``number``, up to the next heading of the same or a higher level."""
    text = doc_text() if text is None else text
    match = re.search(rf"^(#+)\s+{re.escape(number)}\.?\s.*$", text, re.MULTILINE)
    assert match, f"docs/rules.md has no heading {number}"
    level = len(match.group(1))
    end = re.compile(rf"^#{{1,{level}}}\s", re.MULTILINE).search(text, match.end())
    return text[match.end() : end.start() if end else len(text)]


def table_rows(text: str) -> list[list[str]]:
    """The cells of the first Markdown table in ``text``, header included, the separator left out."""
    rows: list[list[str]] = []
    for line in text.splitlines():
        line = line.strip()
        if not line.startswith("|"):
            if rows:
                break
            continue
        cells = [c.strip() for c in line.strip("|").split("|")]
        if not all(re.fullmatch(r":?-+:?", c) for c in cells):
            rows.append(cells)
    return rows


def parameter_rows(text: str | None = None) -> list[tuple[str, str, str, str]]:
    """(parameter, value cell, meaning, see) of each row of §3.1's table."""
    rows = table_rows(section("3.1", text))
    assert rows and rows[0][:2] == ["parameter", "value"], "§3.1 needs a table: | parameter | value | meaning | see |"
    out = []
    param = ""
    for cells in rows[1:]:
        assert len(cells) == 4, f"§3.1: a row needs 4 cells: {cells}"
        param = cells[0].strip("`") or param
        out.append((param, cells[1], cells[2], cells[3]))
    return out


def preset_rows(text: str | None = None) -> list[list[str]]:
    return table_rows(section("3.2", text))


def lookup(data: dict[str, Any], key: str) -> Any:
    """A translation: flat keys, with plural forms as an object under the key."""
    if key in data:
        return data[key]
    base, _, form = key.rpartition(".")
    return data[base][form]


def page_word(value: Any) -> str:
    """The term a page text gives: its singular, without placeholders, the part in brackets or before a colon."""
    if isinstance(value, dict):
        value = value["one"]
    text = PLACEHOLDER.sub("", value).replace("()", "")
    bracketed = re.search(r"\(([^()]+)\)", text)
    if bracketed:
        text = bracketed.group(1)
    return " ".join(text.split(":")[0].split())


# ------------------------------------------------------------------ the tests


def test_parameter_table_has_every_parameter_and_value() -> None:
    rows = parameter_rows()
    documented = [(param, cell) for param, cell, _, _ in rows]
    expected = [(param, cell) for param in PARAMETERS for cell in value_cells(param)]
    missing = [pair for pair in expected if pair not in documented]
    extra = [pair for pair in documented if pair not in expected]
    assert not missing, f"§3.1 lacks these parameter values of the engine: {missing}"
    assert not extra, f"§3.1 lists parameter values the engine does not have: {extra}"
    assert documented == expected, "§3.1 should list the parameters and values in the engine's order"


def test_parameter_table_explains_every_value() -> None:
    for param, cell, meaning, see in parameter_rows():
        assert meaning and "TODO" not in meaning, f"§3.1: no meaning for {param} = {cell}"
        assert re.fullmatch(r"(§\d+(\.\d+)*(, )?)+", see), f"§3.1: {param} = {cell} should point to a section: {see!r}"


def test_preset_table_matches_the_engine() -> None:
    rows = preset_rows()
    assert rows, "§3.2 needs the preset table"
    assert rows[0] == ["parameter", *PRESET_IDS], f"§3.2 columns should be the presets in order: {rows[0]}"
    by_name = {cells[0].strip("`"): cells[1:] for cells in rows[1:]}
    assert set(by_name) == {"name", *PARAMETERS}, (
        f"§3.2 rows: missing {sorted({'name', *PARAMETERS} - set(by_name))},"
        f" unknown {sorted(set(by_name) - {'name', *PARAMETERS})}"
    )
    wrong = []
    for i, pid in enumerate(PRESET_IDS):
        values = {"name": PRESETS[pid].name, **{p: preset_cell(v) for p, v in PRESETS[pid].to_dict().items()}}
        for row, cells in by_name.items():
            if cells[i] != values[row]:
                wrong.append(f"{pid} {row}: doc {cells[i]!r}, engine {values[row]!r}")
    assert not wrong, "§3.2 disagrees with the engine:\n" + "\n".join(wrong)


def test_preset_table_is_the_generated_one() -> None:
    assert render_preset_table() in doc_text(), "§3.2: paste the output of `python -m tests.test_rules_doc`"


def cited_sections() -> dict[str, set[str]]:
    """Every section number cited with § in the code, with the files that cite it."""
    cited: dict[str, set[str]] = {}
    for folder in CITING_DIRS:
        for path in sorted((ROOT / folder).rglob("*")):
            if path.suffix not in CITING_SUFFIXES or "node_modules" in path.parts or path == Path(__file__).resolve():
                continue
            for number in REFERENCE.findall(path.read_text(encoding="utf-8", errors="replace")):
                cited.setdefault(number, set()).add(str(path.relative_to(ROOT)))
    return cited


def test_every_cited_section_has_a_heading() -> None:
    cited = cited_sections()
    assert {"1.8", "3.1", "3.2"} <= set(cited), "the scan of the code found too few references"
    headings = set(HEADING.findall(doc_text()))
    missing = {number: sorted(files) for number, files in cited.items() if number not in headings}
    assert not missing, f"sections cited in the code with no heading in docs/rules.md: {missing}"


def test_every_edge_case_names_its_tests() -> None:
    text = doc_text()
    cases = sorted(int(n.split(".")[1]) for n in HEADING.findall(section("4", text)) if n.startswith("4."))
    assert cases == list(range(1, len(cases) + 1)) and len(cases) >= 22, f"§4 cases should run 4.1, 4.2, ...: {cases}"
    for case in cases:
        refs = TEST_REF.findall(section(f"4.{case}", text))
        assert any(name.startswith(f"test_case_{case:02d}_") for _, name in refs), f"§4.{case} names no test of it"
        for file, name in refs:
            source = (ROOT / file).read_text(encoding="utf-8")
            assert re.search(rf"^def {name}\(", source, re.MULTILINE), f"§4.{case}: {file} has no {name}"


def glossary_rows() -> tuple[list[str], list[list[str]]]:
    rows = table_rows(section("5"))
    return rows[0], rows[1:]


def test_glossary_uses_the_page_words() -> None:
    header, rows = glossary_rows()
    languages = header[1:-1]
    assert header[0] == "term" and header[-1] == "page key", f"§5 columns: term, the languages, page key: {header}"
    assert sorted(languages) == sorted(p.stem for p in I18N.glob("*.json")), "§5 needs one column per page language"
    pages = {lang: json.loads((I18N / f"{lang}.json").read_text(encoding="utf-8")) for lang in languages}
    keyed = [cells for cells in rows if cells[-1].strip("`") not in ("", "—")]
    assert len(keyed) >= 20, "§5 should take most terms from the page"
    wrong = []
    for cells in keyed:
        key = cells[-1].strip("`")
        for lang, cell in zip(languages, cells[1:-1], strict=True):
            word = page_word(lookup(pages[lang], key))
            if cell != word:
                wrong.append(f"{key} [{lang}]: doc {cell!r}, page {word!r}")
    assert not wrong, "§5 disagrees with the page's translations:\n" + "\n".join(wrong)


@pytest.mark.parametrize(
    ("value", "word"),
    [
        ("Schwarz: you took no trick", "Schwarz"),
        ("Your lead (strict rules)", "strict rules"),
        ("Bemondás: {points} ({suit})", "Bemondás"),
        ({"one": "{n} lewa", "few": "{n} lewy"}, "lewa"),
        ("Talon exhausted", "Talon exhausted"),
    ],
)
def test_page_word(value: Any, word: str) -> None:
    assert page_word(value) == word


if __name__ == "__main__":
    try:
        written = {(p, c): (m, s) for p, c, m, s in parameter_rows()}
    except (AssertionError, OSError):
        written = {}
    print("### 3.1\n")
    print(render_parameter_table(written))
    print("\n### 3.2\n")
    print(render_preset_table())
