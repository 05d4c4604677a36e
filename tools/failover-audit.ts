import pg from 'pg';
import { gql } from './bot.js';

export interface Acknowledged {
  gameId: string;
  moveId: string;
  version: number;
}

export interface Audit {
  /** Acknowledged moves found stored (in the database's rows) at or before their version. */
  found: number;
  /** Acknowledged moves not in the stored rows at or before their version: a real loss. */
  lost: string[];
  /** Move ids stored as more than one move (in the rows, or in an instance's answer). */
  duplicates: string[];
  /**
   * Stored moves that an instance's API still did not show (or showed at another seq) once the
   * failover settled, as `instance N: game/move`: the stream it holds is stale, a freshness defect.
   */
  staleReads: string[];
  games: number;
  unverified: string[];
}

const EVENTS = `query($id: ID!, $after: String) { gameEvents(gameId: $id, after: $after, first: 1000) { nodes { seq type moveId } } }`;
const VERIFY = `query($id: ID!) { verifyGame(gameId: $id) { ok summary } }`;
/** An instance's read may trail the last append elsewhere by one NOTIFY; a stale stream stays so until its next command. */
const SETTLE_TRIES = 5;
const SETTLE_PAUSE_MS = 1000;

/**
 * After the run: every acknowledged move must be in the stored rows once, at or before its version
 * (read straight from the database, not through an instance); every instance's API must show each
 * of them at the stored seq; every game must verify.
 */
export async function audit(instances: string[], databaseUrl: string, acknowledged: Acknowledged[]): Promise<Audit> {
  const byGame = groupBy(acknowledged, (a) => a.gameId);
  const stored = await storedMoves(databaseUrl, [...byGame.keys()]);
  const lost: string[] = [];
  const duplicates: string[] = [];
  const unverified: string[] = [];
  let found = 0;
  for (const [gameId, moves] of byGame) {
    const rows = stored.get(gameId) ?? new Map<string, number[]>();
    for (const [moveId, seqs] of rows) if (seqs.length > 1) duplicates.push(`${gameId}/${moveId}`);
    for (const m of moves) {
      const seq = rows.get(m.moveId)?.[0];
      if (seq === undefined || seq > m.version) lost.push(`${gameId}/${m.moveId}`);
      else found++;
    }
    const verdict = (await gql(instances[0], VERIFY, { id: gameId })).data.verifyGame;
    if (!verdict.ok) unverified.push(`${gameId}: ${verdict.summary}`);
  }
  const staleReads: string[] = [];
  for (const [i, url] of instances.entries()) {
    const unseen = await unseenThrough(url, byGame, stored, duplicates);
    staleReads.push(...unseen.map((m) => `instance ${i}: ${m}`));
  }
  return { found, lost, duplicates: [...new Set(duplicates)], staleReads, games: byGame.size, unverified };
}

/** The acknowledged moves stored that `url` does not show at their stored seq, asked again a few times a second apart. */
async function unseenThrough(url: string, byGame: Map<string, Acknowledged[]>, stored: Map<string, Map<string, number[]>>, duplicates: string[]): Promise<string[]> {
  let games = [...byGame.keys()];
  let unseen: string[] = [];
  for (let attempt = 0; attempt < SETTLE_TRIES && games.length > 0; attempt++) {
    if (attempt > 0) await new Promise((r) => setTimeout(r, SETTLE_PAUSE_MS));
    const missing = new Map<string, string[]>();
    for (const gameId of games) {
      const shown = groupBy(
        (await gameEvents(url, gameId)).filter((e) => e.moveId && e.type === 'ActionTaken'),
        (e) => e.moveId!,
      );
      for (const [moveId, events] of shown) if (events.length > 1) duplicates.push(`${gameId}/${moveId}`);
      const rows = stored.get(gameId);
      const notShown = byGame.get(gameId)!.filter((m) => {
        const seq = rows?.get(m.moveId)?.[0];
        return seq !== undefined && shown.get(m.moveId)?.[0]?.seq !== seq;
      });
      if (notShown.length > 0)
        missing.set(
          gameId,
          notShown.map((m) => `${gameId}/${m.moveId}`),
        );
    }
    games = [...missing.keys()];
    unseen = [...missing.values()].flat();
  }
  return unseen;
}

/** Per game, per move id, the seqs of its stored ActionTaken rows (the events table, read directly). */
async function storedMoves(databaseUrl: string, gameIds: string[]): Promise<Map<string, Map<string, number[]>>> {
  const client = new pg.Client({ connectionString: databaseUrl });
  await client.connect();
  try {
    const { rows } = await client.query<{ game_id: string; move_id: string; seq: number }>(
      `SELECT game_id, move_id, seq FROM events WHERE game_id = ANY($1) AND move_id IS NOT NULL AND type = 'ActionTaken' ORDER BY game_id, seq`,
      [gameIds],
    );
    const stored = new Map<string, Map<string, number[]>>();
    for (const r of rows) {
      const moves = stored.get(r.game_id) ?? stored.set(r.game_id, new Map()).get(r.game_id)!;
      moves.set(r.move_id, [...(moves.get(r.move_id) ?? []), r.seq]);
    }
    return stored;
  } finally {
    await client.end();
  }
}

/** Map.groupBy, which Node 20 lacks. */
function groupBy<T>(items: T[], key: (item: T) => string): Map<string, T[]> {
  const groups = new Map<string, T[]>();
  for (const item of items) groups.set(key(item), [...(groups.get(key(item)) ?? []), item]);
  return groups;
}

export type ServedEvent = { seq: number; type: string; moveId: string | null };

/** A game's whole log as `url` serves it, a page of 1000 at a time. */
export async function gameEvents(url: string, gameId: string): Promise<ServedEvent[]> {
  const events: ServedEvent[] = [];
  for (let after = '0'; ; ) {
    const page = (await gql(url, EVENTS, { id: gameId, after })).data.gameEvents.nodes as ServedEvent[];
    events.push(...page);
    if (page.length < 1000) return events;
    after = String(page.at(-1)!.seq);
  }
}
