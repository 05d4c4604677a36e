import { createHash } from 'node:crypto';
import http from 'node:http';
import type { Engine } from '../src/engines/kit/index.js';

export interface GqlAnswer {
  data?: any;
  errors?: { message: string; extensions?: { code?: string } }[];
}

// node:http with a keep-alive agent: fetch costs the load generator several times more CPU per
// request, and the generator shares the machine with the service it measures.
const agent = new http.Agent({ keepAlive: true, maxSockets: 256 });

/**
 * A request on a kept-alive connection that the server closed as idle meanwhile (its
 * keepAliveTimeout) fails with ECONNRESET before the server read it: sent again once, on a new
 * connection, as Node's documentation advises (`request.reusedSocket`).
 */
function post(url: string, payload: Record<string, unknown>, token?: string, again = true): Promise<GqlAnswer> {
  const body = JSON.stringify(payload);
  return new Promise((resolve, reject) => {
    const req = http.request(
      `${url}/graphql`,
      {
        method: 'POST',
        agent,
        headers: { 'content-type': 'application/json', 'content-length': Buffer.byteLength(body), ...(token ? { authorization: `Bearer ${token}` } : {}) },
      },
      (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (c: Buffer) => chunks.push(c));
        res.on('end', () => {
          try {
            resolve(JSON.parse(Buffer.concat(chunks).toString()) as GqlAnswer);
          } catch (err) {
            reject(err);
          }
        });
        res.on('error', reject);
      },
    );
    req.on('error', (err: NodeJS.ErrnoException) => {
      if (again && req.reusedSocket && err.code === 'ECONNRESET') resolve(post(url, payload, token, false));
      else reject(err);
    });
    req.end(body);
  });
}

const hashes = new Map<string, string>();

/**
 * One GraphQL request as a real client sends it, with an automatic persisted query: the query's
 * SHA-256 alone, and the query itself only when the server answers that it does not know it yet.
 */
export async function gql(url: string, query: string, variables: Record<string, unknown> = {}, token?: string): Promise<GqlAnswer> {
  let sha256Hash = hashes.get(query);
  if (!sha256Hash) hashes.set(query, (sha256Hash = createHash('sha256').update(query).digest('hex')));
  const extensions = { persistedQuery: { version: 1, sha256Hash } };
  const answer = await post(url, { extensions, variables }, token);
  if (answer.errors?.[0]?.extensions?.code !== 'PERSISTED_QUERY_NOT_FOUND') return answer;
  return post(url, { query, extensions, variables }, token);
}

const CREATE = `mutation($input: CreateGameInput!) { createGame(input: $input) {
  ... on GameCreated { game { id } tokens { seat token } } ... on Rejection { code message } } }`;
const EVENTS = `query($id: ID!, $after: String) { gameEvents(gameId: $id, after: $after) { nodes { seq type actor payload } } }`;
export const MOVE = `mutation($g: ID!, $m: String!, $a: JSON!, $v: Int) { submitAction(gameId: $g, moveId: $m, action: $a, expectedVersion: $v) {
  __typename ... on MoveAccepted { version status events { seq type actor payload } } ... on Rejection { code message } } }`;

interface ServedEvent {
  seq: number;
  type: string;
  actor: number | null;
  payload: { action?: unknown; chance?: { values?: number[] } };
}

/**
 * A bot that plays whole games through the public GraphQL API, holding every seat's token. It
 * mirrors the game with the same pure engine the referee uses (actions it sent, dice it was
 * told), so each move costs exactly one request, as for a real bot.
 */
export class Bot {
  gameId = '';
  version = 0;
  private tokens: string[] = [];
  private state: unknown;
  private moveNo = 0;
  /** A move whose outcome is unknown (refused STORAGE_UNAVAILABLE), sent again as it was. */
  private unsure: { seat: number; action: unknown; moveId: string } | null = null;

  constructor(
    /** The instance this bot talks to; the load bench moves it between instances (one database behind them all). */
    public url: string,
    private readonly engine: Engine,
    private readonly ruleset: unknown,
    private readonly rand: (n: number) => number,
    readonly name: string,
    /** Action types the bot plays only when nothing else is legal (random bots concede and double far too often). */
    private readonly avoid: readonly string[] = ['resign'],
  ) {}

  async newGame(): Promise<void> {
    const answer = await gql(this.url, CREATE, { input: { kind: this.engine.kind, ruleset: this.ruleset } });
    const created = answer.data?.createGame;
    if (!created?.game) throw new Error(`createGame failed: ${created ? JSON.stringify(created) : answer.errors?.[0]?.extensions?.code}`);
    await this.play(
      created.game.id,
      created.tokens.map((t: { token: string }) => t.token),
    );
  }

  /** Takes over a game someone else created (a tournament's), with a token per seat (participants' tokens act as seats). */
  async play(gameId: string, tokens: string[]): Promise<void> {
    this.gameId = gameId;
    this.tokens = tokens;
    this.state = this.engine.init((this.engine.parseRuleset(this.ruleset) as { value: unknown }).value);
    this.version = 0;
    this.unsure = null;
    const answer = await gql(this.url, EVENTS, { id: this.gameId, after: '0' });
    if (!answer.data?.gameEvents) throw new Error(`gameEvents failed: ${answer.errors?.[0]?.extensions?.code}`);
    this.follow(answer.data.gameEvents.nodes as ServedEvent[]);
  }

  /** Token of a seat (for checks after a crash). */
  token(seat: number): string {
    return this.tokens[seat];
  }

  finished(): boolean {
    return this.engine.outcome(this.state) !== null;
  }

  /**
   * Plays one random legal move; answers the referee's typed result. A move refused with
   * STORAGE_UNAVAILABLE, or not answered at all, may or may not have been stored (the database
   * went away during its commit): the next call sends it again, same move id and body, which the referee answers
   * with the original result if it was stored, and stores otherwise.
   */
  async move(): Promise<{ accepted: boolean; moveId: string; version: number; code?: string; finished: boolean }> {
    const { seat, action, moveId } = this.unsure ?? this.choose();
    this.unsure = null;
    const reply = await gql(this.url, MOVE, { g: this.gameId, m: moveId, a: action, v: this.version }, this.tokens[seat]).catch((err: NodeJS.ErrnoException): GqlAnswer => {
      // The connection to the service broke: the move may have been stored as well.
      if (!err.code) throw err;
      return { errors: [{ message: err.message, extensions: { code: `NO_ANSWER ${err.code}` } }] };
    });
    const answer = reply.data?.submitAction;
    const code: string | undefined = answer?.code ?? reply.errors?.[0]?.extensions?.code;
    if (!answer && !code) throw new Error(`no answer: ${JSON.stringify(reply)}`);
    if (code === 'STORAGE_UNAVAILABLE' || code?.startsWith('NO_ANSWER')) this.unsure = { seat, action, moveId };
    if (answer?.__typename !== 'MoveAccepted') return { accepted: false, moveId, version: this.version, code, finished: this.finished() };
    this.follow(answer.events);
    return { accepted: true, moveId, version: answer.version, finished: this.finished() };
  }

  private choose(): { seat: number; action: unknown; moveId: string } {
    const seat = this.engine.toAct(this.state)[0];
    const all = this.engine.legalActions(this.state, seat);
    const playing = all.filter((a) => !this.avoid.includes((a as { type?: string }).type ?? ''));
    const actions = playing.length > 0 ? playing : all;
    return { seat, action: actions[this.rand(actions.length)], moveId: `${this.name}-${this.moveNo++}` };
  }

  private follow(events: ServedEvent[]): void {
    for (const e of events) {
      if (e.seq <= this.version) continue;
      if (e.payload.chance?.values) this.state = ok(this.engine.resolveChance(this.state, e.payload.chance.values));
      else if (e.type === 'ActionTaken') this.state = ok(this.engine.apply(this.state, e.actor!, e.payload.action));
      this.version = e.seq;
    }
  }
}

function ok<T>(r: { ok: true; value: T } | { ok: false; error: { message: string } }): T {
  if (!r.ok) throw new Error(`the bot's mirror of the game diverged: ${r.error.message}`);
  return r.value;
}
