// web/online/room.js under Node: the one unhandled rejection the page drops (a send that trystero does not
// await, refused because the peer's data channel has just closed), and only that one.

import assert from "node:assert/strict";
import { test } from "node:test";

const { dropClosedChannelSend } = await import("../../web/online/room.js");

const IN_TRYSTERO = "at sendData (http://127.0.0.1:8000/vendor/trystero.mjs:1:2345)";
const IN_THE_PAGE = "at send (http://127.0.0.1:8000/page/chunk-7LBAK47R.js:1:99)";

/** An unhandledrejection event whose reason is ``error``, thrown where ``at`` says; records preventDefault. */
function rejection(error, at) {
  Object.defineProperty(error, "stack", { value: `${error.name}: ${error.message}\n    ${at}` });
  const event = { reason: error, dropped: false };
  event.preventDefault = () => {
    event.dropped = true;
  };
  return event;
}

const closedChannel = () => new DOMException("RTCDataChannel.readyState is not 'open'", "InvalidStateError");

test("a send refused by a closed data channel, inside trystero, is dropped", () => {
  const event = rejection(closedChannel(), IN_TRYSTERO);
  dropClosedChannelSend(event);
  assert.equal(event.dropped, true);
});

test("the same refusal in the page's own code stays an error of the page's", () => {
  const event = rejection(closedChannel(), IN_THE_PAGE);
  dropClosedChannelSend(event);
  assert.equal(event.dropped, false);
});

test("any other error inside trystero stays an error", () => {
  for (const error of [new TypeError("x is undefined"), new DOMException("quota", "QuotaExceededError")]) {
    const event = rejection(error, IN_TRYSTERO);
    dropClosedChannelSend(event);
    assert.equal(event.dropped, false, error.name);
  }
  const notAnError = { reason: "trystero InvalidStateError", dropped: false, preventDefault() {} };
  dropClosedChannelSend(notAnError);
  assert.equal(notAnError.dropped, false);
});
