"""The cards' art (web/table/cards.js, web/table/figures.js): figures on the court cards, suit colours, indices.

Run in Chromium and in Firefox: the figures are <symbol>s shown through <use>
(nested for the suit sign a figure holds), which the two engines draw each in
their own way. The faces are made by the page's own module, as the table makes
them, and drawn in a box as wide as a card on a phone.
"""

from __future__ import annotations

import unicodedata
from typing import Any

import pytest
from playwright.sync_api import Page

from .conftest import Site, Watch
from .helpers import PAGE_LANGUAGE_JS, open_table
from .test_i18n_deck import choose, words

pytestmark = pytest.mark.browser

SUITS = "HDCS"
OBERS = [f"Q{s}" for s in SUITS]
UNTERS = [f"J{s}" for s in SUITS]
KINGS = [f"K{s}" for s in SUITS]

#: Draws the faces of ``codes`` in ``deck`` into a row of 52 px wide cards (a phone's) and describes them:
#: for each card the figure symbol its face uses, that symbol's parts as markup, and the rendered sizes.
DRAW = (
    """async ({deck, codes}) => {"""
    + PAGE_LANGUAGE_JS
    + """
    const cards = await import('./table/cards.js');
    const before = cards.deckStyle();
    cards.setDeckStyle(deck);
    const row = document.createElement('div');
    row.id = 'art-test';
    row.style.cssText = 'position: fixed; left: 0; top: 0; display: flex; z-index: 99';
    document.body.append(row);
    const out = {};
    for (const code of codes) {
        const card = document.createElement('div');
        card.style.cssText = 'width: 52px; height: 72.8px; flex: none';
        card.append(cards.cardFace(code));
        row.append(card);
        const face = card.querySelector('svg');
        const figure = face.querySelector('use.court-figure');
        const href = figure ? figure.getAttribute('href') : null;
        const symbol = href ? document.querySelector(href) : null;
        const part = (name) => symbol ? [...symbol.querySelectorAll('.' + name)].map(e => e.outerHTML).join('') : null;
        // The figure without the suit sign it holds and without its id: what tells the characters apart.
        const bare = symbol ? symbol.cloneNode(true) : null;
        if (bare) {
            bare.removeAttribute('id');
            for (const sign of bare.querySelectorAll('.sign')) sign.remove();
        }
        const sign = symbol ? symbol.querySelector('.sign') : null;
        const cornerSign = face.querySelector('g use');
        const box = figure ? figure.getBoundingClientRect() : null;
        out[code] = {
            href,
            symbolTag: symbol ? symbol.tagName.toLowerCase() : null,
            figure: bare ? bare.outerHTML : null,
            hat: part('hat'),
            held: part('held'),
            face: part('face'),
            halves: symbol ? [...symbol.children].filter(c => c.tagName === "g" && c.querySelector(".face")).length : 0,
            // The suit sign a figure holds (a <use> of the suit's symbol) or shows (a copy of its outline).
            signHref: sign ? sign.getAttribute('href') : null,
            signSuit: sign ? sign.dataset.suit || sign.getAttribute('href').slice(-1) : null,
            signY: sign ? Number(sign.getAttribute('y')) + Number(sign.getAttribute('height')) / 2 : null,
            figureBox: box ? [box.width, box.height] : null,
            // The corner sign's box on the card's 100-unit grid (its drawing fills most of it).
            cornerSignUnits: cornerSign.width.baseVal.value,
            cardWidth: face.getBoundingClientRect().width,
            cardHeight: face.getBoundingClientRect().height,
            texts: [...face.querySelectorAll('text')].map(t => t.textContent),
            index: face.querySelector('text.rank').textContent,
            indexWidth: face.querySelector('text.rank').getBBox().width,
        };
    }
    row.remove();
    cards.setDeckStyle(before);
    return out;
}"""
)


def draw(page: Page, deck: str, codes: list[str]) -> dict[str, dict[str, Any]]:
    faces: dict[str, dict[str, Any]] = page.evaluate(DRAW, {"deck": deck, "codes": codes})
    return faces


def fills_the_card(face: dict[str, Any]) -> bool:
    """The figure, drawn, takes half of the card's width and most of its height (its frame: 52 x 124 of 100 x 140)."""
    width, height = face["figureBox"]
    return bool(width >= 0.5 * face["cardWidth"] and height >= 0.85 * face["cardHeight"])


def all_differ(values: list[Any]) -> bool:
    return None not in values and len(set(values)) == len(values)


def test_the_tell_courts_are_twelve_different_figures(site: Site, page: Page, watch: Watch) -> None:
    watch.attach(page)
    open_table(page, site.url)
    faces = draw(page, "tell", OBERS + UNTERS + KINGS)
    for code, face in faces.items():
        assert face["href"] == f"#court-tell-{code}" and face["symbolTag"] == "symbol", code
        assert face["signHref"] == f"#suit-tell-{code[1]}", f"{code} holds or shows its suit sign"
        # Drawn, at a card's size: the figure fills most of the card.
        assert fills_the_card(face), f"{code}: the figure is drawn {face['figureBox']} px"
        assert face["texts"] == [face["index"]] * 2, f"{code}: no letter in a box, only the two corner indices"
    courts = OBERS + UNTERS
    # Eight different characters: the figures differ even without their suit signs,
    # and so do their headwear and what they hold in the other hand.
    for part in ("figure", "hat", "held", "face"):
        assert all_differ([faces[code][part] for code in courts]), f"two Obers/Unters share their {part}"
    assert all_differ([faces[code]["figure"] for code in OBERS + UNTERS + KINGS])
    assert all_differ([faces[code]["hat"] for code in KINGS]), "each King has his own crown"
    # The Ober holds his sign up high, the Unter low, the King's is by his crown.
    for code in OBERS + KINGS:
        assert faces[code]["signY"] < 35, f"{code}: the sign is at y {faces[code]['signY']}"
    for code in UNTERS:
        assert faces[code]["signY"] > 85, f"{code}: the sign is at y {faces[code]['signY']}"


def fill(page: Page, selector: str) -> tuple[int, int, int]:
    """The computed fill of an element of the sprite, as (r, g, b)."""
    rgb: list[int] = page.evaluate(
        """(selector) => {
            const canvas = document.createElement('canvas').getContext('2d');
            canvas.fillStyle = getComputedStyle(document.querySelector(selector)).fill;
            const hex = canvas.fillStyle;  // #rrggbb whatever the browser's way of writing the colour
            return [1, 3, 5].map(i => parseInt(hex.slice(i, i + 2), 16));
        }""",
        selector,
    )
    return rgb[0], rgb[1], rgb[2]


def luma(rgb: tuple[int, int, int]) -> float:
    r, g, b = rgb
    return 0.299 * r + 0.587 * g + 0.114 * b


def test_the_tell_suits_differ_in_colour(site: Site, page: Page, watch: Watch) -> None:
    watch.attach(page)
    open_table(page, site.url)
    hearts, bells, acorns, leaves = (fill(page, f"#suit-tell-{s} .body") for s in SUITS)
    # The two round suits: a bright yellow bell, a darker brown acorn.
    assert sum(abs(a - b) for a, b in zip(bells, acorns, strict=True)) > 120, (bells, acorns)
    assert bells[0] > 200 and bells[1] > 160 and bells[2] < 100, f"bells are yellow: {bells}"
    assert luma(acorns) < luma(bells) - 50 and acorns[0] > acorns[1] > acorns[2], f"acorns are brown: {acorns}"
    assert hearts[0] > 150 and hearts[0] > 3 * max(hearts[1:]), f"hearts are red: {hearts}"
    assert leaves[1] > leaves[0] + 40 and leaves[1] > leaves[2] + 40, f"leaves are green: {leaves}"


def bare(text: str) -> str:
    return "".join(c for c in unicodedata.normalize("NFD", text) if not unicodedata.combining(c)).upper()


def test_hungarian_ace_and_unter_differ_by_more_than_an_accent(site: Site, page: Page, watch: Watch) -> None:
    watch.attach(page)
    open_table(page, site.url)
    choose(page, language="hu", deck="tell")
    faces = draw(page, "tell", ["AH", "JH", "QH", "KH", "TH", "9H"])
    w = words("hu")
    indices = {code: face["index"] for code, face in faces.items()}
    assert indices == {code: w[f"rankShort.tell.{code[0]}"] for code in faces}
    assert bare(indices["AH"]) != bare(indices["JH"]), indices
    assert len({bare(index) for index in indices.values()}) == len(indices), indices
    for code, face in faces.items():
        # Every index fits its corner (about 23 of the card's 100 units), the ace's three letters too.
        assert face["indexWidth"] <= 23.5, f"{code}: {face['index']!r} is {face['indexWidth']:.1f} units wide"
        # The corner's suit sign is readable on a phone: about a fifth of the card's width (10 px of 52).
        assert face["cornerSignUnits"] >= 18, face
        assert face["cardWidth"] == 52, face


def test_french_courts_are_double_headed_figures(site: Site, page: Page, watch: Watch) -> None:
    watch.attach(page)
    open_table(page, site.url)
    codes = [f"{rank}{suit}" for rank in "KQJ" for suit in SUITS]
    faces = draw(page, "french", codes)
    for code, face in faces.items():
        assert face["href"] == f"#court-french-{code}" and face["symbolTag"] == "symbol", code
        assert face["signSuit"] == code[1], f"{code} shows its suit sign"
        assert face["halves"] == 2, f"{code}: the bust twice, the lower one turned round"
        assert face["hat"] and face["face"] and face["held"], code
        assert fills_the_card(face), f"{code}: the figure is drawn {face['figureBox']} px"
        assert face["texts"] == [face["index"]] * 2, f"{code}: no letter in a box, only the two corner indices"
    # A crown, a Queen's crown, a cap; a sceptre, a flower, a halberd.
    for part in ("hat", "held"):
        assert all_differ([faces[f"{rank}H"][part] for rank in "KQJ"]), part
    # Each suit's court is drawn in its own colours.
    assert all_differ([faces[f"K{suit}"]["figure"] for suit in SUITS])
