import type { Engine, Outcome, Seat } from '../../../engines/kit/index.js';

/**
 * How a game ended, as its events tell it (folded in state.ts): what `result.summary`, records and
 * the game-over notices put in words. The engine's outcome is the rules' answer; the ending says
 * what brought it about.
 */
export type Ending =
  /** The rules ended it: a bear-off, a dropped double, the last round, points running out... */
  | { reason: 'rules' }
  /** The seat conceded the whole game (resignGame). */
  | { reason: 'resigned'; seat: Seat }
  /** The seat's time ran out and the game's rule is that it concedes (docs/time-controls.md, "Timeouts", "How a game's end is told"). */
  | { reason: 'time'; seat: Seat }
  /** The organizer decided it (a tournament result entered for the game, a forfeit); `why` as the organizer gave it. */
  | { reason: 'adjudicated'; why: string }
  /** The seat aborted the game before any seat moved: no result (docs/time-controls.md, "Aborting a game"). */
  | { reason: 'aborted'; seat: Seat };

/** What the words need of a game: its engine's words, its outcome and how it ended. */
export type Ended = { engine: Pick<Engine, 'seatLabel' | 'describe'>; outcome: Outcome | null; ending: Ending | null };

/**
 * Who sits in each seat, in words: the player's name where the seat has one (`names[seat]`),
 * else the game's own word for the seat ("White", "IA", "seat 2").
 */
export function seatWords(engine: Pick<Engine, 'seatLabel'>, names: readonly (string | null | undefined)[] = []): (seat: Seat) => string {
  return (seat) => names[seat] || (engine.seatLabel ? engine.seatLabel(seat) : `seat ${seat}`);
}

const list = (words: string[]): string => (words.length <= 2 ? words.join(' and ') : `${words.slice(0, -1).join(', ')} and ${words[words.length - 1]}`);
const wins = (seats: readonly Seat[], who: (seat: Seat) => string): string => `${list(seats.map(who))} ${seats.length === 1 ? 'wins' : 'win'}`;

/**
 * The game's end in one line a person reads: "Bob wins on time", "Alice resigned; Bob wins",
 * "Bob wins a gammon (2 points)", "Aborted by White before any move: no result". Null while the
 * game goes on. A game without a recorded ending (none is older than its end) is told by its outcome.
 */
export function endingWords(game: Ended, names: readonly (string | null | undefined)[] = []): string | null {
  const { engine, outcome, ending } = game;
  const who = seatWords(engine, names);
  if (ending?.reason === 'aborted') return `Aborted by ${who(ending.seat)} before any move: no result`;
  if (!outcome) return null;
  const winners = outcome.winners;
  switch (ending?.reason ?? 'rules') {
    case 'time': {
      const { seat } = ending as { seat: Seat };
      // Two seats: the other one wins on time; more: the seat that ran out goes first.
      return outcome.points.length === 2 && winners.length === 1 ? `${who(winners[0])} wins on time` : `${who(seat)} lost on time; ${wins(winners, who)}`;
    }
    case 'resigned':
      return `${who((ending as { seat: Seat }).seat)} resigned; ${wins(winners, who)}`;
    case 'adjudicated': {
      // The organizer's outcome carries the organizer's words (a tournament's entry): kept after the winners.
      if (winners.length === 0) return `No winner: ${outcome.summary}`;
      return /\bforfeit\b/.test((ending as { why: string }).why) ? `${wins(winners, who)} by forfeit` : `${wins(winners, who)}: ${outcome.summary}`;
    }
    default:
      return engine.describe ? engine.describe(outcome, who) : outcome.summary;
  }
}

/** The outcome as answers show it: the rules' outcome with its summary in words (null while the game goes on, and for an aborted game). */
export function toldOutcome(game: Ended, names: readonly (string | null | undefined)[] = []): Outcome | null {
  if (!game.outcome) return null;
  return { ...game.outcome, summary: endingWords(game, names) ?? game.outcome.summary };
}
