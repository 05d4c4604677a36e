/**
 * The Chicken Foot game record, JSON text (content type application/json); see docs/rules/chicken-foot.md §16:
 *
 *   {
 *     "format": "arbiter-chicken-foot/1",
 *     "ruleset": { ...the full parsed ruleset... },
 *     "seats": ["Ann", "Bob", "Cy"],
 *     "firstDealerDraw": [1],                      // only when ruleset.firstDealer is "random"
 *     "result": "seat 1 lost on time; seat 0 wins", // how the game ended, in words (optional; import ignores it)
 *     "rounds": [
 *       { "round": 1, "shuffle": [54, 12, ...],      // the round's TilesShuffled values
 *         "actions": [ { "seat": 0, "type": "play", "tile": "4-9", "target": "hub" },
 *                      { "seat": 1, "type": "draw" }, { "seat": 1, "type": "pass" } ] }
 *     ]
 *   }
 *
 * A seat conceding the whole game (`engine.resign`, the referee's resignGame) is written as the last
 * action of the round it abandoned: `{ "seat": 2, "type": "resignGame" }`. It is not an action
 * `parseAction` accepts; import turns it back into a `{ kind: 'resign', seat }` entry.
 *
 * Timeouts: a game forfeited on time ends with `{ "seat": 2, "type": "resignGame", "timedOut": true }`,
 * and an action the referee played for a seat after its timeout carries `"auto": true`. Import
 * accepts both marks and drops them: an imported game has no clock.
 */
import { checkValues, Codes, fail, ok, shuffleRanges, type ImportedRecord, type ReplayEntry, type Result } from '../../../engines/kit/index.js';
import { parseAction, type ChickenFootAction } from './game.js';
import { parseRuleset, type ChickenFootRuleset } from './ruleset.js';
import { setSize } from './tiles.js';

export const RECORD_FORMAT = 'arbiter-chicken-foot/1';
export const recordContentType = 'application/json';

/** The record's name for a whole-game concession (a resign entry), written among a round's actions. */
export const RESIGN_GAME = 'resignGame';

type RecordedAction = { seat: number } & ((ChickenFootAction & { auto?: true }) | { type: typeof RESIGN_GAME; timedOut?: true });
interface RecordedRound {
  round: number;
  shuffle: number[];
  actions: RecordedAction[];
}

/** Entries (as the referee stores them) to record text. Chance entries after the first-dealer draw are round shuffles. */
export function exportRecord(ruleset: ChickenFootRuleset, entries: readonly ReplayEntry<ChickenFootAction>[], seatNames: string[], ending?: string): string {
  let firstDealerDraw: number[] | undefined;
  const rounds: RecordedRound[] = [];
  for (const entry of entries) {
    if (entry.kind === 'chance') {
      if (ruleset.firstDealer === 'random' && !firstDealerDraw) firstDealerDraw = entry.values.slice();
      else rounds.push({ round: rounds.length + 1, shuffle: entry.values.slice(), actions: [] });
    } else if (entry.kind === 'resign') {
      // Replay refuses a resignation while a chance is pending, so one always falls inside a dealt round.
      rounds[rounds.length - 1]?.actions.push({ seat: entry.seat, type: RESIGN_GAME, ...(entry.timedOut ? { timedOut: true as const } : {}) });
    } else {
      rounds[rounds.length - 1]?.actions.push({ seat: entry.seat, ...entry.action, ...(entry.auto ? { auto: true as const } : {}) });
    }
  }
  // Plain JSON, laid out for people: one line per header field, per round header and per action.
  const j = JSON.stringify;
  const header = [`"format": ${j(RECORD_FORMAT)}`, `"ruleset": ${j(ruleset)}`, `"seats": ${j(seatNames)}`];
  if (firstDealerDraw) header.push(`"firstDealerDraw": ${j(firstDealerDraw)}`);
  if (ending) header.push(`"result": ${j(ending)}`);
  const roundText = rounds.map((r) => `  {"round": ${r.round}, "shuffle": ${j(r.shuffle)}, "actions": [${r.actions.map((a) => `\n    ${j(a)}`).join(',')}${r.actions.length ? '\n  ' : ''}]}`);
  return `{\n ${header.join(',\n ')},\n "rounds": [${roundText.length ? `\n${roundText.join(',\n')}\n ` : ''}]\n}\n`;
}

const isObject = (x: unknown): x is Record<string, unknown> => typeof x === 'object' && x !== null && !Array.isArray(x);

/** A record nests five levels (record, rounds, round, actions, action); anything far deeper is refused before it is walked. */
const MAX_DEPTH = 32;

/** Whether a parsed JSON value nests deeper than `max`; iterative, so a hostile depth cannot exhaust the stack. */
function nestsDeeperThan(value: unknown, max: number): boolean {
  const stack: [unknown, number][] = [[value, 0]];
  while (stack.length > 0) {
    const [v, depth] = stack.pop()!;
    if (typeof v !== 'object' || v === null) continue;
    if (depth >= max) return true;
    for (const child of Object.values(v)) stack.push([child, depth + 1]);
  }
  return false;
}

/** Record text to replay entries; INVALID_INPUT says where the record is wrong. */
export function importRecord(text: string): Result<ImportedRecord<ChickenFootRuleset, ChickenFootAction>> {
  const bad = (message: string) => fail<ImportedRecord<ChickenFootRuleset, ChickenFootAction>>(Codes.INVALID_INPUT, `invalid Chicken Foot record: ${message}`);
  let data: unknown;
  try {
    data = JSON.parse(text);
  } catch (e) {
    return bad(`not JSON (${(e as Error).message})`);
  }
  if (nestsDeeperThan(data, MAX_DEPTH)) return bad(`the JSON nests deeper than ${MAX_DEPTH} levels`);
  if (!isObject(data)) return bad('the record must be a JSON object');
  if (data.format !== RECORD_FORMAT) return bad(`format must be "${RECORD_FORMAT}", got ${JSON.stringify(data.format)}`);
  const extra = Object.keys(data).find((k) => !['format', 'ruleset', 'seats', 'firstDealerDraw', 'result', 'rounds'].includes(k));
  if (extra) return bad(`unknown field "${extra}"`);
  if (data.result !== undefined && typeof data.result !== 'string') return bad('"result" is how the game ended, in words (a string)');
  const parsed = parseRuleset(data.ruleset);
  if (!parsed.ok) return bad(`ruleset: ${parsed.error.message}`);
  const ruleset = parsed.value;
  const seats = data.seats;
  if (!Array.isArray(seats) || seats.length !== ruleset.players || !seats.every((s) => typeof s === 'string')) {
    return bad(`seats must list ${ruleset.players} seat names (strings)`);
  }
  if (!Array.isArray(data.rounds)) return bad('rounds must be an array');

  const entries: ReplayEntry<ChickenFootAction>[] = [];
  const labels: string[] = [];
  if (ruleset.firstDealer === 'random' && data.rounds.length > 0) {
    const wrong = checkValues([ruleset.players], data.firstDealerDraw as number[]);
    if (wrong) return bad(`firstDealerDraw (needed because firstDealer is "random"): ${wrong}`);
    entries.push({ kind: 'chance', values: (data.firstDealerDraw as number[]).slice() });
    labels.push('first dealer draw');
  } else if (data.firstDealerDraw !== undefined) {
    return bad('firstDealerDraw belongs only to a started game whose ruleset has firstDealer "random"');
  }
  const ranges = shuffleRanges(setSize(ruleset.setMax));
  for (const [i, round] of data.rounds.entries()) {
    const where = `round ${i + 1}`;
    if (!isObject(round)) return bad(`${where} must be an object { round, shuffle, actions }`);
    const unknown = Object.keys(round).find((k) => !['round', 'shuffle', 'actions'].includes(k));
    if (unknown) return bad(`${where} has an unknown field "${unknown}"`);
    if (round.round !== i + 1) return bad(`${where} is numbered ${JSON.stringify(round.round)}`);
    const wrong = checkValues(ranges, round.shuffle as number[]);
    if (wrong) return bad(`${where} shuffle: ${wrong}`);
    entries.push({ kind: 'chance', values: (round.shuffle as number[]).slice() });
    labels.push(`${where} shuffle`);
    if (!Array.isArray(round.actions)) return bad(`${where} actions must be an array`);
    for (const [j, recorded] of round.actions.entries()) {
      const at = `${where}, action ${j + 1}`;
      if (!isObject(recorded)) return bad(`${at} must be an object { seat, type, ... }`);
      const { seat, ...rest } = recorded;
      if (typeof seat !== 'number' || !Number.isInteger(seat) || seat < 0 || seat >= ruleset.players) return bad(`${at}: seat must be 0 to ${ruleset.players - 1}`);
      if (rest.type === RESIGN_GAME) {
        const extraField = Object.keys(rest).find((k) => k !== 'type' && !(k === 'timedOut' && rest.timedOut === true));
        if (extraField) return bad(`${at}: a ${RESIGN_GAME} action has no "${extraField}" field (fields: seat, type, timedOut: true)`);
        if (i !== data.rounds.length - 1 || j !== round.actions.length - 1) return bad(`${at}: ${RESIGN_GAME} ends the game, so it must be the record's last action`);
        entries.push({ kind: 'resign', seat });
        labels.push(at);
        continue;
      }
      const { auto, ...sent } = rest;
      if (auto !== undefined && auto !== true) return bad(`${at}: an auto-played action is marked "auto": true`);
      const action = parseAction(sent);
      if (!action.ok) return bad(`${at}: ${action.error.message}`);
      entries.push({ kind: 'action', seat, action: action.value });
      labels.push(at);
    }
  }
  return ok({ ruleset: data.ruleset, seatNames: seats as string[], entries, labels, parsedRuleset: ruleset });
}
