import type { Outcome, Seat, Viewer } from '../../engines/kit/index.js';
import { type ClockView, clockView } from '../core/game/clock.js';
import { toldOutcome } from '../core/game/outcome-words.js';
import type { GameState, GameStatus } from '../core/game/state.js';
import type { StoredGame } from '../store/event-store.js';
import type { LiveGame } from './live-games.js';

/**
 * A game as it leaves the application: all the referee holds of it but its secrets, the server
 * seed (published only by SeedRevealed) and an organizer's supplied draws (the deals to come).
 */
export type GameSnapshot = Omit<LiveGame, 'serverSeed' | 'supplied'>;

/** The game without its secrets (a copy: nothing reachable from it holds them). */
export function snapshotOf(game: LiveGame): GameSnapshot {
  const { serverSeed: _seed, supplied: _supplied, ...snapshot } = game;
  return snapshot;
}

/** What anyone may know of a game without asking for a seat's view: what lists show, and the head of every answer. */
export interface GameSummary {
  id: string;
  kind: string;
  status: GameStatus;
  version: number;
  /** Hash of the event at `version`. */
  headHash: string | null;
  ruleset: unknown;
  rulesetHash: string;
  imported: boolean;
  createdAt: Date;
  /** Every seat, seat 0 first; a tournament game's seats are its participants' (their tokens act as the seats). */
  /** `player`: the player the seat is bound to (null: none). */
  seats: { index: number; name: string | null; taken: boolean; player: string | null }[];
  /** The tournament that scheduled the game, its round and board; null outside tournaments. */
  tournamentId: string | null;
  round: number | null;
  board: number | null;
}

/** How a game's randomness can be checked. */
export interface GameFairness {
  /** SHA-256 of the server seed, published at creation. */
  seedCommitment: string;
  randomSource: 'fair' | 'supplied';
  /** The server seed once revealed (the game ended); null until then. */
  serverSeed: string | null;
  /** Per seat, the client seed mixed in when play started; none before. */
  clientSeeds: (string | null)[];
}

/** A game as one viewer may see it: every API (GraphQL, REST) and every webhook payload answers this. */
export interface GameAnswer {
  summary: GameSummary;
  /** The viewer's seat; null for a spectator. */
  seat: Seat | null;
  /** Seats that may act now: none until play started, nor once it is over. */
  toAct: Seat[];
  /** The engine's view for the viewer (spectators: public information only). */
  readonly view: unknown;
  /** The viewer's legal actions now (none for spectators, before play or after the end). */
  readonly legalActions: unknown[];
  /** The clocks as of the answer's time; null without a time control. */
  clock: ClockView | null;
  fairness: GameFairness;
  /** How the game ended, its summary in words (resultOf); null while it goes on, and for an aborted game. */
  outcome: Outcome | null;
}

/**
 * The game's outcome as every answer gives it: the rules' outcome, its summary telling how the
 * game ended (on time, a resignation, the organizer, the rules) with the seats' names where they
 * have them (core/game/outcome-words.ts).
 */
export const resultOf = (game: Pick<GameState, 'engine' | 'outcome' | 'ending' | 'seatNames'>): Outcome | null => toldOutcome(game, game.seatNames);

const takenSeats = (seats: StoredGame['seats']): GameSummary['seats'] =>
  seats.map((s) => ({ index: s.index, name: s.name, taken: Boolean(s.tokenHash || s.participantId || s.playerId), player: s.playerId ?? null }));

export function summaryOf(game: GameSnapshot): GameSummary {
  return {
    id: game.gameId,
    kind: game.kind,
    status: game.status,
    version: game.version,
    headHash: game.lastHash,
    ruleset: game.ruleset,
    rulesetHash: game.rulesetHash,
    imported: game.imported,
    createdAt: game.createdAt,
    seats: takenSeats(game.seats),
    tournamentId: game.tournamentId,
    round: game.scheduled?.round ?? null,
    board: game.scheduled?.board ?? null,
  };
}

/** A stored game's summary, from its row alone (a list: one unreadable game does not fail the others). */
export function summaryOfRow(row: StoredGame): GameSummary {
  const { id, kind, status, version, headHash, ruleset, rulesetHash, imported, createdAt, tournamentId, round, board } = row;
  return { id, kind, status, version, headHash, ruleset, rulesetHash, imported, createdAt, seats: takenSeats(row.seats), tournamentId, round, board };
}

/** The seats that may act now: none until the game started, nor once it is over. */
export const seatsToAct = (game: Pick<GameSnapshot, 'status' | 'engine' | 'state'>): Seat[] => (game.status === 'ACTIVE' ? game.engine.toAct(game.state) : []);

/** The game's answer for `viewer`, its clocks as of `now` (ISO 8601). */
export function gameAnswer(game: GameSnapshot, viewer: Viewer, now: string): GameAnswer {
  const seat = viewer === 'spectator' ? null : viewer;
  // The view and the legal actions are computed when first read: a caller may want neither, and an engine's legal actions can be many.
  let view: { shown: unknown } | null = null;
  let legal: unknown[] | null = null;
  return {
    summary: summaryOf(game),
    seat,
    toAct: seatsToAct(game),
    get view() {
      view ??= { shown: game.engine.view(game.state, viewer) };
      return view.shown;
    },
    get legalActions() {
      legal ??= seat === null || game.status !== 'ACTIVE' ? [] : game.engine.legalActions(game.state, seat);
      return legal;
    },
    clock: clockView(game, now),
    fairness: {
      seedCommitment: game.seedCommitment,
      randomSource: game.randomSource,
      serverSeed: game.revealedSeed,
      clientSeeds: game.started ? game.seats.map((s) => s.clientSeed) : [],
    },
    outcome: resultOf(game),
  };
}
