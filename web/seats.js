// Views and events as seen from the bottom of the table.
//
// The engine's view of a seat already says "hand", "my_points",
// "opponent_hand_count" from that seat's side, but its seat numbers (to_act,
// trick and marriage seats, winners, scores...) are the protocol's own, 0 and
// 1. The table draws seat 0 at the bottom. When two people share the device
// the bottom seat is the one holding it, so a view of seat 1 has its seat
// numbers swapped here, and the table needs nothing else.

const other = (seat) => (seat === 0 || seat === 1 ? 1 - seat : seat);
const swapped = (pair) => (Array.isArray(pair) && pair.length === 2 ? [pair[1], pair[0]] : pair);

function flipFields(object, fields) {
  for (const field of fields) if (field in object) object[field] = other(object[field]);
}

function flipPairs(object, fields) {
  for (const field of fields) if (field in object) object[field] = swapped(object[field]);
}

function flipEntry(entry) {
  return { ...entry, seat: other(entry.seat) };
}

/** ``view`` of seat ``view.seat`` with its seat numbers counted from that seat (a copy; seat 0 is unchanged). */
export function relativeView(view) {
  if (!view || view.seat !== 1) return view;
  const v = structuredClone(view);
  flipFields(v, ["to_act", "dealer", "leader", "closed_by"]);
  v.trick = (v.trick || []).map(flipEntry);
  if (v.last_trick) {
    flipFields(v.last_trick, ["leader", "winner"]);
    v.last_trick.cards = v.last_trick.cards.map(flipEntry);
  }
  v.marriages = (v.marriages || []).map(flipEntry);
  if (v.deal_result) flipFields(v.deal_result, ["winner", "by"]);
  if (v.match) {
    flipFields(v.match, ["dealer", "winner"]);
    flipPairs(v.match, ["scores", "matches_won"]);
  }
  if (v.reveal) flipPairs(v.reveal, ["hands", "points", "card_points", "tricks"]);
  if (v.both_hands) v.both_hands = swapped(v.both_hands);
  v.seat = 0;
  v.absolute_seat = 1;
  return v;
}

/** Events seen by ``seat``, with seat numbers counted from that seat. */
export function relativeEvents(events, seat) {
  if (seat !== 1) return events;
  return events.map((event) => {
    const e = structuredClone(event);
    flipFields(e, ["seat", "winner", "leader", "by", "dealer"]);
    flipPairs(e, ["scores", "matches_won"]);
    return e;
  });
}
