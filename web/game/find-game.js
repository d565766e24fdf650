// @ts-check
// "Find a game": meeting strangers. The list of open tables on the Nostr
// relays, filters, "Open a table", "Join" and "Quick game". The page only
// carries texts: the engine makes and signs the offers and join requests,
// reads and judges the offers (lobby_read: forged, expired, blocked and
// flooding ones never listed), picks the quick game's table, and gives an
// open table to the first good request (the later ones are told "taken").
// The relays' side is web/online/lobby-relays.js. Once a table is given,
// the two meet on a fresh room code exactly as friends do with one
// (online-lobby.js: identities proven by the handshake; the joiner checks
// that the proven identity is the offer's), and the fair shuffle deals.
//
// An open table is renewed every minute while this page is open, and
// withdrawn when it is taken, cancelled, or the page goes (pagehide).

import { lobbyRelays } from "../online/lobby-relays.js";
import { storedNetworkSettings } from "../online/network-defaults.js";
import { generateRoomCode } from "../online/room-code.js";
import { formatNumber, has, language, t } from "../platform/i18n.js";
import { blockedList, myIdentity, signingKey } from "../platform/identity.js";
import { signedResults } from "../platform/signed-results.js";
import { overridesFor } from "../screens/custom-rules.js";
import { savePreferences } from "../screens/modes.js";
import { parameterName, rulesTitle } from "../screens/rules-text.js";
import { notify } from "./draw.js";
import { ask } from "./loop.js";
import { currentOnline } from "./online.js";
import { hostStranger, joinStranger, strangerNeverCame } from "./online-lobby.js";
import { state } from "./state.js";

/** @import { LobbyRelays, RelayState } from "../online/lobby-relays.js" */
/** @import { LobbyTable, RuleSet } from "../../types/engine.js" */

/** The most tables drawn (the engine keeps at most 200; the list says how many it holds). */
export const DRAW_MAX = 50;
/** An open table is renewed this often (the engine's offer stands 3 minutes from its last renewal). */
const RENEW_MS = 60_000;
/** The list is read again at least this often (open times, expiries). */
const READ_MS = 5000;
/** The most signed results an offer's history is worked out from (the engine reads 50). */
const RESULTS_SENT = 50;
/** How long a joiner waits for the opener's answer. */
const ANSWER_MS = 30_000;
/** How long an opener waits for the player its table was given to (that page looks for the room up to 30 s:
 * online/room.js's relay and peer timeouts); then the table is offered again. */
export const MEET_MS = 45_000;
/** The most closed tables whose late requests are still answered ("closed"), not left to time out. */
const CLOSED_KEPT = 20;

/** @param {string} id */
const el = (id) => /** @type {HTMLElement} */ (document.getElementById(id));
/** @param {string} id */
const input = (id) => /** @type {HTMLInputElement} */ (document.getElementById(id));
const dialog = () => /** @type {HTMLDialogElement} */ (el("lobby-dialog"));

/**
 * This page's open table: the engine's handle, its id and pool, the last offer event published, whether Quick
 * game opened it, the joiner it was given to (then it is no longer offered), and whether a relay took its last
 * offer.
 * @typedef {{handle: string, id: string, pool: string, event: import("../online/lobby-relays.js").NostrEvent | null,
 *   quick: boolean, given: string | null, timer: ReturnType<typeof setInterval> | undefined,
 *   published: boolean}} OwnTable
 */
/** A table this page asked to join: the table, its opener's Nostr key, the wait for the answer. */
/** @typedef {{table: LobbyTable, sender: string, quick: boolean, timer: ReturnType<typeof setTimeout>}} Joining */

/** @type {LobbyRelays | null} */
let relays = null;
/** @type {Promise<LobbyRelays> | null} */
let starting = null;
/** @type {OwnTable | null} */
let own = null;
/** @type {Joining | null} */
let joining = null;
/** @type {LobbyTable[]} */
let tables = [];
/** Tables this page closed, by id, with their engine handles: a late request is told "closed". */
/** @type {Map<string, string>} */
const closedTables = new Map();
let reading = false;
let readAgain = false;
/** @type {ReturnType<typeof setInterval> | undefined} */
let reader;
let installed = false;

/** The rules of the next game (the settings'), as lobby_* take them. */
function rulesArgs() {
  const preset = state.settings.preset;
  return { preset, rules: overridesFor(preset) };
}

/** The blocked identities (the online play's list). */
const blocked = () => blockedList().map((b) => b.identity);

function filters() {
  const number = (/** @type {string} */ id, /** @type {number} */ max) => {
    const n = Math.floor(Number(input(id).value));
    return Number.isFinite(n) && n > 0 ? Math.min(n, max) : 0;
  };
  return {
    min_rating: number("lobby-min-rating", 9999),
    min_games: number("lobby-min-games", 9999),
    checked_only: input("lobby-checked-only").checked,
  };
}

function yourName() {
  const name = input("lobby-name").value.trim().slice(0, 24);
  state.prefs = savePreferences({ ...state.prefs, names: [name, state.prefs.names[1]] });
  return name;
}

/** The newest signed results first, as many as the engine reads. */
const results = () => signedResults().slice(-RESULTS_SENT).reverse();

/**
 * Say what the lobby is doing (the live region), with a state for whoever tests it.
 * @param {string} what idle, open, joining, meeting, refused, cancelled, error
 * @param {string} words
 */
function say(what, words) {
  const status = el("lobby-status");
  status.dataset.state = what;
  status.textContent = words;
  el("lobby-cancel").hidden = !(own && !own.given) && !joining;
  for (const id of ["lobby-open", "lobby-quick"]) {
    /** @type {HTMLButtonElement} */ (el(id)).disabled = Boolean(own || joining);
  }
}

/** @param {unknown} error */
function failed(error) {
  console.warn("lobby:", error);
  const detail = String(/** @type {Error} */ (error)?.message || error);
  say("error", t("lobby.failed", { detail }));
}

// ------------------------------------------------------------------ the relays

/** Connect to the relays of the network settings (once). */
function connect() {
  starting ??= lobbyRelays(storedNetworkSettings().relays, {
    onOffers: () => read(),
    onMessage: (sender, message) => received(sender, message).catch(failed),
    onRelays: showRelays,
  }).then(
    (made) => {
      relays = made;
      showRelays(made.relayStates());
      return made;
    },
    (error) => {
      starting = null;
      throw error;
    },
  );
  return starting;
}

/** The relays' state in words. @param {RelayState[]} states */
function showRelays(states) {
  const up = states.filter((s) => s.state === "up").length;
  const connecting = states.some((s) => s.state === "connecting");
  const box = el("lobby-relays");
  box.dataset.relays = up ? "up" : connecting ? "connecting" : "down";
  box.dataset.up = String(up);
  box.textContent = up
    ? t("lobby.relays.up", { up: String(up), total: String(states.length) })
    : connecting
      ? t("lobby.relays.connecting")
      : t("lobby.relays.down");
  // A table no relay took is published as soon as one can be reached.
  if (up && own && !own.given && !own.published) renew().catch(failed);
}

function disconnect() {
  relays?.close();
  relays = null;
  starting = null;
  clearInterval(reader);
  reader = undefined;
}

// ------------------------------------------------------------------ the list

/** Read what the relays brought (once at a time; again if more came meanwhile), then draw. */
async function read() {
  if (!relays) return;
  if (reading) {
    readAgain = true;
    return;
  }
  reading = true;
  try {
    do {
      readAgain = false;
      const { offers, withdrawn } = relays.takeOffers();
      const now = Date.now();
      const answer = await ask({
        cmd: "lobby_read",
        me: await myIdentity(),
        offers,
        withdrawn,
        blocked: blocked(),
        filters: filters(),
        now,
      });
      tables = answer.tables;
      drawTables(answer.refused);
      await waitingQuick();
    } while (readAgain && relays);
  } catch (error) {
    failed(error);
  } finally {
    reading = false;
  }
}

/** How long ago, in words. @param {number} ms */
function openFor(ms) {
  const minutes = Math.floor(ms / 60_000);
  return minutes < 1 ? t("lobby.open.now") : t("lobby.open.minutes", { n: formatNumber(minutes) });
}

/** The rules in a few words: the name, and for changed rules the first changed parameters. @param {RuleSet} rules */
function rulesWords(rules) {
  const title = rulesTitle(rules, state.presets);
  const base = state.presets.find((p) => p.id === rules.id);
  if (!base) return title;
  const changed = Object.keys(base.rules).filter(
    (name) => base.rules[name] !== rules[name] && !["id", "name"].includes(name) && has(`param.${name}`),
  );
  if (!changed.length) return title;
  const names = changed.slice(0, 3).map(parameterName);
  return `${title}: ${names.join(", ")}${changed.length > 3 ? ", …" : ""}`;
}

/** @param {LobbyTable} table */
function ratingWords(table) {
  const values = { rating: formatNumber(table.rating), games: formatNumber(table.games) };
  return table.checked ? t("lobby.rating.checked", values) : t("lobby.rating.claimed", values);
}

/** The rows drawn, by table id: kept from one reading to the next, so a focused Join button stays put. */
/** @type {Map<string, HTMLLIElement>} */
const rowsDrawn = new Map();

/** A new row for a table: its words (filled by fillRow) and its Join button. @param {string} id */
function newRow(id) {
  const item = document.createElement("li");
  item.className = "lobby-table";
  item.dataset.table = id;
  const who = document.createElement("p");
  who.className = "lobby-who";
  who.append(document.createElement("strong"), document.createElement("span"));
  const rules = document.createElement("p");
  rules.className = "lobby-rules";
  const more = document.createElement("p");
  more.className = "muted lobby-more";
  const text = document.createElement("div");
  text.append(who, rules, more);
  const button = document.createElement("button");
  button.type = "button";
  button.className = "btn btn-small";
  button.dataset.action = "lobby-join";
  button.textContent = t("lobby.join");
  button.addEventListener("click", () => {
    const table = tables.find((other) => other.id === id);
    if (table) join(table, false).catch(failed);
  });
  item.append(text, button);
  return item;
}

/**
 * Set a node's text only where it changed (a screen reader is not told the same words again).
 * @param {Element} node
 * @param {string} text
 */
function setText(node, text) {
  if (node.textContent !== text) node.textContent = text;
}

/** @param {HTMLLIElement} item @param {LobbyTable} table */
function fillRow(item, table) {
  const [who, rules, more] = item.querySelectorAll("p");
  const name = table.name || t("lobby.noName");
  setText(/** @type {Element} */ (who.firstElementChild), name);
  setText(/** @type {Element} */ (who.lastElementChild), ` · ${ratingWords(table)}`);
  setText(rules, rulesWords(table.rules));
  setText(more, `${t(`lang.${table.lang}`)} · ${openFor(table.open_ms)}`);
  const button = /** @type {HTMLButtonElement} */ (item.querySelector("button"));
  const label = t("lobby.joinLabel", { name });
  if (button.getAttribute("aria-label") !== label) button.setAttribute("aria-label", label);
  button.disabled = Boolean(own || joining);
}

/**
 * Draw the open tables (at most DRAW_MAX), the longest open first: rows of tables still open stay as they are
 * (their words brought up to date), new ones are put in their place, the rest go.
 * @param {Record<string, number>} refused
 */
function drawTables(refused) {
  const list = el("lobby-tables");
  const count = Number(list.dataset.refused || 0) + Object.values(refused).reduce((a, b) => a + b, 0);
  list.dataset.refused = String(count); // for whoever tests it: refused by the engine, and dropped unchecked
  list.dataset.dropped = String(relays?.dropped ?? 0);
  const shown = tables.slice(0, DRAW_MAX);
  const ids = new Set(shown.map((table) => table.id));
  for (const [id, item] of rowsDrawn) {
    if (ids.has(id)) continue;
    item.remove();
    rowsDrawn.delete(id);
  }
  shown.forEach((table, index) => {
    let item = rowsDrawn.get(table.id);
    if (!item) {
      item = newRow(table.id);
      rowsDrawn.set(table.id, item);
    }
    fillRow(item, table);
    const there = list.children[index];
    if (there !== item) list.insertBefore(item, there ?? null);
  });
  setText(
    el("lobby-count"),
    !tables.length
      ? t("lobby.none")
      : tables.length > DRAW_MAX
        ? t("lobby.countMore", { shown: formatNumber(DRAW_MAX), n: formatNumber(tables.length) })
        : t("lobby.count", { n: formatNumber(tables.length) }),
  );
}

/** This player's rating for the rules of the next game (from the signed results kept here). */
async function showOwnRating() {
  const answer = await ask({
    cmd: "lobby_rating",
    identity: await myIdentity(),
    results: results(),
    ...rulesArgs(),
    now: Date.now(),
  });
  const rules = state.presets.find((p) => p.id === state.settings.preset)?.rules;
  el("lobby-mine").textContent = t("lobby.mine", {
    rules: rules ? rulesTitle({ ...rules, ...rulesArgs().rules }, state.presets) : state.settings.preset,
    rating: formatNumber(answer.rating),
    games: formatNumber(answer.games),
  });
  return answer.rating;
}

// ------------------------------------------------------------------ opening a table

/** Open a table with the rules of the next game; ``quick``: Quick game opened it (it may go to join another). */
async function openTable(quick = false) {
  const made = await connect();
  const name = yourName();
  const now = Date.now();
  const opened = await ask({
    cmd: "lobby_open",
    identity: await myIdentity(),
    key: await signingKey(),
    name,
    lang: language(),
    ...rulesArgs(),
    results: results(),
    blocked: blocked(),
    now,
  });
  const timer = setInterval(() => renew().catch(failed), RENEW_MS);
  /** @type {OwnTable} */
  const table = {
    handle: opened.table,
    id: opened.id,
    pool: opened.pool,
    event: null,
    quick,
    given: null,
    timer,
    published: false,
  };
  own = table;
  const published = await made.publishOffer(opened.id, opened.offer, opened.pool, Date.now() + 3 * RENEW_MS);
  if (own !== table) return;
  table.published = published.accepted > 0;
  if (table.published) table.event = published.event;
  sayOpen(table);
  drawTables({});
}

/** Say that ``table`` waits for a player, or that no relay took it yet. @param {OwnTable} table */
function sayOpen(table) {
  if (!table.published) say("unpublished", t("lobby.notPublished"));
  else say("open", table.quick ? t("lobby.quick.waiting") : t("lobby.waiting"));
}

/** Publish the open table's offer again, renewed. */
async function renew() {
  const table = own;
  if (!table || table.given || !relays) return;
  const renewed = await ask({ cmd: "lobby_renew", table: table.handle, key: await signingKey(), now: Date.now() });
  if (own !== table || table.given) return;
  const published = await relays.publishOffer(
    table.id,
    renewed.offer,
    renewed.pool,
    renewed.expires,
    table.event?.created_at,
  );
  if (own !== table || table.given || !published.accepted) return;
  table.event = published.event;
  if (!table.published) {
    table.published = true;
    sayOpen(table);
  }
}

/** Withdraw the open table from the relays (its handle stays, so late joiners are told it is taken). */
async function withdraw() {
  const table = own;
  if (!table) return;
  clearInterval(table.timer);
  await relays?.withdrawOffer(table.id, table.event);
}

/** Cancel the open table (or stop waiting for an answer). */
async function cancel() {
  const table = own;
  own = null;
  if (joining) {
    clearTimeout(joining.timer);
    joining = null;
  }
  if (table) await closeTable(table);
  say("cancelled", t("lobby.cancelled"));
  drawTables({});
}

/**
 * Close ``table``'s handle and withdraw it (unless it was given). The engine hears first, so a request that
 * comes meanwhile is answered "closed".
 * @param {OwnTable} table
 */
async function closeTable(table) {
  clearInterval(table.timer);
  closedTables.set(table.id, table.handle);
  if (closedTables.size > CLOSED_KEPT) closedTables.delete(/** @type {string} */ (closedTables.keys().next().value));
  const closing = ask({ cmd: "lobby_close", table: table.handle }).catch(() => {});
  if (!table.given) await relays?.withdrawOffer(table.id, table.event).catch(() => {});
  await closing;
}

// ------------------------------------------------------------------ joining

/**
 * Ask to join ``table``: a signed request, encrypted to its opener.
 * @param {LobbyTable} table
 * @param {boolean} quick
 */
async function join(table, quick) {
  const made = await connect();
  if (own || joining) return;
  const sender = made.senderOf(table.id);
  if (!sender) {
    // Withdrawn since the engine listed it: said, and Quick game looks again (never left waiting for nothing).
    await noteRefusal(table.id);
    say("refused", t("lobby.refused.closed"));
    drawTables({});
    if (quick) await quickGame();
    return;
  }
  const name = yourName();
  const { request } = await ask({
    cmd: "lobby_request",
    identity: await myIdentity(),
    key: await signingKey(),
    table_id: table.id,
    name,
    now: Date.now(),
  });
  joining = {
    table,
    sender,
    quick,
    timer: setTimeout(() => noAnswer(table.id), ANSWER_MS),
  };
  say("joining", t("lobby.asking", { name: table.name || t("lobby.noName") }));
  drawTables({});
  await made.send(sender, { t: "join", table: table.id, request });
}

/** @param {string} id */
function noAnswer(id) {
  if (joining?.table.id !== id) return;
  const quick = joining.quick;
  joining = null;
  say("refused", t("lobby.noAnswer"));
  drawTables({});
  noteRefusal(id)
    .then(() => (quick ? quickGame() : undefined))
    .catch(failed);
}

/** A table refused this page or never answered: Quick game leaves it for a while (the engine's lobby_refused).
 * @param {string} id */
async function noteRefusal(id) {
  await ask({ cmd: "lobby_refused", me: await myIdentity(), table_id: id, now: Date.now() });
}

/** The engine's refusal in words (what it says comes in English, for the console). @param {string} what */
function refusalWords(what) {
  switch (what) {
    case "taken":
      return t("lobby.refused.taken");
    case "closed":
    case "expired":
      return t("lobby.refused.closed");
    case "blocked":
      return t("lobby.refused.blocked");
    default:
      return t("lobby.refused.other");
  }
}

/**
 * A message from another player's Nostr key: a join request for this page's table, or the answer to this page's.
 * @param {string} sender
 * @param {Record<string, unknown>} message
 */
async function received(sender, message) {
  const id = message.t === "join" ? String(message.table) : null;
  // A request for a table closed here (cancelled, or left to join another) is told so, not left to time out.
  const handle = id === null ? undefined : own?.id === id ? own.handle : closedTables.get(id);
  if (id !== null && handle !== undefined) {
    const table = own?.id === id ? own : null;
    const answer = await ask({ cmd: "lobby_answer", table: handle, request: message.request, now: Date.now() });
    if ("refused" in answer) {
      console.info("lobby: a request refused:", answer.refused.message);
      if (answer.refused.what !== "flood") {
        await relays?.send(sender, { t: "answer", table: id, refused: answer.refused });
      }
      return;
    }
    if (!table) return; // (a closed table is given to nobody: the engine refuses)
    if (own !== table) {
      // Given while this page left it (Quick game went to join an earlier table): the joiner is told.
      const closed = { what: "closed", message: "the table was closed" };
      await relays?.send(sender, { t: "answer", table: id, refused: closed });
      return;
    }
    table.given = answer.joined.identity;
    const code = generateRoomCode();
    const name = answer.joined.name || t("lobby.noName");
    say("meeting", t("lobby.meeting", { name }));
    const rules = rulesArgs();
    // The room is open before the joiner hears of it; the offer goes meanwhile.
    const hosting = hostStranger({ ...rules, name: yourName(), code, guest: answer.joined.identity });
    await relays?.send(sender, { t: "answer", table: table.id, joined: { room: code } });
    await withdraw().catch(() => {});
    const game = await hosting;
    met();
    setTimeout(() => noShow(game, name, table.quick).catch(failed), MEET_MS);
    return;
  }
  if (message.t !== "answer" || !joining || message.table !== joining.table.id || sender !== joining.sender) return;
  const wait = joining;
  clearTimeout(wait.timer);
  const joined = /** @type {{room?: unknown}} */ (message.joined ?? {});
  if (typeof joined.room === "string") {
    say("meeting", t("lobby.meeting", { name: wait.table.name || t("lobby.noName") }));
    try {
      await joinStranger({ code: joined.room, host: wait.table.identity, name: yourName() });
    } finally {
      joining = null;
    }
    met();
    return;
  }
  joining = null;
  await noteRefusal(wait.table.id);
  const refused = /** @type {{what?: unknown, message?: unknown}} */ (message.refused ?? {});
  console.info("lobby: refused:", refused.message);
  say("refused", refusalWords(String(refused.what)));
  drawTables({});
  if (wait.quick) await quickGame();
}

/** The two met: the game is on the table and the lobby closes. An opener's lobby stays on the relays a while,
 * to tell late joiners that its table is taken; a joiner's goes. */
function met() {
  if (dialog().open) dialog().close();
  if (!own) {
    disconnect();
    return;
  }
  const table = own;
  setTimeout(() => {
    if (own !== table) return;
    own = null;
    closeTable(table);
    if (!dialog().open) disconnect();
  }, ANSWER_MS);
}

/**
 * The player this page's table was given to never came (their page went before meeting): after MEET_MS the
 * room closes, and the lobby opens again with a new table, saying so.
 * @param {import("./online.js").Online} game the game that waited for them
 * @param {string} name
 * @param {boolean} quick
 */
async function noShow(game, name, quick) {
  if (!(await strangerNeverCame(game))) return;
  if (own?.given) {
    const table = own;
    own = null;
    await closeTable(table);
  }
  await openFindGame();
  if (own || joining) return;
  await openTable(quick);
  const opened = /** @type {OwnTable | null} */ (own); // (openTable set it)
  if (opened?.published) say("open", t("lobby.noShow", { name }));
}

// ------------------------------------------------------------------ quick game

/** Quick game: the engine's pick of the open tables of these rules, else open one and wait. */
async function quickGame() {
  await connect();
  await read();
  const rating = await showOwnRating();
  const answer = await ask({
    cmd: "lobby_quick",
    me: await myIdentity(),
    ...rulesArgs(),
    rating,
    filters: filters(),
    blocked: blocked(),
    now: Date.now(),
  });
  const table = answer.table;
  if (table) {
    say("joining", t("lobby.quick.found", { name: table.name || t("lobby.noName") }));
    await join(table, true);
    return;
  }
  say("open", t("lobby.quick.opening"));
  await openTable(true);
}

/** Waiting with Quick game's table: a table of these rules opened before this one is joined instead (the
 * engine's pick, lobby_quick with ``waiting``). */
async function waitingQuick() {
  const table = own;
  if (!table?.quick || table.given || joining) return;
  const answer = await ask({
    cmd: "lobby_quick",
    me: await myIdentity(),
    waiting: table.handle,
    filters: filters(),
    blocked: blocked(),
    now: Date.now(),
  });
  const earlier = answer.table;
  if (!earlier || own !== table || table.given || joining) return;
  own = null;
  await closeTable(table);
  say("joining", t("lobby.quick.found", { name: earlier.name || t("lobby.noName") }));
  await join(earlier, true);
}

// ------------------------------------------------------------------ the screen

/** Open "Find a game". */
export async function openFindGame() {
  install();
  input("lobby-name").value = state.prefs.names[0] || "";
  if (own?.given) {
    await closeTable(own);
    own = null;
  }
  if (!own && !joining) say("idle", "");
  if (!dialog().open) dialog().showModal();
  try {
    await connect();
    reader ??= setInterval(() => read(), READ_MS);
    await Promise.all([read(), showOwnRating()]);
  } catch (error) {
    failed(error);
  }
}

function install() {
  if (installed) return;
  installed = true;
  el("lobby-open").addEventListener("click", () => openTable(false).catch(failed));
  el("lobby-quick").addEventListener("click", () => {
    say("joining", t("lobby.quick.looking"));
    quickGame().catch(failed);
  });
  el("lobby-cancel").addEventListener("click", () => cancel().catch(failed));
  for (const id of ["lobby-min-rating", "lobby-min-games", "lobby-checked-only"]) {
    el(id).addEventListener("change", () => read());
  }
  el("lobby-close").addEventListener("click", () => dialog().close());
  dialog().addEventListener("close", () => {
    if (own?.given || currentOnline()?.channel) return; // the game began
    if (own) notify(t("lobby.cancelled"));
    if (own || joining) cancel().catch(() => {});
    disconnect();
  });
  // The page goes: its table is withdrawn while the page can still send. Firefox has closed the page's
  // connections by pagehide, so the withdrawal leaves at beforeunload there (both are heard; it is sent once).
  addEventListener("beforeunload", goes);
  addEventListener("pagehide", goes);
  // Back from the browser's page cache: the table withdrawn then is no longer open.
  addEventListener("pageshow", () => {
    if (gone && gone === own) cancel().catch(() => {});
  });
}

function goes() {
  const table = own;
  if (!table || table.given || gone === table) return;
  gone = table;
  relays?.withdrawOffer(table.id, table.event, true).catch(() => {});
}

/** The table withdrawn as the page went (once). @type {OwnTable | null} */
let gone = null;
