import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { RefereeService } from '../../src/referee/application/referee.service.js';
import { InThreadRecordParser } from '../../src/referee/application/record-parser.js';
import type { Bundle } from '../../src/referee/core/audit.js';
import { replayEntries } from '../../src/referee/core/game/views.js';
import { WorkerRecordParser } from '../../src/workers/record-parser.js';
import { type LongRecord, longRecord } from '../../tools/long-records.js';
import { startApp, type TestApp } from '../support/app.js';

/** Long folds and long records are worked through in slices or off the event loop: other requests go on meanwhile. */
let t: TestApp;
let referee: RefereeService;
const fixture = (kind: string): Bundle => JSON.parse(readFileSync(resolve(import.meta.dirname, '../fixtures/bundles', `${kind}.bundle.json`), 'utf8'));
const recordOf = (bundle: Bundle) => {
  const engine = referee.registry.get(bundle.game.kind)!;
  return engine.exportRecord!(
    bundle.game.ruleset,
    replayEntries(bundle.events),
    bundle.game.seats.map((s) => s.name ?? `Seat ${s.index + 1}`),
  );
};

beforeAll(async () => {
  t = await startApp();
  referee = t.app.get(RefereeService);
}, 120_000);
afterAll(async () => {
  await t?.close();
});

describe('long work does not hold up other requests', () => {
  it('answers a move while thirty verifications of a 2,000-event game are under way', async () => {
    const long = await referee.importRecord('backgammon', recordOf(fixture('backgammon')));
    expect(long.game.version).toBeGreaterThan(2000);
    const duel = await referee.createGame({ kind: 'duel' });
    const seat = duel.game.engine.toAct(duel.game.state)[0];
    const card = (referee.answer(duel.game, seat).legalActions[0] as { card: number }).card;
    const finished: string[] = [];
    const verifications = Array.from({ length: 30 }, () => referee.verify(long.game.gameId).then((v) => finished.push(v.ok ? 'verified' : 'FAILED')));
    const move = referee.act(duel.game.gameId, duel.tokens[seat].token, 'during', { type: 'play', card }).then((r) => finished.push(r.accepted ? 'move' : 'refused'));
    await Promise.all([...verifications, move]);
    expect(finished[0]).toBe('move');
    expect(finished.filter((f) => f === 'verified')).toHaveLength(30);
  }, 300_000);

  it('parses a record on its own thread, giving the same entries as the engine in this thread', async () => {
    const script = new URL('../../dist/src/workers/record-parser.worker.js', import.meta.url);
    const parser = new WorkerRecordParser(script);
    try {
      const engine = referee.registry.get('backgammon')!;
      const text = recordOf(fixture('backgammon'));
      let turned = false;
      const parsing = parser.parse(engine, text);
      setImmediate(() => (turned = true));
      const parsed = await parsing;
      // The event loop turned while the record was parsed elsewhere.
      expect(turned).toBe(true);
      expect(parsed).toEqual(await new InThreadRecordParser().parse(engine, text));
      // A long record's entries come back in several parts, put together in order.
      const long = longRecord(engine, 100_000).text;
      const parsedLong = await parser.parse(engine, long);
      expect(parsedLong.ok && parsedLong.value.entries.length).toBeGreaterThan(4096);
      expect(parsedLong).toEqual(await new InThreadRecordParser().parse(engine, long));
      // A game the worker does not ship (the test-only duel) is parsed here.
      const duel = referee.registry.get('duel')!;
      expect((await parser.parse(duel, JSON.stringify({ ruleset: {}, entries: [] }))).ok).toBe(true);
    } finally {
      await parser.onModuleDestroy();
    }
  }, 120_000);

  describe('a long record (a backgammon match of some 20,000 events) is imported while /healthz answers', () => {
    let record: LongRecord;
    beforeAll(() => {
      record = longRecord(referee.registry.get('backgammon')!, 200_000);
    }, 120_000);

    /** Runs `work` while /healthz is asked one request after another; answers how many answered before the work ended. */
    async function healthzDuring<T>(work: Promise<T>): Promise<{ value: T; answered: number }> {
      let done = false;
      let answered = 0;
      const polling = (async () => {
        while (!done) {
          const res = await fetch(`${t.url}/healthz`);
          if (!done && res.ok) answered++;
        }
      })();
      try {
        return { value: await work, answered };
      } finally {
        done = true;
        await polling;
      }
    }

    it('answers /healthz while importGame stores the record', async () => {
      const importing = t.gql('mutation($kind: String!, $record: String!) { importGame(kind: $kind, record: $record) { ... on GameCreated { game { version } } ... on Rejection { code } } }', {
        kind: 'backgammon',
        record: record.text,
      });
      const { value, answered } = await healthzDuring(importing);
      expect(value.data.importGame.game.version).toBeGreaterThan(10_000);
      expect(answered).toBeGreaterThan(0);
    }, 300_000);

    it("answers /healthz while an organizer's result with the record is entered, and records it", async () => {
      const org = (
        await t.gql(
          'mutation($input: CreateTournamentInput!) { createTournament(input: $input) { __typename ... on TournamentCreated { organizerToken tournament { id } } ... on Rejection { code message } } }',
          {
            input: { name: 'Long night', kind: 'backgammon', ruleset: record.ruleset, format: 'SWISS', rounds: 1 },
          },
        )
      ).data.createTournament;
      const id = org.tournament.id;
      for (const name of ['Ann', 'Bob'])
        await t.gql(
          'mutation($id: ID!, $name: String!) { registerParticipant(tournamentId: $id, name: $name) { __typename ... on ParticipantRegistered { participantId } ... on Rejection { code message } } }',
          { id, name },
          org.organizerToken,
        );
      const paired = await t.gql(
        'mutation($id: ID!) { pairRound(tournamentId: $id, round: 1) { __typename ... on Tournament { rounds { boards { board } } } ... on Rejection { code message } } }',
        { id },
        org.organizerToken,
      );
      const [{ board }] = paired.data.pairRound.rounds[0].boards;

      const entering = t.gql(
        'mutation($id: ID!, $input: ResultInput!) { recordResult(tournamentId: $id, input: $input) { __typename ... on Tournament { status } ... on Rejection { code message } } }',
        { id, input: { round: 1, board, record: record.text } },
        org.organizerToken,
      );
      const { value, answered } = await healthzDuring(entering);
      expect(value.errors).toBeUndefined();
      expect(value.data.recordResult.status).toBe('FINISHED');
      expect(answered).toBeGreaterThan(0);
    }, 300_000);
  });
});
