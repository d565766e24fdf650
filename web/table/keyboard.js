// @ts-check
// Playing with the keyboard alone.
//
// - Your hand is one tab stop (a toolbar with a roving tabindex): the arrow
//   keys, Home and End move between its cards, Enter or Space plays the card
//   (each card is a button). Cards you may not play now stay focusable and
//   say so (aria-disabled), so you can read your whole hand.
// - Single-key shortcuts, off in text fields and dialogs and never with
//   Ctrl, Alt or Meta: 1-9 play the n-th card of your hand, M declares a
//   marriage (or goes to the marriage buttons if there are several), E
//   exchanges the trump card, C closes the talon, A claims 66 (asking first
//   unless switched off: game/loop.js), P passes, N starts the next deal (or
//   a new match). They can be turned off in the settings (remembered), for
//   screen readers or keyboards that need the keys.
// - In a modal dialog, Tab and Shift+Tab go round the dialog's controls;
//   Escape closes it (the browser's own <dialog> behaviour).
//
// What a key may do comes from the legal actions the page was given; the
// page sends the action and the engine decides.

import { t } from "../platform/i18n.js";

const KEY = "sixty-six.shortcuts.v1";

/**
 * What the keys act on (game/input.js): legal() the actions you may take now ([] while the table is busy),
 * perform(action), newGame() (true if a new game was started), focusAction(action),
 * refuse(reason, card?) (says why a key did nothing).
 * @typedef {{
 *   legal: () => string[],
 *   perform: (action: string) => void,
 *   newGame: () => boolean,
 *   focusAction: (action: string) => void,
 *   refuse: (reason: string, card?: string) => void,
 * }} KeyboardGame
 */

/**
 * The single-key shortcuts: key -> the protocol action (or action family) it stands for.
 * @type {Record<string, string>}
 */
export const SHORTCUT_KEYS = { m: "marry", e: "exchange", c: "close", a: "claim", p: "pass", n: "next" };

let enabled = loadEnabled();

function loadEnabled() {
  try {
    return localStorage.getItem(KEY) !== "off";
  } catch {
    return true;
  }
}

export function shortcutsOn() {
  return enabled;
}

/**
 * Turn the single-key shortcuts on or off, and remember it.
 * @param {boolean} value
 */
export function setShortcutsOn(value) {
  enabled = Boolean(value);
  try {
    localStorage.setItem(KEY, enabled ? "on" : "off");
  } catch {
    // storage disabled: the switch lasts for this visit
  }
}

/** @param {HTMLElement} hand */
function handCards(hand) {
  return [.../** @type {NodeListOf<HTMLButtonElement>} */ (hand.querySelectorAll("button.card"))];
}

/**
 * After each drawing: one card of the hand is in the tab order (the last one
 * you were on if it is still there, else the first you may play, else the
 * first), and every control carries its shortcut in aria-keyshortcuts.
 * @param {ParentNode} root
 * @param {HTMLElement} hand
 */
export function decorate(root, hand) {
  const cards = handCards(hand);
  const current =
    cards.find((c) => c === document.activeElement) ||
    cards.find((c) => c.dataset.card === hand.dataset.current) ||
    cards.find((c) => c.dataset.legal === "1") ||
    cards[0];
  cards.forEach((card, i) => {
    card.tabIndex = card === current ? 0 : -1;
    if (enabled && i < 9) card.setAttribute("aria-keyshortcuts", String(i + 1));
    else card.removeAttribute("aria-keyshortcuts");
  });
  for (const button of /** @type {NodeListOf<HTMLButtonElement>} */ (root.querySelectorAll("button[data-action]"))) {
    const family = /** @type {string} */ (button.dataset.action).split(":")[0];
    const key = Object.keys(SHORTCUT_KEYS).find((k) => SHORTCUT_KEYS[k] === family);
    if (enabled && key) button.setAttribute("aria-keyshortcuts", key.toUpperCase());
    else button.removeAttribute("aria-keyshortcuts");
  }
}

/**
 * @param {KeyboardEvent} event
 * @param {HTMLElement} hand
 */
function moveInHand(event, hand) {
  const cards = handCards(hand);
  const index = cards.indexOf(/** @type {HTMLButtonElement} */ (event.target));
  if (index < 0) return false;
  const last = cards.length - 1;
  const target = /** @type {Record<string, number | undefined>} */ ({
    ArrowLeft: Math.max(0, index - 1),
    ArrowUp: Math.max(0, index - 1),
    ArrowRight: Math.min(last, index + 1),
    ArrowDown: Math.min(last, index + 1),
    Home: 0,
    End: last,
  })[event.key];
  if (target === undefined) return false;
  cards[target].focus();
  return true;
}

/** @param {EventTarget | null} target An element, or the document (which has no closest()). */
function typing(target) {
  return Boolean(
    /** @type {Partial<Element>} */ (target).closest?.("input, select, textarea, [contenteditable], dialog"),
  );
}

/** The open dialog on top (a question may open over the settings): the one with the focus, else the last. */
function modal() {
  const open = [.../** @type {NodeListOf<HTMLDialogElement>} */ (document.querySelectorAll("dialog[open]"))];
  return open.find((dialog) => dialog.contains(document.activeElement)) ?? open.at(-1) ?? null;
}

/**
 * Keep Tab inside an open modal dialog.
 * @param {KeyboardEvent} event
 * @param {HTMLDialogElement} dialog
 */
function trapTab(event, dialog) {
  const focusable = [
    .../** @type {NodeListOf<HTMLElement & {disabled?: boolean}>} */ (
      dialog.querySelectorAll("button, select, input, textarea, summary, a[href], [tabindex]")
    ),
  ].filter((node) => !node.disabled && node.tabIndex >= 0 && node.getClientRects().length > 0);
  if (!focusable.length) return;
  const first = focusable[0];
  const last = focusable[focusable.length - 1];
  const inside = dialog.contains(document.activeElement);
  if (event.shiftKey && (document.activeElement === first || !inside)) {
    last.focus();
    event.preventDefault();
  } else if (!event.shiftKey && (document.activeElement === last || !inside)) {
    first.focus();
    event.preventDefault();
  }
}

/**
 * Listen for the keys. ``game`` gives: legal() (the actions you may take now,
 * [] while the table is busy), perform(action), newGame() (when the game is
 * over), focusAction(action), refuse(reason, card?) (says why a key did nothing).
 * @param {{hand: HTMLElement, game: KeyboardGame}} parts
 */
export function installKeyboard({ hand, game }) {
  hand.addEventListener("focusin", (event) => {
    const target = /** @type {HTMLElement} */ (event.target);
    if (target.dataset.card) hand.dataset.current = target.dataset.card;
    for (const card of handCards(hand)) card.tabIndex = card === target ? 0 : -1;
  });
  document.addEventListener("keydown", (event) => {
    const dialog = modal();
    if (dialog) {
      if (event.key === "Tab") trapTab(event, dialog);
      return;
    }
    if (event.defaultPrevented || event.ctrlKey || event.altKey || event.metaKey) return;
    if (hand.contains(/** @type {Node | null} */ (event.target)) && moveInHand(event, hand)) {
      event.preventDefault();
      return;
    }
    if (!enabled || event.repeat || typing(event.target)) return;
    if (shortcut(event.key.toLowerCase(), hand, game)) event.preventDefault();
  });
}

/**
 * Do what ``key`` stands for; true if it is a shortcut key.
 * @param {string} key
 * @param {HTMLElement} hand
 * @param {KeyboardGame} game
 */
function shortcut(key, hand, game) {
  const legal = game.legal();
  if (/^[1-9]$/.test(key)) {
    const card = handCards(hand)[Number(key) - 1];
    if (!card) return false;
    const action = `play:${card.dataset.card}`;
    if (legal.includes(action)) game.perform(action);
    else game.refuse("card", card.dataset.card);
    return true;
  }
  const family = SHORTCUT_KEYS[key];
  if (!family) return false;
  const matching = legal.filter((action) => action.split(":")[0] === family);
  if (matching.length === 1) game.perform(matching[0]);
  else if (matching.length > 1) game.focusAction(matching[0]);
  else if (family === "next" && game.newGame()) return true;
  else game.refuse("key");
  return true;
}

/**
 * The keys, listed in ``list`` (a <dl>) in the player's language.
 * @param {HTMLElement} list
 */
export function renderKeyHelp(list) {
  /** @type {Record<string, string>} */
  const words = {
    marry: t("a11y.keys.marry"),
    exchange: t("a11y.keys.exchange"),
    close: t("a11y.keys.close"),
    claim: t("a11y.keys.claim"),
    pass: t("a11y.keys.pass"),
    next: t("a11y.keys.next"),
  };
  /** @type {[string[], string][]} */
  const rows = [
    [["←", "→"], t("a11y.keys.arrows")],
    [[t("a11y.key.enter"), t("a11y.key.space")], t("a11y.keys.play")],
    [["1", "6"], t("a11y.keys.number")],
    ...Object.entries(SHORTCUT_KEYS).map(
      ([key, family]) => /** @type {[string[], string]} */ ([[key.toUpperCase()], words[family]]),
    ),
    [[t("a11y.key.tab")], t("a11y.keys.tab")],
    [[t("a11y.key.escape")], t("a11y.keys.escape")],
  ];
  list.replaceChildren(
    ...rows.flatMap(([keys, text]) => {
      const term = document.createElement("dt");
      keys.forEach((key, i) => {
        if (i) term.append(keys[0] === "1" ? "–" : " ");
        const kbd = document.createElement("kbd");
        kbd.textContent = key;
        term.append(kbd);
      });
      const description = document.createElement("dd");
      description.textContent = text;
      return [term, description];
    }),
  );
}
