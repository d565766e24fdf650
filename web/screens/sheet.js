// @ts-check
// The score sheet (the top bar's score, or "Score sheet" at the end of a
// deal): every finished deal of the game with how it ended and the game
// points it brought, and in a session of several matches (Bummerls) each
// match's result. Everything comes from the engine's view.sheet; this module
// only lays it out, from the seat at the bottom of the table. It shows the
// sheet as it stood when it was opened. Under it, against the computer, the
// session's tally of Bummerls across matches (platform/tally.js).

import { has, t } from "../platform/i18n.js";
import { tallyTotals } from "../platform/tally.js";
import { h, presetName } from "../table/table.js";
import { closeOnBackdrop } from "./confirm.js";

/** @import { Seat, SheetBummerl, SheetDeal, View } from "../../types/engine.js" */
/** @import { TallyLine } from "../platform/tally.js" */

// The bases worth naming on the sheet (the others follow from how the deal ended).
export const NAMED_BASES = ["schwarz", "schneider"];

/** @type {HTMLDialogElement | null} */
let dialog = null;

/**
 * The name of a seat as the table says it (a player's name with two players, watching).
 * @param {Seat} seat
 * @param {Seat} me
 */
function seatName(seat, me) {
  return seat === me ? t("seat.you") : t("seat.computer");
}

/**
 * How a deal ended, in a few words: the code, and the basis when it made the points (Schwarz, Schneider).
 * @param {SheetDeal} deal
 */
export function sheetReason(deal) {
  const text = has(`sheet.code.${deal.code}`) ? t(`sheet.code.${deal.code}`) : deal.code;
  return NAMED_BASES.includes(deal.basis) ? `${text} (${t(`sheet.basis.${deal.basis}`)})` : text;
}

/**
 * The header row of a table: the number, what happened, and the two seats' columns (as on a paper sheet).
 * @param {Node} first
 * @param {string} second
 * @param {Seat} me
 */
function headRow(first, second, me) {
  return h(
    "thead",
    {},
    h(
      "tr",
      {},
      h("th", { scope: "col", class: "sheet-n" }, first),
      h("th", { scope: "col", class: "sheet-how", text: second }),
      h("th", { scope: "col", class: "sheet-num", text: seatName(me, me) }),
      h("th", { scope: "col", class: "sheet-num", text: seatName(/** @type {Seat} */ (1 - me), me) }),
    ),
  );
}

/**
 * A "#" column's heading, said as a word.
 * @param {string} word
 */
function numberHeading(word) {
  const cell = h("span", {}, h("span", { "aria-hidden": "true", text: "#" }));
  cell.append(h("span", { class: "visually-hidden", text: word }));
  return cell;
}

/**
 * The game points a seat took in a deal: the deal's own, plus any carried over ("2 + 1"); nothing for the loser.
 * @param {SheetDeal} deal
 * @param {Seat} seat
 */
function gain(deal, seat) {
  if (deal.winner !== seat) return "";
  return deal.carried ? `${deal.game_points} + ${deal.carried}` : String(deal.game_points);
}

/**
 * One match's deals, with its score under them.
 * @param {SheetDeal[]} deals
 * @param {{caption: string, scores: [number, number], number: number}} match
 * @param {Seat} me
 */
function dealsTable(deals, match, me) {
  const other = /** @type {Seat} */ (1 - me);
  const rows = deals.map((deal) =>
    h(
      "tr",
      {
        "data-match": deal.match,
        "data-deal": deal.deal,
        "data-code": deal.code,
        "data-winner": deal.winner === null ? "none" : deal.winner === me ? "me" : "opp",
      },
      h("th", { scope: "row", class: "sheet-n", text: String(deal.deal) }),
      h("td", { class: "sheet-how", text: sheetReason(deal) }),
      h("td", { class: "sheet-num", text: gain(deal, me) }),
      h("td", { class: "sheet-num", text: gain(deal, other) }),
    ),
  );
  return h(
    "table",
    { class: "sheet-table sheet-deals", "data-match": match.number },
    h("caption", { text: match.caption }),
    headRow(numberHeading(t("sheet.deal")), t("sheet.how"), me),
    h("tbody", {}, ...rows),
    h(
      "tfoot",
      {},
      h(
        "tr",
        { class: "sheet-total" },
        h("th", { scope: "row", colspan: 2, text: t("sheet.total") }),
        h("td", { class: "sheet-num", text: String(match.scores[me]) }),
        h("td", { class: "sheet-num", text: String(match.scores[other]) }),
      ),
    ),
  );
}

/**
 * The session's matches (Bummerls): each one's final score and winner, or how it ended early.
 * @param {SheetBummerl[]} bummerls
 * @param {Seat} me
 */
function bummerlsTable(bummerls, me) {
  const other = /** @type {Seat} */ (1 - me);
  const rows = bummerls.map((bummerl) => {
    const result = [bummerl.winner === null ? "–" : seatName(bummerl.winner, me)];
    if (bummerl.ended) result.push(t(`sheet.ended.${bummerl.ended.reason}`));
    return h(
      "tr",
      {
        "data-match": bummerl.match,
        "data-winner": bummerl.winner === null ? "none" : bummerl.winner === me ? "me" : "opp",
        "data-ended": bummerl.ended ? bummerl.ended.reason : null,
      },
      h("th", { scope: "row", class: "sheet-n", text: String(bummerl.match) }),
      h("td", { class: "sheet-how", text: result.join(" · ") }),
      h("td", { class: "sheet-num", text: String(bummerl.scores[me]) }),
      h("td", { class: "sheet-num", text: String(bummerl.scores[other]) }),
    );
  });
  return h(
    "table",
    { class: "sheet-table", id: "sheet-bummerls" },
    h("caption", { text: t("sheet.matches") }),
    headRow(numberHeading(t("sheet.matchWord")), t("sheet.winner"), me),
    h("tbody", {}, ...rows),
  );
}

/**
 * The session's tally: the Bummerls each side won, and every match finished in this tab, with its rules and score.
 * @param {TallyLine[]} lines
 */
function tallySection(lines) {
  const totals = tallyTotals(lines);
  const rows = lines.map((line, i) =>
    h(
      "tr",
      { "data-winner": line.won ? "me" : "opp" },
      h("th", { scope: "row", class: "sheet-n", text: String(i + 1) }),
      h("td", {
        class: "sheet-how",
        text: `${presetName({ id: line.preset, name: line.name })} · ${line.won ? t("seat.you") : t("seat.computer")}`,
      }),
      h("td", { class: "sheet-num", text: String(line.me) }),
      h("td", { class: "sheet-num", text: String(line.opp) }),
    ),
  );
  return h(
    "section",
    { id: "sheet-tally", "aria-labelledby": "sheet-tally-title" },
    h("h3", { id: "sheet-tally-title", text: t("sheet.tally") }),
    h("p", { class: "sheet-tally-won", id: "sheet-tally-won", text: t("sheet.tallyWon", totals) }),
    h(
      "table",
      { class: "sheet-table" },
      h("caption", { class: "visually-hidden", text: t("sheet.tally") }),
      headRow(numberHeading(t("sheet.matchWord")), t("sheet.winner"), 0),
      h("tbody", {}, ...rows),
    ),
  );
}

/**
 * The sheet's body for ``view``.
 * @param {View} view
 */
function body(view) {
  const me = view.seat;
  const sheet = view.sheet || { deals: [], bummerls: [] };
  const match = view.match;
  const session = match.session_bummerls > 1;
  const parts = [
    h("p", {
      class: "muted small sheet-rules",
      text: [
        presetName(view.rules),
        t("sheet.target", { n: match.target }),
        ...(session ? [t("sheet.session", { n: match.session_bummerls })] : []),
      ].join(" · "),
    }),
  ];
  if (session) {
    parts.push(
      h("p", {
        class: "sheet-won",
        text: t("result.matchesWon", {
          me: match.matches_won[me],
          opp: match.matches_won[1 - me],
          target: match.session_bummerls,
        }),
      }),
    );
    if (sheet.bummerls.length) parts.push(bummerlsTable(sheet.bummerls, me));
  }
  if (!sheet.deals.length) {
    parts.push(h("p", { class: "muted", id: "sheet-empty", text: t("sheet.none") }));
    return parts;
  }
  const numbers = [...new Set(sheet.deals.map((deal) => deal.match))];
  for (const number of numbers) {
    const deals = sheet.deals.filter((deal) => deal.match === number);
    const done = sheet.bummerls.find((bummerl) => bummerl.match === number);
    // A finished match's score is its Bummerl line's; the one in play is the view's.
    const scores = done ? done.scores : number === match.match_number ? match.scores : deals[deals.length - 1].scores;
    let caption = t("sheet.deals");
    if (session) caption = done ? t("sheet.match", { n: number }) : t("sheet.matchInPlay", { n: number });
    parts.push(dealsTable(deals, { caption, scores, number }, me));
  }
  return parts;
}

/**
 * Open the score sheet of ``view`` (the view on the table, for the seat at its bottom), with the session's
 * ``tally`` of finished matches under it (none: no tally).
 * @param {View} view
 * @param {TallyLine[]} [tally]
 */
export function openSheet(view, tally = []) {
  if (dialog) dialog.remove(); // rebuilt: the words follow the language, the lines the game
  const close = h("button", {
    type: "button",
    class: "btn btn-quiet btn-icon dialog-close",
    "data-action": "sheet-close",
    "aria-label": t("dialog.close"),
    title: t("dialog.close"),
    text: "✕",
  });
  const built = /** @type {HTMLDialogElement} */ (
    h(
      "dialog",
      { class: "dialog dialog-wide sheet-dialog", id: "sheet-dialog", "aria-labelledby": "sheet-title" },
      h("div", { class: "dialog-head" }, h("h2", { id: "sheet-title", text: t("sheet.title") }), close),
      h("div", { id: "sheet-body" }, ...body(view), ...(tally.length ? [tallySection(tally)] : [])),
    )
  );
  close.addEventListener("click", () => built.close());
  closeOnBackdrop(built);
  built.addEventListener("close", () => {
    built.remove();
    if (dialog === built) dialog = null;
  });
  dialog = built;
  document.body.append(built);
  built.showModal();
}
