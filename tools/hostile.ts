/**
 * Hostile input for the whole service, from a fixed seed: GraphQL operations with poisoned
 * arguments, raw GraphQL HTTP requests, and REST requests with odd paths, methods and bodies,
 * over games, tournaments and webhooks (the targets: tools/hostile-targets.ts).
 *
 * Every request that could change state if it were valid carries at least one poison the service
 * must refuse, so a run must leave every game, tournament and webhook exactly as it was:
 * - games (create, import, join, move, resign): a malformed or unknown game id, a move id outside
 *   its pattern, a negative or stale expected version, no token or another game's token, a seat
 *   name with a control character, a ruleset with a prototype key...;
 * - tournaments (create, register, withdraw, round settings, pair, record a result with or
 *   without a record, finish): a malformed or unknown tournament or participant id, a tournament
 *   whose state refuses the command, a token the command is refused with there (none, a
 *   participant's where the organizer's is needed, another tournament's, a seat's), an
 *   out-of-range round or board, a result that does not fit (its record's), a command id outside
 *   its pattern, a name or reason with a control character, a configuration out of its bounds...;
 * - webhooks (register, rotate the secret, delete): a URL with a host not allowed, a private
 *   address, another scheme or credentials, unknown events, thresholds out of range, a scope the
 *   token does not hold, an unknown webhook id or a token that does not manage it.
 */
import { existsSync, readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { gzipSync } from 'node:zlib';
import { seededRandom } from '../src/engines/kit/index.js';
import type { GameTargets, SeededGame, SeededParticipant, SeededTournament, SeededWebhook, Targets, TournamentTargets } from './hostile-targets.js';

export interface HostileRequest {
  /** The family of input, for the figures: "gql:submitAction", "rest:GET /api/games/:id", ... */
  family: string;
  method: string;
  path: string;
  headers: Record<string, string>;
  body?: string | Uint8Array;
  /** GraphQL fields answering no union: the data keys (a field's name or alias) whose answer, when not null, is a change of state, and the field each is. */
  changes?: Record<string, string>;
}

/** test/fixtures, found from this file in the sources (Jest) or in dist/ (bench/fuzz.ts, built). */
const FIXTURES = (() => {
  for (let dir = dirname(fileURLToPath(import.meta.url)); dir !== dirname(dir); dir = dirname(dir)) {
    if (existsSync(join(dir, 'package.json'))) return join(dir, 'test/fixtures');
  }
  throw new Error('project root not found');
})();
const GAME_ID = /^[A-Za-z0-9_-]{1,64}$/;
const TOURNAMENT_ID = /^t-[A-Za-z0-9_-]{1,64}$/;
const WEBHOOK_ID = /^wh_[A-Za-z0-9_-]{16}$/;
/** A client's move id or tournament command id. */
const CLIENT_ID = /^[A-Za-z0-9_.:-]{1,128}$/;

/** Characters a name, seed or id must never hold: controls (C0, DEL, C1), lone surrogates, bidi overrides, line separators. */
const REFUSED_CHARS = [
  '\u0000',
  '\u0001',
  '\u0007',
  '\b',
  '\t',
  '\n',
  '\r',
  '\u001b',
  '\u007f',
  '\u0085',
  '\u009b',
  '\ud800',
  '\udbff',
  '\udc00',
  '\udfff',
  '\u202e',
  '\u202a',
  '\u2066',
  '\u2069',
  '\u2028',
  '\u2029',
];
/** Refused characters that no text record reads as a separator (a line break would only move the name). */
const NAME_POISONS = REFUSED_CHARS.filter((c) => !/\s/u.test(c) && c !== '\u0085');
/** Odd but well-formed characters: they go into garbage, never into a poison that must be refused. */
const ODD_CHARS = ['\ufeff', '\uffff', '\ufffe', '\u0301', '😀', '👩‍👩‍👧', '\u00a0', 'é', 'ß', '中', '"', "'", '\\', '/', '{', '}', '$', '%', '&', '?', '#', '|', '<', '>'];
const WORDS = [
  '__proto__',
  'constructor',
  'prototype',
  'toString',
  'hasOwnProperty',
  'valueOf',
  '../../etc/passwd',
  "' OR '1'='1",
  '"; DROP TABLE games; --',
  '\u0024{7*7}',
  '{{7*7}}',
  '%00',
  '%E2%80%AE',
  '\\u0000',
  'null',
  'undefined',
  'NaN',
  'Infinity',
  '-1',
  '1e309',
  '',
  ' ',
  'hub',
  '5-8',
  'ZO',
  'roll',
  'play',
  'duel',
  'cerke',
  'backgammon',
  'chicken-foot',
  'arb_',
  'AAAAAAAAAAAA',
];
const PROTO_KEYS = ['__proto__', 'constructor', 'prototype'];
const KINDS = ['backgammon', 'chicken-foot', 'cerke'];

/** Negative, out-of-range, fractional and ill-typed values for Int arguments. */
const ODD_NUMBERS: unknown[] = [-1, -5000, -2147483648, 2147483647, 2147483648, 9007199254740992, 1e308, -1e308, 0.5, 1e-7, 0, 1, 3, '5', 'NaN', 'Infinity', null, true, [], {}];
/** An expected version that every game refuses: negative, far ahead of any game, or not an Int. */
const BAD_VERSIONS: unknown[] = [-1, -5000, -2147483648, 2147483647, 1_000_000, 2147483648, 1.5, '5', 'NaN', true, [], {}];

const MOVE_SEL = '{ __typename ... on Rejection { code message currentVersion } ... on MoveAccepted { version } }';
const CREATE_SEL = '{ __typename ... on Rejection { code message } ... on GameCreated { game { id } } }';
const JOIN_SEL = '{ __typename ... on Rejection { code message } ... on SeatJoined { seat } }';
/** What an accepted tournament command answers (none may be accepted here), or its refusal. */
const TOURNAMENT_FIELDS = '{ id status version participants { id } }';
const TOURNAMENT_SEL = `{ __typename ... on Rejection { code message } ... on Tournament ${TOURNAMENT_FIELDS} }`;
const WEBHOOK_EVENTS = ['YOUR_TURN', 'GAME_OVER', 'TIME_RUNNING_LOW', 'TIMED_OUT', 'GAME_STARTED', 'PAUSE_REQUESTED', 'TIME_GIVEN', 'OPPONENT_ON_VACATION'];

let bombs: Uint8Array[] | null = null;
/** Gzip bodies that inflate to 2 and 8 MB (made once). */
const BOMBS = () => (bombs ??= [gzipSync(Buffer.alloc(2_000_000, 0x20)), gzipSync(Buffer.alloc(8_000_000, 0x20))]);

/** A JSON text spliced into a request body as is (nesting too deep for JSON.stringify to write). */
class Raw {
  constructor(readonly text: string) {}
}

/** JSON.stringify, with Raw values written verbatim and own "__proto__" keys kept. */
function toJson(value: unknown): string {
  const raws: string[] = [];
  const text = JSON.stringify(value, (_k, v) => {
    if (v instanceof Raw) {
      raws.push(v.text);
      return `@@RAW${raws.length - 1}@@`;
    }
    return v;
  });
  return text.replace(/"@@RAW(\d+)@@"/g, (_m, i) => raws[Number(i)]);
}

/** An object with own (enumerable) keys, "__proto__" included, as JSON.parse would build it. */
function ownObject(entries: [string, unknown][]): Record<string, unknown> {
  const o: Record<string, unknown> = {};
  for (const [k, v] of entries) Object.defineProperty(o, k, { value: v, enumerable: true, writable: true, configurable: true });
  return o;
}

/** Sets an own enumerable key, "__proto__" included. */
function setOwn(o: object, key: string, value: unknown): void {
  Object.defineProperty(o, key, { value, enumerable: true, writable: true, configurable: true });
}

/** Percent-encodes a path segment; a lone surrogate becomes the (invalid UTF-8) bytes of its code unit. */
function encodeSegment(s: string): string {
  let out = '';
  for (const ch of s) {
    const c = ch.codePointAt(0)!;
    if (c >= 0xd800 && c <= 0xdfff)
      out += `%${(0xe0 | (c >> 12)).toString(16).toUpperCase()}%${(0x80 | ((c >> 6) & 0x3f)).toString(16).toUpperCase()}%${(0x80 | (c & 0x3f)).toString(16).toUpperCase()}`;
    else out += encodeURIComponent(ch);
  }
  return out;
}

const gql = (family: string, query: string, variables: Record<string, unknown> | undefined, token?: string, changes?: Record<string, string>): HostileRequest => ({
  family,
  method: 'POST',
  path: '/graphql',
  headers: { 'content-type': 'application/json', ...(token !== undefined ? { authorization: `Bearer ${token}` } : {}) },
  body: toJson({ query, ...(variables ? { variables } : {}) }),
  ...(changes && Object.keys(changes).length > 0 ? { changes } : {}),
});

interface Field {
  op: 'query' | 'mutation' | 'subscription';
  name: string;
  /** The field with its arguments and selection, variables suffixed with `sfx`. */
  text: string;
  defs: string[];
  vars: Record<string, unknown>;
  /** A mutation that changes state when it answers anything but null or a Rejection. */
  changes?: boolean;
}

type TournamentLabel = keyof TournamentTargets;
type TournamentCommand = 'register' | 'withdraw' | 'settings' | 'pair' | 'record' | 'finish';

/**
 * The tournaments (TournamentTargets) on which a command is accepted when nothing else is wrong;
 * on the others their state refuses it: nothing is paired in the registering one (no result, no
 * finish), round 1 of the running one waits for its result (no pairing, no finish), and the
 * finished one takes no command.
 */
const ACCEPTED_ON: Readonly<Record<TournamentCommand, readonly TournamentLabel[]>> = {
  register: ['registering', 'running'],
  withdraw: ['registering', 'running'],
  settings: ['registering', 'running'],
  pair: ['registering'],
  record: ['running'],
  finish: [],
};

export class HostileGenerator {
  private readonly r: (n: number) => number;
  private readonly games: GameTargets;
  private readonly all: SeededGame[];
  private readonly tournaments: TournamentTargets;
  private readonly webhooks: SeededWebhook[];
  private readonly webhookUrl: string;
  private readonly records: { kind: string; text: string }[];
  private moveCounter = 0;

  constructor(seed: number, targets: Targets) {
    this.r = seededRandom(seed);
    this.games = targets.games;
    this.all = Object.values(targets.games);
    this.tournaments = targets.tournaments;
    this.webhooks = [targets.webhooks.seat, targets.webhooks.organizer];
    this.webhookUrl = targets.webhooks.url;
    this.records = [
      { kind: 'backgammon', text: readFileSync(join(FIXTURES, 'backgammon/match-1-pt-seed64352.mat'), 'utf8') },
      { kind: 'chicken-foot', text: readFileSync(join(FIXTURES, 'chicken-foot/classic-3-players.json'), 'utf8') },
      { kind: 'cerke', text: readFileSync(join(FIXTURES, 'cerke/cerke_online_kiaak_parser-case1-2022-05-31.txt'), 'utf8') },
    ];
  }

  // ------------------------------------------------------------ primitives

  private int(n: number): number {
    return this.r(n);
  }
  private chance(p: number): boolean {
    return this.r(1_000_000) < p * 1_000_000;
  }
  private pick<T>(items: readonly T[]): T {
    return items[this.r(items.length)];
  }
  private game(): SeededGame {
    return this.pick(this.all);
  }
  private insert(base: string, ch: string): string {
    const at = this.int(base.length + 1);
    return base.slice(0, at) + ch + base.slice(at);
  }

  /** Any string a client could send: refused characters, odd ones, words with meaning elsewhere, long runs. */
  string(): string {
    switch (this.int(8)) {
      case 0:
        return this.insert(this.pick(WORDS), this.pick(REFUSED_CHARS));
      case 1:
        return this.pick(REFUSED_CHARS).repeat(1 + this.int(4));
      case 2:
        return this.insert(this.pick(WORDS), this.pick(ODD_CHARS));
      case 3:
        return this.pick(WORDS);
      case 4:
        return this.pick(['x', 'é', '😀', '\u0000', '\ud800']).repeat(this.pick([65, 129, 257, 1000, 5000]));
      case 5:
        return this.insert(this.game().id, this.pick([...REFUSED_CHARS, ...ODD_CHARS]));
      case 6:
        return Array.from({ length: 1 + this.int(12) }, () => this.pick([...REFUSED_CHARS, ...ODD_CHARS, 'a', '0', '-'])).join('');
      default:
        return String.fromCharCode(...Array.from({ length: 1 + this.int(16) }, () => this.int(0x10000)));
    }
  }

  /** A string the slot `pattern` refuses. */
  private unlike(pattern: RegExp): string {
    for (;;) {
      const s = this.string();
      if (!pattern.test(s)) return s;
    }
  }

  /** A seat name the service must refuse: a refused character, or longer than 64. */
  private badName(): string {
    return this.chance(0.8) ? this.insert(this.pick(['Alice', 'b', '', 'Ann Lee', '中文']), this.pick(REFUSED_CHARS)) : this.pick(['n', '😀', 'é']).repeat(65 + this.int(200));
  }
  private badSeed(): string {
    return this.chance(0.8) ? this.insert(this.pick(['seed', '', 'abc123']), this.pick(REFUSED_CHARS)) : 's'.repeat(257 + this.int(500));
  }

  /** A deep JSON text: arrays or objects nested far past any real input. */
  private deep(): Raw {
    const depth = this.pick([33, 64, 200, 1000, 20_000, 100_000]);
    return this.chance(0.5) ? new Raw(`${'['.repeat(depth)}1${']'.repeat(depth)}`) : new Raw(`${'{"a":'.repeat(depth)}1${'}'.repeat(depth)}`);
  }

  /** Any JSON value, hostile in shape or content. */
  json(level = 0): unknown {
    switch (this.int(level > 2 ? 4 : 10)) {
      case 0:
        return this.string();
      case 1:
        return this.pick(ODD_NUMBERS);
      case 2:
        return this.pick([null, true, false, 0, -0, 1e308]);
      case 3:
        return this.pick(PROTO_KEYS);
      case 4:
        return Array.from({ length: this.int(5) }, () => this.json(level + 1));
      case 5:
        return ownObject(Array.from({ length: 1 + this.int(4) }, () => [this.chance(0.4) ? this.pick(PROTO_KEYS) : this.string(), this.json(level + 1)]));
      case 6:
        return ownObject([[this.pick(PROTO_KEYS), ownObject([['type', 'roll']])]]);
      case 7:
        return this.deep();
      case 8:
        return this.chance(0.5) ? Array.from({ length: 10_000 }, (_, i) => i) : ownObject(Array.from({ length: 2000 }, (_, i) => [`k${i}`, i]));
      default:
        return ownObject([
          ['type', this.pick(['play', 'roll', 'move', 'draw', 'drop', this.string()])],
          [this.pick(['tile', 'card', 'moves', 'from', this.string()]), this.json(level + 1)],
          [this.pick(PROTO_KEYS), this.json(level + 1)],
        ]);
    }
  }

  /** An action no engine accepts: an unknown field, a prototype key, a refused string, a wrong shape, or too deep. */
  private badAction(): unknown {
    switch (this.int(6)) {
      case 0:
        return ownObject([
          ['type', this.pick(['play', 'roll', 'move', 'draw', 'pass'])],
          [this.pick(PROTO_KEYS), this.json(1)],
        ]);
      case 1:
        return ownObject([
          ['type', this.unlike(/^(play|roll|move|draw|pass|double|take|drop|beaver|raccoon|acceptResignation|rejectResignation|resign|completeStep|abandonStep|moveTam2|continue|endSeason)$/)],
        ]);
      case 2:
        return this.pick([null, 0, -1, 'roll', [], [ownObject([['type', 'roll']])], true]);
      case 3:
        return this.deep();
      case 4:
        return ownObject([
          ['type', 'play'],
          ['card', this.pick(ODD_NUMBERS)],
          ['tile', this.string()],
          ['extra', this.json(1)],
        ]);
      default:
        return ownObject([[this.pick(PROTO_KEYS), ownObject([['type', 'roll']])]]);
    }
  }

  /** A ruleset every engine refuses: a prototype or unknown key, a wrong type, or too deep. */
  private badRuleset(): unknown {
    switch (this.int(5)) {
      case 0:
        return ownObject([[this.pick(PROTO_KEYS), this.json(1)]]);
      case 1:
        return ownObject([
          ['players', this.pick([2, 3, 4])],
          [this.unlike(/^[a-zA-Z]+$/), 1],
        ]);
      case 2:
        return this.pick(['classic', 7, [], [ownObject([['players', 2]])], true, this.string()]);
      case 3:
        return this.deep();
      default:
        return ownObject([
          ['players', 2],
          ['profile', 'online'],
          ['matchLength', 3],
          [this.pick(['toString', 'valueOf', 'hasOwnProperty', ...PROTO_KEYS]), 1],
        ]);
    }
  }

  // ------------------------------------------------------------ GraphQL fields

  /** An events cursor (an event's seq as a string): a real-looking one, a malformed one, or a value of another type. */
  private seqCursor(): unknown {
    return this.pick([...ODD_NUMBERS.map(String), '0', '3', '999999999', '1000000000', '-1', '1.5', ' 1', this.string(), null, 5]);
  }

  /** A game id: a real one, one that names no game, or a malformed one. */
  private anyGameId(): unknown {
    switch (this.int(4)) {
      case 0:
        return this.game().id;
      case 1:
        return this.pick(['AAAAAAAAAAAA', 'zzzzzzzzzzzz', '-', 'a'.repeat(64), 'a'.repeat(65), 'x_y-z']);
      case 2:
        return this.pick([0, -1, 1e308, true, null, [], {}]);
      default:
        return this.string();
    }
  }

  /**
   * The arguments of a move on `target`, at least one of them poisoned. `headerToken` is the
   * request's token when it is fixed by another field of the same document (aliases); then the
   * poison is never the token alone.
   */
  private moveArgs(target: SeededGame, headerToken: string | undefined | null, withAction: boolean) {
    const slots = ['gameId', 'moveId', 'version', ...(withAction ? ['action'] : [])];
    if (headerToken === null) slots.push('token');
    const poisoned = new Set<string>([this.pick(slots)]);
    for (const s of slots) if (this.chance(0.25)) poisoned.add(s);
    let gameId: unknown = target.id;
    let owner: SeededGame | null = target;
    if (poisoned.has('gameId')) {
      owner = null;
      // Another real game, never the one the request's token belongs to.
      const others = this.all.filter((g) => g !== target && !(headerToken && g.tokens.includes(headerToken)));
      if (this.chance(0.3) && others.length > 0) {
        const other = this.pick(others);
        gameId = other.id;
        owner = other;
      } else gameId = this.chance(0.2) ? 'AAAAAAAAAAAA' : this.unlike(GAME_ID);
    }
    let token: string | undefined;
    if (headerToken !== null) token = headerToken;
    else if (poisoned.has('token')) {
      const others = this.all.filter((g) => g !== owner);
      token = this.pick([undefined, 'arb_not-a-token', 'x'.repeat(300), this.pick(this.pick(others).tokens)]);
    } else token = this.pick(target.tokens);
    // A real game id poisons only with a token of another game (or none).
    if (owner && owner !== target && token !== undefined && owner.tokens.includes(token)) token = undefined;
    const moveId = poisoned.has('moveId') ? this.unlike(CLIENT_ID) : `fuzz-${this.moveCounter++}`;
    const expectedVersion = poisoned.has('version') ? this.pick(BAD_VERSIONS) : this.pick([null, undefined]);
    const action = withAction ? (poisoned.has('action') ? this.badAction() : this.json()) : undefined;
    return { gameId, token, moveId, expectedVersion, action };
  }

  /**
   * One field of a document: a game's (most), a tournament's or a webhook's. `headerToken` is the
   * request's token when another field of the document fixes it (aliases), else null.
   */
  private field(headerToken: string | undefined | null, sfx: string): Field & { token?: string } {
    const n = this.int(100);
    if (n < 22) return this.tournamentField(headerToken, sfx);
    if (n < 32) return this.webhookField(headerToken, sfx);
    return this.gameField(headerToken, sfx);
  }

  private gameField(headerToken: string | undefined | null, sfx: string): Field & { token?: string } {
    const v = (name: string) => `$${name}${sfx}`;
    const n = this.int(100);
    if (n < 6) {
      return {
        op: 'query',
        name: 'game',
        text: `game(id: ${v('id')}) { id kind status version mySeat toAct view legalActions result seats { index name taken } fairness { seedCommitment } }`,
        defs: [`${v('id')}: ID!`],
        vars: { [`id${sfx}`]: this.anyGameId() },
        token: this.readToken(),
      };
    }
    if (n < 11) {
      const filter = this.chance(0.2)
        ? this.string()
        : ownObject([
            ['kind', this.pick([this.string(), 'duel', null])],
            ['status', this.pick(['ACTIVE', 'WAITING', 'nope', this.string(), null])],
            ['imported', this.pick([true, false, null, 'yes'])],
            ...(this.chance(0.2) ? ([[this.pick(PROTO_KEYS), 1]] as [string, unknown][]) : []),
          ]);
      const after = this.pick([
        this.string(),
        Buffer.from(`${this.pick(['2020-01-01T00:00:00.000Z', 'x', ''])}|${this.string()}`).toString('base64url'),
        null,
        Buffer.from('2020-01-01T00:00:00.000Z|AAAAAAAAAAAA|x').toString('base64url'),
      ]);
      return {
        op: 'query',
        name: 'games',
        text: `games(filter: ${v('f')}, first: ${v('n')}, after: ${v('a')}) { nodes { id } pageInfo { endCursor hasNextPage } }`,
        defs: [`${v('f')}: GameFilterInput`, `${v('n')}: Int`, `${v('a')}: String`],
        vars: { [`f${sfx}`]: filter, [`n${sfx}`]: this.pick([...ODD_NUMBERS, 20, 100, 101]), [`a${sfx}`]: after },
        token: this.readToken(),
      };
    }
    if (n < 17) {
      return {
        op: 'query',
        name: 'gameEvents',
        text: `gameEvents(gameId: ${v('g')}, ${this.pick(['after', 'before'])}: ${v('s')}, ${this.pick(['first', 'last'])}: ${v('l')}) { nodes { seq type payload } pageInfo { endCursor hasNextPage } totalCount }`,
        defs: [`${v('g')}: ID!`, `${v('s')}: String`, `${v('l')}: Int`],
        vars: { [`g${sfx}`]: this.anyGameId(), [`s${sfx}`]: this.seqCursor(), [`l${sfx}`]: this.pick([...ODD_NUMBERS, undefined]) },
        token: this.readToken(),
      };
    }
    if (n < 20) {
      return {
        op: 'query',
        name: 'gameStateAt',
        text: `gameStateAt(gameId: ${v('g')}, seq: ${v('s')}) { seq view result }`,
        defs: [`${v('g')}: ID!`, `${v('s')}: Int!`],
        vars: { [`g${sfx}`]: this.anyGameId(), [`s${sfx}`]: this.pick(ODD_NUMBERS) },
        token: this.readToken(),
      };
    }
    if (n < 22) {
      return { op: 'query', name: 'verifyGame', text: `verifyGame(gameId: ${v('g')}) { ok summary }`, defs: [`${v('g')}: ID!`], vars: { [`g${sfx}`]: this.anyGameId() } };
    }
    if (n < 28) {
      const name = this.pick([
        'backgammonPosition',
        'backgammonLegalPlays',
        'backgammonRecord',
        'cerkeState',
        'cerkeLegalActions',
        'cerkeRecord',
        'chickenFootTable',
        'chickenFootLegalActions',
        'chickenFootRecord',
      ]);
      const sel = name.endsWith('Record')
        ? ''
        : name === 'backgammonPosition'
          ? '{ positionId matchId }'
          : name === 'backgammonLegalPlays'
            ? '{ notation }'
            : name === 'cerkeState'
              ? '{ version }'
              : name === 'cerkeLegalActions'
                ? '{ type }'
                : name === 'chickenFootTable'
                  ? '{ version hand }'
                  : '{ seat canDraw }';
      return { op: 'query', name, text: `${name}(gameId: ${v('g')}) ${sel}`, defs: [`${v('g')}: ID!`], vars: { [`g${sfx}`]: this.anyGameId() }, token: this.readToken() };
    }
    if (n < 31) {
      return {
        op: 'query',
        name: 'backgammonPlays',
        text: `backgammonPlays(positionId: ${v('p')}, dice: ${v('d')}) { notation }`,
        defs: [`${v('p')}: String!`, `${v('d')}: [Int!]!`],
        vars: { [`p${sfx}`]: this.pick([this.string(), '4HPwATDgc/ABMA', '']), [`d${sfx}`]: this.pick([[1, 2], [0, 7], [-1, 2147483647], [], [3, 3, 3], this.json()]) },
      };
    }
    if (n < 34) {
      return {
        op: 'query',
        name: 'chickenFootRulesetCheck',
        text: `chickenFootRulesetCheck(ruleset: ${v('r')}) { ok message warnings ruleset }`,
        defs: [`${v('r')}: JSON!`],
        vars: { [`r${sfx}`]: this.chance(0.5) ? this.badRuleset() : this.json() },
      };
    }
    if (n < 42) return this.createField(sfx);
    if (n < 47) return this.createChickenFootField(sfx);
    if (n < 52) return this.importField(sfx);
    if (n < 58) return this.joinField(sfx);
    if (n < 70) {
      const target = this.game();
      const a = this.moveArgs(target, headerToken, true);
      return {
        op: 'mutation',
        name: 'submitAction',
        text: `submitAction(gameId: ${v('g')}, moveId: ${v('m')}, action: ${v('a')}, expectedVersion: ${v('e')}) ${MOVE_SEL}`,
        defs: [`${v('g')}: ID!`, `${v('m')}: String!`, `${v('a')}: JSON!`, `${v('e')}: Int`],
        vars: { [`g${sfx}`]: a.gameId, [`m${sfx}`]: a.moveId, [`a${sfx}`]: a.action, [`e${sfx}`]: a.expectedVersion },
        token: a.token,
      };
    }
    if (n < 76) {
      const a = this.moveArgs(this.game(), headerToken, false);
      return {
        op: 'mutation',
        name: 'resignGame',
        text: `resignGame(gameId: ${v('g')}, moveId: ${v('m')}, expectedVersion: ${v('e')}) ${MOVE_SEL}`,
        defs: [`${v('g')}: ID!`, `${v('m')}: String!`, `${v('e')}: Int`],
        vars: { [`g${sfx}`]: a.gameId, [`m${sfx}`]: a.moveId, [`e${sfx}`]: a.expectedVersion },
        token: a.token,
      };
    }
    if (n < 95) return this.typedMoveField(headerToken, sfx);
    return {
      op: 'subscription',
      name: 'gameEvents',
      text: `gameEvents(gameId: ${v('g')}, afterSeq: ${v('s')}) { seq type }`,
      defs: [`${v('g')}: ID!`, `${v('s')}: Int`],
      vars: { [`g${sfx}`]: this.anyGameId(), [`s${sfx}`]: this.pick(ODD_NUMBERS) },
      token: this.readToken(),
    };
  }

  /** Reads: no token, a seat of some game, a tournament's organizer or participant, or garbage. */
  private readToken(): string | undefined {
    return this.pick([undefined, this.pick(this.game().tokens), this.pick(this.tournamentTokens()), 'arb_nope', 'x']);
  }

  private seatsInput(poison: boolean, count: number): unknown {
    if (!poison) return this.pick([undefined, null]);
    if (this.chance(0.2)) return this.pick([[], Array.from({ length: 9 }, () => ({})), 'seats', [1]]);
    const seats = Array.from({ length: count }, () => ownObject([]));
    const s = seats[this.int(count)] as Record<string, unknown>;
    if (this.chance(0.6)) s.name = this.badName();
    else s.clientSeed = this.badSeed();
    if (this.chance(0.2)) setOwn(s, this.pick(PROTO_KEYS), 1);
    return seats;
  }

  private createField(sfx: string): Field {
    const kind = this.pick(KINDS);
    const slots = new Set([this.pick(['kind', 'ruleset', 'seats'])]);
    if (this.chance(0.3)) slots.add(this.pick(['kind', 'ruleset', 'seats']));
    const players = 2;
    const input = ownObject([
      ['kind', slots.has('kind') ? this.unlike(/^(backgammon|chicken-foot|cerke|duel)$/) : kind],
      ['ruleset', slots.has('ruleset') ? this.badRuleset() : kind === 'chicken-foot' ? { players } : this.pick([undefined, {}])],
      ['seats', this.seatsInput(slots.has('seats'), players)],
    ]);
    if (this.chance(0.05)) setOwn(input, this.pick(['bogus', ...PROTO_KEYS]), 1);
    return { op: 'mutation', name: 'createGame', text: `createGame(input: $i${sfx}) ${CREATE_SEL}`, defs: [`$i${sfx}: CreateGameInput!`], vars: { [`i${sfx}`]: input } };
  }

  private createChickenFootField(sfx: string): Field {
    const slots = new Set([this.pick(['players', 'overrides', 'seats', 'deals'])]);
    const players = slots.has('players') ? this.pick([-1, 0, 1, 9, 2147483647, -2147483648, 2147483648, 1.5, '2', null]) : 2;
    const ruleset = ownObject([
      ['players', players],
      ['overrides', slots.has('overrides') ? this.badRuleset() : this.pick([undefined, null])],
    ]);
    const deals = slots.has('deals')
      ? this.pick([
          [{ hands: [[this.string()], [this.string()]], yard: [this.string()] }],
          [{ hands: [], yard: [], finder: this.pick(ODD_NUMBERS) }],
          'deals',
          [ownObject([[this.pick(PROTO_KEYS), 1]])],
        ])
      : undefined;
    const input = ownObject([
      ['ruleset', ruleset],
      ['seats', this.seatsInput(slots.has('seats'), 2)],
      ['deals', deals],
    ]);
    return { op: 'mutation', name: 'createChickenFootGame', text: `createChickenFootGame(input: $i${sfx}) ${CREATE_SEL}`, defs: [`$i${sfx}: ChickenFootGameInput!`], vars: { [`i${sfx}`]: input } };
  }

  /** A record no engine imports: garbage, or a real record with a poisoned seat name or a prototype key. */
  private badRecord(): { kind: string; text: string } {
    const real = this.pick(this.records);
    switch (this.int(5)) {
      case 0: {
        if (real.kind === 'backgammon') return { kind: real.kind, text: real.text.replace('gnubg', this.insert('gnubg', this.pick(NAME_POISONS))) };
        if (real.kind === 'chicken-foot') {
          const data = JSON.parse(real.text);
          data.seats[this.int(data.seats.length)] = this.badName();
          return { kind: real.kind, text: JSON.stringify(data) };
        }
        return { kind: real.kind, text: `{黒名:${this.insert('Kuro', this.pick(NAME_POISONS))}}\n{赤名:${this.insert('Aka', this.pick(NAME_POISONS))}}\n${real.text}` };
      }
      case 1: {
        const data = JSON.parse(this.records[1].text);
        data.ruleset = ownObject([...Object.entries(data.ruleset), [this.pick(PROTO_KEYS), 1]]);
        return { kind: 'chicken-foot', text: toJson(data) };
      }
      case 2:
        return { kind: this.pick(KINDS), text: this.string() };
      case 3:
        return { kind: this.pick(KINDS), text: toJson(this.chance(0.5) ? this.deep() : ownObject([['format', this.deep()]])) };
      default:
        return { kind: this.pick(KINDS), text: this.insert(real.text.slice(0, this.int(real.text.length)), this.pick(REFUSED_CHARS)).slice(0, 50) };
    }
  }

  private importField(sfx: string): Field {
    const kindPoison = this.chance(0.3);
    const record = this.badRecord();
    return {
      op: 'mutation',
      name: 'importGame',
      text: `importGame(kind: $k${sfx}, record: $r${sfx}) ${CREATE_SEL}`,
      defs: [`$k${sfx}: String!`, `$r${sfx}: String!`],
      vars: { [`k${sfx}`]: kindPoison ? this.unlike(/^(backgammon|chicken-foot|cerke|duel)$/) : record.kind, [`r${sfx}`]: kindPoison ? this.records[this.int(3)].text : record.text },
    };
  }

  private joinField(sfx: string): Field {
    const slots = new Set([this.pick(['gameId', 'name', 'seed', 'seat'])]);
    if (this.chance(0.3)) slots.add(this.pick(['gameId', 'name', 'seed', 'seat']));
    const input = ownObject([
      ['seat', slots.has('seat') ? this.pick([-1, 0, 2, 99, 2147483647, -2147483648, 2147483648, 0.5, '1']) : this.pick([undefined, null, 1])],
      ['name', slots.has('name') ? this.badName() : this.pick([undefined, null, 'Bob'])],
      ['clientSeed', slots.has('seed') ? this.badSeed() : this.pick([undefined, null, 'abc'])],
    ]);
    if (this.chance(0.1)) setOwn(input, this.pick(PROTO_KEYS), 1);
    const gameId = slots.has('gameId') ? this.pick([this.unlike(GAME_ID), 'AAAAAAAAAAAA', this.games.duel.id]) : this.games.waiting.id;
    return {
      op: 'mutation',
      name: 'joinGame',
      text: `joinGame(gameId: $g${sfx}, input: $i${sfx}) ${JOIN_SEL}`,
      defs: [`$g${sfx}: ID!`, `$i${sfx}: JoinGameInput`],
      vars: { [`g${sfx}`]: gameId, [`i${sfx}`]: input },
    };
  }

  /** A typed move (backgammon, Cerke, Chicken Foot), poisoned, or sent to a game of another kind. */
  private typedMoveField(headerToken: string | undefined | null, sfx: string): Field & { token?: string } {
    const family = this.pick(['backgammon', 'cerke', 'chicken-foot']);
    const wrongKind = this.chance(0.3);
    const target = wrongKind ? this.pick(this.all.filter((g) => g.kind !== family)) : this.all.find((g) => g.kind === family && g !== this.games.imported)!;
    // A game of another kind refuses the move whatever else it says; otherwise poison the turn.
    const a = wrongKind ? { ...this.moveArgs(target, headerToken, false), gameId: target.id } : this.moveArgs(target, headerToken, false);
    if (wrongKind && headerToken === null) a.token = this.pick(target.tokens);
    const v = (name: string) => `$${name}${sfx}`;
    const turnDefs = [`${v('g')}: ID!`, `${v('m')}: String!`, `${v('e')}: Int`];
    const turnArgs = `gameId: ${v('g')}, moveId: ${v('m')}, expectedVersion: ${v('e')}`;
    const vars: Record<string, unknown> = { [`g${sfx}`]: a.gameId, [`m${sfx}`]: a.moveId, [`e${sfx}`]: a.expectedVersion };
    const str = () => this.pick([this.string(), 'ZO', 'ZAI', 'hub', '5-8', '13/8']);
    let name: string;
    let extraDefs: string[] = [];
    let extraArgs = '';
    if (family === 'backgammon') {
      name = this.pick([
        'backgammonRoll',
        'backgammonDouble',
        'backgammonTake',
        'backgammonDrop',
        'backgammonBeaver',
        'backgammonRaccoon',
        'backgammonAcceptResignation',
        'backgammonRejectResignation',
        'backgammonPlay',
        'backgammonOfferResignation',
      ]);
      if (name === 'backgammonPlay') {
        extraDefs = [`${v('x')}: [BackgammonCheckerMoveInput!]!`];
        extraArgs = `, moves: ${v('x')}`;
        vars[`x${sfx}`] = this.pick([
          [{ from: 13, to: 8 }],
          [{ from: -1, to: 2147483647 }],
          [],
          Array.from({ length: 50 }, () => ({ from: 1, to: 0 })),
          [
            ownObject([
              ['from', 1],
              ['to', 2],
              [this.pick(PROTO_KEYS), 1],
            ]),
          ],
          this.json(),
        ]);
      } else if (name === 'backgammonOfferResignation') {
        extraDefs = [`${v('x')}: BackgammonResignationLevel!`];
        extraArgs = `, level: ${v('x')}`;
        vars[`x${sfx}`] = this.pick(['SINGLE', 'GAMMON', 'single', this.string()]);
      }
    } else if (family === 'cerke') {
      name = this.pick(['cerkeMove', 'cerkeCompleteStep', 'cerkeAbandonStep', 'cerkeDrop', 'cerkeMoveTam2', 'cerkeDeclareContinue', 'cerkeDeclareEndSeason']);
      const args: Record<string, [string, unknown]> = {
        cerkeMove: ['from: String!, to: String!, via: String', { from: str(), to: str(), via: this.pick([undefined, str()]) }],
        cerkeCompleteStep: ['to: String!', { to: str() }],
        cerkeDrop: [
          'colour: CerkeColour!, kind: CerkeKind!, to: String!',
          { colour: this.pick(['RED', 'BLACK', 'red', this.string()]), kind: this.pick(['KING', 'TAM2', 'x', this.string()]), to: str() },
        ],
        cerkeMoveTam2: [
          'firstSquare: String!, to: String!, via: String, stepDuring: CerkeStepDuring',
          { firstSquare: str(), to: str(), via: this.pick([undefined, str()]), stepDuring: this.pick([undefined, 'FIRST_HALF', this.string()]) },
        ],
      };
      const extra = args[name];
      if (extra) {
        const parts = extra[0].split(', ').map((p) => p.split(': '));
        extraDefs = parts.map(([k, t]) => `${v(k)}: ${t}`);
        extraArgs = parts.map(([k]) => `, ${k}: ${v(k)}`).join('');
        for (const [k, val] of Object.entries(extra[1] as Record<string, unknown>)) vars[`${k}${sfx}`] = val;
      }
    } else {
      name = this.pick(['chickenFootPlay', 'chickenFootDraw', 'chickenFootPass']);
      if (name === 'chickenFootPlay') {
        extraDefs = [`${v('t')}: String!`, `${v('o')}: String!`, `${v('n')}: Boolean`];
        extraArgs = `, tile: ${v('t')}, target: ${v('o')}, announce: ${v('n')}`;
        Object.assign(vars, { [`t${sfx}`]: str(), [`o${sfx}`]: str(), [`n${sfx}`]: this.pick([undefined, true, 'yes']) });
      }
    }
    return { op: 'mutation', name, text: `${name}(${turnArgs}${extraArgs}) ${MOVE_SEL}`, defs: [...turnDefs, ...extraDefs], vars, token: a.token };
  }

  // ------------------------------------------------------------ tournament fields

  private tournamentList(): SeededTournament[] {
    return Object.values(this.tournaments);
  }

  /** Every organizer's and participant's token. */
  private tournamentTokens(): string[] {
    return this.tournamentList().flatMap((t) => [t.organizerToken, ...t.participants.map((p) => p.token)]);
  }

  /** A tournament id: a real one, one that names no tournament, or a malformed one. */
  private anyTournamentId(): unknown {
    switch (this.int(4)) {
      case 0:
        return this.pick(this.tournamentList()).id;
      case 1:
        return this.pick(['t-AAAAAAAAAAAA', 't-', `t-${'a'.repeat(65)}`, 'AAAAAAAAAAAA', this.game().id, `${this.tournaments.running.id}x`, `${this.tournaments.running.id}\u0000`, 't-\ud800']);
      case 2:
        return this.pick([0, -1, 1e308, true, null, [], {}]);
      default:
        return this.string();
    }
  }

  /** Tokens that hold no role in `t`: garbage, seats of games outside tournaments, other tournaments' organizers and participants. */
  private strangerTokens(t: SeededTournament): string[] {
    const plain = this.all.filter((g) => g !== this.games.paired);
    const others = this.tournamentList().filter((o) => o !== t);
    return [
      'arb_not-a-token',
      'arbo_not-a-token',
      'arbp_not-a-token',
      'x'.repeat(300),
      this.pick(this.pick(plain).tokens),
      ...others.flatMap((o) => [o.organizerToken, this.pick(o.participants).token]),
    ];
  }

  /**
   * The tournament of a command and which of its slots to poison: at least one of the tournament
   * (a malformed or unknown id, or a tournament whose state refuses the command), the token (not
   * with `headerToken` fixed: it is never the only poison) or one of the command's `slots`.
   */
  private tournamentCommand(command: TournamentCommand, slots: string[], headerToken: string | undefined | null) {
    const choices = ['tournament', ...(headerToken === null ? ['token'] : []), ...slots];
    const poisoned = new Set([this.pick(choices)]);
    for (const s of choices) if (this.chance(0.15)) poisoned.add(s);
    const labels = Object.keys(this.tournaments) as TournamentLabel[];
    const open = ACCEPTED_ON[command];
    let label: TournamentLabel | null = this.pick(open.length > 0 ? open : labels);
    let id: unknown = this.tournaments[label].id;
    if (poisoned.has('tournament')) {
      const refusing = labels.filter((l) => !open.includes(l));
      if (this.chance(0.5)) {
        label = this.pick(refusing);
        id = this.tournaments[label].id;
      } else {
        label = null;
        id = this.pick(['t-AAAAAAAAAAAA', 'AAAAAAAAAAAA', this.game().id, this.unlike(TOURNAMENT_ID), `t-${'a'.repeat(65)}`, `${this.tournaments.running.id}\u0000`]);
      }
    }
    return { poisoned, label, target: label ? this.tournaments[label] : null, id };
  }

  /**
   * The token of a command on the tournament `label`: the header's when fixed; poisoned, one the
   * command is refused with there; else one it is accepted with (the organizer's, and where
   * registration is open or participants withdraw themselves, theirs or none).
   */
  private commandToken(command: TournamentCommand, label: TournamentLabel | null, poisoned: Set<string>, headerToken: string | undefined | null, participantId?: unknown): string | undefined {
    if (headerToken !== null) return headerToken;
    if (!label) return this.pick([undefined, ...this.tournamentTokens(), this.pick(this.game().tokens)]);
    const t = this.tournaments[label];
    const selfWithdrawing = (p: SeededParticipant) => command === 'withdraw' && label === 'registering' && p.id === participantId;
    if (!poisoned.has('token')) {
      if (command === 'register' && label === 'registering') return this.pick([undefined, t.organizerToken, this.pick(t.participants).token]);
      const self = t.participants.find(selfWithdrawing);
      return self && this.chance(0.5) ? self.token : t.organizerToken;
    }
    if (!ACCEPTED_ON[command].includes(label)) return this.pick([undefined, t.organizerToken, ...t.participants.map((p) => p.token), ...this.strangerTokens(t)]);
    if (command === 'register' && label === 'registering') return this.pick(this.strangerTokens(t));
    return this.pick([undefined, ...t.participants.filter((p) => !selfWithdrawing(p)).map((p) => p.token), ...this.strangerTokens(t)]);
  }

  private commandId(poisoned: Set<string>): unknown {
    return poisoned.has('commandId') ? this.unlike(CLIENT_ID) : this.pick([undefined, null, `fuzz-${this.moveCounter++}`]);
  }

  /**
   * A participant id `label`'s tournament refuses: another tournament's, unknown or malformed; and
   * with `withdrawn`, the running tournament's withdrawn participant (refused by a withdrawal, not
   * by round settings: it is still one of the tournament's participants).
   */
  private strangerParticipant(label: TournamentLabel | null, withdrawn: boolean): unknown {
    const others = this.tournamentList().filter((t) => t !== (label ? this.tournaments[label] : null));
    return this.pick([
      this.pick(this.pick(others).participants).id,
      ...(withdrawn && label === 'running' ? [this.tournaments.running.withdrawn] : []),
      'p-AAAAAAAAAAAA',
      this.tournaments.running.id,
      this.pick(this.tournamentTokens()),
      this.string(),
    ]);
  }

  /** A reason every command refuses: a refused character, or longer than 500. */
  private badReason(): string {
    return this.chance(0.8) ? this.insert(this.pick(['forfeit', '', 'did not show up']), this.pick(REFUSED_CHARS)) : 'r'.repeat(501 + this.int(2000));
  }

  private tournamentField(headerToken: string | undefined | null, sfx: string): Field & { token?: string } {
    const n = this.int(100);
    if (n < 14) return this.createTournamentField(sfx);
    if (n < 26) return this.registerField(headerToken, sfx);
    if (n < 36) return this.withdrawField(headerToken, sfx);
    if (n < 48) return this.setPairingsField(headerToken, sfx);
    if (n < 55) return this.pairRoundField(headerToken, sfx);
    if (n < 75) return this.recordResultField(headerToken, sfx);
    if (n < 80) return this.finishField(headerToken, sfx);
    if (n < 90) {
      const read = this.pick([...ODD_NUMBERS, undefined]);
      return {
        op: 'query',
        name: 'tournament',
        text: `tournament(id: $i${sfx}) { id status version participants { id name } rounds { round boards { board games { gameId game { id status } } } } standings(afterRound: $a${sfx}) { rank tp } crosstable(afterRound: $c${sfx}) { participantId } events(after: $s${sfx}) { nodes { seq type } pageInfo { hasNextPage } } }`,
        defs: [`$i${sfx}: ID!`, `$a${sfx}: Int`, `$c${sfx}: Int`, `$s${sfx}: String`],
        vars: { [`i${sfx}`]: this.anyTournamentId(), [`a${sfx}`]: read, [`c${sfx}`]: this.pick([read, ...ODD_NUMBERS]), [`s${sfx}`]: this.pick([undefined, this.seqCursor()]) },
        token: this.readToken(),
      };
    }
    if (n < 96) {
      return {
        op: 'query',
        name: 'tournaments',
        text: `tournaments(first: $f${sfx}, after: $a${sfx}) { edges { cursor node { id status } } pageInfo { endCursor hasNextPage } }`,
        defs: [`$f${sfx}: Int`, `$a${sfx}: String`],
        vars: { [`f${sfx}`]: this.pick([...ODD_NUMBERS, 20, 100, 101]), [`a${sfx}`]: this.pick([null, this.anyTournamentId(), `${this.tournaments.finished.id}\u0000`]) },
        token: this.readToken(),
      };
    }
    return {
      op: 'subscription',
      name: 'tournamentEvents',
      text: `tournamentEvents(tournamentId: $t${sfx}, afterSeq: $s${sfx}) { seq type }`,
      defs: [`$t${sfx}: ID!`, `$s${sfx}: Int`],
      vars: { [`t${sfx}`]: this.anyTournamentId(), [`s${sfx}`]: this.pick(ODD_NUMBERS) },
      token: this.readToken(),
    };
  }

  /** A configuration out of its bounds in at least one place; anyone may create a tournament, so the input is the only poison. */
  private createTournamentField(sfx: string): Field {
    const base = this.pick<[string, Record<string, unknown>]>([
      ['swiss', { kind: 'backgammon', ruleset: this.pick([undefined, { matchLength: 1 }]), format: 'SWISS', rounds: this.pick([1, 5, 64]) }],
      ['roundRobin', { kind: 'cerke', format: this.pick(['ROUND_ROBIN', 'DOUBLE_ROUND_ROBIN']) }],
      ['knockout', { kind: 'backgammon', format: 'KNOCKOUT', gamesPerMatch: this.pick([undefined, 1, 3]), koTieRule: this.pick([undefined, ['REPLAY(1)', 'LOTS']]) }],
      ['tables', { kind: 'chicken-foot', ruleset: { players: 4 }, format: 'TABLES', rounds: 3, minSeats: this.pick([undefined, 3]) }],
    ]);
    const [format, input] = [base[0], ownObject(Object.entries(base[1]))];
    input.name = this.pick([undefined, 'Spring open', '中文 open', 'n'.repeat(120)]);
    const slots = ['name', 'kind', 'ruleset', 'format', 'rounds', 'points', 'byes', 'tieBreaks', 'choices', 'knockout', 'placement', 'minSeats', 'flags', 'timeControl', 'key'];
    const poisoned = new Set([this.pick(slots)]);
    if (this.chance(0.2)) poisoned.add(this.pick(slots));
    if (poisoned.has('name')) input.name = this.chance(0.8) ? this.insert(this.pick(['Spring open', '', 'Club']), this.pick(REFUSED_CHARS)) : 'n'.repeat(121 + this.int(500));
    if (poisoned.has('kind')) input.kind = this.unlike(/^(backgammon|chicken-foot|cerke|duel)$/);
    if (poisoned.has('ruleset')) input.ruleset = this.badRuleset();
    if (poisoned.has('format')) input.format = this.pick([format === 'tables' ? 'SWISS' : 'TABLES', format === 'tables' ? 'KNOCKOUT' : 'TABLES', 'swiss', 'NOPE', '', null, this.string()]);
    if (poisoned.has('rounds')) input.rounds = format === 'swiss' || format === 'tables' ? this.pick([0, 65, -1, null, 2147483647, -2147483648, 1.5, '3']) : this.pick([1, 5, 64]);
    if (poisoned.has('points'))
      input.points = this.pick<Record<string, unknown>>([
        { win: '0' },
        { win: '1', draw: '2' },
        { draw: '1', loss: '2' },
        { draw: '1/3' },
        { loss: '-1' },
        { win: 'abc' },
        { win: '½' },
        ownObject([
          ['win', '1'],
          [this.pick(PROTO_KEYS), '1'],
        ]),
      ]);
    if (poisoned.has('byes')) {
      const [key, value] = this.pick<[string, unknown]>([
        ['byePoints', format === 'tables' ? '-1' : '2'],
        ['lateEntryPoints', '5'],
        ['requestedByePoints', this.pick(['7', 'x'])],
        ['maxRequestedByes', this.pick([-1, 65, 2147483647])],
        ['tableByePoints', this.pick(['-1', 'x'])],
      ]);
      input[key] = value;
    }
    // A knockout ranks by placings: it reads no tie-breaks, so its poison is elsewhere.
    if (poisoned.has('tieBreaks')) {
      if (format === 'knockout') input.gamesPerMatch = 0;
      else input.tieBreaks = this.pick([['NOPE'], ['BH', 'BH'], [this.pick(PROTO_KEYS)], ['bh'], [this.string()]]);
    }
    if (poisoned.has('choices')) {
      const key = this.pick(['rrNumbering', 'koSeeding', 'tableSeating']);
      input[key] = this.unlike(/^(lots|rating|manual|greedy|avoidRepeats)$/);
    }
    if (poisoned.has('knockout')) {
      if (this.chance(0.5)) input.gamesPerMatch = this.pick([0, 16, -1, 2147483647]);
      else input.koTieRule = this.pick([['REPLAY(0)'], ['LOTS', 'GAME_POINTS'], ['x'], [this.pick(PROTO_KEYS)], ['REPLAY(1000000000)']]);
    }
    if (poisoned.has('placement'))
      input.placementPoints = this.pick<unknown>([
        { '1': ['1'] },
        { '3': ['1', '2', '0'] },
        { '3': ['2', '1'] },
        { '3': ['2', '1', '-1'] },
        ownObject([[this.pick(PROTO_KEYS), ['1', '0']]]),
        'x',
        [],
        this.deep(),
      ]);
    if (poisoned.has('minSeats')) input.minSeats = format === 'tables' ? this.pick([0, 1, 5, 99]) : this.pick([3, 1]);
    if (poisoned.has('flags')) input[this.pick(['openRegistration', 'selfWithdrawal'])] = this.pick(['yes', 1, 'true']);
    if (poisoned.has('timeControl'))
      input.timeControl = this.pick<unknown>([
        { kind: 'FISCHER' },
        { kind: 'FISCHER', baseSeconds: 1 },
        { kind: 'FISCHER', baseSeconds: 3600, incrementSeconds: -1 },
        { kind: 'CORRESPONDENCE', perMoveSeconds: 5 },
        { kind: 'NOPE' },
        ownObject([
          ['kind', 'FISCHER'],
          ['baseSeconds', 3600],
          [this.pick(PROTO_KEYS), 1],
        ]),
      ]);
    if (poisoned.has('key')) setOwn(input, this.pick(['bogus', ...PROTO_KEYS]), 1);
    return {
      op: 'mutation',
      name: 'createTournament',
      text: `createTournament(input: $i${sfx}) { __typename ... on TournamentCreated { organizerToken tournament { id } } ... on Rejection { code message } }`,
      defs: [`$i${sfx}: CreateTournamentInput!`],
      vars: { [`i${sfx}`]: input },
      changes: true,
    };
  }

  private registerField(headerToken: string | undefined | null, sfx: string): Field & { token?: string } {
    const c = this.tournamentCommand('register', ['name', 'rating', 'commandId'], headerToken);
    const name = c.poisoned.has('name') ? this.pick([this.badName(), null]) : this.pick(['Zed', 'Ann Lee', '中文', 'é'.repeat(64), "O'Neil"]);
    const rating = c.poisoned.has('rating') ? this.pick([-1, 10_001, 2147483647, -2147483648, 2147483648, 0.5, '5']) : this.pick([undefined, null, 0, 1500, 10_000]);
    return {
      op: 'mutation',
      name: 'registerParticipant',
      text: `registerParticipant(tournamentId: $t${sfx}, name: $n${sfx}, rating: $r${sfx}, commandId: $c${sfx}) { __typename ... on ParticipantRegistered { participantId participantToken tournament ${TOURNAMENT_FIELDS} } ... on Rejection { code message } }`,
      defs: [`$t${sfx}: ID!`, `$n${sfx}: String!`, `$r${sfx}: Int`, `$c${sfx}: String`],
      vars: { [`t${sfx}`]: c.id, [`n${sfx}`]: name, [`r${sfx}`]: rating, [`c${sfx}`]: this.commandId(c.poisoned) },
      token: this.commandToken('register', c.label, c.poisoned, headerToken),
      changes: true,
    };
  }

  private withdrawField(headerToken: string | undefined | null, sfx: string): Field & { token?: string } {
    const c = this.tournamentCommand('withdraw', ['participant', 'reason', 'commandId'], headerToken);
    const active = c.target?.participants.filter((p) => p.id !== this.tournaments.running.withdrawn) ?? [];
    const participantId = c.poisoned.has('participant') || active.length === 0 ? this.strangerParticipant(c.label, true) : this.pick(active).id;
    const reason = c.poisoned.has('reason') ? this.badReason() : this.pick([undefined, null, '', 'unwell']);
    return {
      op: 'mutation',
      name: 'withdrawParticipant',
      text: `withdrawParticipant(tournamentId: $t${sfx}, participantId: $p${sfx}, reason: $r${sfx}, commandId: $c${sfx}) ${TOURNAMENT_SEL}`,
      defs: [`$t${sfx}: ID!`, `$p${sfx}: ID!`, `$r${sfx}: String`, `$c${sfx}: String`],
      vars: { [`t${sfx}`]: c.id, [`p${sfx}`]: participantId, [`r${sfx}`]: reason, [`c${sfx}`]: this.commandId(c.poisoned) },
      token: this.commandToken('withdraw', c.label, c.poisoned, headerToken, participantId),
      changes: true,
    };
  }

  /** Settings for the next round of `label`'s tournament (the running one's participants when there is none). */
  private roundSettings(label: TournamentLabel | null, poison: boolean): unknown {
    const pool = this.tournaments[label ?? 'running'].participants.filter((p) => p.id !== this.tournaments.running.withdrawn).map((p) => p.id);
    const [a, b] = [pool[0], pool[1]];
    const next = label === 'running' ? 2 : 1;
    if (!poison) {
      return this.pick<Record<string, unknown>>([
        {},
        { round: next },
        { absent: [a] },
        { requestedByes: [b] },
        { forbiddenPairs: [[a, b]] },
        { manualPairings: [{ a, b }] },
        { manualPairings: [{ a, b, seats: [b, a] }] },
        { manualBye: a },
      ]);
    }
    const stranger = this.strangerParticipant(label, false);
    switch (this.int(9)) {
      case 0:
        return { round: this.pick([0, -1, next - 1, next + 1, 64, 2147483647, -2147483648, 1.5]) };
      case 1:
        return this.pick<Record<string, unknown>>([
          { absent: [stranger] },
          { requestedByes: [a, stranger] },
          { forbiddenPairs: [[a, stranger]] },
          { manualPairings: [{ a: stranger, b }] },
          { manualBye: stranger },
          { manualPairings: [{ a, b, seats: [a, stranger] }] },
        ]);
      case 2:
        // Seeds name every participant (knockout with manual seeding); a stranger among them is refused as in any other list.
        return { seeds: [a, stranger] };
      case 3:
        return this.pick<Record<string, unknown>>([{ absent: [a], requestedByes: [a] }, { manualPairings: [{ a, b }], absent: [b] }, { manualBye: a, absent: [a] }, { absent: [a, a] }]);
      case 4:
        return this.pick<Record<string, unknown>>([{ manualPairings: [{ a, b: a }] }, { forbiddenPairs: [[a, a]] }, { forbiddenPairs: [[a]] }, { forbiddenPairs: [[a, b, a]] }]);
      case 5:
        return this.pick<Record<string, unknown>>([{ manualPairings: [{ a, b, seats: [a] }] }, { manualPairings: [{ a, b, seats: [a, a] }] }, { manualPairings: [{ a, b, seats: [a, b, a] }] }]);
      case 6:
        // Tables are for the tables format: these are Swiss tournaments.
        return { manualTables: [pool.slice(0, 2)] };
      case 7:
        return this.pick<unknown>([{ absent: [null] }, { absent: 'x' }, { manualPairings: [{ a }] }, ownObject([[this.pick(PROTO_KEYS), 1]]), null]);
      default:
        return ownObject([
          ['absent', [a]],
          [this.pick(['bogus', ...PROTO_KEYS]), [b]],
        ]);
    }
  }

  private setPairingsField(headerToken: string | undefined | null, sfx: string): Field & { token?: string } {
    const c = this.tournamentCommand('settings', ['settings', 'commandId'], headerToken);
    return {
      op: 'mutation',
      name: 'setPairings',
      text: `setPairings(tournamentId: $t${sfx}, input: $i${sfx}, commandId: $c${sfx}) ${TOURNAMENT_SEL}`,
      defs: [`$t${sfx}: ID!`, `$i${sfx}: RoundSettingsInput!`, `$c${sfx}: String`],
      vars: { [`t${sfx}`]: c.id, [`i${sfx}`]: this.roundSettings(c.label, c.poisoned.has('settings')), [`c${sfx}`]: this.commandId(c.poisoned) },
      token: this.commandToken('settings', c.label, c.poisoned, headerToken),
      changes: true,
    };
  }

  private pairRoundField(headerToken: string | undefined | null, sfx: string): Field & { token?: string } {
    const c = this.tournamentCommand('pair', ['round', 'commandId'], headerToken);
    const round = c.poisoned.has('round') ? this.pick([0, -1, 2, 3, 99, 2147483647, -2147483648, 1.5, '1']) : this.pick([undefined, null, 1]);
    return {
      op: 'mutation',
      name: 'pairRound',
      text: `pairRound(tournamentId: $t${sfx}, round: $r${sfx}, commandId: $c${sfx}) ${TOURNAMENT_SEL}`,
      defs: [`$t${sfx}: ID!`, `$r${sfx}: Int`, `$c${sfx}: String`],
      vars: { [`t${sfx}`]: c.id, [`r${sfx}`]: round, [`c${sfx}`]: this.commandId(c.poisoned) },
      token: this.commandToken('pair', c.label, c.poisoned, headerToken),
      changes: true,
    };
  }

  /**
   * An organizer's result, with or without a record (1 in 3 carries the backgammon fixture,
   * which imports). A poison that is checked after the record is imported (an outcome the record
   * does not give, a correction of no result, a command id, a finished tournament) is one too:
   * the import must not stay when the result is refused.
   */
  private recordResultField(headerToken: string | undefined | null, sfx: string): Field & { token?: string } {
    const c = this.tournamentCommand('record', ['round', 'board', 'gameId', 'outcome', 'gamePoints', 'reason', 'correction', 'commandId', 'record'], headerToken);
    const p = c.poisoned;
    const { running, finished } = this.tournaments;
    const board = c.label === 'running' ? running.board : 1;
    const ownGame = c.label === 'running' ? running.gameId : c.label === 'finished' ? finished.gameId : null;
    const backgammonRecord = this.records[0].text;
    const record = p.has('record')
      ? this.pick([this.badRecord().text, this.records[1].text, this.records[2].text])
      : !p.has('gamePoints') && this.chance(0.33)
        ? backgammonRecord
        : this.pick([undefined, null]);
    const imports = record === backgammonRecord;
    const played = ['WIN_SEAT0', 'WIN_SEAT1', 'DRAW'];
    const outcome = p.has('outcome')
      ? imports
        ? this.pick(['DRAW', 'FORFEIT_WIN_SEAT0', 'FORFEIT_WIN_SEAT1', 'DOUBLE_FORFEIT'])
        : this.pick([undefined, null, 'win', 'SEAT0', this.string()])
      : imports
        ? this.pick([undefined, null])
        : p.has('gamePoints')
          ? this.pick(played)
          : this.pick([...played, 'FORFEIT_WIN_SEAT0', 'FORFEIT_WIN_SEAT1', 'DOUBLE_FORFEIT']);
    const gamePoints = p.has('gamePoints')
      ? this.pick<unknown>([[], ['1'], ['-1', '0'], ['x', '0'], [null, '0'], ['1', '-2'], ['one', 'two'], null])
      : this.pick([
          ['1', '0'],
          ['0', '1'],
          ['2', '0'],
          ['1/2', '1/2'],
          ['0.5', '0'],
        ]);
    const otherGames = [finished.gameId, running.gameId, this.games.duel.id, 'AAAAAAAAAAAA', this.unlike(GAME_ID), running.id].filter((g) => g !== ownGame);
    const input = ownObject([
      ['round', p.has('round') ? this.pick([0, -1, 2, 3, 64, 2147483647, -2147483648, 1.5, null]) : 1],
      ['board', p.has('board') ? this.pick([0, -1, board + 1, 99, 2147483647, null]) : board],
      ['gameId', p.has('gameId') ? this.pick(otherGames) : this.pick([undefined, null, ownGame])],
      ['outcome', outcome],
      ['gamePoints', gamePoints],
      ['present', this.pick([undefined, null, [true, false], [true], []])],
      ['record', record],
      ['reason', p.has('reason') ? this.badReason() : this.pick([undefined, null, 'over the board'])],
      ['correction', p.has('correction') ? true : this.pick([undefined, null, false])],
    ]);
    return {
      op: 'mutation',
      name: 'recordResult',
      text: `recordResult(tournamentId: $t${sfx}, input: $i${sfx}, commandId: $c${sfx}) ${TOURNAMENT_SEL}`,
      defs: [`$t${sfx}: ID!`, `$i${sfx}: ResultInput!`, `$c${sfx}: String`],
      vars: { [`t${sfx}`]: c.id, [`i${sfx}`]: input, [`c${sfx}`]: this.commandId(p) },
      token: this.commandToken('record', c.label, p, headerToken),
      changes: true,
    };
  }

  private finishField(headerToken: string | undefined | null, sfx: string): Field & { token?: string } {
    const c = this.tournamentCommand('finish', ['commandId'], headerToken);
    return {
      op: 'mutation',
      name: 'finishTournament',
      text: `finishTournament(tournamentId: $t${sfx}, commandId: $c${sfx}) ${TOURNAMENT_SEL}`,
      defs: [`$t${sfx}: ID!`, `$c${sfx}: String`],
      vars: { [`t${sfx}`]: c.id, [`c${sfx}`]: this.commandId(c.poisoned) },
      token: this.commandToken('finish', c.label, c.poisoned, headerToken),
      changes: true,
    };
  }

  // ------------------------------------------------------------ webhook fields

  private webhookField(headerToken: string | undefined | null, sfx: string): Field & { token?: string } {
    const n = this.int(100);
    if (n < 40) return this.registerWebhookField(headerToken, sfx);
    if (n < 52) return this.manageWebhookField('rotateWebhookSecret', headerToken, sfx);
    if (n < 64) return this.manageWebhookField('deleteWebhook', headerToken, sfx);
    if (n < 72) return this.manageWebhookField('resumeWebhook', headerToken, sfx);
    const hook = this.pick(this.webhooks);
    if (n < 80)
      return {
        op: 'query',
        name: 'webhook',
        text: `webhook(id: $w${sfx}) { id suspendedAt timeouts }`,
        defs: [`$w${sfx}: ID!`],
        vars: { [`w${sfx}`]: this.pick([hook.id, this.unknownWebhookId()]) },
        token: this.pick([hook.ownerToken, this.readToken()]),
      };
    return {
      op: 'query',
      name: 'webhookDeliveries',
      text: `webhookDeliveries(id: $w${sfx}, first: $f${sfx}, after: $a${sfx}) { nodes { messageId attempts } pageInfo { endCursor hasNextPage } }`,
      defs: [`$w${sfx}: ID!`, `$f${sfx}: Int`, `$a${sfx}: String`],
      vars: {
        [`w${sfx}`]: this.pick([hook.id, this.unknownWebhookId()]),
        [`f${sfx}`]: this.pick([undefined, 20, ...ODD_NUMBERS]),
        [`a${sfx}`]: this.pick([undefined, null, '0', '123', '-1', '9'.repeat(19), this.string()]),
      },
      token: this.pick([hook.ownerToken, this.readToken()]),
    };
  }

  /** A webhook id that names none of the registrations. */
  private unknownWebhookId(): unknown {
    return this.pick(['wh_AAAAAAAAAAAAAAAA', 'wh_', `wh_${'A'.repeat(17)}`, this.unlike(WEBHOOK_ID), `${this.webhooks[0].id}\u0000`, 0, null]);
  }

  /** A URL the service refuses: a host (or port) not allowed, a private or metadata address, another scheme, credentials, too long, not a URL. */
  private badWebhookUrl(): string {
    const { host, port } = new URL(this.webhookUrl);
    return this.pick([
      'http://example.com/hooks',
      'https://hooks.example.net/',
      `http://127.0.0.1:${Number(port) === 65535 ? 65534 : Number(port) + 1}/hooks`,
      'http://127.0.0.1/hooks',
      `http://localhost:${port}/hooks`,
      `http://[::1]:${port}/hooks`,
      `http://0.0.0.0:${port}/hooks`,
      'http://10.0.0.1/hooks',
      'http://192.168.1.1/',
      'http://169.254.169.254/latest/meta-data/',
      `http://user:secret@${host}/hooks`,
      `http://user@${host}/hooks`,
      `ftp://${host}/hooks`,
      `file:///etc/passwd`,
      'javascript:alert(1)',
      `data:text/plain,${host}`,
      `ws://${host}/hooks`,
      `${this.webhookUrl}/${'a'.repeat(2100)}`,
      '/hooks',
      '',
      this.string(),
    ]);
  }

  /** The token and scope of a registration: one the token holds, or (poisoned) one it does not. */
  private webhookScope(poison: boolean, headerToken: string | undefined | null): { token: string | undefined; gameId?: unknown; tournamentId?: unknown } {
    const plain = this.all.filter((g) => g !== this.games.paired);
    const { running } = this.tournaments;
    const fixed = headerToken !== null;
    const token = (t: string | undefined) => (fixed ? headerToken : t);
    if (!poison) {
      const t = this.pick(this.tournamentList());
      const g = this.pick(plain);
      return this.pick<{ token: string | undefined; gameId?: unknown; tournamentId?: unknown }>([
        { token: token(this.pick(g.tokens)) },
        { token: token(this.pick(g.tokens)), gameId: g.id },
        { token: token(this.pick(t.participants).token) },
        { token: token(this.pick(t.participants).token), tournamentId: t.id },
        { token: token(t.organizerToken) },
        { token: token(t.organizerToken), tournamentId: t.id },
        { token: token(running.organizerToken), gameId: running.gameId },
      ]);
    }
    // Refused whatever the token: both scopes, a tournament no token holds, a game that is none.
    const anyToken = this.pick([this.pick(this.game().tokens), this.pick(this.tournamentTokens())]);
    const always = [
      { token: token(anyToken), gameId: this.game().id, tournamentId: this.pick(this.tournamentList()).id },
      { token: token(anyToken), tournamentId: this.pick(['t-AAAAAAAAAAAA', this.unlike(TOURNAMENT_ID)]) },
      { token: token(anyToken), gameId: this.pick(['AAAAAAAAAAAA', `${this.game().id}\u0000`, this.unlike(GAME_ID)]) },
    ];
    if (fixed) return this.pick(always);
    const g = this.pick(plain);
    const otherGame = this.pick([...plain.filter((x) => x !== g), this.games.paired]);
    const t = this.pick(this.tournamentList());
    const otherTournament = this.pick(this.tournamentList().filter((x) => x !== t));
    const tournamentToken = this.pick([t.organizerToken, this.pick(t.participants).token]);
    return this.pick<{ token: string | undefined; gameId?: unknown; tournamentId?: unknown }>([
      ...always,
      { token: undefined, ...this.pick([{}, { gameId: g.id }, { tournamentId: t.id }]) },
      { token: this.pick(['arb_not-a-token', 'arbo_not-a-token', 'x'.repeat(300)]), ...this.pick([{}, { gameId: g.id }, { tournamentId: t.id }]) },
      { token: this.pick(g.tokens), gameId: otherGame.id },
      { token: this.pick(g.tokens), tournamentId: t.id },
      { token: tournamentToken, tournamentId: otherTournament.id },
      { token: this.pick(t.participants).token, gameId: this.pick([g.id, this.games.paired.id]) },
      { token: (t === running ? otherTournament : t).organizerToken, gameId: this.pick([g.id, this.games.paired.id]) },
    ]);
  }

  private registerWebhookField(headerToken: string | undefined | null, sfx: string): Field & { token?: string } {
    const slots = ['url', 'events', 'thresholds', 'scope'];
    const poisoned = new Set([this.pick(slots)]);
    for (const s of slots) if (this.chance(0.15)) poisoned.add(s);
    const events = poisoned.has('events')
      ? this.pick<unknown>([[], ['your_turn'], ['NOPE'], [this.string()], ['YOUR_TURN', this.pick(PROTO_KEYS)], null, [null]])
      : WEBHOOK_EVENTS.filter(() => this.chance(0.5)).concat(this.chance(0.5) ? ['TIME_RUNNING_LOW'] : ['GAME_OVER']);
    const lowTime = Array.isArray(events) && events.includes('TIME_RUNNING_LOW');
    const thresholds = poisoned.has('thresholds')
      ? lowTime
        ? this.pick<unknown>([[0], [-1], [2_592_001], [1, 2, 3, 4, 5, 6], [2147483647], [60, -60], [1.5], ['60']])
        : this.pick([[60], [300, 60]])
      : lowTime
        ? this.pick([undefined, null, [], [60], [300, 60, 10], [1, 2_592_000]])
        : this.pick([undefined, null, []]);
    const scope = this.webhookScope(poisoned.has('scope'), headerToken);
    const input = ownObject([
      ['url', poisoned.has('url') ? this.badWebhookUrl() : this.pick([this.webhookUrl, `${this.webhookUrl}?fuzz=1`, `${this.webhookUrl}/deeper`])],
      ['events', events],
      ['lowTimeThresholdsSeconds', thresholds],
      ...(scope.gameId !== undefined ? ([['gameId', scope.gameId]] as [string, unknown][]) : []),
      ...(scope.tournamentId !== undefined ? ([['tournamentId', scope.tournamentId]] as [string, unknown][]) : []),
    ]);
    return {
      op: 'mutation',
      name: 'registerWebhook',
      text: `registerWebhook(input: $i${sfx}) { __typename ... on Rejection { code message } ... on WebhookSecret { id secret webhook { id } } }`,
      defs: [`$i${sfx}: RegisterWebhookInput!`],
      vars: { [`i${sfx}`]: input },
      token: scope.token,
      changes: true,
    };
  }

  /** A new secret, a deletion or a resumption: an id that names no webhook, or a token that does not manage the one named. */
  private manageWebhookField(name: 'rotateWebhookSecret' | 'deleteWebhook' | 'resumeWebhook', headerToken: string | undefined | null, sfx: string): Field & { token?: string } {
    const hook = this.pick(this.webhooks);
    const other = this.webhooks.find((w) => w !== hook)!;
    let id: unknown = hook.id;
    let token: string | undefined;
    if (headerToken !== null) {
      id = this.unknownWebhookId();
      token = headerToken;
    } else {
      const poisoned = new Set([this.pick(['id', 'token'])]);
      if (this.chance(0.2)) poisoned.add(this.pick(['id', 'token']));
      token = hook.ownerToken;
      // The other registration's owner manages neither this one nor (by its own tournament) any other.
      if (poisoned.has('id')) id = this.chance(0.3) ? other.id : this.unknownWebhookId();
      if (poisoned.has('token') || id === other.id) {
        const refused = [undefined, 'arb_not-a-token', ...this.all.flatMap((g) => g.tokens), ...this.tournamentTokens()].filter((t) => t !== hook.ownerToken && t !== other.ownerToken);
        token = id === other.id ? this.pick([hook.ownerToken, ...refused]) : this.pick(refused);
      }
    }
    return {
      op: 'mutation',
      name,
      text: `${name}(id: $w${sfx}) { __typename ... on Rejection { code message } ${{ deleteWebhook: '... on WebhookDeleted { id }', resumeWebhook: '... on Webhook { id suspendedAt }', rotateWebhookSecret: '... on WebhookSecret { id secret }' }[name]} }`,
      defs: [`$w${sfx}: ID!`],
      vars: { [`w${sfx}`]: id },
      token,
      changes: true,
    };
  }

  // ------------------------------------------------------------ requests

  /** One GraphQL document: a single field (most), or several aliased fields of one operation type. */
  private graphqlOperation(): HostileRequest {
    if (this.chance(0.1)) {
      // Aliases: the request's token is fixed up front, so every field carries its own poison.
      const token = this.readToken();
      const first = this.field(token, '0');
      const op = first.op === 'subscription' ? 'query' : first.op;
      const fields: Field[] = first.op === op ? [first] : [];
      for (let i = 1; fields.length < 2 + this.int(4) && i < 40; i++) {
        const f = this.field(token, String(i));
        if (f.op === op) fields.push(f);
      }
      const doc = `${op} Aliased(${fields.flatMap((f) => f.defs).join(', ')}) { ${fields.map((f, i) => `a${i}: ${f.text}`).join(' ')} }`;
      const changes = Object.fromEntries(fields.flatMap((f, i) => (f.changes ? [[`a${i}`, f.name]] : [])));
      return gql(`gql:aliases:${op}`, doc, Object.assign({}, ...fields.map((f) => f.vars)), token, changes);
    }
    const f = this.field(null, '');
    const defs = f.defs.length > 0 ? `(${f.defs.join(', ')})` : '';
    return gql(`gql:${f.name}`, `${f.op} Op${defs} { ${f.text} }`, f.vars, f.token, f.changes ? { [f.name]: f.name } : undefined);
  }

  /** GraphQL over HTTP gone wrong: malformed bodies, content types, methods, unknown fields, limits. */
  private rawGraphql(): HostileRequest {
    const post = (family: string, body: string | Uint8Array, contentType: string, headers: Record<string, string> = {}): HostileRequest => ({
      family: `graphql-http:${family}`,
      method: 'POST',
      path: '/graphql',
      headers: { 'content-type': contentType, ...headers },
      body,
    });
    const id = this.game().id;
    // Valid but for how it is sent: anyone may register on the open tournament, in a POST of JSON.
    const register = `mutation { registerParticipant(tournamentId: "${this.tournaments.registering.id}", name: "Mallory") { __typename ... on ParticipantRegistered { participantId } ... on Rejection { code message } } }`;
    switch (this.int(17)) {
      case 0:
        return post(
          'malformed-json',
          this.pick(['{', '{"query":', '{"query": "{ gameKinds }"', '[', 'null', '"x"', '{"query": "{ gameKinds }"}}', '\u0000', '{"query": "\\ud800"}', '{"query": undefined}', '{"a":1,"a":2}']),
          'application/json',
        );
      case 1:
        return post(
          'content-type',
          toJson({ query: '{ gameKinds }' }),
          this.pick([
            'text/plain',
            'application/x-www-form-urlencoded',
            'multipart/form-data; boundary=x',
            'application/xml',
            'application/json; charset=utf-16',
            'application/json; charset=latin1',
            'application/graphql',
            '',
            'application/json; charset=nope',
            '*/*',
          ]),
        );
      case 2:
        return post(
          'bad-query-type',
          toJson(this.pick([{ query: 5 }, { query: null }, { query: ['{ gameKinds }'] }, { query: { a: 1 } }, {}, { variables: {} }, { query: '' }, { query: this.string() }])),
          'application/json',
        );
      case 3:
        return post(
          'bad-variables',
          toJson({
            query: 'query($id: ID!) { game(id: $id) { id } }',
            variables: this.pick(['{"id":"x"}', [id], 5, null, ownObject([['__proto__', { id }]]), ownObject([['id', ownObject([['__proto__', 1]])]])]),
          }),
          'application/json',
        );
      case 4:
        return post('batch', toJson(this.pick([[{ query: '{ gameKinds }' }, { query: '{ gameKinds }' }], [], [1, 2]])), 'application/json');
      case 5:
        return post(
          'unknown-field',
          toJson({
            query: this.pick([
              `{ game(id: "${id}") { nope } }`,
              `{ nope }`,
              `{ game(id: "${id}", bogus: 1) { id } }`,
              `mutation { createGame(input: { kind: "duel", bogus: 1 }) { __typename } }`,
              `mutation { createTournament(input: { kind: "backgammon", format: SWISS, rounds: 1, bogus: 1 }) { __typename ... on TournamentCreated { organizerToken } ... on Rejection { code message } } }`,
              `mutation { registerWebhook(input: { url: "${this.webhookUrl}", events: [GAME_OVER], bogus: 1 }) { id } }`,
              `{ tournament(id: "${this.tournaments.running.id}") { nope } }`,
              `{ __schema { types { name } } }`,
              `{ __type(name: "Game") { fields { name } } }`,
            ]),
          }),
          'application/json',
        );
      case 6: {
        const depth = this.pick([12, 50, 500, 3000, 5000]);
        const inner = this.chance(0.5) ? `${'a { '.repeat(depth)}b${' }'.repeat(depth)}` : `game(id: "${id}") { ${'... on Game { '.repeat(depth)}id${' }'.repeat(depth)} }`;
        return post('deep-selection', toJson({ query: `{ ${inner} }` }), 'application/json');
      }
      case 7:
        return post('many-aliases', toJson({ query: `{ ${Array.from({ length: this.pick([1001, 5000]) }, (_, i) => `a${i}: gameKinds`).join(' ')} }` }), 'application/json');
      case 8: {
        const depth = this.pick([100, 5000, 20_000]);
        return post(
          'deep-literal',
          toJson({ query: `mutation { submitAction(gameId: "${id}", moveId: "m", action: ${'{a: '.repeat(depth)}1${'}'.repeat(depth)}) { __typename } }` }),
          'application/json',
        );
      }
      case 9:
        return post('invalid-utf8', new Uint8Array([0x7b, 0x22, 0x71, 0x75, 0x65, 0x72, 0x79, 0x22, 0x3a, 0x22, 0xff, 0xfe, 0xc0, 0xaf, 0xed, 0xa0, 0x80, 0x22, 0x7d]), 'application/json');
      case 10:
        return post('gzip-bomb', this.pick(BOMBS()), 'application/json', { 'content-encoding': 'gzip' });
      case 11:
        return post('bad-encoding', new Uint8Array([1, 2, 3, 4]), 'application/json', { 'content-encoding': this.pick(['gzip', 'deflate', 'br', 'compress', 'x-nope']) });
      case 12:
        // A mutation over GET is refused (it could be a link or an image): the open registration is one.
        return {
          family: 'graphql-http:get',
          method: 'GET',
          path: `/graphql?query=${encodeSegment(this.pick([`mutation { resignGame(gameId: "${id}", moveId: "m") { __typename } }`, register, '{ gameKinds }', this.string()]))}&variables=${encodeSegment(this.pick(['{', '[]', '{"a":1}', this.string()]))}`,
          headers: this.chance(0.5) ? { 'apollo-require-preflight': 'true' } : {},
          changes: { registerParticipant: 'registerParticipant' },
        };
      case 15:
        // What a form on another site can send without a preflight: GraphQL takes none of it.
        return {
          ...post(
            'form-post',
            this.pick([toJson({ query: register }), `query=${encodeURIComponent(register)}`, register]),
            this.pick(['text/plain', 'application/x-www-form-urlencoded', 'multipart/form-data; boundary=x']),
          ),
          changes: { registerParticipant: 'registerParticipant' },
        };
      case 13:
        return { family: 'graphql-http:method', method: this.pick(['PUT', 'PATCH', 'DELETE', 'OPTIONS', 'HEAD']), path: '/graphql', headers: { 'content-type': 'application/json' }, body: undefined };
      case 14:
        return post('huge-string', toJson({ query: `{ game(id: "${'x'.repeat(this.pick([100_000, 900_000]))}") { id } }` }), 'application/json');
      default:
        return post('bom-and-junk', `\ufeff${toJson({ query: '{ gameKinds }' })}${this.pick(['', '\u0000', ' trailing'])}`, 'application/json');
    }
  }

  /** REST: real and hostile ids, percent-encoded garbage, odd paths, methods, query strings and import bodies. */
  private rest(): HostileRequest {
    const n = this.int(100);
    const gameId = () => this.game().id;
    const tournamentId = () => this.pick(this.tournamentList()).id;
    /** A path segment: one of the real ids `real` gives, or percent-encoded garbage. */
    const idSegment = (real: () => string = gameId) => {
      switch (this.int(5)) {
        case 0:
          return real();
        case 1:
          return this.pick([
            '%00',
            '%E2%80%AE',
            '%ED%A0%80',
            '%C0%AF',
            '%zz',
            '%',
            '%%',
            '%E2%80',
            '%2e%2e',
            '..%2f..%2fetc%2fpasswd',
            '%0d%0aSet-Cookie:x',
            '%FF',
            '%u0000',
            'AAAAAAAAAAAA',
            't-AAAAAAAAAAAA',
          ]);
        case 2:
          return encodeSegment(this.string()).slice(0, 3000);
        case 3:
          return `${real()}${this.pick(['%00', '%20', '.json', '%2F', ';x=1', '%ED%A0%80'])}`;
        default:
          return encodeSegment(this.insert(real(), this.pick([...REFUSED_CHARS, ...ODD_CHARS])));
      }
    };
    const auth = (): Record<string, string> =>
      this.chance(0.4)
        ? {
            authorization: this.pick([
              `Bearer ${this.pick(this.game().tokens)}`,
              `Bearer ${this.pick(this.tournamentTokens())}`,
              'Bearer',
              'Bearer  x y',
              'Basic Zm9vOmJhcg==',
              `Bearer ${'é'.repeat(20)}`,
              'bearer arb_x',
            ]),
          }
        : {};
    const whole = () => this.pick(['-1', '-5000', 'abc', '1e3', '0x10', '%00', '', '1.5', '99999999999999999999', '2147483648', ' 5', '0', '1', '2', encodeSegment(this.string()).slice(0, 200)]);
    if (n < 15) {
      // A tournament's reads; standings as JSON or CSV.
      const sub = this.pick(['', '', '/standings', '/standings', '/games', '/events', '/events', '/bundle', '/x', '/standings/', '/']);
      const format = () => this.pick(['csv', 'json', 'CSV', 'xml', '', '%00', 'csv&format=json', encodeSegment(this.string()).slice(0, 50)]);
      const query =
        sub === '/standings' && this.chance(0.7)
          ? `?${this.pick([`afterRound=${whole()}`, `format=${format()}`, `afterRound=${whole()}&format=${format()}`, 'afterRound=1&afterRound=0'])}`
          : sub === '/events' && this.chance(0.7)
            ? `?afterSeq=${this.pick([whole(), '5&afterSeq=6'])}`
            : this.chance(0.1)
              ? `?${encodeSegment(this.string()).slice(0, 100)}`
              : '';
      const accept: Record<string, string> = this.chance(0.3) ? { accept: this.pick(['text/csv', 'text/csv;q=0.9, application/json', '*/*', 'application/xml', 'text/*', 'text/csv;q=x']) } : {};
      return {
        family: `rest:GET /api/tournaments/:id${sub}`,
        method: this.chance(0.9) ? 'GET' : 'HEAD',
        path: `/api/tournaments/${idSegment(tournamentId)}${sub}${query}`,
        headers: { ...auth(), ...accept },
      };
    }
    if (n < 45) {
      const sub = this.pick(['', '', '/events', '/events', '/bundle', '/record', '/x', '/events/', '/bundle/x', '/']);
      const query =
        sub === '/events' && this.chance(0.7)
          ? `?afterSeq=${this.pick(['-1', '-5000', 'abc', '1e3', '0x10', '%00', '', '1.5', '99999999999999999999', '2147483648', ' 5', '5&afterSeq=6', encodeSegment(this.string()).slice(0, 200)])}`
          : this.chance(0.1)
            ? `?${encodeSegment(this.string()).slice(0, 100)}`
            : '';
      return { family: `rest:GET /api/games/:id${sub}`, method: this.chance(0.9) ? 'GET' : 'HEAD', path: `/api/games/${idSegment()}${sub}${query}`, headers: auth() };
    }
    if (n < 60) {
      const path = this.pick([
        `/api/games/${idSegment()}`,
        `/api/games/${this.game().id}/events`,
        '/api/games/import',
        '/api/games',
        '/healthz',
        '/metrics',
        `/api/games/${idSegment()}/bundle`,
        '/api/tournaments',
        `/api/tournaments/${tournamentId()}`,
        `/api/tournaments/${idSegment(tournamentId)}/${this.pick(['standings', 'games', 'events', 'bundle', 'participants', 'rounds/1/pair', 'finish'])}`,
        `/api/webhooks/${this.pick(this.webhooks).id}`,
      ]);
      const method = this.pick(['PUT', 'PATCH', 'DELETE', 'OPTIONS', 'POST', 'PROPFIND']);
      return { family: `rest:${method} odd`, method, path, headers: { 'content-type': 'application/json', ...auth() }, body: method === 'OPTIONS' ? undefined : toJson(this.json()) };
    }
    if (n < 85) {
      // Not the test-only duel engine: its importRecord trusts its input (the real engines check theirs).
      const kind = this.chance(0.2) ? encodeSegment(this.string()).slice(0, 200) : this.pick([...KINDS, '']);
      const query = this.pick([`?kind=${kind}`, `?kind=${kind}`, `?kind=${kind}&kind=cerke`, '', `?kind[a]=b`]);
      const record = this.badRecord();
      const [contentType, body] = this.pick<[string, string | Uint8Array]>([
        ['application/json', toJson(this.json())],
        ['application/json', toJson(this.chance(0.5) ? this.deep() : ownObject([['format', this.deep()]]))],
        ['application/json', toJson(ownObject([[this.pick(PROTO_KEYS), ownObject([['format', 'arbiter-chicken-foot/1']])]]))],
        ['text/plain', record.text.replace(/\p{Cs}/gu, '\u0000')],
        ['text/plain', this.string()],
        ['application/octet-stream', new Uint8Array(Array.from({ length: 64 }, () => this.int(256)))],
        ['application/json', '{"format": "arbiter-chicken-foot/1", '],
        ['text/plain; charset=utf-16', 'abc'],
        ['application/x-www-form-urlencoded', 'kind=cerke&record=x'],
        ['', ''],
        ['text/plain', ''],
      ]);
      // A text body carries no lone surrogate (it would arrive as U+FFFD): poisons in text use NUL and controls.
      return { family: 'rest:POST /api/games/import', method: 'POST', path: `/api/games/import${query}`, headers: contentType ? { 'content-type': contentType } : {}, body };
    }
    const path = this.pick([
      '/',
      '/api',
      '/api/',
      '/api/games',
      '/api/games/',
      '//api//games',
      '/api/games/%',
      '/api/games/%zz/events',
      '/api/games/%ED%A0%80/record',
      '/%2e%2e/%2e%2e/etc/passwd',
      '/api/games/x/y/z/w',
      '/api/tournaments',
      '/api/tournaments/',
      '/api/webhooks',
      `/api/tournaments/${this.tournaments.running.id}/standings/x`,
      '/api/tournaments/%ED%A0%80/bundle',
      `/api/tournaments/t-${'a'.repeat(this.pick([100, 4000]))}/events`,
      '/graphql/x',
      '/healthz/%00',
      '/metrics?x=%00',
      `/api/games/${'a'.repeat(this.pick([100, 4000, 12_000]))}`,
      `/${encodeSegment(this.string()).slice(0, 500)}`,
      `/api/games/${this.game().id}/events?afterSeq=${'9'.repeat(400)}`,
    ]);
    return { family: 'rest:odd path', method: this.pick(['GET', 'GET', 'POST', 'HEAD']), path, headers: auth() };
  }

  next(): HostileRequest {
    const n = this.int(100);
    if (n < 55) return this.graphqlOperation();
    if (n < 67) return this.rawGraphql();
    return this.rest();
  }
}

/** What one response showed: its status class, and anything wrong with it. */
export interface Verdict {
  status: number;
  /** A problem: a 5xx, an INTERNAL code, an error without a code, a REST error not in the JSON shape. */
  problem: string | null;
  /** An answer that changed state: a union's (GameCreated, SeatJoined, MoveAccepted), or a field the request lists in `changes` answered. */
  accepted: string[];
  /** GraphQL error codes and Rejection codes seen, for the figures. */
  codes: string[];
}

const INTERNAL = new Set(['INTERNAL', 'INTERNAL_SERVER_ERROR']);

export function judge(req: HostileRequest, status: number, contentType: string, text: string): Verdict {
  const codes: string[] = [];
  const accepted: string[] = [];
  let problem: string | null = status >= 500 ? `status ${status}` : null;
  let body: any = null;
  if (contentType.includes('json') && text) {
    try {
      // NDJSON (a game's events): every line is JSON.
      body = contentType.includes('ndjson')
        ? text
            .trim()
            .split('\n')
            .map((line) => JSON.parse(line))
        : JSON.parse(text);
    } catch {
      problem ??= 'a JSON content type with a body that is not JSON';
    }
  }
  if (req.path.startsWith('/graphql') && body && typeof body === 'object' && !Array.isArray(body) && !body.error) {
    for (const e of body.errors ?? []) {
      const code = e?.extensions?.code;
      if (typeof code !== 'string') problem ??= `a GraphQL error without extensions.code: ${e?.message}`;
      else {
        codes.push(code);
        if (INTERNAL.has(code)) problem ??= `GraphQL ${code}: ${e.message}`;
      }
    }
    const walk = (v: unknown) => {
      if (!v || typeof v !== 'object') return;
      const o = v as Record<string, unknown>;
      if (o.__typename === 'Rejection') codes.push(String(o.code));
      if (o.__typename === 'GameCreated' || o.__typename === 'SeatJoined' || o.__typename === 'MoveAccepted') accepted.push(o.__typename);
      for (const x of Object.values(o)) walk(x);
    };
    walk(body.data);
    for (const [key, field] of Object.entries(req.changes ?? {})) if (body.data?.[key] !== undefined && body.data[key] !== null && body.data[key].__typename !== 'Rejection') accepted.push(field);
  } else if (status === 431 && !text) {
    // Node's HTTP parser refuses headers (here: a URL) over 16 KB before the application sees them.
    codes.push('HTTP_431');
  } else if (status >= 400 && req.method !== 'HEAD') {
    // REST (and limits in front of GraphQL): { error: { code, message } }.
    const ok = body && typeof body.error?.code === 'string' && typeof body.error?.message === 'string';
    if (!ok) problem ??= `a ${status} without the JSON error shape: ${text.slice(0, 120)}`;
    else {
      codes.push(body.error.code);
      if (INTERNAL.has(body.error.code)) problem ??= `code ${body.error.code}`;
    }
  }
  return { status, problem, accepted, codes };
}

export interface Figures {
  sent: number;
  /** Requests the client could not send (a bug in the generator, not in the service). */
  unsent: number;
  byClass: Record<string, number>;
  byFamily: Record<string, number>;
  codes: Record<string, number>;
  accepted: number;
  problems: { family: string; method: string; path: string; body: string; problem: string }[];
}

/** Sends the requests with `concurrency` in flight; no timing is asserted anywhere. */
export async function run(baseUrl: string, requests: Iterable<HostileRequest>, concurrency: number): Promise<Figures> {
  const figures: Figures = { sent: 0, unsent: 0, byClass: {}, byFamily: {}, codes: {}, accepted: 0, problems: [] };
  const it = requests[Symbol.iterator]();
  const worker = async () => {
    for (let next = it.next(); !next.done; next = it.next()) {
      const req = next.value;
      let res: Response;
      try {
        res = await fetch(baseUrl + req.path, { method: req.method, headers: req.headers, body: req.body as RequestInit['body'], redirect: 'manual', signal: AbortSignal.timeout(300_000) });
      } catch (err) {
        figures.unsent++;
        figures.problems.push({ family: req.family, method: req.method, path: req.path.slice(0, 200), body: describeBody(req.body), problem: `not sent: ${(err as Error).message}` });
        continue;
      }
      const text = await res.text();
      figures.sent++;
      const v = judge(req, res.status, res.headers.get('content-type') ?? '', text);
      const cls = `${Math.floor(v.status / 100)}xx`;
      figures.byClass[cls] = (figures.byClass[cls] ?? 0) + 1;
      figures.byFamily[req.family] = (figures.byFamily[req.family] ?? 0) + 1;
      for (const c of v.codes) figures.codes[c] = (figures.codes[c] ?? 0) + 1;
      figures.accepted += v.accepted.length;
      if (v.problem || v.accepted.length > 0) {
        figures.problems.push({ family: req.family, method: req.method, path: req.path.slice(0, 200), body: describeBody(req.body), problem: v.problem ?? `accepted: ${v.accepted.join(', ')}` });
      }
    }
  };
  await Promise.all(Array.from({ length: concurrency }, worker));
  return figures;
}

function describeBody(body: string | Uint8Array | undefined): string {
  if (body === undefined) return '';
  const text = typeof body === 'string' ? body : `<${body.length} bytes>`;
  return text.length > 4000 ? `${text.slice(0, 4000)}… (${text.length} chars)` : text;
}
