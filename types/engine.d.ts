// What the engine answers the page, as the page's modules read it (types
// only; nothing here is shipped). Written from the engine: a seat's view
// (py_engine/service/views.py), the table's answers and frames (py_engine/service/table.py,
// py_engine/service/protocol.py), the review of a deal (py_engine/service/review.py) and the
// worker's own messages (web/engine/worker.js). The modules import them with
// JSDoc: /** @import { View } from "../../types/engine.js" */.
//
// Card codes are the protocol's ("QH"), suits "H" "D" "C" "S", seats 0 and 1
// (the protocol's own numbers), actions the protocol's text ("play:QH",
// "marry:H", "exchange", "close", "claim", "pass", "resign", "next").

/** A card: rank A T K Q J 9 and suit H D C S. */
export type Card = string;
/** A suit: "H", "D", "C" or "S". */
export type Suit = string;
/** A seat: 0 or 1. */
export type Seat = number;
/** An action in the protocol's text. */
export type Action = string;

/** A value of a rules parameter. */
export type RuleValue = boolean | number | string;
/** A rules value, parameter id -> value: some parameters (custom rules' changes), or all of them. */
export type Rules = Record<string, RuleValue>;
/**
 * A complete rule set (a view's, a preset's: py_engine/core/rules.py Rules):
 * every parameter, and the preset's id and name. The page reads these few.
 */
export interface RuleSet extends Rules {
  id: string;
  name: string;
  deck: number;
  claim_mode: string;
  match_target: number;
  session_bummerls: number;
  resign: boolean;
}
/** One of the engine's "rules" answer: a parameter and its values, in order. */
export interface RulesParameter {
  id: string;
  values: RuleValue[];
}

/** A card put on the table, and by whom. */
export interface Played {
  seat: Seat;
  card: Card;
}

/** A finished trick. */
export interface Trick {
  leader: Seat;
  cards: Played[];
  winner: Seat;
  points: number;
}

/** A marriage declared in the deal. */
export interface Marriage {
  seat: Seat;
  suit: Suit;
  points: number;
  /** False while its points wait for the seat's first trick. */
  credited: boolean;
}

/** How a deal ended (py_engine/core/scoring.py DealResult; ``reason`` is English, for logs). */
export interface DealResult {
  winner: Seat | null;
  game_points: number;
  /** claim_66, auto_66, wrong_claim, close_success, close_failed, resigned, last_trick, … */
  code: string;
  /** schwarz, schneider, simple, failed_close_2, penalty_3, fixed_1, none, … */
  basis: string;
  /** The seat that claimed, resigned or closed (null when nobody did). */
  by: Seat | null;
  carry_over: number;
  /** A successful close under close_basis at_close: the non-closer's tricks and points when the talon was closed. */
  at_close?: { tricks: number; points: number } | null;
  reason?: string;
}

/** Every card of a finished deal, shown to both seats. */
export interface Reveal {
  hands: [Card[], Card[]];
  talon: Card[];
  points: [number, number];
  card_points: [number, number];
  tricks: [number, number];
}

/** The match around the deal. */
export interface MatchInfo {
  scores: [number, number];
  target: number;
  dealer: Seat;
  deal_number: number;
  carry_over: number;
  match_number: number;
  matches_won: [number, number];
  session_bummerls: number;
  winner: Seat | null;
  session_over: boolean;
  /** The game ended early: resigned, lost on time, or abandoned by both (seat null). */
  ended?: { seat: Seat | null; reason: "resigned" | "time" | "abandoned" } | null;
}

/** A finished deal on the score sheet (py_engine/service/match.py SheetLine): its deal_result and where it stands. */
export interface SheetDeal extends DealResult {
  /** The match (Bummerl) it belongs to, and its number in that match (both 1-based). */
  match: number;
  deal: number;
  dealer: Seat;
  /** Game points carried over from tied deals, also scored by this deal's winner. */
  carried: number;
  /** The match score after it, seat 0's and seat 1's. */
  scores: [number, number];
}

/** A finished match of the session (py_engine/service/match.py BummerlLine). */
export interface SheetBummerl {
  match: number;
  winner: Seat | null;
  scores: [number, number];
  /** Deals finished in it. */
  deals: number;
  /** The game ended early in it (a forfeit). */
  ended: { seat: Seat | null; reason: "resigned" | "time" | "abandoned" } | null;
}

/** The score sheet (py_engine/service/views.py sheet()): seats absolute, as in MatchInfo. */
export interface Sheet {
  deals: SheetDeal[];
  bummerls: SheetBummerl[];
}

/** A marriage the seat may declare now. */
export interface MarriageOffer {
  points: number;
  cards: Card[];
}

/**
 * What one seat may see (py_engine/service/views.py view()). ``seat`` is the seat
 * drawn at the bottom; ``my_*``, ``opponent_*`` and ``hand`` count from it.
 */
export interface View {
  seat: Seat;
  to_act: Seat | null;
  /** "open", "closed", "exhausted", "deal_over", "match_over", … */
  phase: string;
  dealer: Seat;
  leader: Seat | null;
  trump_suit: Suit;
  /** The face-up trump card under the talon (null once taken, or under a closed talon). */
  trump_card: Card | null;
  /** The trump card turned face down by closing the talon. */
  closed_trump_card: Card | null;
  talon_count: number;
  closed_by: Seat | null;
  hand: Card[];
  opponent_hand_count: number;
  /** The other hand's cards known to this seat (shown in a marriage, taken in an exchange). */
  opponent_known: Card[];
  /** The other hand face up (a watcher sees both), else null. */
  opponent_shown: Card[] | null;
  /** A puzzle's view (puzzle_*), when every card is shown: the face-down talon, in the order it is drawn. */
  talon_shown?: Card[] | null;
  trick: Played[];
  last_trick: Trick | null;
  my_points: number;
  my_card_points: number;
  opponent_points: number;
  my_tricks: [Card, Card][];
  opponent_tricks: [Card, Card][];
  tricks_played: number;
  marriages: Marriage[];
  declared: Suit | null;
  declared_cards: Card[];
  marriage_offers: Record<Suit, MarriageOffer>;
  strict: boolean;
  points_to_win: number;
  claim_window: boolean;
  /** A claim of 66 now would be valid: it is legal and the seat's own points reach 66. */
  claim_valid: boolean;
  awaiting_final_claims: boolean;
  legal: Action[];
  deal_result: DealResult | null;
  /** Set with deal_result; the hand-over curtain leaves it out. */
  reveal?: Reveal | undefined;
  match: MatchInfo;
  game_over: boolean;
  rules: RuleSet;
  /** The score sheet; null in the views of an answer's frames (only the answer's view has it). */
  sheet: Sheet | null;
}

/** An event of one type, with the seat that acted (where there is one). */
interface EventOf<T extends string> {
  type: T;
  seat?: Seat;
}

/**
 * An event as the viewer may see it (py_engine/service/views.py filter_event, or
 * event_as_text in a review, where every card shows), by its type.
 */
export type GameEvent =
  /** A new deal: the dealer, the trump card and the viewer's hand. */
  | (EventOf<"deal"> & { dealer: Seat; trump_card: Card; hand: Card[] })
  | (EventOf<"play"> & { seat: Seat; card: Card })
  /** ``cards``: the two cards in the order played; ``bonus``: the last trick's, if any. */
  | (EventOf<"trick"> & { leader: Seat; cards: [Card, Card]; winner: Seat; points: number; bonus: number })
  /** ``card`` is left out when the viewer may not see it; ``face_up``: the trump card, drawn last. */
  | (EventOf<"draw"> & { seat: Seat; face_up: boolean; card?: Card })
  | EventOf<"exhausted">
  /** ``cards``: the king and the queen shown. */
  | (EventOf<"marriage"> & { seat: Seat; suit: Suit; points: number; credited: boolean; cards: Card[] })
  | (EventOf<"marriage_credited"> & { seat: Seat; suit: Suit; points: number })
  /** The trump card taken and the trump jack given. */
  | (EventOf<"exchange"> & { seat: Seat; took: Card; gave: Card })
  | (EventOf<"close"> & { seat: Seat })
  | (EventOf<"claim"> & { seat: Seat; valid: boolean; total: number })
  | (EventOf<"pass"> & { seat: Seat })
  | (EventOf<"resign"> & { seat: Seat })
  | (EventOf<"deal_end"> & DealResult)
  | (EventOf<"score"> & { seat: Seat; game_points: number; scores: [number, number] })
  | (EventOf<"match_end"> & {
      winner: Seat;
      scores: [number, number];
      matches_won: [number, number];
      session_over: boolean;
    })
  /** The game ended early: ``seat`` resigned it or ran out of time; both gone: seat and winner null. */
  | { type: "forfeit"; seat: Seat | null; reason: "resigned" | "time" | "abandoned"; winner: Seat | null }
  | (EventOf<"next"> & { match_number: number });

/** One step of an animation: an event and the viewer's view right after it. */
export interface Frame {
  event: GameEvent;
  view: View;
}

/** A game's mode and seats: who plays whom (py_engine/service/table.py Seating.to_json). */
export interface Seating {
  /** "computer", "hotseat" or "watch". */
  mode: string;
  ranked: boolean;
  /** Two players: their names ("" for the default). */
  names: [string, string] | null;
  /** The computer's level at each seat (null where a person sits). */
  levels: [number | null, number | null] | null;
  /** Do hints (and, against the computer, undo) exist in this game? */
  assisted?: boolean;
}

/** What the page may offer now (py_engine/service/table.py Table.rights). */
export interface May {
  undo?: boolean;
  hint?: boolean;
  claim_for_other?: boolean;
  computer_move?: boolean;
}

/** While a shared device changes hands: who takes it, and who may still claim 66 meanwhile. */
export interface Handover {
  seat: Seat;
  claim: Seat | null;
}

/**
 * The table's answer to a change (table_new, table_act, table_computer,
 * table_take, table_undo, table_show, table_restore): what to draw now, a
 * view or (two players changing hands) the hand-over screen, and the frames
 * that lead there.
 */
export interface TableAnswer {
  /** The table's handle (table_new, table_restore). */
  table?: string;
  view: View | null;
  handover: Handover | null;
  may: May;
  seating: Seating;
  /** One per event since the last answer (none for table_new, table_show, table_take, table_undo). */
  frames?: Frame[];
  /** Whether the worker stores the table after this answer. */
  save?: boolean;
}

/** The worker's answer to "resume": the saved game restored, none, or why it could not be. */
export type ResumeAnswer =
  | (TableAnswer & { status: "restored"; table: string })
  | { status: "none"; message?: string; view?: undefined }
  | { status: "corrupt"; message: string; damaged: string; view?: undefined };

/** One action of the hint's ranking, with its value for the seat (game points / 3). */
export interface Ranked {
  action: Action;
  value: number;
}

/** A deal of a game, without cards (table_deals, table_import). */
export interface DealEntry {
  index: number;
  dealer: Seat;
  actions: number;
  finished: boolean;
}

/** A whole deal's state, every card shown (py_engine/service/review.py snapshot). */
export interface Snapshot {
  hands: [Card[], Card[]];
  talon: Card[];
  trump_card: Card | null;
  closed_by: Seat | null;
  trick: Played[];
  points: [number, number];
  tricks: [number, number];
  marriages: { seat: Seat; suit: Suit; points: number }[];
  to_act: Seat | null;
}

/** One action of a reviewed deal, with the computer's opinion when its seat was evaluated. */
export interface ReviewStep {
  seat: Seat;
  action: Action;
  ranking?: Ranked[];
  clearly_worse?: boolean;
  /** The ranking's values are exact (every card known, solved), not estimated. */
  exact?: boolean;
  events: GameEvent[];
  state: Snapshot;
}

/** A finished deal move by move (table_review). */
export interface Review {
  deal: number;
  dealer: Seat;
  start: Snapshot;
  steps: ReviewStep[];
  /** The first step whose evaluation is left for the next request (from_step), or null when none is. */
  next_step: number | null;
  result: DealResult;
  trump_suit: Suit;
  /** Each suit's marriage in this deal: its points and cards (to say a ranked marriage in words). */
  marriage_offers: Record<Suit, MarriageOffer>;
}

/** One position of an analysis board's tree (py_engine/service/analysis.py Node). */
export interface BoardNode {
  id: number;
  parent: number | null;
  seat: Seat | null;
  action: Action | null;
  /** On the deal as played. */
  main: boolean;
  ply: number;
  /** The children: the deal's own move first where there is one, then the variations in the order played. */
  children: number[];
  /** The trick the move belongs to (1-based), or null after the last trick. */
  trick: number | null;
  /** The trick the move completed. */
  taken: { winner: Seat; points: number } | null;
  /** A claim: whether it was valid. */
  valid?: boolean;
  /** A marriage: its points. */
  points?: number;
}

/** A position of an analysis board, every card shown. */
export interface BoardPosition {
  node: number;
  ply: number;
  main: boolean;
  state: Snapshot;
  /** The events of the move that led here. */
  events: GameEvent[];
  /** What may be played here: the seat on turn's actions, then the other seat's claim where it may claim. */
  options: { seat: Seat; action: Action }[];
  to_act: Seat | null;
  /** The deal's own move from here (null: not on the deal as played, or its end). */
  played: Action | null;
  over: boolean;
  result: DealResult | null;
}

/** An analysis board as it opens (analysis_open, link_open). */
export interface BoardAnswer {
  board: string;
  rules: RuleSet;
  dealer: Seat;
  /** The seat drawn at the bottom. */
  seat: Seat;
  trump_suit: Suit;
  marriage_offers: Record<Suit, MarriageOffer>;
  scores: [number, number];
  carry: number;
  moves: number;
  tree: BoardNode[];
  position: BoardPosition;
}

/** The options of the seat to move, valued for it (game points / 3), best first (analysis_evaluate). */
export interface Evaluation {
  node: number;
  all_cards: boolean;
  /** The seat to move (null: nothing to decide here). */
  seat: Seat | null;
  ranking: { action: Action; value: number; exact: boolean }[];
  exact: boolean;
}

/** One of the engine's presets ("presets" command). */
export interface Preset {
  id: string;
  name: string;
  rules: RuleSet;
}

/** The worker's boot progress: a stage (translation key "boot.stage.<stage>") and how far (0..1). */
export interface Progress {
  type?: "progress";
  stage: string;
  label?: string;
  fraction: number;
}

/** The worker is ready: how it booted, and the build. */
export interface ReadyInfo {
  type: "ready";
  /** "cold" or "snapshot". */
  mode: string;
  runtime: string;
  engine: string;
  build: string;
  timings: Record<string, number>;
  timeOrigin: number;
}

/** A message of the worker that is not an answer: the memory snapshot's fate, the computer player loaded ahead, or a warning. */
export interface Notice {
  type: string;
  status?: string;
  message?: string;
  bytes?: number;
}

/** A bad_rules or bad_record error's particulars: why, and the values concerned. */
export interface RulesErrorDetail {
  reason?: string;
  values?: Record<string, unknown>;
}

/** A record file's content (docs/protocol.md, "Records"): the page only passes it on. */
export type GameRecord = Record<string, unknown>;

/** A puzzle as listed: nothing of its cards (py_engine/puzzles/catalogue.py Puzzle.entry). */
export interface PuzzleEntry {
  id: string;
  preset: string;
  /** "hidden" or "double_dummy". */
  kind: string;
  themes: string[];
  difficulty: number;
  /** "easy", "medium", "hard" or "expert". */
  band: string;
  /** The side's signed game points that the solution guarantees. */
  goal: number;
  side: Seat;
  worlds: number;
}

/** puzzle_open's answer: the attempt's handle, the puzzle and its position. */
export type PuzzleAnswer = PuzzleState & {
  puzzle: string;
  entry: PuzzleEntry;
  /** With the request's ``progress``: whether this attempt is the first at the puzzle (the one that is rated). */
  first?: boolean;
};

/** puzzle_resume's answer: a new attempt at the position, the daily date checked, and how the attempt cut short stood. */
export type PuzzleResumeAnswer = PuzzleAnswer & {
  daily: string | null;
  earlier: { state: "playing" | "solved" | "failed"; moves: number };
};

/** One puzzle's record: the first attempt's result, whether it was ever solved, how many attempts, the last date. */
export interface PuzzleRecord {
  first: "solved" | "failed";
  solved: boolean;
  tries: number;
  last: string;
}

/** The player's puzzles as the page keeps them and the engine updates them (py_engine/puzzles/progress.py). */
export interface PuzzleProgress {
  version: number;
  rating: number;
  deviation: number;
  volatility: number;
  streak: number;
  best: number;
  puzzles: Record<string, PuzzleRecord>;
  daily: { last: string | null; streak: number; days: Record<string, "solved" | "failed"> };
  history: number[];
}

/** puzzle_rate's answer: the player's numbers after an attempt. */
export interface PuzzleRated {
  rating: number;
  deviation: number;
  volatility: number;
  change: number;
  expected: number;
  streak: number;
  best: number;
  daily?: { last: string | null; streak: number };
}

/** puzzle_record's answer: the progress after the attempt; ``rated`` only for a first attempt. */
export interface PuzzleRecordAnswer {
  progress: PuzzleProgress;
  first: boolean;
  rated: PuzzleRated | null;
  /** The run of daily puzzles after it, when the attempt counted as that day's daily puzzle. */
  daily: { last: string | null; streak: number } | null;
}

/** puzzle_progress's answer: what the puzzles screen shows (a puzzle not in ``states`` is new). */
export interface PuzzleProgressAnswer {
  states: Record<string, "solved" | "failed">;
  summary: { tried: number; first_try: number; solved: number };
  daily_run: number;
  daily_today: "solved" | "failed" | null;
}

/** Won and lost counts. */
export type WonLost = {
  won: number;
  lost: number;
};

/** Counts summed over the statistics' buckets: a bucket's own, or a sum of some. */
export type StatsTotals = {
  deals: WonLost & { none: number };
  matches: WonLost;
  points: WonLost;
  basis: Record<string, WonLost>;
  closes: { made: number; won: number };
  marriages: { count: number; points: number };
};

/** One rule set ("custom": changed rules) at one level (0: unknown, from schema 1). */
export type StatsBucket = StatsTotals & { preset: string; custom: boolean; level: number };

/** The statistics of games against the computer, schema 2 (py_engine/service/game_stats.py). */
export interface GameStats {
  schema: number;
  since: number;
  rating: number;
  rated: number;
  history: { t: number; rating: number; level: number; won: boolean }[];
  buckets: Record<string, StatsBucket>;
  current: { recorded: string[]; counted: boolean; assisted?: boolean } | null;
}

/** An attempt's state (py_engine/puzzles/solving.py Session.state). */
export interface PuzzleState {
  state: "playing" | "solved" | "failed" | "shown";
  to_move: boolean;
  moves: number;
  goal: number;
  view: View;
}

/** A deal the puzzle could be: both hands (by seat) and the face-down talon, in the order it is drawn. */
export interface PuzzleWorld {
  hands: [Card[], Card[]];
  talon: Card[];
}

/** Moves from a position, each by its seat. */
export type PuzzleLine = { seat: Seat; action: Action }[];

/** puzzle_move's answer. */
export interface PuzzleMoveAnswer extends PuzzleState {
  correct: boolean;
  frames: Frame[];
  loss?: number;
  refutation?: { world: PuzzleWorld; line: PuzzleLine; value: number };
}

/** The solution: the answer's line first, then every other first move at its worst. */
export interface PuzzleSolution {
  goal: number;
  answer: Action[];
  lines: { action: Action; value: number; loss: number; line: PuzzleLine; world: PuzzleWorld | null }[];
}

/** The answer to each command the page sends (py_engine/service/protocol.py), by command. */
export interface Answers {
  /** ``levels``: the computer's levels a table offers; ``default_level``: the engine's (py_engine/service/defaults.py). */
  presets: { presets: Preset[]; levels: number[]; default_level: number };
  rules: { parameters: RulesParameter[] };
  check_rules: { rules: RuleSet };
  table_new: TableAnswer & { table: string };
  table_show: TableAnswer;
  table_take: TableAnswer;
  table_act: TableAnswer;
  table_computer: TableAnswer & { action: Action };
  table_hint: { ranking: Ranked[] };
  table_undo: TableAnswer & { undone: number };
  table_export: { record: GameRecord };
  table_deals: { deals: DealEntry[]; seating: Seating };
  table_review: { review: Review; seating: Seating };
  table_import: { table: string; deals: DealEntry[]; seating: Seating };
  table_close: Record<string, never>;
  analysis_open: BoardAnswer;
  analysis_show: { position: BoardPosition };
  analysis_play: { node: number; tree: BoardNode[]; position: BoardPosition };
  analysis_remove: { node: number; tree: BoardNode[]; position: BoardPosition };
  analysis_evaluate: { evaluation: Evaluation };
  analysis_close: Record<string, never>;
  link_make: { link: string };
  link_open: ({ kind: "deal" } & BoardAnswer) | { kind: "puzzle"; puzzle: string };
  puzzle_list: { puzzles: PuzzleEntry[]; count: number; themes: string[]; bands: string[] };
  puzzle_open: PuzzleAnswer;
  puzzle_resume: PuzzleResumeAnswer;
  puzzle_move: PuzzleMoveAnswer;
  puzzle_solution: PuzzleState & { solution: PuzzleSolution };
  puzzle_daily: { date: string; entry: PuzzleEntry };
  puzzle_rate: PuzzleRated;
  puzzle_record: PuzzleRecordAnswer;
  puzzle_progress: PuzzleProgressAnswer;
  puzzle_close: Record<string, never>;
  stats_begin: { stats: GameStats };
  stats_assisted: { stats: GameStats; changed: boolean };
  stats_record: { stats: GameStats; changed: boolean };
  lobby_rating: LobbyRating;
  lobby_open: LobbyOffer & { table: string };
  lobby_renew: LobbyOffer & { expires: number };
  lobby_answer:
    | { joined: { identity: string; name: string } }
    | {
        refused: {
          what: "taken" | "closed" | "expired" | "forged" | "blocked" | "flood" | "malformed";
          message: string;
        };
      };
  lobby_close: { closed: string };
  lobby_read: { tables: LobbyTable[]; refused: Record<string, number> };
  lobby_quick: { table: LobbyTable | null };
  lobby_request: { request: string };
  peer_offer: { room: PeerRoom };
  peer_open: PeerAnswer & { session: string };
  peer_receive: PeerAnswer;
  peer_act: PeerAnswer;
  peer_say: PeerAnswer;
  peer_voice: PeerAnswer;
  peer_show_cards: PeerAnswer;
  peer_pause: PeerAnswer;
  peer_back: PeerAnswer;
  peer_concede: PeerAnswer;
  peer_rematch: PeerAnswer;
  peer_tick: PeerAnswer;
  peer_connection: PeerAnswer;
  peer_show: PeerAnswer;
  peer_report: { report: Record<string, unknown> };
  peer_verify_report: { verdict: Record<string, unknown>; words: string[] };
  peer_close: Record<string, never>;
}

/** Protocol 2: the room a host's first message offers, as the joining page's engine read it. */
export interface PeerRoom {
  match: string;
  rules: RuleSet;
  /** The host's name, as it signed it. */
  name: string;
  /** The host's identity (its browser proved it on the channel). */
  identity: string;
}

/** Protocol 2: how a match ended, as this seat signed it (py_engine/service/online/peer.py). */
export interface PeerEnding {
  winner: Seat | null;
  reason: "played" | "conceded" | "time" | "cheat" | "abandoned";
  evidence: Record<string, unknown>;
  /** Both seats signed it. */
  agreed: boolean;
}

/** Protocol 2: the session's status, this page's clock (ms) for every time. */
export interface PeerStatus {
  seat: Seat;
  match: string;
  names: [string | null, string | null];
  identities: [string, string];
  playing: boolean;
  legal: string[];
  scores: [number, number] | null;
  now: number;
  joined: boolean;
  away: boolean;
  away_since: number | null;
  /** Seat → when its pause runs out. */
  paused: Record<string, number>;
  stand_in: Seat[];
  voice: OnlineVoice;
  /** The other's hand shown to this seat, until when. */
  shown: { cards: string[]; until: number } | null;
  ending: PeerEnding | null;
  /** The result both seats signed (null until they have). */
  result: { winner: Seat | null; reason: PeerEnding["reason"]; evidence: Record<string, unknown> } | null;
  /** That result as a signed result anyone can check (py_engine/service/lobby/certificate.py); kept by the page. */
  certificate: SignedResult | null;
  /** A cheat this page proved against the other. */
  cheat: { by: Seat | null; what: string } | null;
  /** The other page's claim that this one cheated (never signed here). */
  accused: { what: string; detail: string } | null;
  rematch: Seat[];
}

/** A signed result: four links of a finished match's transcript (docs/online.md, "Strangers"). */
export interface SignedResult {
  format: "sixty-six/result-1";
  match: string;
  identities: [string, string];
  links: Record<string, unknown>[];
}

/** A player's rating in one pool of rules, and the signed results that did not count, each with why. */
export interface LobbyRating {
  pool: string;
  rating: number;
  games: number;
  refused: { index: number | null; what: string; message: string }[];
}

/** An open table's offer to publish (``offer``: its text), its id and the rating it claims. */
export interface LobbyOffer {
  offer: string;
  id: string;
  pool: string;
  rating: number;
  games: number;
}

/** A table in the lobby; ``checked``: its rating is what its attached signed results give. */
export interface LobbyTable {
  id: string;
  identity: string;
  name: string;
  lang: string;
  rules: RuleSet;
  pool: string;
  rating: number;
  games: number;
  checked: boolean;
  open_ms: number;
  expires: number;
}

/** Protocol 2: every peer_* answer. */
export interface PeerAnswer {
  /** Texts for the other page, in order, unchanged. */
  send: string[];
  /** This seat's view (null while its hand is being dealt). */
  view: View | null;
  /** The events since the seat's last view, each with its view after it (none across a new deal). */
  frames: Frame[];
  status: PeerStatus;
  chat: ChatLine[];
  /** After a rematch began: how the match before ended. */
  finished?: PeerStatus;
  refused?: { code: string; message: string };
  accepted?: number;
  save?: boolean;
}

/** Online: the consent to a voice call (py_engine/service/online/voice.py): on only once both accepted. */
export interface OnlineVoice {
  on: boolean;
  /** The engine's number of the last call put through (the media signals name it). */
  call: number;
  /** The seat that asked and waits for the other's answer. */
  asked: Seat | null;
  muted: Seat[];
  /** How the last call or request ended. */
  last: { by: Seat; why: "declined" | "withdrawn" | "hung_up" | "lost" } | null;
}

/** A chat line: text, or a phrase each page words in its own language. */
export interface ChatLine {
  seat: Seat;
  text?: string;
  phrase?: string;
  at?: number;
}

/** A command the page sends. */
export type Command = keyof Answers;

/** A request of the protocol without "v" and "id" (the client adds them): the command and its arguments. */
export type Request<C extends Command = Command> = { cmd: C } & Record<string, unknown>;
