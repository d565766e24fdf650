// @ts-check
// Six-character room codes: the host opens a room, the guest types its code,
// and the two browsers find each other through public Nostr relays (the
// trystero library's Nostr strategy), then talk directly over WebRTC.
//
//   const room = await openRoom({ relays, iceServers });   // host
//   show(room.code);
//   const channel = await room.channel;
//   const channel = await joinRoom(code, { relays, iceServers });   // guest
//
// What the relays see: signed, short-lived Nostr events on a topic that is a
// hash of the app's id and the room code, carrying the browsers' WebRTC
// offers and answers encrypted with a key derived from the room code
// (trystero's ``password``). The game itself never passes through them.
//
// At most two players: the host takes the first guest that greets it; any
// later peer (trystero connects everyone in a room to everyone) is told the
// room is full by both of them and gives up with ``room_full``.
//
// Every failure is an OnlineError (errors.js) with a stable code.

import { Channel, dropOnPageHide, fingerprintsOf, MAX_MESSAGE_BYTES } from "./channel.js";
import { asOnlineError, OnlineError } from "./errors.js";
import { DEFAULT_RELAYS, defaultNetworkSettings, iceServersOf } from "./network-defaults.js";
import { generateRoomCode, normalizeRoomCode } from "./room-code.js";

/** The app's id in trystero: part of every topic, so other apps' rooms never meet ours. */
export const APP_ID = "sixty-six-online";
/** The greeting's version: both sides must speak the same. */
const VERSION = 1;
/** How long to wait for the first relay to accept the connection. */
export const RELAY_TIMEOUT_MS = 10_000;
/** How long a guest waits, once a relay is connected, for the room's host to answer. */
export const PEER_TIMEOUT_MS = 20_000;
const POLL_MS = 100;
/**
 * How long the side that said goodbye waits for the other to leave the room before it leaves itself (see
 * roomLink's close): the other leaves as soon as the goodbye arrives, unless its page is gone.
 */
export const LEAVE_WAIT_MS = 5_000;

/**
 * @typedef {object} RoomOptions
 * @property {string[]} [relays] Nostr relays (``wss://…``); default DEFAULT_RELAYS
 * @property {RTCIceServer[]} [iceServers] STUN and TURN servers; default the public STUN servers
 *   (network-defaults.js); [] for none
 * @property {string} [appId] default APP_ID
 * @property {number} [relayTimeoutMs] default RELAY_TIMEOUT_MS
 * @property {number} [peerTimeoutMs] the guest's wait for the host; default PEER_TIMEOUT_MS
 * @property {AbortSignal} [signal] the guest gives up joining (rejects with ``cancelled``)
 */

/**
 * A greeting between two peers of a room: ``hello`` (who I am), ``welcome`` (the host takes this guest),
 * ``full`` (the room has its two players), ``version`` (another version of the game).
 * @typedef {{t: "hello", role: "host" | "guest", v: number} | {t: "welcome"} | {t: "full"} | {t: "version", v: number}} Greeting
 */

/** @typedef {typeof import("../vendor/trystero.mjs")} Trystero */
/** @typedef {import("../vendor/trystero.mjs").Room} TrysteroRoom */

/** @type {Promise<Trystero> | null} */
let library = null;
/** Rooms being left, by code (see enter). */
const leaving = new Map();

/**
 * trystero answers a peer's ping and passes WebRTC signals on without awaiting the send: when that peer's data
 * channel has just closed (its page reloaded or went), the send is refused in a promise nobody awaits. The end
 * of the connection reaches the game through the room; the refused send is no error of the page's.
 * @param {PromiseRejectionEvent} event
 */
export function dropClosedChannelSend(event) {
  const reason = event.reason;
  const closed = reason instanceof DOMException && reason.name === "InvalidStateError";
  if (closed && String(reason.stack).includes("trystero")) event.preventDefault();
}

/** trystero, loaded on first use (the build bundles it into vendor/). */
function loadTrystero() {
  if (!library) globalThis.addEventListener?.("unhandledrejection", dropClosedChannelSend);
  library ??= import("../vendor/trystero.mjs").catch((error) => {
    library = null;
    throw new OnlineError("unsupported", `the room library did not load: ${error}`);
  });
  return library;
}

/** @param {number} ms */
function delay(ms) {
  return new Promise((resolve) => setTimeout(resolve, ms));
}

/**
 * @param {RoomOptions} options
 */
function settle(options) {
  const relays = [...(options.relays ?? DEFAULT_RELAYS)];
  if (!relays.length) throw new OnlineError("no_relay", "no relay in the settings");
  return {
    relays,
    iceServers: options.iceServers ?? iceServersOf(defaultNetworkSettings()),
    appId: options.appId ?? APP_ID,
    relayTimeoutMs: options.relayTimeoutMs ?? RELAY_TIMEOUT_MS,
    peerTimeoutMs: options.peerTimeoutMs ?? PEER_TIMEOUT_MS,
  };
}

/**
 * Resolves once one of ``relays`` is connected; rejects with ``no_relay`` after ``timeoutMs``, or with
 * ``aborted`` once ``signal`` is aborted.
 * @param {Trystero} trystero
 * @param {string[]} relays
 * @param {number} timeoutMs
 * @param {AbortSignal} signal
 * @param {"room_closed" | "cancelled"} aborted
 */
async function waitForRelay(trystero, relays, timeoutMs, signal, aborted) {
  const deadline = performance.now() + timeoutMs;
  for (;;) {
    if (signal.aborted) throw new OnlineError(aborted);
    const sockets = /** @type {Record<string, WebSocket>} */ (trystero.getRelaySockets());
    if (relays.some((url) => sockets[url]?.readyState === WebSocket.OPEN)) return;
    if (performance.now() >= deadline) throw new OnlineError("no_relay", `${relays.length} tried, ${timeoutMs} ms`);
    await delay(POLL_MS);
  }
}

/**
 * Join trystero's room for ``code`` and say who we are to every peer that appears.
 * @param {string} code
 * @param {"host" | "guest"} role
 * @param {ReturnType<typeof settle>} config
 */
async function enter(code, role, config) {
  // trystero keeps one set of relays for the page while any room is open, and hands back a room being
  // left if its code is joined again: wait until every room being left is gone.
  await Promise.all(leaving.values());
  const trystero = await loadTrystero();
  /** @type {string[]} */
  const joinErrors = [];
  /** Called after each join error (a peer's handshake failed). */
  let onJoinError = () => {};
  /** @type {TrysteroRoom} */
  let room;
  try {
    room = trystero.joinRoom(
      {
        appId: config.appId,
        password: code,
        relayConfig: { urls: config.relays },
        rtcConfig: { iceServers: config.iceServers },
      },
      code,
      // Trystero's own 10 s for the password handshake ran out on a loaded machine when a room was
      // opened again; the guest waits its peerTimeoutMs for the host anyway.
      {
        onJoinError: (details) => {
          joinErrors.push(details.error);
          onJoinError();
        },
        handshakeTimeoutMs: config.peerTimeoutMs,
      },
    );
  } catch (error) {
    throw asOnlineError(error, "webrtc_error");
  }
  const greetings = room.makeAction("ctl");
  const messages = room.makeAction("msg");
  let left = false;
  /**
   * Leave the room once ``after`` has settled; entering the same code again waits until it is left.
   * @param {Promise<unknown>} [after]
   */
  const leave = (after = Promise.resolve()) => {
    if (left) return leaving.get(code) ?? Promise.resolve();
    left = true;
    const done = after
      .then(() => room.leave())
      .catch(() => {})
      .finally(() => {
        if (leaving.get(code) === done) leaving.delete(code);
      });
    leaving.set(code, done);
    return done;
  };
  /** @type {Set<string>} the peers that have left the room */
  const gone = new Set();
  /** @type {Map<string, () => void>} who waits for whom to leave */
  const waiting = new Map();
  /** Called after each departure from the room, with the peer's id (a channel's partner leaving). */
  let onPeerLeave = (/** @type {string} */ _peerId) => {};
  /**
   * Resolves when ``peerId`` has left the room.
   * @param {string} peerId
   * @returns {Promise<void>}
   */
  const departed = (peerId) =>
    gone.has(peerId) ? Promise.resolve() : new Promise((resolve) => waiting.set(peerId, () => resolve()));
  room.onPeerLeave = (peerId) => {
    gone.add(peerId);
    waiting.get(peerId)?.();
    onPeerLeave(peerId);
  };
  /** @param {Greeting} greeting @param {string} peerId */
  const greet = (greeting, peerId) => greetings.send(greeting, { target: peerId }).catch(() => {});
  room.onPeerJoin = (peerId) => greet({ t: "hello", role, v: VERSION }, peerId);
  return {
    trystero,
    room,
    greetings,
    messages,
    leave,
    departed,
    greet,
    joinErrors,
    /** @param {() => void} call */
    set onJoinError(call) {
      onJoinError = call;
    },
    /** @param {(peerId: string) => void} call */
    set onPeerLeave(call) {
      onPeerLeave = call;
    },
  };
}

/**
 * A Link (channel.js) to ``partner`` through the room: one message at a time, in order (trystero's sends
 * may otherwise overtake one another under backpressure). Closing it leaves the room.
 * @param {Awaited<ReturnType<typeof enter>>} entered
 * @param {string} partner
 * @param {() => void} onFailure
 * @returns {import("./channel.js").Link}
 */
function roomLink(entered, partner, onFailure) {
  /** @type {string[]} */
  const outbox = [];
  /** @type {Promise<void> | null} */
  let pumping = null;
  async function pump() {
    while (outbox.length) {
      const text = /** @type {string} */ (outbox.shift());
      try {
        await entered.messages.send(text, { target: partner });
      } catch {
        outbox.length = 0;
        onFailure();
      }
    }
    pumping = null;
  }
  return {
    maxMessageBytes: MAX_MESSAGE_BYTES,
    send(text) {
      outbox.push(text);
      pumping ??= pump();
    },
    close(saidGoodbye = false) {
      // The goodbye was queued just before: let it leave, then leave the room. trystero keeps the connection
      // between the two pages for later rooms, and a message that arrives for a room already left is kept for
      // the next room of the same code: the other's departure would then drop it from the room opened again.
      // So the side that said goodbye leaves only after the other has (its departure then reaches this room,
      // and this side's own departure goes to nobody), or after LEAVE_WAIT_MS if the other is gone.
      const sent = Promise.resolve(pumping);
      entered.leave(
        saidGoodbye ? sent.then(() => Promise.race([entered.departed(partner), delay(LEAVE_WAIT_MS)])) : sent,
      );
    },
  };
}

/**
 * The channel to ``partner``, wired to the room's messages and departures.
 * @param {Awaited<ReturnType<typeof enter>>} entered
 * @param {string} partner
 * @param {"host" | "guest"} role
 * @param {number} started
 */
function channelTo(entered, partner, role, started) {
  const channel = new Channel(
    roomLink(entered, partner, () => channel.lost("connection_lost", "send failed")),
    {
      via: "room",
      role,
      connectMs: Math.round(performance.now() - started),
      fingerprints: fingerprintsOf(
        entered.room.getPeers()[partner] ?? { localDescription: null, remoteDescription: null },
      ),
    },
  );
  entered.messages.onMessage = (data, { peerId }) => {
    if (peerId !== partner) return;
    if (typeof data === "string") channel.deliver(data);
    else channel.lost("protocol_error", "not a text message");
  };
  entered.onPeerLeave = (peerId) => {
    if (peerId === partner) channel.lost("connection_lost", "the peer left the room");
  };
  dropOnPageHide(channel, () => entered.room.getPeers()[partner]?.close());
  return channel;
}

/**
 * The host's open room: its code to share, and the channel to the first guest.
 * @typedef {object} HostRoom
 * @property {string} code the room code (room-code.js: six characters)
 * @property {Promise<Channel>} channel resolves when a guest has joined; rejects with ``room_closed`` after
 *   close()
 * @property {() => void} close close the room (and its channel, if a guest had joined)
 */

/**
 * The host opens a room: with a new code, or ``options.code`` (to open the same room again). Resolves once
 * a relay is connected. Rejects with an OnlineError: ``bad_room_code``, ``no_relay``, ``unsupported``,
 * ``webrtc_error``.
 * @param {RoomOptions & {code?: string}} [options]
 * @returns {Promise<HostRoom>}
 */
export async function openRoom(options = {}) {
  const config = settle(options);
  const code = options.code === undefined ? generateRoomCode() : normalizeRoomCode(options.code);
  if (!code) throw new OnlineError("bad_room_code");
  const started = performance.now();
  const entered = await enter(code, "host", config);
  const closing = new AbortController();
  /** @type {Channel | null} */
  let channel = null;
  let partner = "";
  /** @type {(channel: Channel) => void} */
  let resolve = () => {};
  /** @type {(error: OnlineError) => void} */
  let reject = () => {};
  const opened = /** @type {Promise<Channel>} */ (
    new Promise((yes, no) => {
      resolve = yes;
      reject = no;
    })
  );
  opened.catch(() => {});
  entered.greetings.onMessage = (data, { peerId }) => {
    const greeting = /** @type {Greeting} */ (data);
    if (greeting?.t !== "hello" || greeting.role !== "guest") return;
    if (greeting.v !== VERSION) entered.greet({ t: "version", v: VERSION }, peerId);
    else if (channel) {
      if (peerId !== partner) entered.greet({ t: "full" }, peerId);
    } else if (!closing.signal.aborted) {
      partner = peerId;
      channel = channelTo(entered, peerId, "host", started);
      entered.greet({ t: "welcome" }, peerId);
      resolve(channel);
    }
  };
  const close = () => {
    if (!closing.signal.aborted) closing.abort();
    reject(new OnlineError("room_closed"));
    if (channel) channel.close();
    else entered.leave();
  };
  try {
    await waitForRelay(entered.trystero, config.relays, config.relayTimeoutMs, closing.signal, "room_closed");
  } catch (error) {
    close();
    throw error;
  }
  return { code, channel: opened, close };
}

/**
 * The guest joins the room of ``codeText`` (typed as people do: any case, spaces; or a room link). Resolves
 * with the channel to the host. Rejects with an OnlineError: ``bad_room_code``, ``no_relay``, ``no_peer``
 * (nobody answered in time), ``room_full``, ``code_version``, ``cancelled`` (``options.signal``), ``unsupported``,
 * ``webrtc_error``.
 * @param {string} codeText
 * @param {RoomOptions} [options]
 * @returns {Promise<Channel>}
 */
export async function joinRoom(codeText, options = {}) {
  const config = settle(options);
  const code = normalizeRoomCode(codeText);
  if (!code) throw new OnlineError("bad_room_code");
  const started = performance.now();
  /** @type {string[]} */
  const failed = [];
  // A handshake with the host can fail on a room opened again just after a lost connection (trystero meets
  // what is left of the room before): the guest leaves and enters again, within its one wait for the host.
  for (;;) {
    const left = config.peerTimeoutMs - (performance.now() - started);
    const attempt = await joinOnce(code, { ...config, peerTimeoutMs: Math.max(0, left) }, options.signal, started);
    if (attempt instanceof Channel) return attempt;
    failed.push(...attempt);
    if (performance.now() - started >= config.peerTimeoutMs) throw new OnlineError("no_peer", failed.join("; "));
  }
}

/**
 * One try at joining the room of ``code``: the channel to the host, or the join errors that ended the try
 * (the room is left); rejects as joinRoom does.
 * @param {string} code
 * @param {ReturnType<typeof settle>} config
 * @param {AbortSignal | undefined} given
 * @param {number} started
 * @returns {Promise<Channel | string[]>}
 */
async function joinOnce(code, config, given, started) {
  const entered = await enter(code, "guest", config);
  /** @type {Channel | null} */
  let channel = null;
  let partner = "";
  try {
    const signal = given ?? new AbortController().signal;
    await waitForRelay(entered.trystero, config.relays, config.relayTimeoutMs, signal, "cancelled");
    return await new Promise((resolve, reject) => {
      let settled = false;
      /** @param {OnlineError | null} error */
      const finish = (error) => {
        settled = true;
        clearTimeout(timer);
        signal.removeEventListener("abort", cancelled);
        if (error) reject(error);
      };
      const cancelled = () => finish(new OnlineError("cancelled"));
      const timer = setTimeout(() => {
        const detail = entered.joinErrors.length ? entered.joinErrors.join("; ") : `${config.peerTimeoutMs} ms`;
        finish(new OnlineError("no_peer", detail));
      }, config.peerTimeoutMs);
      signal.addEventListener("abort", cancelled);
      if (signal.aborted) cancelled();
      entered.onJoinError = () => {
        if (settled || channel) return;
        finish(null);
        entered.leave();
        resolve([...entered.joinErrors]);
      };
      entered.greetings.onMessage = (data, { peerId }) => {
        const greeting = /** @type {Greeting} */ (data);
        if (channel) {
          // Taken: another guest that greets us hears that the room is full.
          if (greeting?.t === "hello" && greeting.role === "guest" && peerId !== partner) {
            entered.greet({ t: "full" }, peerId);
          }
          return;
        }
        if (settled) return;
        if (greeting?.t === "welcome") {
          finish(null);
          partner = peerId;
          channel = channelTo(entered, peerId, "guest", started);
          resolve(channel);
        } else if (greeting?.t === "full") {
          finish(new OnlineError("room_full"));
        } else if (greeting?.t === "version") {
          finish(new OnlineError("code_version", `the host speaks version ${greeting.v}, this page ${VERSION}`));
        }
      };
    });
  } catch (error) {
    entered.leave();
    throw asOnlineError(error, "webrtc_error");
  }
}
