// @ts-check
// The errors of online play's transport (peer.js, room.js, channel.js,
// handshake.js, codes.js, qr.js), each with a stable code. The page
// translates a code; the English message here is for developers, logs and
// tests. Pure: no browser API.

/** Every code with its English message. */
export const MESSAGES = Object.freeze({
  // This browser.
  unsupported: "This browser cannot make a direct connection (WebRTC or CompressionStream is missing).",
  // Invitation and answer codes (codes.js, peer.js).
  code_empty: "The code is empty.",
  code_damaged: "The code is damaged: part of it is missing or changed. Copy it again, whole.",
  code_version:
    "The code was made by another version of the game. Both players need the same version: reload the page.",
  not_an_invitation: "This is not an invitation code.",
  not_an_answer: "This is not an answer code.",
  own_invitation: "This is your own invitation. Paste the answer code your friend sent back.",
  wrong_answer: "This answer belongs to another invitation. Ask your friend to open your latest link again.",
  invitation_used: "This invitation has already been answered. Make a new one.",
  invitation_closed: "This invitation was withdrawn.",
  // Making a connection.
  bad_ice_servers: "A STUN or TURN server in the settings is not valid.",
  webrtc_error: "The browser refused to make the connection.",
  no_address: "This device has no network address to offer. Check that it is on a network.",
  connect_timeout: "The connection was not made in time.",
  ice_failed:
    "The two devices could not reach each other. A TURN server in the settings, or being on the same network, may help.",
  // Room codes (room.js).
  bad_room_code: "A room code is six letters and digits (no 0, O, 1 or I).",
  no_relay: "None of the relays could be reached. Check the network, or the relay list in the settings.",
  no_peer: "Nobody is waiting in a room with this code. Check the code, or ask your friend to open the room again.",
  room_full: "This room already has two players.",
  room_closed: "The room was closed.",
  cancelled: "Cancelled.",
  // An open channel (channel.js).
  channel_closed: "The connection is closed.",
  not_json: "The message cannot be sent: it is not plain JSON data.",
  message_too_large: "The message is too large to send.",
  closed: "You closed the connection.",
  peer_closed: "The other player closed the connection.",
  connection_lost: "The connection was lost.",
  protocol_error: "The other side sent something this version does not understand.",
  // Who is at the other end (handshake.js; the lobby).
  identity_unproved: "The other browser could not prove that it is who it says it is: the connection was refused.",
  refused: "The other player did not accept the connection.",
  not_the_player: "This is not the browser of the other player of this game: the connection was refused.",
  // Voice (voice.js).
  voice_bad_signal: "A voice message from the other browser was not valid; it was left aside.",
  // QR codes (qr.js).
  qr_too_long: "The text is too long for a QR code.",
  qr_not_found: "No QR code was found in the picture.",
  camera_unavailable: "The camera cannot be used (no camera, or permission refused).",
});

/** @typedef {keyof typeof MESSAGES} ErrorCode */

/** An error of online play: ``code`` is stable (translate it), ``message`` is English. */
export class OnlineError extends Error {
  /**
   * @param {ErrorCode} code
   * @param {string} [detail] what exactly happened, added to the message
   * @param {unknown} [cause]
   */
  constructor(code, detail = "", cause = undefined) {
    super(detail ? `${MESSAGES[code]} (${detail})` : MESSAGES[code], cause === undefined ? undefined : { cause });
    this.name = "OnlineError";
    /** @type {ErrorCode} */
    this.code = code;
    this.detail = detail;
  }
}

/**
 * ``error`` as an OnlineError: itself if it is one, else one with ``code`` that keeps it as its cause.
 * @param {unknown} error
 * @param {ErrorCode} code
 */
export function asOnlineError(error, code) {
  if (error instanceof OnlineError) return error;
  const detail = error instanceof Error ? `${error.name}: ${error.message}` : String(error);
  return new OnlineError(code, detail, error);
}
