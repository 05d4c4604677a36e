import { randomBytes } from 'node:crypto';
import { readdirSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { join } from 'node:path';
import { follow, httpGet } from '../../src/cli/monitor.js';
import { verifyFile } from '../../src/cli/verify.js';
import { type RunningWitness, startWitness } from '../../src/cli/witness.js';
import { EngineRegistry } from '../../src/referee/core/engine-registry.js';
import { parseCheckpoint, parseSignerKey, parseVerifierKey, signedBy, signerKeyText, signingKeyOf, verifierKeyText } from '../../src/referee/core/tlog/checkpoint.js';
import { cosignedAt, cosignerKeyText, parseCosignerKey, witnessPolicy } from '../../src/referee/core/tlog/cosignature.js';
import { logSuite } from '../support/log-suite.js';
import { CREATE } from '../support/queries.js';

/**
 * Witnesses (c2sp.org/tlog-witness) on a log of its own (PGlite, or PostgreSQL with
 * TEST_DATABASE_URL): the log asks a running witness and one that is down to cosign each
 * checkpoint; the checkpoint is served with the cosignature it got; verify and the monitor
 * require the witnesses' cosignatures; the witness refuses a forked history.
 */
const ORIGIN = 'arbiter.localhost/log';
let witness: RunningWitness;
const logSigner = signerKeyText(ORIGIN, randomBytes(32));
const logKey = verifierKeyText(parseSignerKey(logSigner));
const downKey = cosignerKeyText(signingKeyOf('down.example/w', randomBytes(32)));

/** A loopback port nothing listens on: a witness that is down. */
async function closedPort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as { port: number };
  await new Promise((resolve) => server.close(resolve));
  return port;
}

const suite = logSuite(
  'tlogw',
  async (dir) => {
    witness = await startWitness({ logKeys: [logKey], stateDir: join(dir, 'witness'), name: 'w1.example/w', now: () => 1_800_000_000 });
    return {
      logSigningKey: logSigner,
      logWitnesses: [
        { url: witness.url, key: witness.verifierKey },
        { url: `http://127.0.0.1:${await closedPort()}`, key: downKey },
      ],
    };
  },
  async () => witness?.close(),
);
const { http, log, sql } = suite;
const latest = async () => parseCheckpoint((await http().get('/api/log/checkpoint').expect(200)).text);
const JOIN = 'mutation($id: ID!) { joinGame(gameId: $id) { ... on SeatJoined { token } } }';
const RESIGN = 'mutation($id: ID!) { resignGame(gameId: $id, moveId: "resign") { ... on MoveAccepted { status } } }';

async function finishedGame(): Promise<string> {
  const created = (await suite.app().gql(CREATE, { input: { kind: 'backgammon', ruleset: { matchLength: 1 }, seats: [{ name: 'Ann' }, { open: true }] } })).data.createGame;
  await suite.app().gql(JOIN, { id: created.game.id });
  expect((await suite.app().gql(RESIGN, { id: created.game.id }, created.tokens[0].token)).data.resignGame).toEqual({ status: 'FINISHED' });
  return created.game.id;
}
async function bundleFile(id: string, name: string): Promise<string> {
  const file = join(suite.dir(), `${name}.json`);
  writeFileSync(file, (await http().get(`/api/games/${id}/bundle`).expect(200)).text);
  return file;
}
const verifyWith = (file: string, witnessKeys: string[], quorum?: string) => verifyFile(file, suite.app().app.get(EngineRegistry), { logKey, witnessKeys, quorum });

describe('witnesses', () => {
  it("cosign each checkpoint: it verifies with the witness's key and fails with another; a witness that is down only lacks its cosignature", async () => {
    const id = await finishedGame();
    const step = await log().checkpointNow();
    const checkpoint = await latest();
    expect(checkpoint.size).toBe(step?.size);
    expect(signedBy(checkpoint, parseVerifierKey(logKey))).toBe(true);
    expect(cosignedAt(checkpoint, parseCosignerKey(witness.verifierKey))).toBe(1_800_000_000);
    expect(cosignedAt(checkpoint, parseCosignerKey(downKey))).toBeNull();
    const stranger = cosignerKeyText(signingKeyOf('w1.example/w', randomBytes(32)));
    expect(cosignedAt(checkpoint, parseCosignerKey(stranger))).toBeNull();

    const file = await bundleFile(id, 'cosigned');
    expect(verifyWith(file, [witness.verifierKey])).toMatchObject({ ok: true, summary: expect.stringContaining('cosigned by w1.example/w (1 required)') });
    expect(verifyWith(file, [stranger])).toMatchObject({ ok: false, problem: expect.stringMatching(/cosigned by 0 of the 1 witnesses given, 1 required \(no valid cosignature of w1.example\/w\)/) });
    expect(verifyWith(file, [witness.verifierKey, downKey])).toMatchObject({
      ok: false,
      problem: expect.stringMatching(/1 of the 2 witnesses given, 2 required \(no valid cosignature of down.example\/w\)/),
    });
    expect(verifyWith(file, [witness.verifierKey, downKey], '1')).toMatchObject({ ok: true });

    const get = httpGet(suite.app().url);
    expect(await follow(get, parseVerifierKey(logKey), null, witnessPolicy([witness.verifierKey]))).toMatchObject({ kind: 'first' });
    expect(await follow(get, parseVerifierKey(logKey), null, witnessPolicy([downKey]))).toMatchObject({
      kind: 'refused',
      reason: expect.stringMatching(/^the log's checkpoint \(size \d+\) is cosigned by 0 of the 1 witnesses/),
    });
  });

  it('a witness asked again after a checkpoint it missed is sent the consistency proof from the size it cosigned', async () => {
    const before = (await latest()).size;
    await finishedGame();
    // The log forgets what the witness cosigned: the witness answers 409 with its size, and the log proves from there.
    await sql('DELETE FROM log_cosignatures');
    await log().checkpointNow();
    const after = await latest();
    expect(after.size).toBeGreaterThan(before);
    expect(cosignedAt(after, parseCosignerKey(witness.verifierKey))).not.toBeNull();
  });

  it('refuses to cosign a forked history: the forked checkpoint is signed by the log, but not cosigned, and verify says so', async () => {
    await finishedGame();
    await log().checkpointNow();
    const cosigned = await latest();
    expect(cosignedAt(cosigned, parseCosignerKey(witness.verifierKey))).not.toBeNull();
    // The operator rebuilds the tree without one game, and grows it past the witness's size.
    await sql('DELETE FROM log_checkpoints');
    await sql('DELETE FROM log_nodes');
    await sql("UPDATE log_tree SET size = 0, root = '\\xe3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855'::bytea");
    await sql('UPDATE log_entries SET leaf_index = NULL');
    await sql('DELETE FROM log_entries WHERE id = (SELECT min(id) FROM log_entries)');
    const id = await finishedGame();
    await finishedGame();
    await log().checkpointNow();
    const forked = await latest();
    expect(forked.size).toBeGreaterThanOrEqual(cosigned.size);
    expect(signedBy(forked, parseVerifierKey(logKey))).toBe(true);
    expect(cosignedAt(forked, parseCosignerKey(witness.verifierKey))).toBeNull();
    expect(verifyWith(await bundleFile(id, 'forked'), [witness.verifierKey])).toMatchObject({ ok: false, problem: expect.stringMatching(/cosigned by 0 of the 1 witnesses given/) });
    // The witness kept the log's signed fork as evidence.
    expect(readdirSync(join(suite.dir(), 'witness', 'refused')).length).toBeGreaterThan(0);
  });
});
