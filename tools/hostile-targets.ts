/**
 * What a hostile run (tools/hostile.ts) is pointed at: games, tournaments in each state and
 * webhook registrations, and their set-up through the GraphQL API (shared by the fuzz suite and
 * bench/fuzz.ts). The generator poisons every request that could change them, so a run must
 * leave each exactly as set up here.
 */

export interface SeededGame {
  id: string;
  kind: string;
  /** The seats' tokens by seat; a tournament game's are its participants' tokens. */
  tokens: string[];
}

/** The games a run is pointed at, set up before it. */
export interface GameTargets {
  duel: SeededGame;
  waiting: SeededGame;
  finished: SeededGame;
  chickenFoot: SeededGame;
  cerke: SeededGame;
  backgammon: SeededGame;
  imported: SeededGame;
  /** The running tournament's game still waiting for its result. */
  paired: SeededGame;
}

export interface SeededParticipant {
  id: string;
  token: string;
}

export interface SeededTournament {
  id: string;
  organizerToken: string;
  /** In registration order (a withdrawn one too). */
  participants: SeededParticipant[];
}

/**
 * Three Swiss tournaments of 1-point backgammon matches. What each state lets through decides
 * which inputs are poisons: the generator relies on these states staying as they are.
 */
export interface TournamentTargets {
  /** Registration open (participants may also withdraw themselves), 2 participants, 3 rounds, nothing paired: its organizer could pair round 1. */
  registering: SeededTournament;
  /** 2 rounds, 4 participants of whom one withdrew, round 1 paired: one board, its game (GameTargets.paired) waiting for its result, and a bye. */
  running: SeededTournament & { withdrawn: string; board: number; gameId: string };
  /** 1 round, 2 participants, its one result recorded: finished. */
  finished: SeededTournament & { gameId: string };
}

export interface SeededWebhook {
  id: string;
  /** The token it was registered with. */
  ownerToken: string;
}

export interface WebhookTargets {
  /** Registered with a seat's token (the duel's seat 0) for that seat: YOUR_TURN and TIME_RUNNING_LOW. */
  seat: SeededWebhook;
  /** Registered by the running tournament's organizer for its games: GAME_OVER and YOUR_TURN. */
  organizer: SeededWebhook;
  /** A receiver URL the service allows (its host is the one WEBHOOK_ALLOWED_HOSTS names). */
  url: string;
}

export interface Targets {
  games: GameTargets;
  tournaments: TournamentTargets;
  webhooks: WebhookTargets;
}

/** A GraphQL request to the service under test, answered as parsed JSON. */
export type Gql = (query: string, variables?: Record<string, unknown>, token?: string) => Promise<any>;

const CREATE_TOURNAMENT =
  'mutation($input: CreateTournamentInput!) { createTournament(input: $input) { __typename ... on TournamentCreated { organizerToken tournament { id } } ... on Rejection { code message } } }';
const REGISTER =
  'mutation($id: ID!, $name: String!) { registerParticipant(tournamentId: $id, name: $name) { __typename ... on ParticipantRegistered { participantId participantToken } ... on Rejection { code message } } }';
const WITHDRAW = 'mutation($id: ID!, $p: ID!) { withdrawParticipant(tournamentId: $id, participantId: $p) { __typename ... on Tournament { id } ... on Rejection { code message } } }';
const PAIR =
  'mutation($id: ID!) { pairRound(tournamentId: $id, round: 1) { __typename ... on Tournament { rounds { boards { board seats { id } games { gameId } } } } ... on Rejection { code message } } }';
const RECORD =
  'mutation($id: ID!, $input: ResultInput!) { recordResult(tournamentId: $id, input: $input, commandId: "setup-result") { __typename ... on Tournament { status } ... on Rejection { code message } } }';
const REGISTER_WEBHOOK = 'mutation($input: RegisterWebhookInput!) { registerWebhook(input: $input) { ... on WebhookSecret { id } ... on Rejection { code message } } }';

/** The answer's data, or an error saying which set-up step failed and how. */
async function data(step: string, answer: Promise<any>): Promise<any> {
  const res = await answer;
  // A mutation refused answers its Rejection (a code) as data.
  if (res.errors || !res.data || Object.values(res.data).some((v: any) => typeof v?.code === 'string')) throw new Error(`set-up, ${step}: ${JSON.stringify(res)}`);
  return res.data;
}

async function tournament(gql: Gql, input: Record<string, unknown>, names: string[]): Promise<SeededTournament> {
  const created = (await data(`create ${input.name}`, gql(CREATE_TOURNAMENT, { input: { kind: 'backgammon', ruleset: { matchLength: 1 }, format: 'SWISS', ...input } }))).createTournament;
  const t: SeededTournament = { id: created.tournament.id, organizerToken: created.organizerToken, participants: [] };
  for (const name of names) {
    const r = (await data(`register ${name}`, gql(REGISTER, { id: t.id, name }, t.organizerToken))).registerParticipant;
    t.participants.push({ id: r.participantId, token: r.participantToken });
  }
  return t;
}

async function pairRoundOne(gql: Gql, t: SeededTournament): Promise<{ board: number; seats: { id: string }[]; games: { gameId: string }[] }[]> {
  return (await data('pair round 1', gql(PAIR, { id: t.id }, t.organizerToken))).pairRound.rounds[0].boards;
}

/** The three tournaments, and the running one's game as a game target. */
export async function seedTournaments(gql: Gql): Promise<{ tournaments: TournamentTargets; paired: SeededGame }> {
  const registering = await tournament(gql, { name: 'Open night', rounds: 3, openRegistration: true, selfWithdrawal: true }, ['Ann']);
  // Registered by itself, as open registration allows.
  const self = (await data('register Bob', gql(REGISTER, { id: registering.id, name: 'Bob' }))).registerParticipant;
  registering.participants.push({ id: self.participantId, token: self.participantToken });

  const running = await tournament(gql, { name: 'Club night', rounds: 2 }, ['Ann', 'Bob', 'Cy', 'Dee']);
  const withdrawn = running.participants[3].id;
  await data('withdraw Dee', gql(WITHDRAW, { id: running.id, p: withdrawn }, running.organizerToken));
  const boards = await pairRoundOne(gql, running);
  if (boards.length !== 1 || boards[0].games.length !== 1) throw new Error(`set-up: round 1 of 3 should be one board and a bye: ${JSON.stringify(boards)}`);
  const [{ board, seats, games }] = boards;
  const tokenOf = (id: string) => running.participants.find((p) => p.id === id)!.token;
  const paired: SeededGame = { id: games[0].gameId, kind: 'backgammon', tokens: seats.map((s) => tokenOf(s.id)) };

  const finished = await tournament(gql, { name: 'Last night', rounds: 1 }, ['Ann', 'Bob']);
  const [last] = await pairRoundOne(gql, finished);
  const result = { round: 1, board: last.board, outcome: 'WIN_SEAT0', gamePoints: ['1', '0'] };
  const status = (await data('record the result', gql(RECORD, { id: finished.id, input: result }, finished.organizerToken))).recordResult.status;
  if (status !== 'FINISHED') throw new Error(`set-up: the 1-round tournament should be finished, not ${status}`);

  return {
    tournaments: { registering, running: { ...running, withdrawn, board, gameId: paired.id }, finished: { ...finished, gameId: last.games[0].gameId } },
    paired,
  };
}

/** A seat's webhook and an organizer's, both to `url` (a host the service allows). */
export async function seedWebhooks(gql: Gql, seatToken: string, running: SeededTournament, url: string): Promise<WebhookTargets> {
  const seat = await data('register the seat webhook', gql(REGISTER_WEBHOOK, { input: { url, events: ['YOUR_TURN', 'TIME_RUNNING_LOW'], lowTimeThresholdsSeconds: [60, 10] } }, seatToken));
  const organizer = await data("register the organizer's webhook", gql(REGISTER_WEBHOOK, { input: { url, tournamentId: running.id, events: ['GAME_OVER', 'YOUR_TURN'] } }, running.organizerToken));
  return { seat: { id: seat.registerWebhook.id, ownerToken: seatToken }, organizer: { id: organizer.registerWebhook.id, ownerToken: running.organizerToken }, url };
}
