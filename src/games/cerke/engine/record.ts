/**
 * Game records (kiar ark): export in the current cerke_online text format (V5) and import of
 * every cerke_online version (V1-V5) and CKKA notation 0 (docs/rules/cerke.md §16).
 * Import replays the record through the engine as it reads, so whose move it is, a `片`
 * kind, Tam2's square and the declarations all come from the rules.
 *
 * Resignation. cerke_online has no notation for it (docs/rules/cerke.md §16.7): its records
 * of a game someone left just stop. A whole-game concession (`engine.resign`, the referee's
 * resignGame) is written here as one more header tag after `{終時:}`, `{投了:黒}` (the IA side,
 * black King, resigned) or `{投了:赤}` (the A side), using the King colours of `一位色`, `黒名`
 * and `赤名` and the word kifu of other board games close with (投了, "resignation"). Such
 * extra `{key:value}` lines are allowed there (docs/rules/cerke.md §16.2):
 * cerke_online_kiaak_parser ignores lines between the third line and the body, CKKA accepts any
 * tag, and our importer turns the tag into a `{ kind: 'resign', seat }` entry after the body's
 * last action. The body keeps the game as played: no `星一周` (the game did not go round), and a
 * stepping move the resignation cut short (cast made, step not yet completed) is written as
 * abandoned, `橋n此無`, which replays to the same points. A game lost on time (cerke_online has no
 * clocks either) ends the same way, its tag `{切れ負け:黒}` or `{切れ負け:赤}` instead ("lost on
 * time", as kifu write it), which our importer reads as that side's concession: an imported game
 * has no clock.
 */
import { type Colour, type Kind, type Side, KINDS, SIDES, TAM2, initialBoard, isPiece, parseSquare, sideOf, squareName } from './board.js';
import type { CerkeAction } from './actions.js';
import type { HandName } from './hands.js';
import { readPekzepNumeral, toPekzepNumeral } from './numerals.js';
import { type CerkeRuleset, PROFILES, parseRuleset } from './ruleset.js';
import { type CerkeState, type NegativeHandName, apply, declaredHands, init, pendingChance, positionOf, resign, resolveChance, tam2Action } from './state.js';
import { forEachTam2Intent } from './movement.js';
import { Codes, type EngineReplay, fail, ok, type ImportedRecord, type ReplayEntry, type Result, step } from '../../../engines/kit/index.js';

/** The rules a record replays through (the kit's one replay step). */
const cerkeReplay: EngineReplay<CerkeState, CerkeAction> = { pendingChance, resolveChance, apply, resign };

const KIND_CHARS: Record<Kind, string> = {
  Vessel: '船',
  Pawn: '兵',
  Archer: '弓',
  Chariot: '車',
  Tiger: '虎',
  Horse: '馬',
  Officer: '筆',
  Shaman: '巫',
  General: '将',
  King: '王',
};
const COLOUR_CHARS: Record<Colour, string> = { red: '赤', black: '黒' };
const STICK_CHARS = ['無', '一', '二', '三', '四', '五'];
const HAND_CHARS: Record<HandName | NegativeHandName, string> = {
  Unbeatable: '無抗行処',
  SocialOrder: '筆兵無傾',
  Culture: '地心',
  Cavalry: '馬弓兵',
  Attack: '行行',
  King: '王',
  Animals: '獣',
  Army: '戦集',
  Comrades: '助友',
  DeadlyArmy: '闇戦之集',
  Stepping: '撃皇',
  FutileMove: '皇再来',
};
const SEASON_LABELS = ['春終', '夏終', '秋終', '冬終'];
/** `一位色`: the colour of the first mover's King; IA's King is black. */
const KING_COLOUR: Record<Side, string> = { IA: '黒', A: '赤' };
const NO_CAST = '無撃裁';
const NOT_THIS = '此無';
const FLASH = '同色';
const GAME_OVER_MARK = '星一周';
/** Header tag of a whole-game resignation; its value is the resigning side's King colour (see the top of the file). */
const RESIGNED_TAG = '投了';
/** The same for a game lost on time. */
const TIMED_OUT_TAG = '切れ負け';

/** Chance values for a cast of `value`: that many sticks show the marked face, e.g. 2 → [1,1,0,0,0]. */
export const castValues = (value: number): number[] => [0, 1, 2, 3, 4].map((i) => (i < value ? 1 : 0));
const castOf = (values: readonly number[]) => values.reduce((a, b) => a + b, 0);

// ---------------------------------------------------------------------------------------------
// Export

type Element = { move: string } | { block: string };

interface MoveText {
  from: string;
  via: string | null;
  planned: string;
  kind: Kind;
  seat: number;
  pileBefore: number;
  steppingCast: number | null;
  waterCast: number | null;
  completedOn: string | null;
}

const MOVE_UNDER_WAY = new Set(['steppingCast', 'stepCompletion', 'waterCast']);

function moveText(m: MoveText, after: CerkeState): string {
  let dest = m.planned;
  let cast = '';
  if (m.steppingCast !== null) {
    cast = '橋' + STICK_CHARS[m.steppingCast];
    if (m.completedOn === null) cast += NOT_THIS;
    else dest = m.completedOn;
  }
  if (m.waterCast !== null) cast += '水' + STICK_CHARS[m.waterCast] + (m.waterCast < 3 ? NOT_THIS : '');
  if (cast === '') cast = NO_CAST;
  const pile = after.capturedPiles[m.seat];
  const captured = pile.length > m.pileBefore ? pile[pile.length - 1] : null;
  const capture = captured ? '手' + COLOUR_CHARS[captured.colour] + KIND_CHARS[captured.kind] : '';
  return m.from + KIND_CHARS[m.kind] + (m.via ?? '') + dest + cast + capture;
}

function declarationText(state: CerkeState, endsSeason: boolean): string {
  if (state.phase.name !== 'declaration') return '';
  const { hands, handValue } = declaredHands(state, state.phase);
  const names = hands.map((h) => ('flash' in h && h.flash && h.name !== 'King' ? FLASH : '') + HAND_CHARS[h.name]).join('加');
  if (!endsSeason) return `或為${names}\n再行`;
  return `或為${names}而手${toPekzepNumeral(handValue * state.stake)}\n終季\t${SEASON_LABELS[state.season]}`;
}

/** cerke_online's layout (docs/rules/cerke.md §16.5): moves in pairs, blocks set apart by blank lines. */
function render(elements: Element[]): string {
  let out = '';
  for (let i = 0; i < elements.length; i++) {
    const e = elements[i];
    const next = elements[i + 1];
    if ('block' in e) out += `\n${e.block}\n\n`;
    else if (next && 'move' in next) {
      out += `${e.move}\t${next.move}\n`;
      i++;
    } else if (next) {
      out += `${e.move}\n\n${next.block}\n\n`;
      i++;
    } else out += `${e.move}\n`;
  }
  return out;
}

/**
 * cerke_online records are always online, four seasons; any other ruleset is written as
 * `key=value` pairs (profile, then the flags that differ from that profile) so the record
 * replays the same way.
 */
function rulesetDifferences(ruleset: CerkeRuleset): string {
  const base: CerkeRuleset = { profile: ruleset.profile, seasons: 4, ...PROFILES[ruleset.profile] };
  const pairs = (Object.keys(ruleset) as (keyof CerkeRuleset)[])
    .filter((key) => (key === 'profile' ? ruleset.profile !== 'online' : ruleset[key] !== base[key]))
    .map((key) => `${key}=${ruleset[key]}`);
  return pairs.join(',');
}

function readRulesetTag(value: string): Result<Record<string, unknown>> {
  // No prototype: a "__proto__=..." pair becomes a field parseRuleset refuses, not a silent no-op.
  const input: Record<string, unknown> = Object.create(null);
  for (const pair of value.split(',')) {
    const [key, text] = pair.split('=');
    if (!key || text === undefined) return fail(Codes.INVALID_INPUT, `header {ruleset:${value}}: "${pair}" is not key=value`);
    input[key] = text === 'true' ? true : text === 'false' ? false : /^[0-9]+$/.test(text) ? Number(text) : text;
  }
  return ok(input);
}

/**
 * Writes a refereed game as a cerke_online V5 record. The engine has no clock, so `始時` and
 * `終時` are written empty for the caller to fill in; seat names follow as CKKA's `黒名` (IA)
 * and `赤名` (A) tags.
 */
export function exportRecord(ruleset: CerkeRuleset, entries: ReplayEntry<CerkeAction>[], seatNames: string[]): string {
  let state = init(ruleset);
  const elements: Element[] = [];
  let move: MoveText | null = null;
  for (const entry of entries) {
    const before = state;
    const next = step(cerkeReplay, state, entry);
    if (!next.ok) break;
    state = next.value;
    if (entry.kind === 'resign') {
      // Nothing in the body; a move under way is flushed below (a cut-short step reads as abandoned) and the header gets the 投了 tag.
    } else if (entry.kind === 'chance') {
      if (move && before.phase.name === 'steppingCast') move.steppingCast = castOf(entry.values);
      if (move && before.phase.name === 'waterCast') move.waterCast = castOf(entry.values);
    } else {
      const action = entry.action;
      if (action.type === 'move') {
        const piece = before.board[parseSquare(action.from)];
        if (!isPiece(piece)) break;
        move = {
          from: action.from,
          via: action.via ?? null,
          planned: action.to,
          kind: piece.kind,
          seat: entry.seat,
          pileBefore: before.capturedPiles[entry.seat].length,
          steppingCast: null,
          waterCast: null,
          completedOn: null,
        };
      } else if (action.type === 'completeStep' && move) move.completedOn = action.to;
      else if (action.type === 'drop') elements.push({ move: COLOUR_CHARS[action.colour] + KIND_CHARS[action.kind] + action.to });
      else if (action.type === 'moveTam2') {
        const src = squareName(before.board.indexOf(TAM2));
        const first = `[${action.firstSquare}]`;
        const path = action.stepDuring === 'firstHalf' ? action.via + first + action.to : first + (action.via ?? '') + action.to;
        elements.push({ move: src + '皇' + path });
      } else if (action.type === 'continue' || action.type === 'endSeason') elements.push({ block: declarationText(before, action.type === 'endSeason') });
    }
    if (move && !MOVE_UNDER_WAY.has(state.phase.name)) {
      elements.push({ move: moveText(move, state) });
      move = null;
    }
    if (state.result && !before.result && state.result.reason !== 'resignation') elements.push({ block: GAME_OVER_MARK });
  }
  const colours = state.seasonResults
    .map((s) => s.firstMover)
    .concat(state.result ? [] : [state.firstMover])
    .filter((s): s is Side => s !== null);
  // The first lines stay 一位色, 始時, 終時 (終時 once the game is over), as cerke_online's readers expect.
  const header = [`{一位色:${colours.map((s) => KING_COLOUR[s]).join('')}}`, '{始時:}'];
  if (state.result) header.push('{終時:}');
  if (state.result?.reason === 'resignation' && state.result.resignedBy) {
    const tag = entries.some((e) => e.kind === 'resign' && e.timedOut) ? TIMED_OUT_TAG : RESIGNED_TAG;
    header.push(`{${tag}:${KING_COLOUR[state.result.resignedBy]}}`);
  }
  const rulesetTag = rulesetDifferences(ruleset);
  if (rulesetTag) header.push(`{ruleset:${rulesetTag}}`);
  if (seatNames[0]) header.push(`{黒名:${seatNames[0]}}`);
  if (seatNames[1]) header.push(`{赤名:${seatNames[1]}}`);
  return header.join('\n') + '\n' + render(elements);
}

// ---------------------------------------------------------------------------------------------
// Import: tokens

const SQ = '[KLNTZXCMP](?:AI|AU|IA|[AEIOUY])';
const KIND = '[船兵弓車虎馬筆巫将王]';
const STICK = '[無一二三四五或]';
const WATER = `水(?:[無一二或]${NOT_THIS}|[三四五或])`;
const PIECE_MOVE = new RegExp(`^(${SQ})(${KIND}|片)(${SQ})(${SQ})?(${NO_CAST}|${WATER}|橋${STICK}(?:${NOT_THIS}|${WATER})?)(?:手([赤黒])?(${KIND}))?$`);
const DROP = new RegExp(`^([赤黒])(${KIND})(${SQ})$`);
const TAM2_MOVE = new RegExp(`^(${SQ})皇(?:\\[(${SQ}|或)\\](${SQ})(${SQ})?|(${SQ})\\[(${SQ}|或)\\](${SQ})|(${SQ})(${SQ})?)$`);
const CAPTURE_NOTE = new RegExp(`^手([赤黒])?(${KIND})$`);
const POINTS_NOTE = /^手(.+)$/;
const DECLARATION = /^(?:或|\[[^\]]*\])為(.*)$/;
const SEASON_END_WORDS = ['春終', '夏終', '秋終', '冬終', '上季終', '下季終'];
const HAND_BY_CHARS = new Map(Object.entries(HAND_CHARS).map(([name, chars]) => [chars, name]));
const KIND_BY_CHAR = new Map(KINDS.map((k) => [KIND_CHARS[k], k]));
const COLOUR_BY_CHAR: Record<string, Colour> = { 赤: 'red', 黒: 'black' };

interface Header {
  firstMoverColours: string;
  names: { IA?: string; A?: string };
  /** Our own `{ruleset:…}` tag; absent in cerke_online records (online, four seasons). */
  ruleset: Record<string, unknown>;
  playerLine: { name: string; points: number | null }[];
  /** From our `{投了:黒|赤}` (or `{切れ負け:…}`) tag: the side that conceded the whole game after the body's last action. */
  resignedBy: Side | null;
}

/** Header items `{key:value}`, `{value}`, `#{…}#`, and CKKA's player line `[name]pts [name]pts`. */
function parseHeader(lines: string[]): Result<Header> {
  const header: Header = { firstMoverColours: '', names: {}, playerLine: [], ruleset: { profile: 'online' }, resignedBy: null };
  for (const raw of lines) {
    const line = raw.trim();
    if (line === '') continue;
    if (line.startsWith('[')) {
      for (const m of line.matchAll(/\[([^\]]*)\]\s*([^\s[]*)/g)) {
        const points = m[2] === '' ? null : readPekzepNumeral(m[2]);
        if (m[2] !== '' && points === null) return fail(Codes.INVALID_INPUT, `header: "${m[2]}" is not a number of points for ${m[1]}`);
        header.playerLine.push({ name: m[1], points });
      }
      continue;
    }
    const items = [...line.matchAll(/#\{(.*?)\}#|\{([^}]*)\}/g)];
    if (items.length === 0) return fail(Codes.INVALID_INPUT, `header line "${line}" is neither a {key:value} tag nor a player line`);
    for (const item of items) {
      const text = item[1] ?? item[2];
      const colon = text.indexOf(':');
      const key = colon < 0 ? '' : text.slice(0, colon);
      const value = colon < 0 ? text : text.slice(colon + 1);
      if (key === '律') return fail(Codes.INVALID_INPUT, `header {律:${value}}: only the standardized rule is supported, not the pre-standard rule "${value}"`);
      if (key === '一位色') {
        if (!/^[黒赤]+$/.test(value)) return fail(Codes.INVALID_INPUT, `header {一位色:${value}} must list 黒 or 赤 for each season`);
        header.firstMoverColours = value;
      }
      if (key === 'ruleset') {
        const ruleset = readRulesetTag(value);
        if (!ruleset.ok) return ruleset;
        header.ruleset = ruleset.value;
      }
      if (key === RESIGNED_TAG || key === TIMED_OUT_TAG) {
        if (value !== '黒' && value !== '赤') return fail(Codes.INVALID_INPUT, `header {${key}:${value}} must name the resigning side by its King's colour, 黒 (IA) or 赤 (A)`);
        header.resignedBy = value === '黒' ? 'IA' : 'A';
      }
      if (key === '黒名') header.names.IA = value;
      if (key === '赤名') header.names.A = value;
    }
  }
  return ok(header);
}

const BODY_START = /^[KLNTZXCMP"]/;

function tokenise(body: string): string[] {
  return body
    .replace(/#\{.*?\}#|\{[^}]*\}/g, ' ')
    .split(/[\s\u00a0\u3000,.、。，．｡､]+/)
    .filter((t) => t !== '');
}

// ---------------------------------------------------------------------------------------------
// Import: replay

class ImportError {
  constructor(readonly message: string) {}
}

/** Reads the record token by token, replaying each action through the engine. */
class RecordReader {
  state: CerkeState;
  readonly entries: ReplayEntry<CerkeAction>[] = [];
  readonly labels: string[] = [];
  private turnInSeason = 0;
  private label = '';

  constructor(
    ruleset: CerkeRuleset,
    private readonly tokens: string[],
    private readonly firstMoverColours: string,
  ) {
    this.state = init(ruleset);
  }

  private seasonLabel() {
    return `season ${this.state.season + 1}`;
  }

  private push(entry: ReplayEntry<CerkeAction>, what: string) {
    const next = step(cerkeReplay, this.state, entry);
    const label = `${this.label}${what ? ` (${what})` : ''}`;
    if (!next.ok) throw new ImportError(`${label}: ${next.error.message}`);
    this.entries.push(entry);
    this.labels.push(label);
    this.state = next.value;
  }

  private act(action: CerkeAction, what = '') {
    this.push({ kind: 'action', seat: this.state.toMove, action }, what);
  }

  private cast(value: number, what: string) {
    if (!pendingChance(this.state)) throw new ImportError(`${this.label}: the record shows a ${what} but the rules call for no cast here`);
    this.push({ kind: 'chance', values: castValues(value) }, what);
  }

  private expectNoCast(what: string) {
    if (pendingChance(this.state)) throw new ImportError(`${this.label}: the record shows ${what} but the rules call for a stick cast here`);
  }

  run(): void {
    for (let i = 0; i < this.tokens.length; i++) {
      const token = this.tokens[i];
      if (token === GAME_OVER_MARK || SEASON_END_WORDS.includes(token)) continue;
      if (this.state.result) throw new ImportError(`token ${i + 1} "${token}": the game is already over`);
      if (this.state.phase.name === 'firstMoverCast') this.decideFirstMover(i);
      const seasonLabel = this.seasonLabel();
      const declaration = DECLARATION.exec(token);
      if (declaration) {
        i = this.readDeclaration(declaration[1], i);
        continue;
      }
      if (token === '再行' || token === '終季') {
        this.label = `${seasonLabel}, ${token}`;
        this.act({ type: token === '再行' ? 'continue' : 'endSeason' });
        continue;
      }
      const capture = CAPTURE_NOTE.exec(token);
      if (capture) continue; // a CKKA capture comment: the move before it was already checked by replay
      if (this.state.phase.name === 'declaration') throw new ImportError(`token ${i + 1} "${token}": the mover made a new hand, so a declaration must come first`);
      this.turnInSeason++;
      this.label = `${seasonLabel}, move ${this.turnInSeason} (${sideOf(this.state.toMove)}): ${token}`;
      this.readAction(token);
    }
  }

  /** After the body: `side` concedes the whole game (the `{投了:…}` header tag). */
  resign(side: Side): void {
    if (this.state.result) throw new ImportError(`header {${RESIGNED_TAG}:${KING_COLOUR[side]}}: the game is already over at the end of the record, so nobody can resign`);
    // Resigned before the season's first move: the season's first mover (from 一位色) was still cast.
    if (this.state.phase.name === 'firstMoverCast') this.decideFirstMover(this.tokens.length);
    if (pendingChance(this.state)) throw new ImportError(`header {${RESIGNED_TAG}:${KING_COLOUR[side]}}: the record stops while a stick cast is pending`);
    this.label = `${this.seasonLabel()}, ${side} resigns`;
    this.push({ kind: 'resign', seat: SIDES.indexOf(side) }, '');
  }

  /** The season's first mover: from `一位色`, else from the first move's piece (docs/rules/cerke.md §16.6). */
  private decideFirstMover(at: number) {
    const season = this.state.season;
    this.turnInSeason = 0;
    let first: Side | null = null;
    const colour = this.firstMoverColours[season];
    if (colour) first = colour === '黒' ? 'IA' : 'A';
    else {
      const initial = initialBoard();
      const ownerOf = (token: string) => {
        const m = PIECE_MOVE.exec(token);
        const cell = m ? initial[parseSquare(m[1])] : null;
        return isPiece(cell) ? cell.side : null;
      };
      const actions = this.tokens.slice(at).filter((t) => PIECE_MOVE.test(t) || TAM2_MOVE.test(t));
      if (actions[0] && PIECE_MOVE.test(actions[0])) first = ownerOf(actions[0]);
      else if (actions[1]) {
        const second = ownerOf(actions[1]);
        first = second === null ? null : second === 'IA' ? 'A' : 'IA';
      }
      if (!first) throw new ImportError(`${this.seasonLabel()}: cannot tell who moved first (no 一位色 in the header and no piece move to infer it from)`);
    }
    this.label = `${this.seasonLabel()}, first mover ${first}`;
    this.push({ kind: 'chance', values: first === 'IA' ? [1, 0, 0, 0, 0, 0, 0, 0, 0, 0] : [0, 0, 0, 0, 0, 1, 0, 0, 0, 0] }, 'sticks cast for the first move');
  }

  private readAction(token: string) {
    let m = PIECE_MOVE.exec(token);
    if (m) return this.readPieceMove(m);
    m = DROP.exec(token);
    if (m) return this.act({ type: 'drop', colour: COLOUR_BY_CHAR[m[1]], kind: KIND_BY_CHAR.get(m[2])!, to: m[3] });
    m = TAM2_MOVE.exec(token);
    if (m) return this.readTam2Move(m);
    throw new ImportError(`${this.label}: not a move, drop, Tam2 move or declaration of cerke_online or CKKA notation 0`);
  }

  private readPieceMove(m: RegExpExecArray) {
    const [, from, kindChar, second, third, cast, captureColour, captureKind] = m;
    const via = third ? second : undefined;
    const to = third ?? second;
    const piece = this.state.board[parseSquare(from)];
    if (!isPiece(piece)) throw new ImportError(`${this.label}: there is no piece on ${from}`);
    if (kindChar !== '片' && KIND_BY_CHAR.get(kindChar) !== piece.kind) throw new ImportError(`${this.label}: the piece on ${from} is a ${piece.kind}, not ${kindChar}`);
    const mover = this.state.toMove;
    const pileBefore = this.state.capturedPiles[mover].length;
    this.act(via ? { type: 'move', from, via, to } : { type: 'move', from, to });
    if (cast === NO_CAST) this.expectNoCast(NO_CAST);
    else {
      const stepping = /^橋(.)/.exec(cast);
      const water = /水(.)(此無)?$/.exec(cast);
      const failed = cast.endsWith(NOT_THIS);
      if (stepping) {
        const known = STICK_CHARS.indexOf(stepping[1]);
        // 或 hides the count: any count with the recorded success or failure replays the same.
        const abandoned = failed && !water;
        this.cast(known >= 0 ? known : abandoned ? 0 : 5, 'stepping cast');
        if (this.state.phase.name === 'stepCompletion') this.act(abandoned ? { type: 'abandonStep' } : { type: 'completeStep', to }, abandoned ? 'abandoned' : 'completed');
        else if (!abandoned && !this.state.result) throw new ImportError(`${this.label}: the cast cannot carry the piece to ${to}`);
      }
      if (water) {
        const known = STICK_CHARS.indexOf(water[1]);
        this.cast(known >= 0 ? known : water[2] ? 0 : 3, 'water cast');
      } else this.expectNoCast(cast);
    }
    const pile = this.state.capturedPiles[mover];
    const captured = pile.length > pileBefore ? pile[pile.length - 1] : null;
    if (captureKind) {
      const kind = KIND_BY_CHAR.get(captureKind);
      if (!captured || captured.kind !== kind || (captureColour && captured.colour !== COLOUR_BY_CHAR[captureColour]))
        throw new ImportError(`${this.label}: the record says 手${captureColour ?? ''}${captureKind} but the move captured ${captured ? `a ${captured.colour} ${captured.kind}` : 'nothing'}`);
    }
  }

  private readTam2Move(m: RegExpExecArray) {
    const src = m[1];
    const position = positionOf(this.state);
    if (parseSquare(src) !== position.tam2) throw new ImportError(`${this.label}: Tam2 stands on ${position.tam2 < 0 ? 'no square' : squareName(position.tam2)}, not ${src}`);
    // [first]second, [first]via second, via[first]second, or CKKA's bracket-less second / via second.
    let first: string | null = null;
    let via: string | null = null;
    let to: string;
    let stepDuring: 'firstHalf' | 'secondHalf' | null | undefined;
    if (m[3]) {
      first = m[2] === '或' ? null : m[2];
      via = m[4] ? m[3] : null;
      to = m[4] ?? m[3];
      stepDuring = via ? 'secondHalf' : null;
    } else if (m[5]) {
      via = m[5];
      first = m[6] === '或' ? null : m[6];
      to = m[7];
      stepDuring = 'firstHalf';
    } else {
      via = m[9] ? m[8] : null;
      to = m[9] ?? m[8];
      stepDuring = via ? undefined : null;
    }
    let chosen: CerkeAction | null = null;
    forEachTam2Intent(position, (intent) => {
      const matches =
        squareName(intent.to) === to &&
        (first === null || squareName(intent.firstSquare) === first) &&
        (via === null ? intent.via < 0 : intent.via >= 0 && squareName(intent.via) === via) &&
        (stepDuring === undefined || intent.stepDuring === stepDuring);
      if (matches) chosen = tam2Action(intent);
      return matches;
    });
    if (!chosen) throw new ImportError(`${this.label}: Tam2 cannot make this move from ${src}`);
    this.act(chosen);
  }

  /** `或為…` / `[name]為…`: checks the hands (and points) against the replay, then continues or ends the season. */
  private readDeclaration(text: string, at: number): number {
    let rest = text;
    let decision: 'continue' | 'endSeason' | null = null;
    let points: number | null = null;
    for (const [word, d] of [
      ['再行', 'continue'],
      ['終季', 'endSeason'],
    ] as const) {
      if (rest.endsWith(word)) {
        decision = d;
        rest = rest.slice(0, -word.length);
      }
    }
    const withPoints = /^(.*)而手(.+)$/.exec(rest);
    if (withPoints) {
      rest = withPoints[1];
      points = readPekzepNumeral(withPoints[2]);
      if (points === null) throw new ImportError(`${this.label}: "${withPoints[2]}" is not a Pekzep numeral`);
    }
    const names = rest.startsWith('(') ? [...rest.matchAll(/\(([^)]*)\)/g)].map((x) => x[1]) : rest.split('加');
    this.label = `${this.seasonLabel()}, declaration ${text}`;
    const phase = this.state.phase;
    if (phase.name !== 'declaration') throw new ImportError(`${this.label}: the last move made no new hand, so there is nothing to declare`);
    const { hands, handValue } = declaredHands(this.state, phase);
    const expected = new Set(hands.map((h) => ('flash' in h && h.flash && h.name !== 'King' ? FLASH : '') + HAND_CHARS[h.name]));
    const written = new Set(names.map((n) => (n === FLASH + '王' ? '王' : n)));
    for (const n of written) if (!HAND_BY_CHARS.has(n.replace(FLASH, ''))) throw new ImportError(`${this.label}: "${n}" is not a hand`);
    if (written.size !== expected.size || [...written].some((n) => !expected.has(n))) throw new ImportError(`${this.label}: the pile forms ${[...expected].join('加') || 'no hand'}`);
    let next = at;
    if (!decision) {
      const word = this.tokens[next + 1];
      if (word !== '再行' && word !== '終季') throw new ImportError(`${this.label}: 再行 or 終季 must follow a declaration`);
      decision = word === '再行' ? 'continue' : 'endSeason';
      next++;
    }
    const note = POINTS_NOTE.exec(this.tokens[next + 1] ?? '');
    if (decision === 'endSeason' && points === null && note && readPekzepNumeral(note[1]) !== null) {
      points = readPekzepNumeral(note[1]);
      next++;
    }
    if (points !== null && points !== handValue * this.state.stake)
      throw new ImportError(`${this.label}: the hands are worth ${handValue} × stake ${this.state.stake} = ${handValue * this.state.stake}, not ${points}`);
    this.act({ type: decision }, decision === 'continue' ? '再行' : '終季');
    return next;
  }
}

/** Parses a cerke_online (V1-V5) or CKKA notation-0 record into replay entries (online, 4 seasons unless a `{ruleset:…}` tag says otherwise). */
export function importRecord(text: string): Result<ImportedRecord<CerkeRuleset, CerkeAction>> {
  if (typeof text !== 'string') return fail(Codes.INVALID_INPUT, 'a Cerke record is text');
  const lines = text
    .replace(/^\uFEFF/, '')
    .replace(/\r\n?/g, '\n')
    .split('\n');
  let bodyAt = lines.findIndex((line) => BODY_START.test(line.trim()));
  // A game resigned before its first move has a header and no body.
  const headerOnly = bodyAt < 0 ? parseHeader(lines) : null;
  if (headerOnly && !headerOnly.ok) return headerOnly;
  if (headerOnly?.ok && headerOnly.value.resignedBy) bodyAt = lines.length;
  if (bodyAt < 0) return fail(Codes.INVALID_INPUT, 'the record has no moves: no line starts with a square such as MAU');
  const header = headerOnly ?? parseHeader(lines.slice(0, bodyAt));
  if (!header.ok) return header;
  const { playerLine, names, firstMoverColours, ruleset: rulesetInput, resignedBy } = header.value;
  if (playerLine.some((p) => p.points !== null && p.points !== 20)) return fail(Codes.INVALID_INPUT, 'header: only games that start at 20 points each can be replayed');
  const ruleset = parseRuleset(rulesetInput);
  if (!ruleset.ok) return fail(Codes.INVALID_INPUT, `header {ruleset:…}: ${ruleset.error.message}`);
  const body = lines.slice(bodyAt).join('\n');
  if (body.trimStart().startsWith('"')) return fail(Codes.INVALID_INPUT, 'CKKA notation 3 (JSON strings) is not supported; use notation 0');
  const reader = new RecordReader(ruleset.value, tokenise(body), firstMoverColours);
  try {
    reader.run();
    if (resignedBy) reader.resign(resignedBy);
  } catch (error) {
    if (error instanceof ImportError) return fail(Codes.INVALID_INPUT, error.message);
    throw error;
  }
  const seatNames = [names.IA ?? '', names.A ?? ''];
  if (playerLine.length === 2 && reader.state.seasonResults.length + (reader.state.firstMover ? 1 : 0) > 0) {
    // The player line names the first mover of the first season, then the second mover.
    const firstMover = reader.state.seasonResults[0]?.firstMover ?? reader.state.firstMover;
    const firstSeat = SIDES.indexOf(firstMover ?? 'IA');
    seatNames[firstSeat] ||= playerLine[0].name;
    seatNames[1 - firstSeat] ||= playerLine[1].name;
  }
  return ok({
    ruleset: rulesetInput,
    seatNames: seatNames.some((n) => n) ? seatNames : undefined,
    entries: reader.entries,
    labels: reader.labels,
    parsedRuleset: ruleset.value,
  });
}
