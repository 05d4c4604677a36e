/**
 * GNU Backgammon's `.mat` text (the Jellyfish match format as gnubg exports it). Export lays out
 * cells exactly as gnubg's exporter does (two columns, 5 + 28 characters); import reads the two
 * columns back into replay entries, with the record's own dice as chance values.
 */
import { fail, ok, step, type ImportedRecord, type ReplayEntry, type Result, type Seat } from '../../../engines/kit/index.js';
import type { CheckerMove, PlayedMove } from './board.js';
import { initialState, SEAT_NAMES } from './game.js';
import type { ResignationLevel } from './ids.js';
import { parseRuleset } from './parse.js';
import type { BackgammonAction, BackgammonRuleset, BackgammonState } from './types.js';
import { backgammonRules } from './engine.js';

/** One cell of the record, in gnubg's terms. */
type Cell =
  | { kind: 'roll'; seat: Seat; dice: [number, number]; moves: PlayedMove[]; played: boolean }
  | { kind: 'cube'; seat: Seat; text: string; drop?: number }
  | { kind: 'resign'; seat: Seat; points: number; forfeit?: boolean };

interface GameCells {
  score: [number, number];
  cells: Cell[];
  /** Points of a game won by bearing off, written after the last roll. */
  bearOffWin: number | null;
}

const plural = (n: number) => `Wins ${n} point${n === 1 ? '' : 's'}`;

/**
 * A whole-match concession (`engine.resign`, the referee's resignGame) has no notation of its own
 * in `.mat`: gnubg and Jellyfish show any game not ended by a bear-off or a drop as the winner's
 * "Wins N points" line. We write that line with N = the points the forfeit scored (in a match,
 * at least what brings the winner to the match length; in money play, the cube times the level
 * the position would lose now) and mark it with this suffix, so that it cannot be taken for a
 * resignation offered and accepted at a level (same line, no suffix). gnubg reads the number
 * with atoi and ignores the rest, so it still imports the line as a resignation of N points.
 * `.mat` has no clock either: a match lost on time is written as that forfeit, and a comment line
 * before the match header says so (gnubg keeps it as the match's comment; import skips it).
 */
const FORFEIT = ' by forfeit';

/** gnubg's FormatMovePlain: `from/to` with 25 = bar and 0 = off, `*` on hits, a space after all but a fourth move. */
function formatMoves(moves: readonly PlayedMove[]): string {
  return moves.map((m, i) => `${m.from === 'bar' ? 25 : m.from}/${m.to === 'off' ? 0 : m.to}${m.hit ? '*' : ''}${i < 3 ? ' ' : ''}`).join('');
}

/** Replays entries and collects each game's cells from the state changes. */
function collectGames(ruleset: BackgammonRuleset, entries: readonly ReplayEntry<BackgammonAction>[]): GameCells[] {
  let s = initialState(ruleset);
  const games: GameCells[] = [{ score: [0, 0], cells: [], bearOffWin: null }];
  for (const entry of entries) {
    const next = step(backgammonRules, s, entry);
    if (!next.ok) break;
    const after = next.value;
    const game = games[games.length - 1];
    const cells = game.cells;
    if (entry.kind === 'action') {
      const a = entry.action;
      const seat = entry.seat;
      if (a.type === 'double' || a.type === 'beaver' || a.type === 'raccoon') {
        const word = { double: 'Doubles', beaver: 'Beavers', raccoon: 'Raccoons' }[a.type];
        cells.push({ kind: 'cube', seat, text: ` ${word} => ${after.pendingDouble!.value}` });
      } else if (a.type === 'take') {
        cells.push({ kind: 'cube', seat, text: ' Takes' });
      } else if (a.type === 'drop') {
        cells.push({ kind: 'cube', seat, text: ' Drops', drop: s.pendingDouble!.value / 2 });
      } else if (a.type === 'play') {
        const roll = cells[cells.length - 1];
        if (roll?.kind === 'roll') Object.assign(roll, { moves: after.lastTurn!.moves, played: true });
      } else if (a.type === 'acceptResignation') {
        cells.push({ kind: 'resign', seat: s.resignation!.by, points: after.games[after.games.length - 1].points });
      }
    } else if (entry.kind === 'resign') {
      // The whole match conceded (engine.resign): the seat loses this game at what the forfeit scores.
      cells.push({ kind: 'resign', seat: entry.seat, points: after.games[after.games.length - 1].points, forfeit: true });
    } else if (after.phase === 'awaiting-play' && after.dice) {
      cells.push({ kind: 'roll', seat: after.turn, dice: after.dice, moves: [], played: false });
    } else if (after.lastTurn !== s.lastTurn && after.lastTurn?.passed && after.lastTurn.dice) {
      cells.push({ kind: 'roll', seat: after.lastTurn.seat, dice: after.lastTurn.dice, moves: [], played: true });
    }
    if (after.games.length > s.games.length) {
      const result = after.games[after.games.length - 1];
      if (result.endedBy === 'bear-off') game.bearOffWin = result.points;
      if (after.phase !== 'match-over') games.push({ score: result.scoreAfter, cells: [], bearOffWin: null });
    }
    s = after;
  }
  return games;
}

function writeGame(index: number, game: GameCells, names: readonly string[]): string {
  let out = ` Game ${index + 1}\n`;
  out += ` ${`${names[0]} : ${game.score[0]}`.padEnd(31)}${names[1]} : ${game.score[1]}\n`;
  let i = 0;
  let diceRolled = false;
  const lastRoll = game.cells.map((c) => c.kind).lastIndexOf('roll');
  game.cells.forEach((cell, c) => {
    if (i === 0 && cell.kind === 'roll' && cell.seat === 1) {
      out += '  1)' + ' '.repeat(29);
      i++;
    }
    const right = (i & 1) === 1;
    const unplayed = cell.kind === 'roll' && !cell.played;
    let text: string;
    if (cell.kind === 'roll') {
      text = `${cell.dice[0]}${cell.dice[1]}: ${formatMoves(cell.moves)}`;
      diceRolled = unplayed;
    } else if (cell.kind === 'cube') {
      text = cell.drop === undefined ? cell.text : `${cell.text}${right ? '\n      ' : ' '.repeat(23)}${plural(cell.drop)}`;
    } else {
      const shifted = right !== diceRolled;
      const wins = `${plural(cell.points)}${cell.forfeit ? FORFEIT : ''}`;
      if (cell.seat === 1) text = `${shifted ? '\n' : ''}      ${wins}\n`;
      else text = `${shifted ? ' ' : ' '.repeat(right ? 24 : 34)}${wins}\n`;
    }
    if ((i & 1) === 1 || cell.kind === 'resign') {
      out += text + (unplayed ? '' : '\n');
    } else {
      out += `${String((i >> 1) + 1).padStart(3)}) ${unplayed ? text.padEnd(3) : `${text.padEnd(27)} `}`;
    }
    if (cell.kind === 'cube' && cell.drop !== undefined) out += (i & 1) === 1 ? '\n' : '\n\n';
    if (c === lastRoll && game.bearOffWin !== null) {
      out += `${(i & 1) === 1 ? ' '.repeat(34) : '\n      '}${plural(game.bearOffWin)}\n\n`;
    }
    i++;
  });
  return out;
}

/**
 * Writes a game or match as gnubg's `.mat` text. Seat 0 (White) is the left column. Beavers and
 * raccoons, which gnubg does not write, appear as `Beavers => 4` / `Raccoons => 8`.
 */
export function exportRecord(ruleset: BackgammonRuleset, entries: ReplayEntry<BackgammonAction>[], seatNames: string[], ending?: string): string {
  const names = [0, 1].map((s) => (seatNames[s] ?? '').trim() || SEAT_NAMES[s]);
  const games = collectGames(ruleset, entries);
  const onTime = entries.find((e) => e.kind === 'resign' && e.timedOut);
  // The comment line is the one place .mat has for words: it says how a match lost on time ended.
  const told = ending ?? (onTime?.kind === 'resign' ? `${names[onTime.seat]} lost on time` : '');
  const comment = onTime ? `; ${told.replace(/\n/g, ' ')}: .mat has no clock, so the match ends as conceded by forfeit\n` : '';
  return `${comment}\n ${ruleset.matchLength} point match\n\n${games.map((g, i) => writeGame(i, g, names)).join('')}`;
}

/** A parsed cell of an imported record, with the line it came from. */
interface ReadCell {
  seat: Seat;
  line: number;
  move: number;
  tokens: string[];
}

const CELL_START = /^(\d\d:|Doubles|Takes|Drops|Beavers|Raccoons|Wins|Accepts|Rejects)$/;

/** Splits a move line (after `N)`) or a bare line into cells, placing each in its column. */
function readCells(rest: string, offset: number, line: number, move: number): ReadCell[] {
  const cells: ReadCell[] = [];
  const re = /\S+/g;
  let m: RegExpExecArray | null;
  let current: ReadCell | null = null;
  while ((m = re.exec(rest))) {
    const token = m[0];
    if (CELL_START.test(token) || current === null) {
      // gnubg starts the right column 33 characters into the line; anything from 20 on is right.
      // A result ("Wins") is placed by its column alone: gnubg may write it right after an
      // unplayed roll of the other column.
      const right = m.index + offset >= 20 || (cells.length > 0 && token !== 'Wins');
      const column = right ? 1 : 0;
      current = { seat: column, line, move, tokens: [] };
      cells.push(current);
    }
    current.tokens.push(token);
  }
  return cells;
}

/** Expands chains like `13/7/5` (with `*` marks), repeats like `8/5(2)`, `bar/22`, `6/off` into single steps in the mover's numbering. */
function readMoves(tokens: readonly string[]): CheckerMove[] | string {
  const moves: CheckerMove[] = [];
  for (const token of tokens) {
    const m = /^([^()]+?)(?:\((\d)\))?$/.exec(token);
    const parts = (m ? m[1] : token).replace(/\*/g, '').split('/');
    const times = m?.[2] ? Number(m[2]) : 1;
    if (parts.length < 2) return `"${token}" is not a checker move (from/to)`;
    const points = parts.map((p) => (p.toLowerCase() === 'bar' ? 25 : p.toLowerCase() === 'off' ? 0 : /^\d+$/.test(p) ? Number(p) : NaN));
    if (points.some((p) => Number.isNaN(p) || p > 25)) return `"${token}" names a point that does not exist`;
    for (let t = 0; t < times; t++) {
      for (let k = 0; k + 1 < points.length; k++) {
        const [from, to] = [points[k], points[k + 1]];
        if (from === 0 || to === 25) return `"${token}" moves from off or to the bar`;
        moves.push({ from: from === 25 ? 'bar' : from, to: to === 0 ? 'off' : to });
      }
    }
  }
  return moves;
}

const LEVELS: ResignationLevel[] = ['single', 'gammon', 'backgammon'];

/** Parses a `.mat` record into replay entries (rolls, the record's dice, plays, cube actions, resignations). */
export function importRecord(text: string): Result<ImportedRecord<BackgammonRuleset, BackgammonAction>> {
  if (typeof text !== 'string') return fail('INVALID_INPUT', 'a .mat record must be text');
  const lines = text.replace(/\r\n?/g, '\n').split('\n');
  let matchLength: number | null = null;
  let names: string[] | null = null;
  const games: { number: number; line: number; cells: ReadCell[] }[] = [];
  const where = (n: number) => `line ${n + 1}`;

  for (let n = 0; n < lines.length; n++) {
    const line = lines[n];
    if (/^\s*(;|#|$)/.test(line)) continue;
    let m: RegExpExecArray | null;
    if ((m = /^\s*(\d+)\s+point\s+match\s*$/i.exec(line))) {
      matchLength = Number(m[1]);
    } else if ((m = /^\s*Game\s+(\d+)\s*$/i.exec(line))) {
      games.push({ number: Number(m[1]), line: n, cells: [] });
    } else if (games.length && !games[games.length - 1].cells.length && (m = /^\s*(\S.*?)\s*:\s*(\d+)\s+(\S.*?)\s*:\s*(\d+)\s*$/.exec(line))) {
      names ??= [m[1], m[3]];
    } else if ((m = /^(\s*(\d+)\))(.*)$/.exec(line))) {
      if (!games.length) return fail('INVALID_INPUT', `${where(n)}: a move line before any "Game" line`);
      games[games.length - 1].cells.push(...readCells(m[3], m[1].length, n, Number(m[2])));
    } else if ((m = /^(\s*)Wins\s/.exec(line))) {
      if (!games.length) return fail('INVALID_INPUT', `${where(n)}: a result before any "Game" line`);
      const g = games[games.length - 1];
      const cells = readCells(line.trimStart(), m[1].length, n, g.cells.length ? g.cells[g.cells.length - 1].move : 0);
      g.cells.push(...cells);
    } else {
      return fail('INVALID_INPUT', `${where(n)}: cannot read "${line.trim()}"`);
    }
  }
  if (matchLength === null) return fail('INVALID_INPUT', 'the record has no "N point match" line');
  if (!games.length) return fail('INVALID_INPUT', 'the record has no games');
  if (matchLength === 0 && games.length > 1) return fail('INVALID_INPUT', `a money record holds one game here, this one has ${games.length}`);
  const parsed = parseRuleset({ matchLength, resignWhen: 'any-time', maxCube: null, ...(matchLength === 0 ? { jacoby: false } : {}) });
  if (!parsed.ok) return parsed;
  const ruleset = parsed.value;
  const seatNames = names ?? [...SEAT_NAMES];

  const entries: ReplayEntry<BackgammonAction>[] = [];
  const labels: string[] = [];
  let sim: BackgammonState | null = initialState(ruleset);
  let label = '';
  const push = (entry: ReplayEntry<BackgammonAction>) => {
    entries.push(entry);
    labels.push(label);
    if (sim) {
      const next = step(backgammonRules, sim, entry);
      sim = next.ok ? next.value : null;
    }
  };
  const action = (seat: Seat, a: BackgammonAction) => push({ kind: 'action', seat, action: a });

  for (const game of games) {
    let opening = true;
    const gamesBefore = sim?.games.length ?? 0;
    for (const cell of game.cells) {
      label = `game ${game.number}, move ${cell.move} (${seatNames[cell.seat]})`;
      const [head, ...rest] = cell.tokens;
      const bad = (why: string) => fail<ImportedRecord<BackgammonRuleset, BackgammonAction>>('INVALID_INPUT', `${where(cell.line)} (${label}): ${why}`);
      if (/^\d\d:$/.test(head)) {
        const dice = [Number(head[0]), Number(head[1])];
        if (dice.some((d) => d < 1 || d > 6)) return bad(`"${head}" is not a roll of two dice 1-6`);
        const moves = readMoves(rest);
        if (typeof moves === 'string') return bad(moves);
        if (opening) {
          const values = [0, 0];
          values[cell.seat] = Math.max(...dice) - 1;
          values[1 - cell.seat] = Math.min(...dice) - 1;
          push({ kind: 'chance', values });
          opening = false;
        } else {
          action(cell.seat, { type: 'roll' });
          push({ kind: 'chance', values: dice.map((d) => d - 1) });
        }
        if (moves.length) action(cell.seat, { type: 'play', moves });
      } else if (head === 'Doubles' || head === 'Beavers' || head === 'Raccoons') {
        const value = Number(rest[1]);
        if (rest[0] !== '=>' || !Number.isInteger(value)) return bad(`expected "${head} => <cube value>"`);
        action(cell.seat, { type: head === 'Doubles' ? 'double' : head === 'Beavers' ? 'beaver' : 'raccoon' });
      } else if (head === 'Takes' || head === 'Accepts') {
        action(cell.seat, { type: 'take' });
      } else if (head === 'Drops' || head === 'Rejects') {
        action(cell.seat, { type: 'drop' });
      } else if (head === 'Wins') {
        const points = Number(rest[0]);
        if (!Number.isInteger(points) || points < 1) return bad('expected "Wins <points> point(s)"');
        const ended = sim === null || sim.games.length > gamesBefore;
        const forfeit = rest.slice(2).join(' ').toLowerCase() === FORFEIT.trim();
        if (!ended && forfeit) {
          // The loser conceded the whole match (see FORFEIT).
          push({ kind: 'resign', seat: 1 - cell.seat });
        } else if (!ended) {
          // Neither a bear-off nor a drop ended the game: the loser resigned and the winner accepted.
          const level = LEVELS[points / sim!.cube.value - 1];
          if (!level) return bad(`${points} points is not a single game, gammon or backgammon with the cube at ${sim!.cube.value}`);
          action(1 - cell.seat, { type: 'resign', level });
          action(cell.seat, { type: 'acceptResignation' });
        }
      } else {
        return bad(`cannot read "${cell.tokens.join(' ')}"`);
      }
    }
  }
  return ok({ ruleset: { ...ruleset }, seatNames, entries, labels, parsedRuleset: ruleset });
}
