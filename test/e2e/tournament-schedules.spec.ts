import request from 'supertest';
import { TournamentService } from '../../src/referee/application/tournament.service.js';
import type { TestApp } from '../support/app.js';
import { playOutBackgammon } from '../support/bots.js';
import { ManualClock, startAppWithClock } from '../support/clock.js';
import { ownStorage } from '../support/own-database.js';
import { verifiedBundle } from '../support/tournament-bundles.js';

/**
 * Tournaments that run themselves (docs/rules/tournaments.md §P2.9-P2.11), end to end over the
 * API: after creation and registration nobody organizes. Time is a clock moved by hand, and the
 * referee's schedules are ticked once it is moved; a round's end pairs the next by itself (a
 * workflow). On PostgreSQL the suite has a database of its own: its clock runs hours ahead.
 */
const clock = new ManualClock(new Date('2026-12-01T08:00:00.000Z'));
let storage: Awaited<ReturnType<typeof ownStorage>>;
let t: TestApp;

beforeAll(async () => {
  storage = await ownStorage('tournament_schedules');
  t = await startAppWithClock(clock, storage.settings);
}, 120_000);
afterAll(async () => {
  await t?.close();
  await storage?.drop();
}, 120_000);

const MINUTE = 60_000;
const schedules = () => t.app.get(TournamentService).schedules;

const SCHEDULE = 'schedule { startAt registrationOpensAt registrationClosesAt registration checkInOpensAt checkIn checkedIn autoPair pairingIntervalSeconds nextRound nextStepAt }';
const ROUNDS = 'rounds { round complete byes { id } boards { board seats { id } winner { id } games { gameId seats { id } result { source kinds } } } }';
const CREATE = `mutation($input: CreateTournamentInput!) { createTournament(input: $input) { __typename ... on TournamentCreated { organizerToken tournament { id ${SCHEDULE} } } ... on Rejection { code message } } }`;
const REGISTER = `mutation($id: ID!, $name: String!) { registerParticipant(tournamentId: $id, name: $name) { __typename ... on ParticipantRegistered { participantId participantToken } ... on Rejection { code message } } }`;
const CHECK_IN = `mutation($id: ID!, $p: ID!) { checkIn(tournamentId: $id, participantId: $p) { __typename ... on Tournament { ${SCHEDULE} } ... on Rejection { code message } } }`;
const TOURNAMENT = `query($id: ID!) { tournament(id: $id) { status completedRounds totalRounds participants { id withdrawnAfterRound } ${SCHEDULE} ${ROUNDS}
  standings { rank participantId tp } events { nodes { seq type actor payload } } } }`;

interface Round {
  round: number;
  complete: boolean;
  byes: { id: string }[];
  boards: { board: number; seats: { id: string }[]; winner: { id: string } | null; games: { gameId: string; seats: { id: string }[]; result: { source: string; kinds: string[] } | null }[] }[];
}
interface Tournament {
  status: string;
  completedRounds: number;
  totalRounds: number | null;
  participants: { id: string; withdrawnAfterRound: number | null }[];
  schedule: { registration: string; checkIn: string; checkedIn: string[]; nextRound: number | null; nextStepAt: string | null; autoPair: boolean };
  rounds: Round[];
  standings: { rank: number; participantId: string; tp: string }[];
  events: { nodes: { seq: number; type: string; actor: number | null; payload: Record<string, any> }[] };
}

async function gql<T = any>(query: string, variables: Record<string, unknown>, token?: string): Promise<T> {
  const res = await t.gql(query, variables, token);
  if (res.errors) throw new Error(`${res.errors[0].extensions?.code}: ${res.errors[0].message}`);
  return res.data;
}

const read = async (id: string): Promise<Tournament> => (await gql(TOURNAMENT, { id })).tournament;

/** Registers each name itself (open registration, no token): the participants' ids and tokens. */
async function registerAll(id: string, names: string[]): Promise<Map<string, string>> {
  const tokens = new Map<string, string>();
  for (const name of names) {
    const r = (await gql(REGISTER, { id, name })).registerParticipant;
    expect(r.__typename).toBe('ParticipantRegistered');
    tokens.set(r.participantId, r.participantToken);
  }
  return tokens;
}

/** Bots play a game to its end through the API, each seat with its participant's token (the loser, when given, resigns). */
const playOut = (gameId: string, seats: string[], tokens: Map<string, string>, seed: number, loser?: string) => playOutBackgammon(t.url, gameId, seats, tokens, seed, loser);

/**
 * The tournament once `done` holds for it. The steps after a game's end are the service's own
 * (its result, then the next round's pairing): this waits for them, not for a time.
 */
async function once(id: string, done: (s: Tournament) => boolean, what: string): Promise<Tournament> {
  for (let i = 0; i < 2000; i++) {
    const s = await read(id);
    if (done(s)) return s;
    await new Promise((r) => setTimeout(r, 25));
  }
  throw new Error(`tournament ${id}: ${what} did not happen`);
}

/** Every game of the tournament's current round played out by bots, all at once; `loser` decides a board's games. */
async function playRound(round: Round, tokens: Map<string, string>, seed: number, loser: (board: Round['boards'][number]) => string | undefined = () => undefined): Promise<void> {
  await Promise.all(
    round.boards.flatMap((b, i) =>
      b.games.map((g) =>
        playOut(
          g.gameId,
          g.seats.map((s) => s.id),
          tokens,
          seed + i,
          loser(b),
        ),
      ),
    ),
  );
}

describe('a correspondence Swiss that runs itself', () => {
  it('opens check-in, withdraws who did not check in, starts on time, pairs each round as the last ends, and finishes; the bundle verifies', async () => {
    const now = clock.now().getTime();
    const startAt = new Date(now + 3 * 60 * MINUTE).toISOString();
    const created = (
      await gql(CREATE, {
        input: {
          name: 'Winter correspondence Swiss',
          kind: 'backgammon',
          ruleset: { matchLength: 1 },
          format: 'SWISS',
          rounds: 3,
          openRegistration: true,
          timeControl: { kind: 'CORRESPONDENCE', perMoveSeconds: 86_400, bankCapSeconds: 3 * 86_400 },
          schedule: { startAt, registrationClosesAt: startAt, checkInMinutes: 60, autoPair: true },
        },
      })
    ).createTournament;
    expect(created.__typename).toBe('TournamentCreated');
    const id: string = created.tournament.id;
    expect(created.tournament.schedule).toMatchObject({ startAt, registration: 'OPEN', checkIn: 'PENDING', autoPair: true, nextStepAt: new Date(now + 2 * 60 * MINUTE).toISOString() });
    const tokens = await registerAll(id, ['Ann', 'Bob', 'Cid', 'Dee', 'Eve', 'Fay', 'Gus']);
    const ids = [...tokens.keys()];

    // Nobody checks in before check-in opens.
    expect((await gql(CHECK_IN, { id, p: ids[0] }, tokens.get(ids[0]))).checkIn).toMatchObject({ code: 'CHECK_IN_CLOSED' });
    clock.advance(2 * 60 * MINUTE);
    await schedules().tick();
    expect((await read(id)).schedule.checkIn).toBe('OPEN');
    // Six check in with their own tokens; Gus does not.
    for (const p of ids.slice(0, 6)) expect((await gql(CHECK_IN, { id, p }, tokens.get(p))).checkIn.__typename).toBe('Tournament');
    expect((await gql(CHECK_IN, { id, p: ids[0] }, tokens.get(ids[0]))).checkIn).toMatchObject({ code: 'ALREADY_CHECKED_IN' });

    // The start: check-in closes, Gus is withdrawn before round 1, and round 1 is paired.
    clock.advance(60 * MINUTE);
    await schedules().tick();
    let s = await once(id, (x) => x.rounds.length === 1, 'round 1');
    expect(s.participants.find((p) => p.id === ids[6])!.withdrawnAfterRound).toBe(0);
    expect(s.schedule).toMatchObject({ registration: 'CLOSED', checkIn: 'CLOSED' });
    expect((await gql(REGISTER, { id, name: 'Hal' })).registerParticipant).toMatchObject({ code: 'REGISTRATION_CLOSED' });

    // Each round's games end; the next round is paired by itself, and the last result finishes the tournament.
    for (let r = 1; r <= 3; r++) {
      const round = s.rounds[r - 1];
      expect(round.boards).toHaveLength(3);
      expect(round.boards.flatMap((b) => b.seats.map((x) => x.id))).not.toContain(ids[6]);
      await playRound(round, tokens, 100 * r);
      s = await once(id, (x) => (r < 3 ? x.rounds.length === r + 1 : x.status === 'FINISHED'), r < 3 ? `round ${r + 1}` : 'the finish');
    }
    expect(s.completedRounds).toBe(3);
    expect(s.standings).toHaveLength(7);
    const types = s.events.nodes.map((e) => e.type);
    expect(types.filter((x) => x === 'ParticipantCheckedIn')).toHaveLength(6);
    expect(types.filter((x) => x === 'RoundScheduled')).toHaveLength(2);
    expect(s.events.nodes.filter((e) => ['CheckInOpened', 'CheckInClosed', 'RoundPaired'].includes(e.type)).map((e) => e.actor)).toEqual([null, null, null, null, null]);
    expect(s.events.nodes.find((e) => e.type === 'CheckInClosed')!.payload).toEqual({ unconfirmed: [ids[6]] });

    const verdict = await verifiedBundle(t, id);
    expect(verdict.summary).toMatch(/finished/);
    expect(verdict.ok).toBe(true);
  }, 300_000);
});

describe('a double round-robin scheduled at once', () => {
  it('creates every game of every round at the start, counts each in its round, and finishes when the last one ends; the bundle verifies', async () => {
    const startAt = new Date(clock.now().getTime() + 30 * MINUTE).toISOString();
    const created = (
      await gql(CREATE, {
        input: { name: 'Correspondence league', kind: 'backgammon', ruleset: { matchLength: 1 }, format: 'DOUBLE_ROUND_ROBIN', openRegistration: true, schedule: { startAt, scheduleAll: true } },
      })
    ).createTournament;
    expect(created.__typename).toBe('TournamentCreated');
    const id: string = created.tournament.id;
    const tokens = await registerAll(id, ['Ann', 'Bob', 'Cid', 'Dee']);
    clock.advance(30 * MINUTE);
    await schedules().tick();
    const s = await once(id, (x) => x.rounds.length > 0, 'the start');
    // 4 participants: 3 rounds each way, 2 games a round, all at once.
    expect(s.totalRounds).toBe(6);
    expect(s.rounds).toHaveLength(6);
    const games = s.rounds.flatMap((r) => r.boards.flatMap((b) => b.games));
    expect(games).toHaveLength(12);
    expect(new Set(games.map((g) => [...g.seats.map((x) => x.id)].sort().join())).size).toBe(6);
    // Every game played at once, in no round order.
    await Promise.all(
      games.map((g, i) =>
        playOut(
          g.gameId,
          g.seats.map((x) => x.id),
          tokens,
          500 + i,
        ),
      ),
    );
    const final = await once(id, (x) => x.status === 'FINISHED', 'the finish');
    expect(final.completedRounds).toBe(6);
    expect(final.standings).toHaveLength(4);
    // Each participant played 6 games (one a round): its points are its wins.
    const points = final.standings.reduce((sum, r) => sum + Number(r.tp), 0);
    expect(points).toBe(12);
    const verdict = await verifiedBundle(t, id);
    expect(verdict.summary).toMatch(/finished/);
    expect(verdict.ok).toBe(true);
  }, 300_000);
});

/**
 * A bracket event that starts at its time and pairs itself (P2.9, P2.11): created with open
 * registration, registered into by the participants themselves (no organizer's token is ever
 * used), started by the clock. Answers it with round 1 paired and the participants' tokens.
 */
async function startedByItself(input: Record<string, unknown>, names: string[]): Promise<{ id: string; tokens: Map<string, string>; s: Tournament }> {
  const startAt = new Date(clock.now().getTime() + 30 * MINUTE).toISOString();
  const created = (await gql(CREATE, { input: { kind: 'backgammon', ruleset: { matchLength: 1 }, openRegistration: true, schedule: { startAt, autoPair: true }, ...input } })).createTournament;
  expect(created.__typename).toBe('TournamentCreated');
  const id: string = created.tournament.id;
  const tokens = await registerAll(id, names);
  clock.advance(30 * MINUTE);
  await schedules().tick();
  return { id, tokens, s: await once(id, (x) => x.rounds.length > 0, 'the start') };
}

/**
 * Bots play each round as it is paired, `loser` deciding the boards it names, until the event
 * finishes by itself; answers it finished. Rounds of byes only are over as they are paired.
 */
async function playToTheEnd(id: string, tokens: Map<string, string>, first: Tournament, loser: (round: number, board: Round['boards'][number]) => string | undefined): Promise<Tournament> {
  let s = first;
  for (let r = 1; s.status !== 'FINISHED'; r++) {
    if (r > 12) throw new Error(`tournament ${id} did not end`);
    await playRound(s.rounds[r - 1], tokens, 1_000 + 100 * r, (b) => loser(r, b));
    s = await once(id, (x) => x.status === 'FINISHED' || x.rounds.length > r, `round ${r + 1}`);
  }
  // Nobody organized: every round was paired by the referee (actor null), none by the organizer.
  expect(s.events.nodes.filter((e) => e.type === 'RoundPaired').map((e) => e.actor)).toEqual(s.rounds.map(() => null));
  return s;
}

const ranks = (s: Tournament) => s.standings.map((r) => r.rank).sort((a, b) => a - b);

describe('bracket formats that run themselves', () => {
  it('a double elimination of 6 played by bots: the WB champion loses the first grand final, the reset is paired and played, and the event ends with K6.10 placings; the bundle verifies', async () => {
    const { id, tokens, s } = await startedByItself({ name: 'Double elimination by itself', format: 'DOUBLE_ELIMINATION' }, ['Ann', 'Bob', 'Cid', 'Dee', 'Eve', 'Fay']);
    // S = 8, k = 3 (K6.10): WB rounds 1-3 with LB rounds 1-4 alongside, the grand final round 6, the reset round 7.
    expect(s.totalRounds).toBe(7);
    // The grand final's seat 0 is the WB champion (K6.10): it resigns, so the LB champion wins and the bracket is reset.
    const final = await playToTheEnd(id, tokens, s, (round, board) => (round === 6 ? board.seats[0].id : undefined));
    expect(final.rounds).toHaveLength(7);
    const [first, reset] = [final.rounds[5].boards, final.rounds[6].boards];
    expect(first).toHaveLength(1);
    expect(first[0].winner!.id).toBe(first[0].seats[1].id);
    expect(reset.map((b) => b.seats.map((x) => x.id).sort())).toEqual([first[0].seats.map((x) => x.id).sort()]);
    // K6.10 with S = 8 and 6 entrants: the reset's winner 1st, its loser 2nd, LB4's loser 3rd, LB3's 4th, LB2's two 5th.
    expect(ranks(final)).toEqual([1, 2, 3, 4, 5, 5]);
    expect(final.standings.find((r) => r.rank === 1)!.participantId).toBe(reset[0].winner!.id);
    expect((await verifiedBundle(t, id)).ok).toBe(true);
  }, 300_000);

  it('a group stage of 8 in 2 groups feeds a knockout with a third-place match, played by bots round after round; the bundle verifies', async () => {
    const names = ['Ann', 'Bob', 'Cid', 'Dee', 'Eve', 'Fay', 'Gus', 'Hal'];
    const input = { name: 'Groups and cup by itself', format: 'GROUPS_KNOCKOUT', groupCount: 2, advancePerGroup: 2, thirdPlaceMatch: true };
    const { id, tokens, s } = await startedByItself(input, names);
    // K6.12: rounds 1-3 the groups' round-robins side by side, round 4 the semi-finals, round 5 the final and the third-place match.
    expect(s.totalRounds).toBe(5);
    const final = await playToTheEnd(id, tokens, s, () => undefined);
    expect(final.rounds.map((r) => r.boards.length)).toEqual([4, 4, 4, 2, 2]);
    const [semis, last] = [final.rounds[3].boards, final.rounds[4].boards];
    const winners = semis.map((b) => b.winner!.id);
    const losers = semis.map((b) => b.seats.map((x) => x.id).find((x) => !winners.includes(x)));
    // K6.11: board 1 the final between the semi-finals' winners, board 2 the third-place match between their losers.
    expect(last.map((b) => b.seats.map((x) => x.id).sort())).toEqual([winners.sort(), losers.sort()]);
    const place = (rank: number) => final.standings.filter((r) => r.rank === rank).map((r) => r.participantId);
    expect([place(1), place(3)]).toEqual([[last[0].winner!.id], [last[1].winner!.id]]);
    // The knockout's 1st-4th, then the groups' 3rds sharing 5th and their 4ths sharing 7th.
    expect(ranks(final)).toEqual([1, 2, 3, 4, 5, 5, 7, 7]);
    expect((await verifiedBundle(t, id)).ok).toBe(true);
  }, 300_000);
});

describe('check-in over REST', () => {
  it("checks a participant in with its own token (no body needed), or the one the organizer names; refuses another's, and before check-in opens", async () => {
    const startAt = new Date(clock.now().getTime() + 2 * 60 * MINUTE).toISOString();
    const created = (
      await gql(CREATE, {
        input: { name: 'Club night', kind: 'backgammon', ruleset: { matchLength: 1 }, format: 'SWISS', rounds: 2, openRegistration: true, schedule: { startAt, checkInMinutes: 60 } },
      })
    ).createTournament;
    const id: string = created.tournament.id;
    const tokens = await registerAll(id, ['Ann', 'Bob', 'Cid']);
    const [ann, bob, cid] = [...tokens.keys()];
    const checkIn = (token: string | null, body?: Record<string, unknown>) => {
      const req = request(t.url).post(`/api/tournaments/${id}/check-in`);
      const withToken = token ? req.set('authorization', `Bearer ${token}`) : req;
      return body ? withToken.send(body) : withToken;
    };

    expect((await checkIn(tokens.get(ann)!)).body.error).toMatchObject({ code: 'CHECK_IN_CLOSED' });
    clock.advance(60 * MINUTE);
    await schedules().tick();

    const own = await checkIn(tokens.get(ann)!);
    expect(own.status).toBe(200);
    expect(own.body.schedule).toMatchObject({ checkIn: 'OPEN', checkedIn: [ann] });
    const other = await checkIn(tokens.get(bob)!, { participantId: cid });
    expect([other.status, other.body.error.code]).toEqual([403, 'FORBIDDEN']);
    const byOrganizer = await checkIn(created.organizerToken, { participantId: bob, commandId: 'check-in-bob' });
    expect(byOrganizer.status).toBe(200);
    expect(byOrganizer.body.schedule.checkedIn).toEqual([ann, bob]);
    // A retry with the same command id answers the tournament as it is.
    expect((await checkIn(created.organizerToken, { participantId: bob, commandId: 'check-in-bob' })).status).toBe(200);
    expect((await checkIn(created.organizerToken)).body.error).toMatchObject({ code: 'INVALID_INPUT' });
    expect((await checkIn(tokens.get(ann)!)).body.error).toMatchObject({ code: 'ALREADY_CHECKED_IN' });
    expect((await checkIn(null)).status).toBe(401);
    expect((await read(id)).schedule.checkedIn).toEqual([ann, bob]);
  });
});
