import type { Bundle } from '../../src/referee/core/audit.js';
import { type BundleLog, bundleEntry, checkBundleLog } from '../../src/referee/core/tlog/bundle-log.js';
import { parseVerifierKey, signCheckpoint, signingKeyOf, verifierKeyText } from '../../src/referee/core/tlog/checkpoint.js';
import { entryLeafHash } from '../../src/referee/core/tlog/log-entry.js';
import { appendLeaves, hashRanges, inclusionRanges } from '../../src/referee/core/tlog/merkle.js';
import type { StoredEvent } from '../../src/referee/core/stream.js';
import type { TournamentBundle } from '../../src/referee/core/tournament/audit.js';

/**
 * A tournament's bundle is in the log when its own entry is and every game bundle nested in it
 * is too, each by its own proof against its own checkpoint: the log check reads only the
 * bundles' final heads and results, so these bundles carry no more than that.
 */
const KEY = signingKeyOf('arbiter.test/log', Buffer.alloc(32, 1));
const VERIFIER = parseVerifierKey(verifierKeyText(KEY));

const event = (seq: number, type: string, payload: Record<string, unknown> = {}): StoredEvent =>
  ({ seq, type, actor: null, moveId: null, bodyHash: null, payload, createdAt: '2026-12-07T00:00:00.000Z', prevHash: '', hash: `${type}-${seq}`.padEnd(64, '0') }) as StoredEvent;

const game = (id: string): Bundle =>
  ({ format: 'arbiter-bundle/1', game: { id, status: 'FINISHED', result: { winner: 0 } }, events: [event(1, 'GameCreated'), event(2, 'GameFinished')] }) as unknown as Bundle;

/** A finished tournament of three games, each bundle with its proof, in a log of the four entries (and one other game's). */
function logged(): TournamentBundle & { log: BundleLog } {
  const games = ['g-1', 'g-2', 'g-3'].map(game);
  const tournament = {
    format: 'arbiter-tournament-bundle/1',
    tournament: { id: 't-1', status: 'FINISHED' },
    events: [event(1, 'TournamentCreated'), event(2, 'TournamentFinished', { seed: 'ab', ranking: [{ participantId: 'p-1', rank: 1 }] })],
    games,
  } as unknown as TournamentBundle;
  const streams = [game('g-0'), ...games, tournament];
  const tree = appendLeaves(
    0,
    [],
    streams.map((b) => entryLeafHash(bundleEntry(b))),
  );
  const checkpoint = signCheckpoint({ origin: 'arbiter.test/log', size: tree.size, root: tree.root }, KEY);
  const proof = (leafIndex: number): BundleLog => ({
    leafIndex,
    treeSize: tree.size,
    inclusionProof: hashRanges(inclusionRanges(leafIndex, tree.size), tree.nodes).map((h) => h.toString('base64')),
    checkpoint,
  });
  return { ...tournament, games: games.map((g, i) => ({ ...g, log: proof(i + 1) })), log: proof(4) };
}

describe("a tournament bundle's log check (verify --log-key)", () => {
  it("verifies the tournament's entry and each nested game's by its own proof", () => {
    const verdict = checkBundleLog(logged(), VERIFIER);
    expect(verdict).toMatchObject({ ok: true, problem: null });
    expect(verdict.text).toMatch(/^in the transparency log at leaf 4 of checkpoint 5 \(arbiter\.test\/log; signed by arbiter\.test\/log\); 3 of its 3 games by their own proofs too$/);
  });

  it('fails on one nested game whose proof was altered, naming that game', () => {
    const bundle = logged();
    const altered = bundle.games[1] as Bundle & { log: BundleLog };
    altered.log.inclusionProof[0] = Buffer.alloc(32, 7).toString('base64');
    expect(checkBundleLog(bundle, VERIFIER)).toMatchObject({ ok: false, problem: expect.stringMatching(/^its game g-2: the log's checkpoint 5 does not hold this game's final head/) });
    // Without a key the proofs are still checked: the altered one still fails.
    expect(checkBundleLog(bundle, null)).toMatchObject({ ok: false, problem: expect.stringMatching(/^its game g-2:/) });
  });

  it('fails on a nested game whose result was changed after it was logged, or whose proof is gone, or whose checkpoint another key signed', () => {
    const changed = logged();
    (changed.games[0].game as { result: unknown }).result = { winner: 1 };
    expect(checkBundleLog(changed, VERIFIER)).toMatchObject({ ok: false, problem: expect.stringMatching(/^its game g-1: the log's checkpoint/) });

    const stripped = logged();
    delete (stripped.games[2] as Bundle & { log?: BundleLog }).log;
    expect(checkBundleLog(stripped, VERIFIER)).toMatchObject({ ok: false, problem: expect.stringMatching(/^its game g-3: the bundle carries no proof/) });
    // Without a key a bundle without proofs passes unchecked, as a game's own bundle does.
    expect(checkBundleLog(stripped, null)).toMatchObject({ ok: true, text: expect.stringMatching(/2 of its 3 games by their own proofs too$/) });

    const forged = logged();
    const other = signingKeyOf('arbiter.test/log', Buffer.alloc(32, 2));
    const log = (forged.games[0] as Bundle & { log: BundleLog }).log;
    log.checkpoint = signCheckpoint({ origin: 'arbiter.test/log', size: log.treeSize, root: Buffer.alloc(32) }, other);
    expect(checkBundleLog(forged, VERIFIER)).toMatchObject({ ok: false, problem: expect.stringMatching(/^its game g-1: its checkpoint \(size 5\) is not signed by the log key/) });
  });
});
