// @ts-check
// The animation of a table's answer: each frame is an event with the view
// right after it (py_engine/service/table.py makes them), told in words and sound,
// with the pauses and card movements that let the player follow the play.

import { t } from "../platform/i18n.js";
import { suitName } from "../table/cards.js";
import { narrate } from "../table/narrate.js";
import { eventSound } from "../table/sound.js";
import { sweep } from "../table/table.js";
import { announce, draw, show } from "./draw.js";
import { clone, dom, pause, state, timing } from "./state.js";

/** @import { Frame, GameEvent, View } from "../../types/engine.js" */

/**
 * The other seat's claim, resignation or pass, on the status line.
 * @param {Extract<GameEvent, {type: "claim" | "resign" | "pass"}>} event
 */
function theirDeed(event) {
  if (event.type === "claim") return event.valid ? t("event.claim.opp") : t("event.wrongClaim.opp");
  return event.type === "resign" ? t("event.resign.opp") : t("event.pass.opp");
}

/**
 * Animate the table through ``frames`` (each event with the view after it), then show ``view`` (if any).
 * @param {Frame[]} frames
 * @param {View | null} view
 */
export async function playFrames(frames, view) {
  const pace = timing();
  for (const [i, { event, view: frame }] of frames.entries()) {
    const me = frame.seat;
    const theirs = "seat" in event && event.seat !== null && event.seat !== me;
    narrate(event, frame);
    eventSound(event, me);
    switch (event.type) {
      case "play": {
        // The last trick, left on the table, goes to its pile as the next card comes.
        const lingering = dom.trick.querySelectorAll(".lingering");
        const pile = lingering[0]?.getAttribute("data-winner") === "me" ? dom.myPile : dom.oppPile;
        if (lingering.length) await sweep(lingering, pile, pace.move / 2);
        await show(clone(frame));
        break;
      }
      case "trick":
        if (pace.trick) {
          await pause(pace.trick);
          await sweep(dom.trick.querySelectorAll(".card"), event.winner === me ? dom.myPile : dom.oppPile, pace.move);
        }
        await show(clone(frame));
        break;
      case "draw":
        // Both players draw after a trick: the two cards fly together (the later frame shows both).
        if (frames[i + 1]?.event.type === "draw") break;
        await show(clone(frame));
        await pause(pace.draw);
        break;
      case "marriage":
        if (theirs) {
          announce(t("event.marriage.opp", { points: event.points, suit: suitName(event.suit) }));
          await show(clone(frame));
          await pause(pace.notice);
        }
        break;
      case "exchange":
      case "close":
        if (theirs) announce(event.type === "close" ? t("event.close.opp") : t("event.exchange.opp"));
        await show(clone(frame));
        if (theirs) await pause(pace.notice);
        break;
      case "claim":
      case "resign":
      case "pass":
        if (theirs) {
          announce(theirDeed(event));
          draw();
          await pause(pace.notice);
        }
        break;
      default:
        break;
    }
  }
  state.message = "";
  if (view) {
    state.view = view;
    await show(clone(view));
  }
}
