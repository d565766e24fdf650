// @ts-check
// The lobby's traffic on Nostr relays (nostr-tools): open tables' offers,
// their withdrawal, and the join requests and answers between two players.
// It only carries texts: the engine makes, signs and judges every offer and
// request (py_engine/service/lobby/, the protocol's lobby_* commands).
//
//   offer      kind OFFER_KIND, parameterized-replaceable (NIP-33): ``d`` = the table's id, ``t`` = LOBBY_TAG
//              and the rules' pool, ``expiration`` (NIP-40) = when the offer lapses; content = the offer text
//   withdrawn  the same address replaced by an empty offer tagged ``status: withdrawn`` and a deletion (NIP-09),
//              so that a page that misses the deletion still drops the table
//   message    kind MESSAGE_KIND to one player's Nostr key (``p``), content encrypted with NIP-44, so only that
//              player reads it: a join request, or the opener's answer (joined, with a room code to meet on,
//              or refused with the engine's words)
//
// Each browser signs its events with a Nostr key of its own, kept in localStorage beside its identity; it is
// not the identity (the engine's offers and requests carry that, signed with it). What is read is bounded:
// offers newer than OFFER_WINDOW_S only, at most READ_LIMIT per relay on (re)subscribing, a quota of
// signature checks per minute, and at most KEPT_MAX offers kept. Relays that drop are subscribed again with a
// growing pause; what is up is reported for the page to say in words.

import { noteDamage } from "../platform/damage.js";
import { OnlineError } from "./errors.js";

/** @typedef {import("../vendor/nostr-tools.mjs").Event} NostrEvent */
/** @typedef {typeof import("../vendor/nostr-tools.mjs")} NostrTools */

export const OFFER_KIND = 30666;
export const MESSAGE_KIND = 6666;
/** The lobby's topic: every offer, withdrawal and message carries it. */
export const LOBBY_TAG = "sixty-six-lobby-1";
export const NOSTR_KEY = "sixty-six.nostr-key.v1";
/** Offers older than this are not asked for (a live table is renewed every minute and stands 3). */
const OFFER_WINDOW_S = 4 * 60;
/** The most events one relay sends when the page (re)subscribes. */
export const READ_LIMIT = 500;
/** The most offers kept (the newest); the engine keeps at most 200 tables of them. */
const KEPT_MAX = 1000;
/** The most event ids remembered as read. */
const EVENTS_KEPT = 5000;
/** Signature checks: at most this many a minute in all, and per sender (messages and offers apart). */
const CHECKS_PER_MINUTE = 2000;
const CHECKS_PER_SENDER = 8;
/** The longest offer and message text read (as the engine reads offers). */
const OFFER_TEXT_MAX = 96 * 1024;
const MESSAGE_TEXT_MAX = 16 * 1024;
/** How long a message stands on the relays. */
const MESSAGE_LIFE_S = 10 * 60;
/** Pauses before subscribing again to a relay that dropped (ms), then the last one again and again. */
const RETRY_MS = [1000, 2000, 4000, 8000, 15000];
/** How long a relay has to connect. */
const CONNECT_MS = 5000;

/** @type {Promise<NostrTools> | null} */
let library = null;

/** nostr-tools, loaded on first use (the build bundles it into vendor/). */
export function loadNostr() {
  library ??= import("../vendor/nostr-tools.mjs").catch((error) => {
    library = null;
    throw new OnlineError("unsupported", `the lobby's library did not load: ${error}`);
  });
  return library;
}

/**
 * This browser's Nostr key (made on first use; a damaged one is kept aside, said, and replaced).
 * @param {NostrTools} nostr
 * @param {Storage} [storage]
 */
function nostrKey(nostr, storage = globalThis.localStorage) {
  let text = null;
  try {
    text = storage.getItem(NOSTR_KEY);
  } catch {
    // storage disabled: this visit's key only
  }
  if (text !== null) {
    if (/^"[0-9a-f]{64}"$/.test(text)) return nostr.hexToBytes(JSON.parse(text));
    noteDamage(NOSTR_KEY, text, false, storage);
  }
  const secret = nostr.generateSecretKey();
  try {
    storage.setItem(NOSTR_KEY, JSON.stringify(nostr.bytesToHex(secret)));
  } catch {
    // storage disabled or full
  }
  return secret;
}

/** @param {NostrEvent} event @param {string} name */
const tagOf = (event, name) => event.tags.find((tag) => tag[0] === name)?.[1];
const nowS = () => Math.floor(Date.now() / 1000);

/**
 * An offer as read: who published it (``sender``: the Nostr key), its table's id and text, when.
 * @typedef {{id: string, sender: string, table: string, text: string, at: number}} OfferEvent
 */
/** @typedef {{url: string, state: "connecting" | "up" | "down"}} RelayState */
/**
 * @typedef {object} LobbyHandlers
 * @property {() => void} [onOffers] new offers or withdrawals to read (take them with takeOffers)
 * @property {(sender: string, message: Record<string, unknown>) => void} [onMessage] a message to this browser
 * @property {(relays: RelayState[]) => void} [onRelays] a relay came up or went down
 */

/** What the page has read: offers by address, withdrawals by address, each offer event's address, event ids. */
const seen = {
  /** @type {Map<string, OfferEvent>} */
  offers: new Map(),
  /** @type {Map<string, number>} */
  markers: new Map(),
  /** @type {Map<string, string>} */
  addresses: new Map(),
  /** The ids of the events checked (the newest EVENTS_KEPT). @type {Set<string>} */
  events: new Set(),
};

/** The lobby on a set of relays: read offers, publish this browser's, send and receive messages. */
export class LobbyRelays {
  /**
   * @param {NostrTools} nostr
   * @param {string[]} relays
   * @param {LobbyHandlers} handlers
   * @param {Uint8Array} secret this browser's Nostr key
   */
  constructor(nostr, relays, handlers, secret) {
    this.nostr = nostr;
    this.urls = [...new Set(relays)];
    this.handlers = handlers;
    this.secret = secret;
    this.publicKey = nostr.getPublicKey(secret);
    this.pool = new nostr.SimplePool({ enableReconnect: false });
    // Offers are checked against the quota before their signature (checking is the costly part).
    this.pool.verifyEvent = (event) => {
      if (!this.admit(event) || !nostr.verifyEvent(event)) return false;
      seen.events.add(event.id);
      if (seen.events.size > EVENTS_KEPT) seen.events.delete(/** @type {string} */ (seen.events.values().next().value));
      return true;
    };
    this.pool.idleTimeout = 2 ** 30; // the lobby's subscriptions stay open while it is
    /** @type {Map<string, RelayState["state"]>} */
    this.states = new Map(this.urls.map((url) => [url, "connecting"]));
    /** @type {Map<string, {close: () => void}>} */
    this.subscriptions = new Map();
    /** @type {Map<string, number>} */
    this.retries = new Map();
    /** @type {Map<string, ReturnType<typeof setTimeout>>} */
    this.timers = new Map();
    /** The newest offer of each table (``sender:table``), and the offers not yet taken by the page. What was
     * read is kept from one opening of the lobby to the next (the engine keeps its tables too), so a table
     * withdrawn meanwhile is withdrawn from both. */
    this.offers = seen.offers;
    /** @type {OfferEvent[]} */
    this.fresh = [];
    /** When each address (``sender:table``) was withdrawn; tables withdrawn not yet taken; each offer event's
     * address (id → address). */
    this.markers = seen.markers;
    /** @type {string[]} */
    this.freshWithdrawn = [];
    this.addresses = seen.addresses;
    /** Signature checks of the last minute: in all, and per sender. */
    /** @type {number[]} */
    this.checks = [];
    /** @type {Map<string, number[]>} */
    this.bySender = new Map();
    this.dropped = 0;
    this.since = nowS() - OFFER_WINDOW_S;
    this.closed = false;
  }

  /** Subscribe on every relay. */
  start() {
    for (const url of this.urls) this.subscribe(url);
  }

  /** @param {string} url */
  subscribe(url) {
    if (this.closed) return;
    this.subscriptions.get(url)?.close();
    const since = Math.min(nowS() - OFFER_WINDOW_S, this.since);
    const offers = { kinds: [OFFER_KIND, 5], "#t": [LOBBY_TAG], since: nowS() - OFFER_WINDOW_S, limit: READ_LIMIT };
    const messages = { kinds: [MESSAGE_KIND], "#p": [this.publicKey], since, limit: 50 };
    this.setState(url, "connecting");
    let up = false;
    const sub = this.pool.subscribeMap(
      [
        { url, filter: offers },
        { url, filter: messages },
      ],
      {
        maxWait: CONNECT_MS,
        onevent: (event) => this.received(event),
        oneose: () => {
          up = true;
          this.retries.set(url, 0);
          this.setState(url, "up");
        },
        onclose: () => {
          if (this.closed || this.subscriptions.get(url) !== sub) return;
          this.setState(url, "down");
          const tries = up ? 0 : (this.retries.get(url) ?? 0);
          this.retries.set(url, tries + 1);
          clearTimeout(this.timers.get(url));
          this.timers.set(
            url,
            setTimeout(() => this.subscribe(url), RETRY_MS[Math.min(tries, RETRY_MS.length - 1)]),
          );
        },
      },
    );
    this.subscriptions.set(url, sub);
  }

  /** @param {string} url @param {RelayState["state"]} state */
  setState(url, state) {
    if (this.states.get(url) === state) return;
    this.states.set(url, state);
    this.handlers.onRelays?.(this.relayStates());
  }

  /** @returns {RelayState[]} */
  relayStates() {
    return this.urls.map((url) => ({ url, state: this.states.get(url) ?? "down" }));
  }

  /**
   * Before its signature is checked: is ``event`` one of ours, small enough, within the quotas?
   * @param {NostrEvent} event
   */
  admit(event) {
    if (typeof event?.content !== "string" || !Array.isArray(event.tags) || typeof event.pubkey !== "string") {
      return false;
    }
    const message = event.kind === MESSAGE_KIND;
    if (event.content.length > (message ? MESSAGE_TEXT_MAX : OFFER_TEXT_MAX) || event.tags.length > 20) return false;
    // An event read and checked before (each new subscription sends the stored ones again) costs nothing more.
    if (typeof event.id !== "string" || seen.events.has(event.id)) return false;
    const now = Date.now();
    this.checks = this.checks.filter((t) => now - t < 60_000);
    // Messages to this browser have a quota of their own: a sender's offers do not use up its requests.
    const sender = message ? `message ${event.pubkey}` : event.pubkey;
    const mine = (this.bySender.get(sender) ?? []).filter((t) => now - t < 60_000);
    if (this.checks.length >= CHECKS_PER_MINUTE || mine.length >= CHECKS_PER_SENDER) {
      this.dropped += 1;
      return false;
    }
    this.checks.push(now);
    mine.push(now);
    this.bySender.set(sender, mine);
    if (this.bySender.size > 4 * KEPT_MAX) {
      for (const [key, times] of this.bySender) if (!times.some((t) => now - t < 60_000)) this.bySender.delete(key);
    }
    return true;
  }

  /** @param {NostrEvent} event */
  received(event) {
    if (event.kind === MESSAGE_KIND) {
      this.message(event);
      return;
    }
    if (event.kind === 5) {
      // A deletion counts only for offers its own sender published.
      for (const tag of event.tags) {
        if (tag[0] !== "e" || typeof tag[1] !== "string") continue;
        const address = this.addresses.get(tag[1]);
        if (address?.startsWith(`${event.pubkey}:`)) this.withdraw(address, event.created_at);
      }
      return;
    }
    const table = tagOf(event, "d");
    if (!table || table.length > 64) return;
    const address = `${event.pubkey}:${table}`;
    if (tagOf(event, "status") === "withdrawn") {
      this.withdraw(address, event.created_at);
      return;
    }
    const kept = this.offers.get(address);
    if ((kept && kept.at >= event.created_at) || (this.markers.get(address) ?? -1) >= event.created_at) return;
    const offer = { id: event.id, sender: event.pubkey, table, text: event.content, at: event.created_at };
    this.offers.set(address, offer);
    this.addresses.set(event.id, address);
    this.fresh.push(offer);
    if (this.offers.size > KEPT_MAX) this.forgetOldest();
    this.handlers.onOffers?.();
  }

  forgetOldest() {
    const sorted = [...this.offers.entries()].sort((a, b) => a[1].at - b[1].at);
    for (const [key, offer] of sorted.slice(0, this.offers.size - KEPT_MAX)) {
      this.offers.delete(key);
      this.addresses.delete(offer.id);
    }
    if (this.fresh.length > READ_LIMIT) this.fresh = this.fresh.slice(-READ_LIMIT);
  }

  /**
   * Its sender withdrew the table at ``address`` (``sender:table``; another key's marker for the same table id
   * withdraws nothing of the table's own sender).
   * @param {string} address
   * @param {number} at
   */
  withdraw(address, at) {
    if ((this.markers.get(address) ?? -1) >= at) return;
    this.markers.set(address, at);
    if (this.markers.size > KEPT_MAX) this.markers.delete(/** @type {string} */ (this.markers.keys().next().value));
    const offer = this.offers.get(address);
    if (!offer || offer.at > at) return;
    this.offers.delete(address);
    this.addresses.delete(offer.id);
    this.fresh = this.fresh.filter((o) => o !== offer);
    this.freshWithdrawn.push(offer.table);
    this.handlers.onOffers?.();
  }

  /**
   * The offers and withdrawals read since the last call: offers newest first, at most READ_LIMIT (the rest
   * wait for the next call).
   */
  takeOffers() {
    const fresh = this.fresh.sort((a, b) => b.at - a.at);
    const offers = fresh.slice(0, READ_LIMIT);
    this.fresh = fresh.slice(READ_LIMIT);
    const withdrawn = this.freshWithdrawn;
    this.freshWithdrawn = [];
    return { offers: offers.map((o) => ({ text: o.text, sender: o.sender })), withdrawn };
  }

  /** The sender (Nostr key) of the newest offer of ``table`` read, if any. @param {string} table */
  senderOf(table) {
    let found = null;
    for (const offer of this.offers.values())
      if (offer.table === table && (!found || offer.at > found.at)) found = offer;
    return found?.sender ?? null;
  }

  /** @param {NostrEvent} event */
  message(event) {
    if (event.created_at < this.since) return;
    let value;
    try {
      const key = this.nostr.nip44.getConversationKey(this.secret, event.pubkey);
      value = JSON.parse(this.nostr.nip44.decrypt(event.content, key));
    } catch {
      return; // not for this browser, or damaged
    }
    if (value && typeof value === "object" && !Array.isArray(value)) this.handlers.onMessage?.(event.pubkey, value);
  }

  /**
   * Sign and publish ``template`` on every relay; resolves with how many relays took it.
   * @param {{kind: number, tags: string[][], content: string, created_at?: number}} template
   */
  async publish(template) {
    const event = this.nostr.finalizeEvent({ created_at: nowS(), ...template }, this.secret);
    const results = await Promise.allSettled(this.pool.publish(this.urls, event, { maxWait: CONNECT_MS }));
    return { event, accepted: results.filter((r) => r.status === "fulfilled").length };
  }

  /**
   * Publish an open table's offer (again, renewed), standing until ``expires`` (ms).
   * @param {string} table
   * @param {string} text the engine's offer
   * @param {string} pool the rules' pool
   * @param {number} expires
   * @param {number} after the created_at of this table's last event (a replacement must be newer)
   */
  publishOffer(table, text, pool, expires, after = 0) {
    return this.publish({
      kind: OFFER_KIND,
      created_at: Math.max(nowS(), after + 1),
      tags: [
        ["d", table],
        ["t", LOBBY_TAG],
        ["t", `${LOBBY_TAG}-${pool}`],
        ["expiration", String(Math.ceil(expires / 1000))],
      ],
      content: text,
    });
  }

  /**
   * Withdraw a table: its offer replaced by a withdrawn marker, and the offer deleted.
   * @param {string} table
   * @param {NostrEvent | null} last the table's last offer event
   * @param {boolean} [now] both at once, not waiting for the relays' answer (the page is going)
   */
  async withdrawOffer(table, last, now = false) {
    const after = last?.created_at ?? 0;
    const marker = this.publish({
      kind: OFFER_KIND,
      created_at: Math.max(nowS(), after + 1),
      tags: [
        ["d", table],
        ["t", LOBBY_TAG],
        ["status", "withdrawn"],
        ["expiration", String(nowS() + OFFER_WINDOW_S)],
      ],
      content: "",
    });
    if (!now) await marker;
    if (last) {
      await this.publish({
        kind: 5,
        tags: [
          ["e", last.id],
          ["a", `${OFFER_KIND}:${this.publicKey}:${table}`],
          ["k", String(OFFER_KIND)],
          ["t", LOBBY_TAG],
        ],
        content: "",
      });
    }
  }

  /**
   * Send ``value`` to one player's Nostr key, encrypted so that only that player reads it.
   * @param {string} to
   * @param {Record<string, unknown>} value
   */
  send(to, value) {
    const key = this.nostr.nip44.getConversationKey(this.secret, to);
    return this.publish({
      kind: MESSAGE_KIND,
      tags: [
        ["p", to],
        ["expiration", String(nowS() + MESSAGE_LIFE_S)],
      ],
      content: this.nostr.nip44.encrypt(JSON.stringify(value), key),
    });
  }

  /** Close every subscription and connection. */
  close() {
    this.closed = true;
    for (const timer of this.timers.values()) clearTimeout(timer);
    this.subscriptions.clear();
    this.pool.destroy(); // closes the connections, and their subscriptions with them
  }
}

/**
 * The lobby on ``relays`` (a relay list from the network settings), with this browser's Nostr key.
 * @param {string[]} relays
 * @param {LobbyHandlers} handlers
 */
export async function lobbyRelays(relays, handlers) {
  if (!relays.length) throw new OnlineError("no_relay", "no relay in the settings");
  const nostr = await loadNostr();
  const relaysOf = new LobbyRelays(nostr, relays, handlers, nostrKey(nostr));
  relaysOf.start();
  return relaysOf;
}
