/**
 * The hostile generator's source of randomness and what it is pointed at, with the values every
 * kind of request draws on: strings and JSON a client could send, ids and tokens real or not,
 * actions, rulesets and records no engine accepts. One seed gives one sequence: every draw goes
 * through `int`, in the order the generator asks.
 */
import { existsSync, readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { seededRandom } from '../../src/engines/kit/index.js';
import type { GameTargets, SeededGame, SeededTournament, SeededWebhook, Targets, TournamentTargets } from '../hostile-targets.js';
import { KINDS, NAME_POISONS, NOT_IDS, ODD_CHARS, ODD_NUMBERS, PROTO_KEYS, REFUSED_CHARS, WORDS } from './poisons.js';
import { ownObject, Raw, toJson } from './request.js';

/** test/fixtures, found from this file in the sources (Jest) or in dist/ (bench/fuzz.ts, built). */
const FIXTURES = (() => {
  for (let dir = dirname(fileURLToPath(import.meta.url)); dir !== dirname(dir); dir = dirname(dir)) {
    if (existsSync(join(dir, 'package.json'))) return join(dir, 'test/fixtures');
  }
  throw new Error('project root not found');
})();

export class HostileKit {
  private readonly r: (n: number) => number;
  readonly games: GameTargets;
  /** Every game, in the order of GameTargets. */
  readonly all: SeededGame[];
  readonly tournaments: TournamentTargets;
  readonly webhooks: SeededWebhook[];
  readonly webhookUrl: string;
  readonly records: { kind: string; text: string }[];
  private clientIds = 0;

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

  int(n: number): number {
    return this.r(n);
  }
  chance(p: number): boolean {
    return this.r(1_000_000) < p * 1_000_000;
  }
  pick<T>(items: readonly T[]): T {
    return items[this.r(items.length)];
  }
  game(): SeededGame {
    return this.pick(this.all);
  }
  /** `base` with `ch` inserted anywhere. */
  insert(base: string, ch: string): string {
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
  unlike(pattern: RegExp): string {
    for (;;) {
      const s = this.string();
      if (!pattern.test(s)) return s;
    }
  }

  /** A seat name the service must refuse: a refused character, or longer than 64. */
  badName(): string {
    return this.chance(0.8) ? this.insert(this.pick(['Alice', 'b', '', 'Ann Lee', '中文']), this.pick(REFUSED_CHARS)) : this.pick(['n', '😀', 'é']).repeat(65 + this.int(200));
  }
  badSeed(): string {
    return this.chance(0.8) ? this.insert(this.pick(['seed', '', 'abc123']), this.pick(REFUSED_CHARS)) : 's'.repeat(257 + this.int(500));
  }

  /** A deep JSON text: arrays or objects nested far past any real input. */
  deep(): Raw {
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
  badAction(): unknown {
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
  badRuleset(): unknown {
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

  // ------------------------------------------------------------ ids, tokens and records

  /** An events cursor (an event's seq as a string): a real-looking one, a malformed one, or a value of another type. */
  seqCursor(): unknown {
    return this.pick([...ODD_NUMBERS.map(String), '0', '3', '999999999', '1000000000', '-1', '1.5', ' 1', this.string(), null, 5]);
  }

  /** A game id: a real one, one that names no game, or a malformed one. */
  anyGameId(): unknown {
    switch (this.int(4)) {
      case 0:
        return this.game().id;
      case 1:
        return this.pick(['AAAAAAAAAAAA', 'zzzzzzzzzzzz', '-', 'a'.repeat(64), 'a'.repeat(65), 'x_y-z']);
      case 2:
        return this.pick(NOT_IDS);
      default:
        return this.string();
    }
  }

  /** Reads: no token, a seat of some game, a tournament's organizer or participant, or garbage. */
  readToken(): string | undefined {
    return this.pick([undefined, this.pick(this.game().tokens), this.pick(this.tournamentTokens()), 'arb_nope', 'x']);
  }

  /** A record no engine imports: garbage, or a real record with a poisoned seat name or a prototype key. */
  badRecord(): { kind: string; text: string } {
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

  tournamentList(): SeededTournament[] {
    return Object.values(this.tournaments);
  }

  /** Every organizer's and participant's token. */
  tournamentTokens(): string[] {
    return this.tournamentList().flatMap((t) => [t.organizerToken, ...t.participants.map((p) => p.token)]);
  }

  /** A client's move id or command id no earlier request used. */
  clientId(): string {
    return `fuzz-${this.clientIds++}`;
  }

  /** Which of `slots` to poison: one, and each (that one too) with the chance `p`. */
  poisonSome(slots: readonly string[], p: number): Set<string> {
    const poisoned = new Set([this.pick(slots)]);
    for (const s of slots) if (this.chance(p)) poisoned.add(s);
    return poisoned;
  }

  /** Which of `slots` to poison: one, and with the chance `p` one more (maybe the same). */
  poisonOneOrTwo(slots: readonly string[], p: number): Set<string> {
    const poisoned = new Set([this.pick(slots)]);
    if (this.chance(p)) poisoned.add(this.pick(slots));
    return poisoned;
  }
}
