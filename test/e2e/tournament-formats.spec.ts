import { startApp, type TestApp } from '../support/app.js';
import { verifiedBundle } from '../support/tournament-bundles.js';

/**
 * The bracket formats end to end over the public API, on whichever database the run has (PGlite,
 * or PostgreSQL with TEST_DATABASE_URL): a double elimination whose grand final is reset, and a
 * knockout with a third-place match. The organizer enters every result over the board; each event
 * ends by itself with its placings, and its bundle verifies offline (the library and `npm run verify`).
 * Last, a group stage feeding a knockout with a third-place match.
 */
let t: TestApp;
beforeAll(async () => {
  t = await startApp();
}, 120_000);
afterAll(async () => {
  await t?.close();
}, 120_000);

const ROUNDS = 'rounds { round complete boards { board complete winner { id } seats { id name } games { gameId result { kinds } } } }';
const CREATE = `mutation($input: CreateTournamentInput!) { createTournament(input: $input) { __typename ... on TournamentCreated { organizerToken tournament { id } } ... on Rejection { code message } } }`;
const REGISTER = `mutation($id: ID!, $name: String!, $rating: Int) { registerParticipant(tournamentId: $id, name: $name, rating: $rating) { __typename ... on ParticipantRegistered { participantId } ... on Rejection { code message } } }`;
const PAIR = `mutation($id: ID!) { pairRound(tournamentId: $id) { __typename ... on Tournament { ${ROUNDS} } ... on Rejection { code message } } }`;
const RECORD = `mutation($id: ID!, $input: ResultInput!) { recordResult(tournamentId: $id, input: $input) { __typename ... on Tournament { status } ... on Rejection { code message } } }`;
const TOURNAMENT = `query($id: ID!) { tournament(id: $id) { status format totalRounds config ${ROUNDS} standings { rank name tp } } }`;

interface Board {
  board: number;
  complete: boolean;
  winner: { id: string } | null;
  seats: { id: string; name: string }[];
  games: { gameId: string; result: { kinds: string[] } | null }[];
}
interface Round {
  round: number;
  boards: Board[];
}

async function gql<T = any>(query: string, variables: Record<string, unknown>, token?: string): Promise<T> {
  const res = await t.gql(query, variables, token);
  if (res.errors) throw new Error(`${res.errors[0].extensions?.code}: ${res.errors[0].message}`);
  return res.data;
}

/** An event created and filled over the API; P1 is the best rated. */
async function event(input: Record<string, unknown>, n: number) {
  const created = (await gql(CREATE, { input: { kind: 'backgammon', ruleset: { matchLength: 1 }, ...input } })).createTournament;
  expect(created.__typename).toBe('TournamentCreated');
  const id: string = created.tournament.id;
  const organizer: string = created.organizerToken;
  for (let i = 1; i <= n; i++) expect((await gql(REGISTER, { id, name: `P${i}`, rating: 2000 - i }, organizer)).registerParticipant.__typename).toBe('ParticipantRegistered');
  return { id, organizer };
}

/**
 * Pairs round after round until the event ends, the organizer entering each game over the board:
 * `seat1Wins(round, board)` says when the game's seat 1 wins (else seat 0). Answers the rounds played.
 */
async function runToTheEnd(id: string, organizer: string, seat1Wins: (round: number, board: Board) => boolean): Promise<Round[]> {
  for (let guard = 0; guard < 12; guard++) {
    const state = (await gql(TOURNAMENT, { id })).tournament;
    if (state.status === 'FINISHED') return state.rounds;
    const paired = (await gql(PAIR, { id }, organizer)).pairRound;
    expect(paired.__typename).toBe('Tournament');
    const round: Round = paired.rounds[paired.rounds.length - 1];
    for (const board of round.boards) {
      for (const game of board.games) {
        const win1 = seat1Wins(round.round, board);
        const res = (
          await gql(
            RECORD,
            { id, input: { round: round.round, board: board.board, gameId: game.gameId, outcome: win1 ? 'WIN_SEAT1' : 'WIN_SEAT0', gamePoints: win1 ? ['0', '1'] : ['1', '0'] } },
            organizer,
          )
        ).recordResult;
        expect(res.__typename).toBe('Tournament');
      }
    }
  }
  throw new Error('the event did not end');
}

/** Placings by place, then name (who share a place come in bracket order). */
const placings = (standings: { rank: number; name: string; tp: string | null }[]) => [...standings].sort((a, b) => a.rank - b.rank || a.name.localeCompare(b.name)).map((r) => [r.name, r.rank, r.tp]);

describe('bracket formats end to end', () => {
  it('a double elimination of 6 whose LB champion wins the first grand final: the bracket reset is played and the event ends with K6.10 placings', async () => {
    const { id, organizer } = await event({ name: 'Double elimination', format: 'DOUBLE_ELIMINATION' }, 6);
    // S = 8, k = 3: WB rounds 1-3 with LB rounds 1-4 alongside, grand final round 6, reset round 7.
    // The better rated wins every match until the grand finals, which the LB champion (seat 1) wins.
    const rounds = await runToTheEnd(id, organizer, (round) => round >= 6);
    expect(rounds).toHaveLength(7);
    expect(rounds[5].boards[0].seats.map((s) => s.name)).toEqual(['P1', 'P2']);
    expect(rounds[6].boards[0].seats.map((s) => s.name)).toEqual(['P1', 'P2']);
    const final = (await gql(TOURNAMENT, { id })).tournament;
    expect(final).toMatchObject({ status: 'FINISHED', format: 'DOUBLE_ELIMINATION', totalRounds: 7, config: { format: 'doubleElimination', bracketReset: true, tieBreaks: [] } });
    // K6.10 with S = 8: LB4's loser 3rd, LB3's 4th, LB2's share 5th (LB1 had byes only).
    expect(placings(final.standings)).toEqual([
      ['P2', 1, null],
      ['P1', 2, null],
      ['P3', 3, null],
      ['P4', 4, null],
      ['P5', 5, null],
      ['P6', 5, null],
    ]);
    expect(await verifiedBundle(t, id)).toMatchObject({ ok: true });
  }, 300_000);

  it('a knockout of 8 with a third-place match: the semi-finals\u2019 losers play for 3rd on board 2 of the final round', async () => {
    const { id, organizer } = await event({ name: 'Knockout with third place', format: 'KNOCKOUT', thirdPlaceMatch: true }, 8);
    // The better rated wins every match but the third-place match, which seat 1 (P4) wins.
    const rounds = await runToTheEnd(id, organizer, (round, board) => round === 3 && board.board === 2);
    expect(rounds.map((r) => r.boards.length)).toEqual([4, 2, 2]);
    expect(rounds[2].boards.map((b) => b.seats.map((s) => s.name))).toEqual([
      ['P1', 'P2'],
      ['P3', 'P4'],
    ]);
    const final = (await gql(TOURNAMENT, { id })).tournament;
    expect(final).toMatchObject({ status: 'FINISHED', config: { thirdPlaceMatch: true } });
    expect(placings(final.standings).map(([name, rank]) => [name, rank])).toEqual([
      ['P1', 1],
      ['P2', 2],
      ['P4', 3],
      ['P3', 4],
      ['P5', 5],
      ['P6', 5],
      ['P7', 5],
      ['P8', 5],
    ]);
    expect(await verifiedBundle(t, id)).toMatchObject({ ok: true });
  }, 300_000);

  it('a group stage of 8 in 2 groups feeds a knockout of 4 with a third-place match, ending with placings for everyone', async () => {
    const { id, organizer } = await event({ name: 'Groups then knockout', format: 'GROUPS_KNOCKOUT', groupCount: 2, advancePerGroup: 2, thirdPlaceMatch: true }, 8);
    // The better rated wins every game: group 1 (snake) is P1 P4 P5 P8, group 2 P2 P3 P6 P7.
    const number = (b: Board, seat: number) => Number(b.seats[seat].name.slice(1));
    const rounds = await runToTheEnd(id, organizer, (_round, board) => number(board, 1) < number(board, 0));
    expect(rounds.map((r) => r.boards.length)).toEqual([4, 4, 4, 2, 2]);
    for (const r of rounds.slice(0, 3))
      for (const b of r.boards) {
        const members = [1, 4, 5, 8].includes(number(b, 0)) ? [1, 4, 5, 8] : [2, 3, 6, 7];
        expect(members).toContain(number(b, 1));
      }
    // Semi-finals: each group's winner against the other group's runner-up; then the final and the third-place match.
    expect(rounds[3].boards.map((b) => b.seats.map((s) => s.name))).toEqual([
      ['P1', 'P3'],
      ['P2', 'P4'],
    ]);
    expect(rounds[4].boards.map((b) => b.seats.map((s) => s.name))).toEqual([
      ['P1', 'P2'],
      ['P4', 'P3'],
    ]);
    const final = (await gql(TOURNAMENT, { id })).tournament;
    expect(final).toMatchObject({ status: 'FINISHED', format: 'GROUPS_KNOCKOUT', totalRounds: 5, config: { groupCount: 2, advancePerGroup: 2, thirdPlaceMatch: true } });
    expect(placings(final.standings)).toEqual([
      ['P1', 1, null],
      ['P2', 2, null],
      ['P3', 3, null],
      ['P4', 4, null],
      ['P5', 5, null],
      ['P6', 5, null],
      ['P7', 7, null],
      ['P8', 7, null],
    ]);
    expect(await verifiedBundle(t, id)).toMatchObject({ ok: true });
  }, 300_000);
});
