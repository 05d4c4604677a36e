import { seededRandom } from '../src/engines/kit/index.js';
import { ENGINES } from '../src/games/index.js';
import { Bot, gql } from './bot.js';

const CREATE = `mutation($input: CreateTournamentInput!) { createTournament(input: $input) { ... on TournamentCreated { organizerToken tournament { id } } ... on Rejection { code message } } }`;
const REGISTER = `mutation($id: ID!, $name: String!, $c: String) { registerParticipant(tournamentId: $id, name: $name, commandId: $c) { ... on ParticipantRegistered { participantId participantToken } ... on Rejection { code message } } }`;
const PAIR = `mutation($id: ID!, $c: String) { pairRound(tournamentId: $id, round: 1, commandId: $c) { ... on Tournament { id } ... on Rejection { code message } } }`;
const READ = `query($id: ID!) { tournament(id: $id) { status completedRounds totalRounds standings { rank } rounds { boards { games { gameId seats { id } } } }
  events { nodes { type actor } } } }`;
const VERIFY = `query($id: ID!) { verifyGame(gameId: $id) { ok summary } }`;

/** How the tournament went: it must finish, every later round paired by the service itself, every game verifying. */
export interface TournamentRun {
  finished: boolean;
  completedRounds: number;
  totalRounds: number;
  /** Rounds the service paired by itself (autoPair: every round after the first). */
  pairedByTheService: number;
  games: number;
  unverified: string[];
  standings: number;
  /** When it began and ended (Date.now()), to tell which faults fell while it ran. */
  from: number;
  to: number;
}

/**
 * A Swiss through the failover check: `players` participants, `rounds` rounds, autoPair on. The
 * organizer pairs round 1; from then on the service's tournament workflow records each game's
 * result and pairs the next round as one ends, on whichever node is primary. Bots play each game
 * as it appears, each move through the next instance; every refused or unanswered request is sent
 * again (same command id, same move id) after 200 ms. Ends when the tournament finishes, or at
 * `deadline` (Date.now()).
 */
export async function tournamentThroughFaults(instances: string[], players: number, rounds: number, deadline: number): Promise<TournamentRun> {
  const engine = ENGINES.find((e) => e.kind === 'backgammon')!;
  const from = Date.now();
  let turn = 0;
  const next = () => instances[turn++ % instances.length];
  /** A request sent again until it is answered with its own result (or the deadline passes). */
  const until = async <T>(what: string, ask: (url: string) => Promise<T | undefined>): Promise<T> => {
    for (;;) {
      const answer = await ask(next()).catch(() => undefined);
      if (answer !== undefined) return answer;
      if (Date.now() > deadline) throw new Error(`the tournament's ${what} was not answered in time`);
      await new Promise((r) => setTimeout(r, 200));
    }
  };
  const input = { kind: 'backgammon', ruleset: { matchLength: 1 }, name: 'Through the failover', format: 'SWISS', rounds, schedule: { autoPair: true } };
  const created = await until('creation', async (url) => (await gql(url, CREATE, { input })).data?.createTournament);
  if (!created.tournament) throw new Error(`creating the tournament was refused: ${JSON.stringify(created)}`);
  const id: string = created.tournament.id;
  const organizer: string = created.organizerToken;
  const tokens = new Map<string, string>();
  for (let p = 0; p < players; p++) {
    const r = await until('registration', async (url) => (await gql(url, REGISTER, { id, name: `Player ${p + 1}`, c: `register-${p}` }, organizer)).data?.registerParticipant);
    if (!r.participantId) throw new Error(`registration refused: ${JSON.stringify(r)}`);
    tokens.set(r.participantId, r.participantToken);
  }
  const paired = await until('first pairing', async (url) => (await gql(url, PAIR, { id, c: 'pair-1' }, organizer)).data?.pairRound);
  if (!paired.id) throw new Error(`pairing round 1 refused: ${JSON.stringify(paired)}`);

  const started = new Set<string>();
  const playing: Promise<void>[] = [];
  const play = async (gameId: string, seats: string[]) => {
    const bot = new Bot(next(), engine, { matchLength: 1 }, seededRandom(started.size), `tournament-${gameId}`);
    await until('game', async (url) => {
      bot.url = url;
      await bot.play(
        gameId,
        seats.map((s) => tokens.get(s)!),
      );
      return true;
    });
    while (!bot.finished() && Date.now() < deadline) {
      bot.url = next();
      const r = await bot.move();
      if (!r.accepted) await new Promise((res) => setTimeout(res, 200));
    }
  };
  type Read = {
    status: string;
    completedRounds: number;
    totalRounds: number;
    standings: unknown[];
    rounds: { boards: { games: { gameId: string; seats: { id: string }[] }[] }[] }[];
    events: { nodes: { type: string; actor: number | null }[] };
  };
  let t: Read;
  for (;;) {
    t = await until('read', async (url) => (await gql(url, READ, { id })).data?.tournament as Read | undefined);
    for (const g of t.rounds.flatMap((r) => r.boards.flatMap((b) => b.games))) {
      if (started.has(g.gameId)) continue;
      started.add(g.gameId);
      playing.push(
        play(
          g.gameId,
          g.seats.map((s) => s.id),
        ),
      );
    }
    if (t.status === 'FINISHED' || Date.now() > deadline) break;
    await new Promise((r) => setTimeout(r, 250));
  }
  await Promise.all(playing);
  const unverified: string[] = [];
  for (const gameId of started) {
    const verdict = await until('verification', async (url) => (await gql(url, VERIFY, { id: gameId })).data?.verifyGame);
    if (!verdict.ok) unverified.push(`${gameId}: ${verdict.summary}`);
  }
  return {
    finished: t.status === 'FINISHED',
    completedRounds: t.completedRounds,
    totalRounds: t.totalRounds,
    pairedByTheService: t.events.nodes.filter((e) => e.type === 'RoundPaired' && e.actor === null).length,
    games: started.size,
    unverified,
    standings: t.standings.length,
    from,
    to: Date.now(),
  };
}
