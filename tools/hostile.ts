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
 *
 * Here the generator picks each request's kind; tools/hostile/ writes them (kit.ts: the seeded
 * draws and the values they all use; game-fields.ts, game-moves.ts, tournament-fields.ts,
 * tournament-commands.ts, webhook-fields.ts: GraphQL fields; raw-graphql.ts, rest.ts: HTTP) and
 * judges the answers (judge.ts).
 */
import type { Targets } from './hostile-targets.js';
import { gameField } from './hostile/game-fields.js';
import { HostileKit } from './hostile/kit.js';
import { rawGraphql } from './hostile/raw-graphql.js';
import { type Field, gql, type HeaderToken, type HostileRequest } from './hostile/request.js';
import { rest } from './hostile/rest.js';
import { tournamentField } from './hostile/tournament-fields.js';
import { webhookField } from './hostile/webhook-fields.js';

export { type Figures, judge, run, type Verdict } from './hostile/judge.js';
export type { HostileRequest } from './hostile/request.js';

export class HostileGenerator {
  private readonly kit: HostileKit;

  constructor(seed: number, targets: Targets) {
    this.kit = new HostileKit(seed, targets);
  }

  next(): HostileRequest {
    const n = this.kit.int(100);
    if (n < 55) return this.graphqlOperation();
    if (n < 67) return rawGraphql(this.kit);
    return rest(this.kit);
  }

  /** One field of a document: a game's (most), a tournament's or a webhook's. */
  private field(headerToken: HeaderToken, sfx: string): Field {
    const n = this.kit.int(100);
    if (n < 22) return tournamentField(this.kit, headerToken, sfx);
    if (n < 32) return webhookField(this.kit, headerToken, sfx);
    return gameField(this.kit, headerToken, sfx);
  }

  /** One GraphQL document: a single field (most), or several aliased fields of one operation type. */
  private graphqlOperation(): HostileRequest {
    if (this.kit.chance(0.1)) {
      // Aliases: the request's token is fixed up front, so every field carries its own poison.
      const token = this.kit.readToken();
      const first = this.field(token, '0');
      const op = first.op === 'subscription' ? 'query' : first.op;
      const fields: Field[] = first.op === op ? [first] : [];
      for (let i = 1; fields.length < 2 + this.kit.int(4) && i < 40; i++) {
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
}
