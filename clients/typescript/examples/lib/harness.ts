/**
 * What the three example bots share: create a game, play it to the end with one client per seat
 * (each with its own token), random legal moves as the referee lists them, while a spectator
 * follows the `gameEvents` subscription; then check the log with `verifyGame`.
 * Exit code: 0 when the game finished and verifies, 1 otherwise.
 */
import { pathToFileURL } from 'node:url';
import { ArbiterClient, ArbiterError } from '../../src/client.js';
import { GameDocument, type GameEventFieldsFragment, type MoveOutcomeFragment, OnGameEventsDocument, TurnDocument, type TurnQuery, VerifyGameDocument } from '../../src/generated/graphql.js';

/** A created game: its id and the token of each seat (index = seat). */
export interface CreatedGame {
  gameId: string;
  tokens: string[];
}

/** The acting seat's legal moves, typed per game (a union on `__typename`). */
export type LegalMoves = NonNullable<TurnQuery['game']['legalMoves']>;

/** One turn to play: the acting seat's client (its token) and legal moves, the version they were read at, a fresh move id and a random pick. */
export interface Turn {
  seatClient: ArbiterClient;
  gameId: string;
  seat: number;
  version: number;
  legal: LegalMoves;
  moveId: string;
  pick: <T>(items: readonly T[]) => T;
}

/** A game's bot: how it creates its game and how one seat plays one random legal move. */
export interface GameBot {
  kind: string;
  /** The ruleset, described for the log. */
  describe: string;
  create(arbiter: ArbiterClient): Promise<CreatedGame>;
  /** Picks one of the seat's legal moves at random and sends it with the game's typed mutation; answers what it sent and the referee's answer. */
  move(turn: Turn): Promise<{ action: string; outcome: MoveOutcomeFragment }>;
}

/** The game id and the seat tokens, seat 0 first, of a creation's answer. */
export function tokensOf(created: { game: { id: string }; tokens: readonly { seat: number; token: string }[] }): CreatedGame {
  return { gameId: created.game.id, tokens: created.tokens.toSorted((a, b) => a.seat - b.seat).map((t) => t.token) };
}

/** A small seeded generator (mulberry32), so that a game can be replayed with SEED=<n>. */
export function seededRandom(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/** Actions picked only when nothing else is legal (random bots concede and double far too often). */
export function preferring<T>(actions: readonly T[], avoid: (action: T) => boolean): readonly T[] {
  const rest = actions.filter((a) => !avoid(a));
  return rest.length > 0 ? rest : actions;
}

const MAX_MOVES = 20_000;

/** A subscription as a spectator from the first event, collecting until the seed is revealed (the last event of a finished game). */
function follow(spectator: ArbiterClient, gameId: string) {
  const events: GameEventFieldsFragment[] = [];
  const stream = spectator.subscribe(OnGameEventsDocument, { gameId, afterSeq: 0 });
  const done = (async () => {
    for await (const { gameEvents } of stream) {
      events.push(gameEvents);
      if (gameEvents.type === 'SeedRevealed') break;
    }
  })();
  done.catch(() => {}); // a failure is reported where the harness awaits it, not as an unhandled rejection
  return { events, done, stop: () => stream.return?.() };
}

function withTimeout<T>(promise: Promise<T>, ms: number, what: string): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`${what}: no answer in ${ms / 1000} s`)), ms);
  });
  return Promise.race([promise, timeout]).finally(() => clearTimeout(timer));
}

/** Plays one whole game; answers true when it finished and verifies. */
export async function playWholeGame(bot: GameBot, options: { url?: string; seed?: number } = {}): Promise<boolean> {
  const log = (line: string) => console.log(`${bot.kind}: ${line}`);
  const seed = options.seed ?? (process.env.SEED ? Number(process.env.SEED) : Math.floor(Math.random() * 2 ** 31));
  const random = seededRandom(seed);
  const pick = <T>(items: readonly T[]): T => {
    if (items.length === 0) throw new Error('nothing to pick from');
    return items[Math.floor(random() * items.length)];
  };
  const spectator = new ArbiterClient({ url: options.url, onRateLimited: (ms, why) => log(`rate limited (${why}): waiting ${Math.ceil(ms / 1000)} s`) });
  const { gameId, tokens } = await bot.create(spectator);
  const seats = tokens.map((token) => spectator.withToken(token));
  log(`game ${gameId} created at ${spectator.url} (${bot.describe}; ${seats.length} seats, one token each; SEED=${seed})`);
  const watcher = follow(spectator, gameId);

  const tally = new Map<string, number>();
  let moves = 0;
  let reads = 0;
  let conflicts = 0;
  let seat = 0;
  try {
    for (;;) {
      // Each seat reads the game with its own token: whose turn it is, and (when it is its turn) its legal moves.
      const { game } = await seats[seat].request(TurnDocument, { id: gameId });
      if (game.status === 'FINISHED') break;
      if (++reads > 3 * MAX_MOVES) throw new Error(`no end after ${moves} moves`);
      const actor = game.toAct[0];
      if (actor === undefined) throw new Error(`the game is ${game.status} at version ${game.version} but no seat may act`);
      if (actor !== seat) {
        seat = actor; // read again as the seat whose turn it is
        continue;
      }
      if (!game.legalMoves) throw new Error(`seat ${seat} may act at version ${game.version} but has no legal moves`);
      const turn: Turn = { seatClient: seats[seat], gameId, seat, version: game.version, legal: game.legalMoves, moveId: `example-${seat}-${moves + conflicts}`, pick };
      const { action, outcome } = await bot.move(turn);
      if (outcome.__typename === 'Rejection') {
        // Another client moved first: read the game again. Anything else is a bug in the bot or the referee.
        if (outcome.code === 'VERSION_CONFLICT' && conflicts++ < 100) continue;
        throw new Error(`seat ${seat}'s ${action} at version ${game.version} was refused: ${outcome.code}: ${outcome.message}`);
      }
      moves++;
      const type = action.split(' ')[0];
      tally.set(type, (tally.get(type) ?? 0) + 1);
    }

    const { game } = await spectator.request(GameDocument, { id: gameId });
    const counts = [...tally].map(([type, n]) => `${type} ${n}`).join(', ');
    log(`finished at version ${game.version} after ${moves} moves (${counts})${conflicts ? `, ${conflicts} version conflicts retried` : ''}`);
    log(`result: ${game.outcome ? `${game.outcome.summary} (winners: seats ${game.outcome.winners.join(', ') || 'none'}; points ${game.outcome.points.join('-')})` : 'none'}`);
    log(`fairness: seed commitment ${game.fairness.seedCommitment.slice(0, 16)}..., server seed revealed: ${game.fairness.serverSeed ? 'yes' : 'no'}`);

    await withTimeout(watcher.done, 15_000, 'the gameEvents subscription');
    const seqs = watcher.events.map((e) => e.seq);
    const contiguous = seqs.every((seq, i) => seq === i + 1);
    log(`subscription: ${watcher.events.length} events as a spectator (last ${watcher.events.at(-1)?.type} at seq ${seqs.at(-1)})`);
    if (!contiguous || seqs.at(-1) !== game.version) {
      log(`FAILED: the subscription's events do not run 1..${game.version} (got ${seqs.length} events, last seq ${seqs.at(-1)})`);
      return false;
    }

    const { verifyGame } = await spectator.request(VerifyGameDocument, { gameId });
    log(`verifyGame: ${verifyGame.ok ? 'ok' : 'FAILED'}: ${verifyGame.summary} (${verifyGame.eventsChecked} events, ${verifyGame.drawsRecomputed} draws recomputed)`);
    return verifyGame.ok;
  } catch (err) {
    log(`FAILED: ${err instanceof ArbiterError ? `${err.code}: ${err.message}` : err instanceof Error ? err.message : String(err)}`);
    return false;
  } finally {
    await watcher.stop();
    await spectator.close();
  }
}

/** Runs `bot` when the example file is the program itself (`node dist/examples/backgammon.js`), exiting 0 or 1. */
export function runIfMain(moduleUrl: string, bot: GameBot): void {
  if (!process.argv[1] || moduleUrl !== pathToFileURL(process.argv[1]).href) return;
  playWholeGame(bot).then(
    (ok) => process.exit(ok ? 0 : 1),
    (err: unknown) => {
      console.error(`${bot.kind}: FAILED: ${err instanceof Error ? err.message : String(err)}`);
      process.exit(1);
    },
  );
}
