// vendor/nostr-tools.mjs is part of the npm package nostr-tools, bundled by
// build.py (see trystero.d.mts): only what web/online/lobby-relays.js uses.
// Types only: the package's own.

export type { Event, EventTemplate } from "nostr-tools/core";
export * as nip44 from "nostr-tools/nip44";
export { SimplePool } from "nostr-tools/pool";
export { finalizeEvent, generateSecretKey, getPublicKey, verifyEvent } from "nostr-tools/pure";
export { bytesToHex, hexToBytes } from "nostr-tools/utils";
