import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { verifyFile } from '../../src/cli/verify.js';
import { CONFIG, type Config } from '../../src/config/config.js';
import { DatabaseService } from '../../src/database/database.service.js';
import { EngineRegistry } from '../../src/referee/core/engine-registry.js';
import { TournamentService } from '../../src/referee/index.js';
import { CheckpointWorker } from '../../src/transparency/checkpoint-worker.js';
import { LogStore } from '../../src/transparency/log-store.js';
import { logSuite } from '../support/log-suite.js';
import { move } from '../support/duels.js';
import { swissOfTwo } from '../support/instances.js';
import { CREATE } from '../support/queries.js';

/**
 * Running heads in the transparency log, on a database of its own (PGlite, or PostgreSQL with
 * TEST_DATABASE_URL): at each checkpoint the head of every running game and tournament that moved
 * since its last leaf becomes a leaf, once per head even with two sequencers; a finished stream
 * keeps exactly one final leaf; a running game's bundle carries its latest running head, checked
 * by verify.
 */
const suite = logSuite('tlogr');
const { http, log, rows } = suite;
const JOIN = 'mutation($id: ID!) { joinGame(gameId: $id) { ... on SeatJoined { token } } }';
const RESIGN = 'mutation($id: ID!) { resignGame(gameId: $id, moveId: "resign") { ... on MoveAccepted { status } } }';

/** A 1-point backgammon match, both seats taken: its id and the seats' tokens. */
async function startedGame(): Promise<{ id: string; tokens: string[] }> {
  const created = (await suite.app().gql(CREATE, { input: { kind: 'backgammon', ruleset: { matchLength: 1 }, seats: [{ name: 'Ann' }, { open: true }] } })).data.createGame;
  const joined = (await suite.app().gql(JOIN, { id: created.game.id })).data.joinGame;
  return { id: created.game.id, tokens: [created.tokens[0].token, joined.token] };
}
const entries = (id: string) => rows<{ kind: string; seq: number; leaf: string | null }>('SELECT kind, seq, leaf_index::text AS leaf FROM log_entries WHERE stream_id = $1 ORDER BY id', id);
const version = async (id: string) => (await rows<{ version: number }>('SELECT version FROM games WHERE id = $1', id))[0].version;

describe('running heads', () => {
  it('logs the head of every running game and tournament that moved since its last leaf, once per head; a finished game keeps one final leaf', async () => {
    const game = await startedGame();
    const tournament = await swissOfTwo({ tournaments: suite.app().app.get(TournamentService) }, { kind: 'backgammon', ruleset: { matchLength: 1 } });
    await log().checkpointNow();
    expect(await entries(game.id)).toEqual([{ kind: 'running-game', seq: await version(game.id), leaf: expect.any(String) }]);
    expect((await entries(tournament.id)).map((e) => e.kind)).toEqual(['running-tournament']);
    // Nothing moved: no leaf, no checkpoint.
    expect((await log().checkpointNow())?.checkpoint).toBeNull();
    expect(await entries(game.id)).toHaveLength(1);

    await move(suite.app().gql, game.id, game.tokens);
    await log().checkpointNow();
    expect((await entries(game.id)).map((e) => [e.kind, e.seq])).toEqual([
      ['running-game', expect.any(Number)],
      ['running-game', await version(game.id)],
    ]);

    expect((await suite.app().gql(RESIGN, { id: game.id }, game.tokens[0])).data.resignGame).toEqual({ status: 'FINISHED' });
    await log().checkpointNow();
    await log().checkpointNow();
    const after = await entries(game.id);
    expect(after.filter((e) => e.kind === 'game')).toEqual([{ kind: 'game', seq: await version(game.id), leaf: expect.any(String) }]);
    expect(after.filter((e) => e.kind === 'running-game')).toHaveLength(2);
  });

  it('two sequencers at once log each head once, at consecutive leaves', async () => {
    const games = [await startedGame(), await startedGame(), await startedGame()];
    const config = suite.app().app.get<Config>(CONFIG);
    const other = new CheckpointWorker(new LogStore(suite.app().app.get(DatabaseService)), log().key, config.logOrigin, 3_600_000);
    for (let i = 0; i < 2; i++) {
      await Promise.all([log().checkpointNow(), other.tick(), move(suite.app().gql, games[i].id, games[i].tokens).then(() => other.tick()), log().checkpointNow()]);
    }
    await log().checkpointNow();
    const [tree] = await rows<{ size: string; entries: number; heads: number; top: string }>(
      'SELECT (SELECT size FROM log_tree)::text AS size, count(leaf_index)::int AS entries, count(DISTINCT (kind, stream_id, seq))::int AS heads, max(leaf_index)::text AS top FROM log_entries',
    );
    expect(tree).toEqual({ size: String(tree.entries), entries: tree.entries, heads: tree.entries, top: String(tree.entries - 1) });
    for (const g of games) expect((await entries(g.id)).at(-1)).toMatchObject({ kind: 'running-game', seq: await version(g.id) });
  });

  it("a running game's bundle carries its latest logged head and its proof; verify checks the bundle passes through it", async () => {
    const game = await startedGame();
    await move(suite.app().gql, game.id, game.tokens);
    await log().checkpointNow();
    const logged = await version(game.id);
    await move(suite.app().gql, game.id, game.tokens);
    const key = (await http().get('/api/log/key').expect(200)).text.trim();
    const bundle = JSON.parse((await http().get(`/api/games/${game.id}/bundle`).expect(200)).text);
    expect(bundle.events.at(-1).seq).toBeGreaterThan(logged);
    expect(bundle.log).toMatchObject({ seq: logged, leafIndex: expect.any(Number) });
    const file = join(suite.dir(), 'running.json');
    writeFileSync(file, JSON.stringify(bundle));
    const verify = () => verifyFile(file, suite.app().app.get(EngineRegistry), { logKey: key });
    expect(verify()).toMatchObject({ ok: true, summary: expect.stringContaining(`its running head at seq ${logged} is in the transparency log at leaf ${bundle.log.leafIndex}`) });

    // The proof of another head, or of a head the bundle does not hold, fails.
    writeFileSync(file, JSON.stringify({ ...bundle, log: { ...bundle.log, seq: logged - 1 } }));
    expect(verify()).toMatchObject({ ok: false, problem: expect.stringMatching(new RegExp(`does not hold this game's running head \\(seq ${logged - 1},`)) });
    writeFileSync(file, JSON.stringify({ ...bundle, log: { ...bundle.log, seq: logged + 50 } }));
    expect(verify()).toMatchObject({ ok: false, problem: expect.stringMatching(/has no event at seq/) });
  });
});
