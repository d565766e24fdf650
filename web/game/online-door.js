// @ts-check
// The way into online play that the page needs from the start: the "Play
// online" button, an address that carries an invitation or a room code, and
// an online game saved before a reload. The lobby and the transport behind it
// (online-lobby.js, web/online/) load on first use: a game against the
// computer never needs them, and loading them at start slowed every boot.

import { LINK_KEY } from "../online/codes.js";
import { ROOM_LINK_KEY } from "../online/room-code.js";

/** @type {Promise<typeof import("./online-lobby.js")> | null} */
let lobby = null;

/** The lobby, loaded and wired once. */
export function onlineLobby() {
  lobby ??= import("./online-lobby.js").then((module) => {
    module.installOnline();
    return module;
  });
  return lobby;
}

/** Open the online dialog (``text``: a link or code to join). */
export async function openOnline(text = "") {
  (await onlineLobby()).openOnline(text);
}

/** The page's address without its fragment, for links. */
export function baseUrl() {
  return `${location.origin}${location.pathname}`;
}

/**
 * Wire the "Play online" button. Returns the page's address if it carries an invitation or a room code
 * (taken out of the address bar, to be opened once the game is ready), else "".
 */
export function installOnlineDoor() {
  /** @type {HTMLElement} */ (document.getElementById("open-online")).addEventListener("click", () => openOnline());
  const hash = new URLSearchParams(location.hash.slice(1));
  if (!hash.has(LINK_KEY) && !hash.has(ROOM_LINK_KEY)) return "";
  const text = location.href;
  history.replaceState(null, "", baseUrl());
  return text;
}
