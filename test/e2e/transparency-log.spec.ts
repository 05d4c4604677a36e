import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { follow, httpGet } from '../../src/cli/monitor.js';
import { verifyAgainstLog, verifyFile } from '../../src/cli/verify.js';
import { DatabaseService } from '../../src/database/database.service.js';
import { EngineRegistry } from '../../src/referee/core/engine-registry.js';
import { eventHash, type StoredEvent } from '../../src/referee/core/stream.js';
import { parseCheckpoint, parseVerifierKey, signedBy, signingKeyOf, verifierKeyText } from '../../src/referee/core/tlog/checkpoint.js';
import { entryBytes, type LogEntry } from '../../src/referee/core/tlog/log-entry.js';
import { leafHash, verifyConsistency, verifyInclusion } from '../../src/referee/core/tlog/merkle.js';
import { TournamentService } from '../../src/referee/index.js';
import { RefereeService } from '../../src/referee/application/referee.service.js';
import { EventStore } from '../../src/referee/store/event-store.js';
import { MetricsService } from '../../src/ops/metrics.service.js';
import { CheckpointWorker } from '../../src/transparency/checkpoint-worker.js';
import { LogStore } from '../../src/transparency/log-store.js';
import { CONFIG, type Config } from '../../src/config/config.js';
import type { TestApp } from '../support/app.js';
import { logSuite } from '../support/log-suite.js';
import { swissOfTwo } from '../support/instances.js';
import { CREATE } from '../support/queries.js';

/**
 * The transparency log end to end, on a database of its own (PGlite, or PostgreSQL with
 * TEST_DATABASE_URL): one entry per finished game and tournament, written with the append that
 * finishes it; checkpoints signed with the published key; proofs over REST; bundles that carry
 * their proof to `npm run verify`; and the tampering an operator could do through SQL, each
 * caught by the verifier or the monitor.
 */
const suite = logSuite('tlog');
const { http, log, sql, rows } = suite;
let t: TestApp;
let dir: string;
beforeAll(() => {
  t = suite.app();
  dir = suite.dir();
});
const JOIN = 'mutation($id: ID!) { joinGame(gameId: $id) { ... on SeatJoined { token } } }';
const RESIGN = 'mutation($id: ID!) { resignGame(gameId: $id, moveId: "resign") { ... on MoveAccepted { status } ... on Rejection { code } } }';

/** A 1-point backgammon match, both seats taken (no hidden information: its bundle is served at any time). */
async function startedGame(): Promise<{ id: string; token: string }> {
  const created = (await t.gql(CREATE, { input: { kind: 'backgammon', ruleset: { matchLength: 1 }, seats: [{ name: 'Ann' }, { open: true }] } })).data.createGame;
  await t.gql(JOIN, { id: created.game.id });
  return { id: created.game.id, token: created.tokens[0].token };
}
async function finishedGame(): Promise<string> {
  const { id, token } = await startedGame();
  expect((await t.gql(RESIGN, { id }, token)).data.resignGame).toEqual({ status: 'FINISHED' });
  return id;
}
async function finishedTournament(): Promise<string> {
  const tournaments = t.app.get(TournamentService);
  const { id, game, loser } = await swissOfTwo({ tournaments }, { kind: 'backgammon', ruleset: { matchLength: 1 } });
  expect((await t.gql(RESIGN, { id: game.gameId }, loser)).data.resignGame).toEqual({ status: 'FINISHED' });
  // The game's end records its result, which finishes a one-round Swiss (a workflow step).
  for (let i = 0; i < 100 && (await tournaments.tournament(id)).row.version > 0; i++) {
    if ((await http().get(`/api/tournaments/${id}`).expect(200)).body.status === 'FINISHED') return id;
    await new Promise((r) => setTimeout(r, 100));
  }
  throw new Error('the tournament did not finish');
}
const publishedKey = async () => (await http().get('/api/log/key').expect(200)).text.trim();
const latest = async () => (await http().get('/api/log/checkpoint').expect(200)).text;
const bundleFile = async (path: string, name: string) => {
  const file = join(dir, `${name}.json`);
  writeFileSync(file, (await http().get(path).expect(200)).text);
  return file;
};
/** The game's bundle as an instance that holds nothing (one started after the rewrite) serves it: from the rows as they are now, with its log proof. */
async function servedFresh(id: string, name: string): Promise<string> {
  const fresh = new RefereeService(t.app.get(EventStore), t.app.get(EngineRegistry), new MetricsService());
  const file = join(dir, `${name}.json`);
  writeFileSync(file, JSON.stringify(await log().withProof('game', id, await fresh.bundle(id))));
  return file;
}
const verifyWith = (file: string, logKey?: string) => verifyFile(file, t.app.get(EngineRegistry), { logKey });
const entriesOf = (ids: string[]) =>
  rows<{ stream_id: string; n: number; leaf: string | null }>(
    "SELECT stream_id, count(*)::int AS n, max(leaf_index)::text AS leaf FROM log_entries WHERE stream_id = ANY($1::text[]) AND kind IN ('game', 'tournament') GROUP BY stream_id",
    ids,
  );

describe('the transparency log', () => {
  it('holds exactly one final entry for each finished game and tournament, none for a running game, sequenced at the next checkpoint', async () => {
    const games = [await finishedGame(), await finishedGame()];
    const running = await startedGame();
    const tournament = await finishedTournament();
    expect((await entriesOf([...games, running.id, tournament])).every((e) => e.leaf === null && e.n === 1)).toBe(true);
    const step = await log().checkpointNow();
    expect(step?.checkpoint?.size).toBe(step?.size);
    const entries = await entriesOf([...games, running.id, tournament]);
    expect(entries.map((e) => e.stream_id).sort()).toEqual([...games, tournament].sort());
    expect(entries.every((e) => e.n === 1 && e.leaf !== null)).toBe(true);
    // A move refused after the end adds nothing; a checkpoint with nothing new signs nothing.
    expect((await t.gql(RESIGN, { id: games[0] }, running.token)).data.resignGame.code).toBeDefined();
    expect((await log().checkpointNow())?.checkpoint).toBeNull();
    expect(parseCheckpoint(await latest()).size).toBe(step?.size);
  });

  it("signs checkpoints that verify with the published key and fail with another; a bundle's proof verifies offline", async () => {
    const id = await finishedGame();
    const tournament = await finishedTournament();
    await log().checkpointNow();
    const key = await publishedKey();
    expect(signedBy(parseCheckpoint(await latest()), parseVerifierKey(key))).toBe(true);
    const stranger = verifierKeyText(signingKeyOf(parseVerifierKey(key).name, Buffer.alloc(32, 9)));
    expect(signedBy(parseCheckpoint(await latest()), parseVerifierKey(stranger))).toBe(false);

    const game = await bundleFile(`/api/games/${id}/bundle`, 'game');
    expect(verifyWith(game, key)).toMatchObject({ ok: true, summary: expect.stringMatching(/in the transparency log at leaf \d+ of checkpoint \d+ .*signed by/) });
    expect(verifyWith(game, stranger)).toMatchObject({ ok: false, problem: expect.stringMatching(/is not signed by the log key/) });
    const whole = await bundleFile(`/api/tournaments/${tournament}/bundle`, 'tournament');
    expect(verifyWith(whole, key)).toMatchObject({ ok: true, summary: expect.stringMatching(/in the transparency log .*; 1 of its 1 games by their own proofs too/) });
    // A nested game's proof altered (its first hash): the tournament's bundle fails, naming that game.
    const altered = JSON.parse(readFileSync(whole, 'utf8'));
    const nested = altered.games[0];
    nested.log.inclusionProof[0] = Buffer.alloc(32, 7).toString('base64');
    writeFileSync(whole, JSON.stringify(altered));
    expect(verifyWith(whole, key)).toMatchObject({
      ok: false,
      problem: expect.stringMatching(new RegExp(`^its game ${nested.game.id}: the log's checkpoint \\d+ does not hold this game's final head`)),
    });
  });

  it('proves inclusion and consistency over REST between every pair of checkpoints', async () => {
    const sizes: number[] = [];
    const ids: string[] = [];
    for (let i = 0; i < 3; i++) {
      ids.push(await finishedGame());
      if (i === 1) ids.push(await finishedGame());
      sizes.push((await log().checkpointNow())!.size);
    }
    const notes = await Promise.all(sizes.map(async (s) => parseCheckpoint((await http().get(`/api/log/checkpoints/${s}`).expect(200)).text)));
    for (const [i, a] of notes.entries())
      for (const b of notes.slice(i + 1)) {
        const { body } = await http().get(`/api/log/consistency?from=${a.size}&to=${b.size}`).expect(200);
        const proof = body.consistencyProof.map((h: string) => Buffer.from(h, 'base64'));
        expect(verifyConsistency(a.size, b.size, proof, a.root, b.root)).toBe(true);
        expect(verifyConsistency(a.size, b.size, proof, b.root, a.root)).toBe(false);
      }
    for (const id of ids)
      for (const n of notes) {
        const res = await http().get(`/api/log/inclusion?game=${id}&size=${n.size}`);
        if (res.status === 409) {
          expect(res.body.error.code).toBe('NOT_IN_LOG_YET');
          continue;
        }
        const { entry, leafIndex, inclusionProof, checkpoint } = res.body as { entry: LogEntry; leafIndex: number; inclusionProof: string[]; checkpoint: string };
        expect(parseCheckpoint(checkpoint).root.equals(n.root)).toBe(true);
        const leaf = leafHash(entryBytes(entry));
        expect(
          verifyInclusion(
            leafIndex,
            n.size,
            leaf,
            inclusionProof.map((h) => Buffer.from(h, 'base64')),
            n.root,
          ),
        ).toBe(true);
        expect((await http().get(`/api/log/inclusion?index=${leafIndex}&size=${n.size}`).expect(200)).body.entry).toEqual(entry);
      }
    const late = await finishedGame();
    expect((await http().get(`/api/log/inclusion?game=${late}`).expect(409)).body.error.code).toBe('NOT_IN_LOG_YET');
    expect((await http().get(`/api/log/consistency?from=3&to=${1e9}`).expect(400)).body.error.code).toBe('INVALID_INPUT');
    expect((await http().get('/api/log/inclusion?game=nope-nope').expect(404)).body.error.code).toBe('NOT_FOUND');
  });
});

describe('several instances', () => {
  it('sequencing at once from two instances builds one tree: every entry once, at consecutive leaves, every checkpoint consistent with the next', async () => {
    for (let i = 0; i < 4; i++) await finishedGame();
    const config = t.app.get<Config>(CONFIG);
    const other = new CheckpointWorker(new LogStore(t.app.get(DatabaseService)), log().key, config.logOrigin, 3_600_000);
    await Promise.all([log().checkpointNow(), other.tick(), finishedGame().then(() => other.tick()), log().checkpointNow()]);
    await log().checkpointNow();
    const [tree] = await rows<{ size: string; entries: number; distinct: number; top: string; waiting: number }>(
      'SELECT (SELECT size FROM log_tree)::text AS size, count(leaf_index)::int AS entries, count(DISTINCT leaf_index)::int AS distinct, max(leaf_index)::text AS top, count(*) FILTER (WHERE leaf_index IS NULL)::int AS waiting FROM log_entries',
    );
    expect(tree).toEqual({ size: String(tree.entries), entries: tree.entries, distinct: tree.entries, top: String(tree.entries - 1), waiting: 0 });
    const sizes = (await rows<{ size: string }>('SELECT size::text AS size FROM log_checkpoints WHERE size > 0')).map((r) => Number(r.size)).sort((x, y) => x - y);
    for (const [i, m] of sizes.slice(0, -1).entries()) {
      const [a, b] = await Promise.all([m, sizes[i + 1]].map(async (s) => parseCheckpoint((await http().get(`/api/log/checkpoints/${s}`).expect(200)).text)));
      const { body } = await http().get(`/api/log/consistency?from=${a.size}&to=${b.size}`).expect(200);
      expect(
        verifyConsistency(
          a.size,
          b.size,
          body.consistencyProof.map((h: string) => Buffer.from(h, 'base64')),
          a.root,
          b.root,
        ),
      ).toBe(true);
    }
  });
});

describe('tampering through SQL', () => {
  /** Recomputes the hash of `id`'s last event after `change`, and moves the game's head to it: a rewrite with a matching head. */
  async function rewriteLast(id: string, change: (e: StoredEvent) => StoredEvent): Promise<{ seq: number; hash: string }> {
    const bundle = (await http().get(`/api/games/${id}/bundle`).expect(200)).body as { events: StoredEvent[] };
    const changed = change(bundle.events.at(-1)!);
    const hash = eventHash(id, changed);
    await sql('UPDATE events SET created_at = $3::timestamptz, hash = $4 WHERE game_id = $1 AND seq = $2', id, changed.seq, changed.createdAt, hash);
    await sql('UPDATE games SET head_hash = $2 WHERE id = $1', id, hash);
    return { seq: changed.seq, hash };
  }

  it("a finished game's events rewritten with its head: verify shows the log holds another final head", async () => {
    const id = await finishedGame();
    await log().checkpointNow();
    const head = await rewriteLast(id, (e) => ({ ...e, createdAt: new Date(Date.parse(e.createdAt) - 3_600_000).toISOString() }));
    const file = await servedFresh(id, 'rewritten');
    expect(JSON.parse(readFileSync(file, 'utf8')).head).toEqual(head);
    expect(verifyWith(file)).toMatchObject({ ok: false });
    const verdict = verifyWith(file, await publishedKey());
    expect(verdict).toMatchObject({ ok: false, problem: expect.stringMatching(/does not hold this game's final head .* rewritten or cut short/) });
  });

  it('a finished game cut short with a matching head, version and status: the bundle passes alone, the log catches it', async () => {
    const id = await finishedGame();
    await log().checkpointNow();
    // Back to before the resignation: the game is served as running, with the head and status the rows say.
    const [{ seq, hash }] = await rows<{ seq: number; hash: string }>(
      "SELECT seq, hash FROM events WHERE game_id = $1 AND seq < (SELECT min(seq) FROM events WHERE game_id = $1 AND type = 'Resigned') ORDER BY seq DESC LIMIT 1",
      id,
    );
    await sql('DELETE FROM events WHERE game_id = $1 AND seq > $2', id, seq);
    await sql("UPDATE games SET version = $2, head_hash = $3, status = 'ACTIVE', result = NULL WHERE id = $1", id, seq, hash);
    const file = await servedFresh(id, 'truncated');
    expect(JSON.parse(readFileSync(file, 'utf8')).head).toEqual({ seq, hash });
    const key = await publishedKey();
    // The service's own bundle carries the entry's proof, and the cut is caught offline…
    expect(verifyWith(file, key)).toMatchObject({ ok: false, problem: expect.stringMatching(new RegExp(`does not hold this game's final head \\(seq ${seq},`)) });
    // …but a bundle handed over without it passes alone, as a game that goes on (the README's blind spot)…
    const { log: _proof, ...bare } = JSON.parse(readFileSync(file, 'utf8'));
    writeFileSync(file, JSON.stringify(bare));
    expect(verifyWith(file, key)).toMatchObject({ ok: true, summary: expect.stringContaining('not finished') });
    // …and the log itself shows the game finished further on.
    const online = await verifyAgainstLog(file, t.app.get(EngineRegistry), { logKey: key, logUrl: t.url });
    expect(online).toMatchObject({ ok: false, problem: expect.stringMatching(new RegExp(`final head at seq \\d+ .* but the bundle ends at seq ${seq}: it was cut short or rewritten`)) });
  });

  it("a logged leaf altered, or a game's entry deleted: verify catches both", async () => {
    const [a, b] = [await finishedGame(), await finishedGame()];
    await log().checkpointNow();
    const key = await publishedKey();
    const index = Number((await log().entry('game', a))!.leafIndex);
    // The sibling leaf is on a's audit path: altered, the path no longer leads to the signed root.
    await sql('UPDATE log_nodes SET hash = sha256(hash) WHERE level = 0 AND idx = $1', index ^ 1);
    expect(verifyWith(await bundleFile(`/api/games/${a}/bundle`, 'leaf-altered'), key)).toMatchObject({ ok: false, problem: expect.stringMatching(/does not hold this game's final head/) });
    await sql('DELETE FROM log_entries WHERE stream_id = $1', b);
    expect(verifyWith(await bundleFile(`/api/games/${b}/bundle`, 'entry-deleted'), key)).toMatchObject({ ok: false, problem: expect.stringMatching(/carries no proof/) });
  });

  it('the tree rebuilt with another history: the monitor reports the fork with the two signed checkpoints', async () => {
    const key = parseVerifierKey(await publishedKey());
    const get = httpGet(t.url);
    await log().checkpointNow();
    const first = await follow(get, key, null);
    expect(first.kind).toBe('first');
    const kept = (first as { checkpoint: string }).checkpoint;
    await finishedGame();
    await log().checkpointNow();
    const grown = await follow(get, key, kept);
    expect(grown).toMatchObject({ kind: 'grown' });
    const accepted = (grown as { checkpoint: string }).checkpoint;
    expect(await follow(get, parseVerifierKey(verifierKeyText(signingKeyOf(key.name, Buffer.alloc(32, 3)))), accepted)).toMatchObject({ kind: 'refused' });

    // The operator hides a game: the tree is rebuilt without it, and grows past the monitor's size.
    const [{ stream_id: hidden }] = await rows<{ stream_id: string }>('SELECT stream_id FROM log_entries WHERE leaf_index = 1');
    await sql('DELETE FROM log_checkpoints');
    await sql('DELETE FROM log_nodes');
    await sql("UPDATE log_tree SET size = 0, root = '\\xe3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855'::bytea");
    await sql('UPDATE log_entries SET leaf_index = NULL');
    await sql('DELETE FROM log_entries WHERE stream_id = $1', hidden);
    await finishedGame();
    await finishedGame();
    await log().checkpointNow();
    const fork = await follow(get, key, accepted);
    expect(fork).toMatchObject({ kind: 'fork', reason: expect.stringMatching(/does not verify|shrank|two different roots/) });
    const { evidence } = fork as { evidence: { earlier: string; later: string } };
    expect(evidence.earlier).toBe(accepted);
    expect([evidence.earlier, evidence.later].every((n) => signedBy(parseCheckpoint(n), key))).toBe(true);
    expect(parseCheckpoint(evidence.later).size).toBeGreaterThanOrEqual(parseCheckpoint(evidence.earlier).size);
  });
});
