import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pg from 'pg';
import request from 'supertest';
import { verifyFile } from '../../src/cli/verify.js';
import { DatabaseService } from '../../src/database/database.service.js';
import { EngineRegistry } from '../../src/referee/core/engine-registry.js';
import { EventStore } from '../../src/referee/store/event-store.js';
import { RefereeService } from '../../src/referee/application/referee.service.js';
import { MetricsService } from '../../src/ops/metrics.service.js';
import { eventHash, type StoredEvent } from '../../src/referee/core/stream.js';
import { verifyBundle } from '../../src/referee/core/audit.js';
import { startApp, type TestApp } from '../support/app.js';
import { ACT, CREATE, GAME, VERIFY } from '../support/queries.js';

let t: TestApp;
beforeAll(async () => {
  t = await startApp();
});
afterAll(async () => {
  await t?.close();
});

async function finishedDuel(): Promise<string> {
  const res = await t.gql(CREATE, { input: { kind: 'duel', ruleset: { cards: 10, handSize: 3 } } });
  const { game, tokens } = res.data.createGame;
  for (let i = 0; i < 20; i++) {
    const g = (await t.gql(GAME, { id: game.id })).data.game;
    if (g.status === 'FINISHED') return game.id;
    const seat = g.toAct[0];
    const mine = (await t.gql(GAME, { id: game.id }, tokens[seat].token)).data.game;
    await t.gql(ACT, { gameId: game.id, moveId: `m${i}`, action: mine.legalActions[0] }, tokens[seat].token);
  }
  throw new Error('duel did not finish');
}

const bundleOf = async (id: string) => (await request(t.app.getHttpServer()).get(`/api/games/${id}/bundle`).expect(200)).body;
const storedEvents = (id: string) => t.app.get(EventStore).events(id);
const sql = (query: string, ...args: unknown[]) => t.app.get(DatabaseService).prisma.$executeRawUnsafe(query, ...args);

describe('audit: the hash chain, the seed and every move are checkable', () => {
  it('exports a bundle that verifies offline, from the file alone', async () => {
    const id = await finishedDuel();
    const bundle = await bundleOf(id);
    expect(bundle.game.serverSeed).toMatch(/^[0-9a-f]{64}$/);
    const dir = mkdtempSync(join(tmpdir(), 'bundle-'));
    const file = join(dir, 'game.json');
    writeFileSync(file, JSON.stringify(bundle));
    const verdict = verifyFile(file, t.app.get(EngineRegistry));
    expect(verdict).toMatchObject({ ok: true, fairnessChecked: true, badSeq: null });
    expect(verdict.eventsChecked).toBe(bundle.events.length);
  });

  it('fails verifyGame and the offline verifier at an event edited in the database', async () => {
    const id = await finishedDuel();
    const events: StoredEvent[] = (await bundleOf(id)).events;
    const victim = events.find((e) => e.type === 'ActionTaken')!;
    const before = await bundleOf(id);
    await sql(`UPDATE events SET payload = jsonb_set(payload, '{action,card}', '99') WHERE game_id = $1 AND seq = $2`, id, victim.seq);

    const verdict = (await t.gql(VERIFY, { gameId: id })).data.verifyGame;
    expect(verdict).toMatchObject({ ok: false, badSeq: victim.seq });
    expect(verdict.problem).toMatch(/altered/);
    const offline = verifyBundle(t.app.get(EngineRegistry), { ...before, events: await storedEvents(id) });
    expect(offline).toMatchObject({ ok: false, badSeq: victim.seq });

    // Another instance (nothing cached) refuses to serve or extend the altered history...
    const fresh = new RefereeService(t.app.get(EventStore), t.app.get(EngineRegistry), new MetricsService());
    await expect(fresh.game(id)).rejects.toMatchObject({ code: 'INTEGRITY_ERROR', message: expect.stringContaining(`event ${victim.seq}`) });
    // ...while listing games still works: a list is read from the game rows alone.
    const listed = await t.gql('{ games(first: 100, filter: { kind: "duel" }) { nodes { id status } } }');
    expect(listed.errors).toBeUndefined();
    expect(listed.data.games.nodes.map((n: { id: string }) => n.id)).toContain(id);
  });

  it('catches a forged die even when the forger recomputes every hash', async () => {
    const id = await finishedDuel();
    const events: StoredEvent[] = (await bundleOf(id)).events;
    const roll = events.find((e) => e.type === 'DiceRolled');
    if (!roll) return; // no even card was played: nothing to forge in this deal
    const forged = structuredClone(events);
    const at = forged.findIndex((e) => e.seq === roll.seq);
    const chance = (forged[at].payload as { chance: { values: number[] } }).chance;
    chance.values = [(chance.values[0] + 1) % 6];
    for (let i = at; i < forged.length; i++) {
      forged[i].prevHash = forged[i - 1].hash;
      forged[i].hash = eventHash(id, forged[i]);
    }
    const bundle = { ...(await bundleOf(id)), events: forged };
    const verdict = verifyBundle(t.app.get(EngineRegistry), bundle);
    expect(verdict.ok).toBe(false);
    expect(verdict.badSeq).toBeLessThanOrEqual(roll.seq);
    expect(verdict.problem).toMatch(/seed|result/);
  });

  it('keeps the bundle of a game with hidden information closed until it ends', async () => {
    const res = await t.gql(CREATE, { input: { kind: 'duel' } });
    const rest = await request(t.app.getHttpServer()).get(`/api/games/${res.data.createGame.game.id}/bundle`);
    expect(rest.status).toBe(409);
    expect(rest.body.error.code).toBe('GAME_NOT_FINISHED');
  });

  it('serves the event log as NDJSON, one verifiable event per line', async () => {
    const id = await finishedDuel();
    const res = await request(t.app.getHttpServer())
      .get(`/api/games/${id}/events`)
      .buffer(true)
      .parse((r, cb) => {
        let text = '';
        r.on('data', (c: Buffer) => (text += c));
        r.on('end', () => cb(null, text));
      });
    expect(res.headers['content-type']).toMatch(/ndjson/);
    const lines = (res.body as string)
      .trim()
      .split('\n')
      .map((l) => JSON.parse(l));
    expect(lines.map((e) => e.seq)).toEqual(lines.map((_, i) => i + 1));
    for (let i = 1; i < lines.length; i++) expect(lines[i].prevHash).toBe(lines[i - 1].hash);
  });

  it('imports a record by replaying it, and names the first illegal entry of a bad one', async () => {
    const id = await finishedDuel();
    const record = await request(t.app.getHttpServer()).get(`/api/games/${id}/record`).expect(200);
    const imported = await request(t.app.getHttpServer()).post('/api/games/import?kind=duel').set('content-type', 'text/plain').send(record.text);
    expect(imported.status).toBe(201);
    const original = (await t.gql(GAME, { id })).data.game;
    expect(imported.body.result).toEqual(original.result);
    const copy = (await t.gql(GAME, { id: imported.body.id })).data.game;
    expect(copy.fairness.randomSource).toBe('supplied');
    expect((await t.gql(VERIFY, { gameId: imported.body.id })).data.verifyGame.ok).toBe(true);

    const bad = JSON.parse(record.text);
    const firstAction = bad.entries.findIndex((e: { kind: string }) => e.kind === 'action');
    bad.entries[firstAction].action.card = 99;
    const refused = await request(t.app.getHttpServer()).post('/api/games/import?kind=duel').set('content-type', 'text/plain').send(JSON.stringify(bad));
    expect(refused.status).toBe(422);
    expect(refused.body.error).toMatchObject({ code: 'ILLEGAL_MOVE' });
    expect(refused.body.error.message).toContain(`entry ${firstAction + 1}`);
  });
});

describe("the log's head is anchored in the game row", () => {
  /** Another instance with nothing cached, as after a restart. */
  const restarted = () => new RefereeService(t.app.get(EventStore), t.app.get(EngineRegistry), new MetricsService());

  async function startedDuel() {
    const { game, tokens } = (await t.gql(CREATE, { input: { kind: 'duel', ruleset: { cards: 10, handSize: 3 } } })).data.createGame;
    const g = (await t.gql(GAME, { id: game.id })).data.game;
    const seat = g.toAct[0];
    const mine = (await t.gql(GAME, { id: game.id }, tokens[seat].token)).data.game;
    const move = await t.gql(ACT, { gameId: game.id, moveId: 'move-1', action: mine.legalActions[0] }, tokens[seat].token);
    expect(move.data.submitAction.__typename).toBe('MoveAccepted');
    return { id: game.id as string, tokens, seat: seat as number, action: mine.legalActions[0], version: move.data.submitAction.version as number };
  }

  it('catches a running game whose last event was deleted: verifyGame names it, a restarted service refuses to serve it', async () => {
    const { id, version } = await startedDuel();
    await sql('DELETE FROM events WHERE game_id = $1 AND seq = $2', id, version);
    expect((await t.gql(VERIFY, { gameId: id })).data.verifyGame).toMatchObject({ ok: false, badSeq: version, problem: expect.stringMatching(/events were removed/) });
    await expect(restarted().game(id)).rejects.toMatchObject({ code: 'INTEGRITY_ERROR' });
    expect(await restarted().verify(id)).toMatchObject({ ok: false, badSeq: version });
  });

  it('catches a finished game whose SeedRevealed was deleted, in verifyGame and in a bundle of what is stored', async () => {
    const id = await finishedDuel();
    const before = await bundleOf(id);
    const last = before.events.at(-1) as StoredEvent;
    expect(last.type).toBe('SeedRevealed');
    expect(before.head).toEqual({ seq: last.seq, hash: last.hash });
    await sql('DELETE FROM events WHERE game_id = $1 AND seq = $2', id, last.seq);
    expect((await t.gql(VERIFY, { gameId: id })).data.verifyGame).toMatchObject({ ok: false, badSeq: last.seq });
    // A bundle of what is stored, with the head the game row anchors, fails offline.
    const served = { ...before, events: await storedEvents(id) };
    expect(served.events).toHaveLength(before.events.length - 1);
    expect(verifyBundle(t.app.get(EngineRegistry), served)).toMatchObject({ ok: false, badSeq: last.seq });
    // A bundle cut short with its head moved back still claims a finished game, and fails for that.
    const cut = served.events.at(-1) as StoredEvent;
    const recut = { ...served, head: { seq: cut.seq, hash: cut.hash } };
    expect(verifyBundle(t.app.get(EngineRegistry), recut)).toMatchObject({ ok: false, problem: expect.stringMatching(/GameEnded and SeedRevealed/) });
    await expect(restarted().game(id)).rejects.toMatchObject({ code: 'INTEGRITY_ERROR' });
    expect((await restarted().verify(id)).ok).toBe(false);
  });

  it("refuses another seat's reuse of a move id, storing nothing and answering nothing of the first move", async () => {
    const { id, tokens, seat, action, version } = await startedDuel();
    const other = 1 - seat;
    const reuse = await t.gql(ACT, { gameId: id, moveId: 'move-1', action }, tokens[other].token);
    expect(reuse.data.submitAction).toMatchObject({ __typename: 'Rejection', code: 'MOVE_ID_REUSED' });
    const g = (await t.gql(GAME, { id })).data.game;
    expect(g.version).toBe(version);
    expect(g.toAct).toEqual([other]);
    // The seat that made the move still gets its original answer on a retry.
    const retry = await t.gql(ACT, { gameId: id, moveId: 'move-1', action }, tokens[seat].token);
    expect(retry.data.submitAction).toMatchObject({ __typename: 'MoveAccepted', version });
  });
});

(process.env.TEST_DATABASE_URL ? describe : describe.skip)('PostgreSQL: an event edited or deleted under a running service', () => {
  /** The game as this service answers it, once its answer is no longer `was` (each read is one more try). */
  async function answerOnceChanged(id: string, was: unknown) {
    for (let attempt = 0; attempt < 200; attempt++) {
      const res = await t.gql(GAME, { id });
      if (JSON.stringify(res.data?.game ?? null) !== JSON.stringify(was)) return res;
      await new Promise((r) => setTimeout(r, 50));
    }
    return t.gql(GAME, { id });
  }

  it('is noticed: the next reads of the game answer INTEGRITY_ERROR, not the game as it was before', async () => {
    const id = await finishedDuel();
    const was = (await t.gql(GAME, { id })).data.game;
    const victim = ((await bundleOf(id)).events as StoredEvent[]).find((e) => e.type === 'ActionTaken')!;
    // Another connection, as an operator's or an intruder's would be.
    const intruder = new pg.Client({ connectionString: (t.app.get(DatabaseService).clientConfig() as pg.ClientConfig).connectionString });
    await intruder.connect();
    try {
      await intruder.query(`UPDATE events SET payload = jsonb_set(payload, '{action,card}', '99') WHERE game_id = $1 AND seq = $2`, [id, victim.seq]);
    } finally {
      await intruder.end();
    }
    const res = await answerOnceChanged(id, was);
    expect(res.data?.game ?? null).toBeNull();
    expect(res.errors?.[0]?.extensions?.code).toBe('INTEGRITY_ERROR');
    const bundle = await request(t.app.getHttpServer()).get(`/api/games/${id}/bundle`);
    expect(bundle.body.error?.code).toBe('INTEGRITY_ERROR');
  });
});
