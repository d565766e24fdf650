// What the page may ask of a game, by the game's mode: part of the worker's
// privacy boundary (worker.js imports this; nothing here runs in the page).
//
// Every game has a "meta" object that the page chose when it started it and
// that is saved with the game's record:
//   {mode: "computer" | "hotseat" | "watch", ranked: bool, names: [a, b] | null, levels: [l0, l1] | null}
//
// - computer: the page plays seat 0 and sees seat 0 only; the computer (seat
//   1) moves through ai_move, observed as seat 0. Undo (within the deal being
//   played) and hints only in unranked games.
// - hotseat: two people share the device. The page may see a seat only while
//   that seat has something to do (its turn, or a claim window), or once the
//   deal is over; an action is observed by the seat that made it. No undo.
// - watch: both seats are the computer. The watcher is not a player, so the
//   views carry both hands ("both_hands"), but never the talon's face-down
//   cards. The page cannot act, undo or ask for hints.
//
// Records: the page never gets the saved record of a game in play. An export
// holds finished deals only; while the game can go on, the deal in progress is
// left out and the seed (which would foretell the next deals' cards) is
// replaced by 0. Every deal in a record carries its own pack, so the export
// still replays exactly.

export const MODES = ["computer", "hotseat", "watch"];
const LEVELS = [1, 2, 3, 4, 5];
const NAME_MAX = 24;

export function refusal(code, message) {
  return { ok: false, error: { code, message } };
}

function cleanName(name) {
  if (typeof name !== "string") return "";
  // No control characters; the page shows names as text only.
  return name.replace(/[\u0000-\u001f\u007f]/g, "").trim().slice(0, NAME_MAX);
}

/** A valid meta object from whatever the page (or an old save) gave. */
export function cleanMeta(meta) {
  const m = meta && typeof meta === "object" ? meta : {};
  const mode = MODES.includes(m.mode) ? m.mode : "computer";
  const names = Array.isArray(m.names) && m.names.length === 2 ? m.names.map(cleanName) : null;
  const levels =
    Array.isArray(m.levels) && m.levels.length === 2 && m.levels.every((l) => LEVELS.includes(l)) ? [...m.levels] : null;
  return { mode, ranked: mode !== "watch" && m.ranked === true, names, levels };
}

/** The seats that may be shown now in a hot-seat game: those with something to do, or both once it is over. */
function servableSeats(call, game) {
  const legal = [0, 1].map((seat) => call({ cmd: "legal", game, seat }));
  if (!legal.every((answer) => answer.ok)) return { seats: [], legal };
  const lists = legal.map((answer) => answer.actions);
  if (!lists[0].length && !lists[1].length) return { seats: [0, 1], lists }; // the game is over
  return { seats: [0, 1].filter((seat) => lists[seat].length > 0), lists };
}

/**
 * Check a page request against the game's mode. Returns {request} (possibly
 * changed: the observer) or {refused: response}.
 */
export function gate(payload, meta, call) {
  const cmd = payload.cmd;
  const request = { ...payload };
  const seat = payload.seat;
  const mode = meta.mode;
  const noAssist = (what) => refusal("bad_request", `${what} is not available in ${meta.ranked ? "a ranked game" : `this mode (${mode})`}`);
  if (cmd === "hint" && (meta.ranked || mode === "watch")) return { refused: noAssist("a hint") };
  if (cmd === "undo" && (meta.ranked || mode !== "computer")) return { refused: noAssist("undo") };
  if (mode === "computer") {
    if (["view", "legal", "hint", "act", "undo"].includes(cmd) && seat !== 0) {
      return { refused: refusal("bad_request", `the page may ask '${cmd}' for seat 0 only`) };
    }
    if (cmd === "act" || cmd === "ai_move" || cmd === "undo") request.observer = 0;
    if (cmd === "ai_move" && seat !== 1) return { refused: refusal("bad_request", "the computer plays seat 1") };
    return { request };
  }
  if (mode === "hotseat") {
    if (cmd === "ai_move") return { refused: refusal("bad_request", "nobody is the computer in a game for two players") };
    if (cmd === "view" || cmd === "legal" || cmd === "hint") {
      if (seat !== 0 && seat !== 1) return { request }; // the engine says what is wrong
      const { seats } = servableSeats(call, payload.game);
      if (!seats.includes(seat)) {
        return { refused: refusal("not_your_turn", `seat ${seat} has nothing to do now: its cards stay hidden`) };
      }
    }
    if (cmd === "act") request.observer = seat;
    return { request };
  }
  // watch
  if (cmd === "act" || cmd === "hint" || cmd === "undo") {
    return { refused: refusal("bad_request", `a watcher cannot '${cmd}': both seats are the computer`) };
  }
  if ((cmd === "view" || cmd === "legal") && seat !== 0) {
    return { refused: refusal("bad_request", `the watcher asks '${cmd}' for seat 0 only (with both hands)`) };
  }
  if (cmd === "ai_move") request.observer = 0;
  return { request };
}

/**
 * Add what the mode shows beyond the seat's own view: the other hand
 * (watch); whether the other seat may claim now (hotseat); whether undo can
 * take something back (computer). Two players: a new deal's first view is
 * left out ({view: null, handover: the seat that plays first}), so the page
 * holds no hand until that player asks for it.
 */
export function decorate(payload, result, meta, game, call) {
  if (!result.ok || !result.view) return result;
  const view = result.view;
  if (meta.mode === "watch") {
    const other = call({ cmd: "view", game, seat: 1 });
    if (other.ok) view.both_hands = [view.hand, other.view.hand];
  } else if (meta.mode === "hotseat") {
    const starts = payload.cmd === "new_game" || (payload.cmd === "act" && payload.action === "next");
    if (starts && !view.deal_result) {
      const events = (result.events || []).filter((event) => event.type !== "deal");
      return { ...result, events, view: null, handover: view.to_act };
    }
    const seat = view.seat;
    const other = call({ cmd: "legal", game, seat: 1 - seat });
    view.other_can_claim = Boolean(other.ok && other.actions.includes("claim") && view.to_act === seat);
  } else if (!meta.ranked) {
    const saved = call({ cmd: "save", game });
    view.can_undo = saved.ok && undoAllowed(saved.record, 0, view) === null;
  }
  return result;
}

/** May ``seat`` take back its last action now? Only within the deal being played (its cards were never all shown). */
export function undoAllowed(record, seat, view) {
  if (!view || view.deal_result) return "the deal is over: only moves of a deal in play can be taken back";
  const deal = record.deals[record.deals.length - 1];
  if (!deal.actions.some(([who]) => who === seat)) return "nothing of yours to take back in this deal";
  return null;
}

/**
 * The record to give the page for a file: finished deals only. ``finished``:
 * the game is over (nothing of it is secret any more). Returns null when no
 * deal is finished yet.
 */
export function exportable(record, { dealOver, finished }, meta) {
  const deals = dealOver ? record.deals : record.deals.slice(0, -1);
  if (!deals.length) return null;
  const out = { ...record, deals: deals.map((d) => ({ ...d, actions: d.actions.map((a) => [...a]) })) };
  if (!finished) out.seed = 0;
  out.players = { mode: meta.mode, ranked: meta.ranked, names: meta.names, levels: meta.levels };
  return out;
}

/** The deals of a record, without cards: [{index, dealer, actions, finished}]. */
export function dealList(record, lastOver) {
  return record.deals.map((deal, index) => ({
    index,
    dealer: deal.dealer,
    actions: deal.actions.length,
    finished: index < record.deals.length - 1 || lastOver,
  }));
}

/** The record cut after deal ``index`` (a scratch game is loaded from it to review that deal). */
export function recordUpTo(record, index) {
  return { ...record, deals: record.deals.slice(0, index + 1) };
}

/** Merge reviews of the same deal evaluated for different seats into one. */
export function mergeReviews(reviews) {
  const [first, ...rest] = reviews;
  for (const other of rest) {
    other.steps.forEach((step, i) => {
      if (step.ranking) {
        first.steps[i].ranking = step.ranking;
        first.steps[i].clearly_worse = step.clearly_worse;
      }
    });
  }
  return first;
}
