// @ts-check
// The network settings of online play and their defaults: the public Nostr
// relays that carry a room code's signalling, the STUN servers that tell a
// browser its public address, and TURN servers (none by default; a player
// whose network needs one enters it). Also the checking and tidying of
// lists a person edited, for the settings screen. Pure (storage is passed
// in, the page's by default): tested under Node.
//
// Nothing here is contacted by this module; room.js and peer.js use what it
// returns.

/**
 * Public relays for room codes. Taken from the list of relays that trystero 0.25.4 (the library room.js
 * uses) ships as its own defaults, which accept its short-lived events; any one of them is enough.
 */
export const DEFAULT_RELAYS = Object.freeze([
  "wss://nos.lol",
  "wss://purplerelay.com",
  "wss://nostr.data.haus",
  "wss://relay.agorist.space",
  "wss://nostr.vulpem.com",
]);

/** Public STUN servers: each tells a browser the address the internet sees, nothing more. */
export const DEFAULT_STUN = Object.freeze([
  "stun:stun.l.google.com:19302",
  "stun:stun1.l.google.com:19302",
  "stun:stun.cloudflare.com:3478",
]);

export const MAX_RELAYS = 10;
export const MAX_STUN = 5;
export const MAX_TURN = 3;
const MAX_FIELD = 512;

/**
 * A TURN server as the settings keep it: ``turn:host:port`` or ``turns:host:port`` (optionally
 * ``?transport=udp|tcp``), with its user name and password.
 * @typedef {{url: string, username: string, credential: string}} TurnServer
 */

/** @typedef {{relays: string[], stun: string[], turn: TurnServer[]}} NetworkSettings */

/** @returns {NetworkSettings} */
export function defaultNetworkSettings() {
  return { relays: [...DEFAULT_RELAYS], stun: [...DEFAULT_STUN], turn: [] };
}

/**
 * Why an entry was left out: ``not_a_url``, ``wrong_scheme`` (relays: wss://; STUN: stun: or stuns:; TURN:
 * turn: or turns:), ``insecure`` (a ws:// relay that is not on this device), ``duplicate``, ``too_many``,
 * ``missing_username``, ``missing_credential``; ``empty`` (no relay left: the defaults are used).
 * @typedef {"not_a_url" | "wrong_scheme" | "insecure" | "duplicate" | "too_many" | "missing_username" | "missing_credential" | "empty"} ProblemCode
 */

/** @typedef {{field: "relays" | "stun" | "turn", index: number, input: string, code: ProblemCode}} Problem */

/**
 * The entries of a list typed in a text box: one per line (commas and spaces also separate).
 * @param {string} text
 */
export function splitList(text) {
  return String(text ?? "")
    .split(/[\s,;]+/)
    .filter(Boolean);
}

/** @param {string} host */
function isLoopback(host) {
  return host === "localhost" || host === "[::1]" || /^127\.\d{1,3}\.\d{1,3}\.\d{1,3}$/.test(host);
}

/**
 * A relay's address tidied (``wss://`` added to a bare host name, the host in lower case, a lone trailing
 * slash dropped), or why it is refused.
 * @param {string} text
 * @returns {{url: string} | {code: ProblemCode}}
 */
export function normalizeRelayUrl(text) {
  let input = String(text ?? "").trim();
  if (!input || input.length > MAX_FIELD) return { code: "not_a_url" };
  if (!/^[a-z][a-z0-9+.-]*:\/\//i.test(input)) input = `wss://${input}`;
  let url;
  try {
    url = new URL(input);
  } catch {
    return { code: "not_a_url" };
  }
  if (url.protocol !== "wss:" && url.protocol !== "ws:") return { code: "wrong_scheme" };
  if (!url.hostname || url.username || url.password) return { code: "not_a_url" };
  if (url.protocol === "ws:" && !isLoopback(url.hostname)) return { code: "insecure" };
  const path = url.pathname === "/" ? "" : url.pathname;
  return { url: `${url.protocol}//${url.host}${path}${url.search}` };
}

const HOST = String.raw`(\[[0-9a-fA-F:.]+\]|[A-Za-z0-9](?:[A-Za-z0-9-]*[A-Za-z0-9])?(?:\.[A-Za-z0-9](?:[A-Za-z0-9-]*[A-Za-z0-9])?)*)`;
const ICE_URL = new RegExp(String.raw`^([a-z]+):${HOST}(?::(\d{1,5}))?(\?transport=(?:udp|tcp))?$`, "i");

/**
 * An ICE server's URL (RFC 7064/7065) tidied, or why it is refused.
 * @param {string} text
 * @param {readonly string[]} schemes the schemes allowed; the first is added to a bare ``host:port``
 * @returns {{url: string} | {code: ProblemCode}}
 */
function normalizeIceUrl(text, schemes) {
  let input = String(text ?? "").trim();
  if (!input || input.length > MAX_FIELD) return { code: "not_a_url" };
  if (!/^[a-z]+:(?!\d)/i.test(input)) input = `${schemes[0]}:${input}`;
  if (!schemes.includes(input.slice(0, input.indexOf(":")).toLowerCase())) return { code: "wrong_scheme" };
  const match = ICE_URL.exec(input);
  if (!match) return { code: "not_a_url" };
  const [, scheme = "", host = "", port, query = ""] = match;
  if (port !== undefined && (Number(port) < 1 || Number(port) > 65535)) return { code: "not_a_url" };
  if (query && !scheme.toLowerCase().startsWith("turn")) return { code: "not_a_url" };
  return { url: `${scheme.toLowerCase()}:${host.toLowerCase()}${port === undefined ? "" : `:${port}`}${query}` };
}

/** @param {string} text */
export function normalizeStunUrl(text) {
  return normalizeIceUrl(text, ["stun", "stuns"]);
}

/** @param {string} text */
export function normalizeTurnUrl(text) {
  return normalizeIceUrl(text, ["turn", "turns"]);
}

/**
 * @param {unknown} value
 * @returns {unknown[]}
 */
function asList(value) {
  if (Array.isArray(value)) return value;
  if (typeof value === "string") return splitList(value);
  return [];
}

/**
 * Settings as edited (or as stored, or from an older version) checked and tidied: every entry that cannot
 * be used is left out and named in ``problems``. A missing list gets its default; an empty relay list gets
 * the default relays (room codes need one); empty STUN and TURN lists stay empty.
 * @param {unknown} raw ``{relays, stun, turn}``; a list may also be the text of a text box
 * @returns {{settings: NetworkSettings, problems: Problem[]}}
 */
export function normalizeNetworkSettings(raw) {
  const given = raw && typeof raw === "object" ? /** @type {Record<string, unknown>} */ (raw) : {};
  /** @type {Problem[]} */
  const problems = [];

  /**
   * @param {"relays" | "stun"} field
   * @param {(text: string) => {url: string} | {code: ProblemCode}} normalize
   * @param {number} max
   * @param {readonly string[]} fallback
   */
  function urls(field, normalize, max, fallback) {
    if (!(field in given)) return [...fallback];
    /** @type {string[]} */
    const kept = [];
    asList(given[field]).forEach((entry, index) => {
      const input = typeof entry === "string" ? entry : String(entry);
      const result = normalize(input);
      if ("code" in result) problems.push({ field, index, input, code: result.code });
      else if (kept.includes(result.url)) problems.push({ field, index, input, code: "duplicate" });
      else if (kept.length >= max) problems.push({ field, index, input, code: "too_many" });
      else kept.push(result.url);
    });
    return kept;
  }

  let relays = urls("relays", normalizeRelayUrl, MAX_RELAYS, DEFAULT_RELAYS);
  if (!relays.length) {
    problems.push({ field: "relays", index: -1, input: "", code: "empty" });
    relays = [...DEFAULT_RELAYS];
  }
  const stun = urls("stun", normalizeStunUrl, MAX_STUN, DEFAULT_STUN);

  /** @type {TurnServer[]} */
  const turn = [];
  const turnGiven = Array.isArray(given.turn) ? given.turn : [];
  turnGiven.forEach((entry, index) => {
    const e = entry && typeof entry === "object" ? /** @type {Record<string, unknown>} */ (entry) : {};
    const input = typeof e.url === "string" ? e.url : "";
    const result = normalizeTurnUrl(input);
    const username = typeof e.username === "string" ? e.username.trim() : "";
    const credential = typeof e.credential === "string" ? e.credential : "";
    /** @type {ProblemCode | null} */
    let code = "code" in result ? result.code : null;
    if (!code && !username) code = "missing_username";
    if (!code && !credential) code = "missing_credential";
    if (!code && (username.length > MAX_FIELD || credential.length > MAX_FIELD)) code = "not_a_url";
    if (!code && turn.some((t) => "url" in result && t.url === result.url && t.username === username)) {
      code = "duplicate";
    }
    if (!code && turn.length >= MAX_TURN) code = "too_many";
    if (code || !("url" in result)) problems.push({ field: "turn", index, input, code: code ?? "not_a_url" });
    else turn.push({ url: result.url, username, credential });
  });
  return { settings: { relays, stun, turn }, problems };
}

/** Where this browser keeps the network settings a person saved. */
export const NETWORK_KEY = "sixty-six.network.v1";

/**
 * The network settings saved in ``storage`` (checked again), or the public defaults.
 * @param {Pick<Storage, "getItem">} [storage]
 * @returns {NetworkSettings}
 */
export function storedNetworkSettings(storage = globalThis.localStorage) {
  try {
    const stored = JSON.parse(storage.getItem(NETWORK_KEY) || "null");
    if (stored) return normalizeNetworkSettings(stored).settings;
  } catch {
    // the defaults
  }
  return defaultNetworkSettings();
}

/**
 * The ICE servers of ``settings`` for RTCPeerConnection (peer.js, room.js): the STUN servers as one entry,
 * each TURN server as its own, with its credentials.
 * @param {NetworkSettings} settings
 * @returns {RTCIceServer[]}
 */
export function iceServersOf(settings) {
  /** @type {RTCIceServer[]} */
  const servers = [];
  if (settings.stun.length) servers.push({ urls: [...settings.stun] });
  for (const t of settings.turn) servers.push({ urls: t.url, username: t.username, credential: t.credential });
  return servers;
}
