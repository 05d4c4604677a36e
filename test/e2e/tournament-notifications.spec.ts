import { verifyWebhook } from '../../clients/typescript/src/webhooks.js';
import { TournamentService } from '../../src/referee/application/tournament.service.js';
import type { TestApp } from '../support/app.js';
import { ManualClock, startAppWithClock } from '../support/clock.js';
import { ownStorage } from '../support/own-database.js';
import { type Notice, openStream, until } from '../support/player-stream.js';
import { CREATE as CREATE_GAME } from '../support/queries.js';
import { type Received, type WebhookBody, WebhookReceiver } from '../support/webhook-receiver.js';

/**
 * Issue 27, item 10: a tournament tells its organizer and its participants what concerns them,
 * by webhook and on the players' stream: a participant registered, check-in opened, a round
 * paired (to each participant its game, seat and opponent), a result reported, a dispute and its
 * settlement, the final standings. Every delivery is checked with the standardwebhooks package.
 * Time is a hand-moved clock (check-in and the start are the schedules' steps), kept within
 * minutes of the real time the signatures' timestamps are checked against; on PostgreSQL the
 * suite has a database of its own.
 */
const clock = new ManualClock();
let storage: Awaited<ReturnType<typeof ownStorage>>;
let receiver: WebhookReceiver;
let t: TestApp;

beforeAll(async () => {
  storage = await ownStorage('tournament_notifications');
  receiver = await WebhookReceiver.start();
  t = await startAppWithClock(clock, { ...storage.settings, webhookAllowedHosts: [{ hostname: '127.0.0.1', port: receiver.port }], webhookPollMs: 50 });
}, 120_000);
afterAll(async () => {
  await t?.close();
  await receiver?.stop();
  await storage?.drop();
}, 120_000);

const ALL = ['PARTICIPANT_REGISTERED', 'CHECK_IN_OPENED', 'ROUND_PAIRED', 'RESULT_REPORTED', 'RESULT_DISPUTED', 'DISPUTE_SETTLED', 'TOURNAMENT_FINISHED'];
const REGISTER_WEBHOOK = `mutation($input: RegisterWebhookInput!) {
  registerWebhook(input: $input) { ... on WebhookSecret { id secret webhook { playerId tournamentId participantId } } ... on Rejection { code message } } }`;
const CREATE = `mutation($input: CreateTournamentInput!) { createTournament(input: $input) { __typename ... on TournamentCreated { organizerToken tournament { id } } ... on Rejection { code message } } }`;
const REGISTER = `mutation($id: ID!, $name: String!) { registerParticipant(tournamentId: $id, name: $name) { __typename ... on ParticipantRegistered { participantId participantToken } ... on Rejection { code message } } }`;
const CHECK_IN = `mutation($id: ID!, $p: ID!) { checkIn(tournamentId: $id, participantId: $p) { __typename ... on Rejection { code message } } }`;
const REPORT = `mutation($id: ID!, $input: ResultInput!) { reportResult(tournamentId: $id, input: $input) { __typename ... on Rejection { code message } } }`;
const SETTLE = `mutation($id: ID!, $gameId: ID!, $accept: ID!, $reason: String!) { settleDispute(tournamentId: $id, gameId: $gameId, acceptReportOf: $accept, reason: $reason) { __typename ... on Rejection { code message } } }`;
const ROUNDS = `query($id: ID!) { tournament(id: $id) { status rounds { boards { board seats { id } games { gameId seats { id } } } } } }`;

async function gql<T = any>(query: string, variables: Record<string, unknown>, token?: string): Promise<T> {
  const res = await t.gql(query, variables, token);
  if (res.errors) throw new Error(`${res.errors[0].extensions?.code}: ${res.errors[0].message}`);
  return res.data;
}

async function newPlayer(name: string): Promise<{ id: string; key: string }> {
  const created = (await gql('mutation($name: String!) { createPlayer(name: $name) { ... on PlayerCreated { player { id } key { secret } } } }', { name })).createPlayer;
  return { id: created.player.id, key: created.key.secret };
}

async function webhook(token: string, events: string[]): Promise<{ secret: string; webhook: Record<string, string | null> }> {
  const registered = (await gql(REGISTER_WEBHOOK, { input: { url: receiver.url, events } }, token)).registerWebhook;
  expect(registered.secret).toMatch(/^whsec_/);
  return registered;
}

/** The messages signed with `secret`, each verified (signature and timestamp) by the standardwebhooks package, in the order they arrived. */
function told(secret: string): WebhookBody[] {
  return receiver.delivered().flatMap((r: Received) => {
    try {
      return [WebhookReceiver.verify(r, secret)];
    } catch {
      return [];
    }
  });
}

const tournamentNotices = (notices: readonly Notice[]) => notices.filter((n) => n.type.startsWith('tournament.'));

describe("a tournament's notifications", () => {
  it('tell the organizer and each participant (webhooks, and a player on its stream): registered, check-in, the pairing with game, seat and opponent, reports, a dispute, the final standings', async () => {
    const ada = await newPlayer('Ada');
    const bob = await newPlayer('Bob');
    // Ada follows her stream; Bob's bot is told by webhook (his key's: every tournament he plays).
    const stream = openStream(t.url, ada.key);
    const bobHook = await webhook(bob.key, ALL);
    expect(bobHook.webhook).toEqual({ playerId: bob.id, tournamentId: null, participantId: null });

    const startAt = new Date(clock.now().getTime() + 2 * 60_000).toISOString();
    const input = {
      name: 'Club night',
      kind: 'backgammon',
      ruleset: { matchLength: 1 },
      format: 'SWISS',
      rounds: 1,
      playerReports: true,
      openRegistration: true,
      schedule: { startAt, checkInMinutes: 1 },
    };
    const created = (await gql(CREATE, { input })).createTournament;
    const id: string = created.tournament.id;
    const organizer: string = created.organizerToken;
    const organizerHook = await webhook(organizer, ALL);
    expect(organizerHook.webhook).toEqual({ playerId: null, tournamentId: id, participantId: null });

    // Ada and Bob register with their keys (their participants are they), Cid and Dee without.
    const tokens = new Map<string, string>();
    const names = new Map<string, string>();
    for (const [name, key] of [
      ['Ada', ada.key],
      ['Bob', bob.key],
      ['Cid', undefined],
      ['Dee', undefined],
    ] as const) {
      const r = (await gql(REGISTER, { id, name }, key)).registerParticipant;
      expect(r.__typename).toBe('ParticipantRegistered');
      tokens.set(r.participantId, r.participantToken);
      names.set(name, r.participantId);
    }
    const [adaP, bobP, cidP] = ['Ada', 'Bob', 'Cid'].map((n) => names.get(n)!);
    // Cid's own registration, with its participant token: its pairing and its disputes.
    const cidHook = await webhook(tokens.get(cidP)!, ['ROUND_PAIRED', 'RESULT_DISPUTED']);
    expect(cidHook.webhook).toEqual({ playerId: null, tournamentId: id, participantId: cidP });

    // Check-in opens a minute before the start; everyone checks in; the start pairs round 1.
    clock.advance(61_000);
    await t.app.get(TournamentService).schedules.tick();
    for (const p of tokens.keys()) expect((await gql(CHECK_IN, { id, p }, tokens.get(p))).checkIn.__typename).toBe('Tournament');
    clock.advance(60_000);
    await t.app.get(TournamentService).schedules.tick();
    const boards: { board: number; seats: { id: string }[]; games: { gameId: string; seats: { id: string }[] }[] }[] = (await gql(ROUNDS, { id })).tournament.rounds[0].boards;
    expect(boards).toHaveLength(2);
    const boardOf = (p: string) => boards.find((b) => b.seats.some((s) => s.id === p))!;
    const expectedPairing = (p: string) => {
      const b = boardOf(p);
      const seat = b.games[0].seats.findIndex((s) => s.id === p);
      const other = b.seats.find((s) => s.id !== p)!.id;
      const player = other === adaP ? ada.id : other === bobP ? bob.id : null;
      return { round: 1, board: b.board, bye: false, gameId: b.games[0].gameId, seat, opponent: { participantId: other, name: [...names].find(([, v]) => v === other)![0], playerId: player } };
    };

    // Ada's stream: her registration, check-in, and her pairing: her game, her seat, her opponent.
    await until(() => tournamentNotices(stream.notices).length >= 3, "Ada's pairing on her stream");
    const adaTold = tournamentNotices(stream.notices);
    expect(adaTold.map((n) => n.type)).toEqual(['tournament.participant_registered', 'tournament.check_in_opened', 'tournament.round_paired']);
    expect(adaTold[0].data).toMatchObject({ tournamentId: id, tournamentName: 'Club night', participantId: adaP, name: 'Ada', playerId: ada.id });
    expect(adaTold[1].data).toEqual({ tournamentId: id, tournamentName: 'Club night', participantId: adaP, closesAt: startAt });
    expect(adaTold[2].data).toMatchObject({ tournamentId: id, participantId: adaP, ...expectedPairing(adaP) });
    // The game is hers at that seat: its own notices name the same.
    expect(stream.notices.find((n) => n.type === 'game.started')?.data).toMatchObject({ gameId: expectedPairing(adaP).gameId, mySeat: expectedPairing(adaP).seat });

    // Reports: Ada's board agrees (recorded), the other board disagrees (a dispute the organizer settles).
    const report = (p: string, winner: number) =>
      gql(REPORT, { id, input: { round: 1, board: boardOf(p).board, outcome: `WIN_SEAT${winner}`, gamePoints: winner === 0 ? ['1', '0'] : ['0', '1'] } }, tokens.get(p));
    const [a0, a1] = boardOf(adaP).games[0].seats.map((s) => s.id);
    const other = boards.find((b) => b !== boardOf(adaP))!;
    const [o0, o1] = other.games[0].seats.map((s) => s.id);
    expect((await report(a1, 0)).reportResult.__typename).toBe('Tournament');
    expect((await report(a0, 0)).reportResult.__typename).toBe('Tournament');
    expect((await report(o0, 0)).reportResult.__typename).toBe('Tournament');
    expect((await report(o1, 1)).reportResult.__typename).toBe('Tournament');
    const disputed = other.games[0].gameId;
    expect((await gql(SETTLE, { id, gameId: disputed, accept: o1, reason: 'the scoresheet' }, organizer)).settleDispute.__typename).toBe('Tournament');
    await until(() => tournamentNotices(stream.notices).some((n) => n.type === 'tournament.finished'), "Ada's final standings");

    // The organizer is told everything, in the order it happened.
    await receiver.until(() => told(organizerHook.secret).some((m) => m.type === 'tournament.finished'));
    const toOrganizer = told(organizerHook.secret);
    expect(toOrganizer.map((m) => m.type)).toEqual([
      ...Array(4).fill('tournament.participant_registered'),
      'tournament.check_in_opened',
      'tournament.round_paired',
      ...Array(4).fill('tournament.result_reported'),
      'tournament.result_disputed',
      'tournament.dispute_settled',
      'tournament.finished',
    ]);
    // For nobody in particular, but a registration's, which names the participant registered.
    expect(toOrganizer.every((m) => m.data.tournamentId === id && (m.type === 'tournament.participant_registered' || m.data.participantId === undefined))).toBe(true);
    expect(toOrganizer.slice(0, 4).map((m) => m.data.name)).toEqual(['Ada', 'Bob', 'Cid', 'Dee']);
    expect(toOrganizer[5].data).toMatchObject({ round: 1, boards: 2, games: 2, byes: [] });
    expect(toOrganizer[7].data).toMatchObject({ gameId: boardOf(adaP).games[0].gameId, reportedBy: a0, recorded: true, result: { ranking: [[0], [1]] } });
    expect(toOrganizer[10].data).toMatchObject({ gameId: disputed, reports: expect.arrayContaining([expect.objectContaining({ participantId: o0 }), expect.objectContaining({ participantId: o1 })]) });
    expect(toOrganizer[11].data).toMatchObject({ gameId: disputed, acceptedReportOf: o1, reason: 'the scoresheet' });
    const ranking = toOrganizer[12].data.ranking as { participantId: string; rank: number; name: string }[];
    expect(ranking.map((r) => r.participantId).sort()).toEqual([...tokens.keys()].sort());

    // Bob's key's registration: his own notices only, his pairing naming his game, seat and opponent.
    await receiver.until(() => told(bobHook.secret).some((m) => m.type === 'tournament.finished'));
    const toBob = told(bobHook.secret);
    expect(toBob.every((m) => m.data.participantId === bobP)).toBe(true);
    expect(toBob.find((m) => m.type === 'tournament.round_paired')!.data).toMatchObject(expectedPairing(bobP));
    expect(toBob.find((m) => m.type === 'tournament.finished')!.data).toMatchObject({ rank: ranking.find((r) => r.participantId === bobP)!.rank, of: 4 });
    // The TypeScript client types the pairing.
    const pairing = receiver.delivered().find((r) => WebhookReceiver.body(r).type === 'tournament.round_paired' && WebhookReceiver.body(r).data.participantId === bobP)!;
    const typed = verifyWebhook(bobHook.secret, pairing.body, pairing.headers);
    if (typed.type !== 'tournament.round_paired' || !('opponent' in typed.data)) throw new Error(`not a participant's pairing: ${typed.type}`);
    expect(typed.data.opponent?.participantId).toBe(expectedPairing(bobP).opponent.participantId);

    // Cid's participant registration: its pairing, and the dispute when its board had it.
    await receiver.until(() => told(cidHook.secret).length >= 1);
    const toCid = told(cidHook.secret);
    expect(toCid[0]).toMatchObject({ type: 'tournament.round_paired', data: expectedPairing(cidP) });
    expect(toCid.slice(1).map((m) => m.type)).toEqual(other.seats.some((s) => s.id === cidP) ? ['tournament.result_disputed'] : []);

    // Ada heard her opponent's report, and the final standings with her rank.
    const adaAll = tournamentNotices(stream.notices);
    expect(adaAll.filter((n) => n.type === 'tournament.result_reported').map((n) => n.data.reportedBy)).toEqual(a0 === adaP ? [a1] : [a0]);
    expect(adaAll.at(-1)!.data).toMatchObject({ participantId: adaP, rank: ranking.find((r) => r.participantId === adaP)!.rank, of: 4 });
    await stream.close();

    // Every message came once, whatever the retries.
    const ids = receiver.delivered().map((r) => r.id);
    expect(new Set(ids).size).toBe(ids.length);
  }, 180_000);

  it("refuses tournament events on a game's registration (INVALID_INPUT)", async () => {
    const seat = (await gql(CREATE_GAME, { input: { kind: 'duel', ruleset: { cards: 10, handSize: 3 }, seats: [{ name: 'a' }, { name: 'b' }] } })).createGame.tokens[0].token;
    const refused = (await gql(REGISTER_WEBHOOK, { input: { url: receiver.url, events: ['ROUND_PAIRED'] } }, seat)).registerWebhook;
    expect(refused).toMatchObject({ code: 'INVALID_INPUT' });
  });
});
