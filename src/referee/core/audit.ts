import type { EngineRegistry } from './engine-registry.js';
import { decodeGameEvent } from './game/events.js';
import { foldGameInSlices } from './game/fold.js';
import { endingWords } from './game/outcome-words.js';
import type { GameState, GameStatus } from './game/state.js';
import { finish, GENESIS_HASH, type StoredEvent, StreamError } from './stream.js';

/** A self-contained export of one game: enough to recompute everything offline. */
export interface Bundle {
  format: 'arbiter-bundle/1';
  game: {
    id: string;
    kind: string;
    status: string;
    ruleset: unknown;
    rulesetHash: string;
    seedCommitment: string;
    /** Null until the game ends. */
    serverSeed: string | null;
    randomSource: 'fair' | 'supplied';
    imported: boolean;
    seats: { index: number; name: string | null; player?: string }[];
    result: unknown;
  };
  hashAlgorithm: 'sha256(prevHash || RFC8785(event))';
  /**
   * The head the service published when it exported the game: the stream must end there. A
   * bundle alone cannot show a truncation made before export with a matching head and status
   * (compare `head.hash` with the service's `game.headHash`).
   */
  head?: { seq: number; hash: string };
  events: StoredEvent[];
}

export interface Verdict {
  ok: boolean;
  /** Events checked before the verdict. */
  eventsChecked: number;
  /** Fair random outcomes recomputed from the seed. */
  drawsRecomputed: number;
  /** First event that fails, if any. */
  badSeq: number | null;
  problem: string | null;
  /** Whether randomness could be checked (the seed is known: revealed, or the referee's own check). */
  fairnessChecked: boolean;
  summary: string;
}

type BundledGame = Pick<GameState, 'gameId' | 'kind' | 'ruleset' | 'rulesetHash' | 'seedCommitment' | 'revealedSeed' | 'randomSource' | 'imported' | 'seatNames' | 'seatPlayers' | 'outcome'> & {
  status: GameStatus;
  version: number;
  lastHash: string;
};

export function buildBundle(game: BundledGame, events: StoredEvent[]): Bundle {
  return {
    format: 'arbiter-bundle/1',
    game: {
      id: game.gameId,
      kind: game.kind,
      status: game.status,
      ruleset: game.ruleset,
      rulesetHash: game.rulesetHash,
      seedCommitment: game.seedCommitment,
      serverSeed: game.revealedSeed,
      randomSource: game.randomSource,
      imported: game.imported,
      // A seat bound to a player names it (its id, never a key), as the game's events do.
      seats: game.seatNames.map((name, index) => (game.seatPlayers[index] ? { index, name, player: game.seatPlayers[index] } : { index, name })),
      result: game.outcome,
    },
    hashAlgorithm: 'sha256(prevHash || RFC8785(event))',
    head: { seq: game.version, hash: game.lastHash },
    events,
  };
}

/**
 * Verifies a stream: hash chain, ruleset, seed commitment, every fair draw (when the seed is
 * known) and every move through the engine. Names the first bad event.
 */
/** Where a stream must end: the head the game row (or the bundle, or the service) publishes. */
export interface PublishedHead {
  version: number;
  /** Hash of the event at `version`; null for a game stored before heads were kept. */
  hash: string | null;
  status: GameStatus;
}

/**
 * Why a folded stream is not the whole published game, or null. A stream that goes past the head
 * is fine (a move stored since the head was read); one that stops short was truncated.
 */
export function headProblem(folded: Pick<GameState, 'revealedSeed'> & { version: number; lastHash: string }, head: PublishedHead): StreamError | null {
  if (folded.version < head.version) return new StreamError(folded.version + 1, `the stream ends at event ${folded.version} but the game's head is event ${head.version}: events were removed`);
  if (folded.version === head.version && head.hash !== null && folded.lastHash !== head.hash) return new StreamError(folded.version, "the last event is not the game's published head");
  if ((head.status === 'FINISHED' || head.status === 'ABORTED') && folded.revealedSeed === null)
    return new StreamError(folded.version + 1, 'the game is over but its stream does not end in GameEnded and SeedRevealed (GameAborted and SeedRevealed, aborted)');
  return null;
}

export interface VerifyOptions {
  serverSeed: string | null;
  expectedCommitment?: string;
  expectedHead?: PublishedHead;
}

export function verifyStream(registry: EngineRegistry, gameId: string, events: StoredEvent[], opts: VerifyOptions): Verdict {
  return finish(verifyInSlices(registry, gameId, events, opts));
}

/** The same verification, pausing between slices of the stream (see foldInSlices). */
export function* verifyInSlices(registry: EngineRegistry, gameId: string, events: StoredEvent[], opts: VerifyOptions): Generator<void, Verdict> {
  let checked = 0;
  try {
    const seed = opts.serverSeed ?? revealedSeedOf(events);
    const folded = yield* foldGameInSlices(registry, gameId, events, seed, { checkHashes: true, onEvent: () => checked++ });
    if (opts.expectedCommitment && folded.seedCommitment !== opts.expectedCommitment) {
      throw new StreamError(1, 'the commitment in the stream is not the one published for the game');
    }
    const cut = opts.expectedHead && headProblem(folded, opts.expectedHead);
    if (cut) throw cut;
    const fairnessChecked = seed !== null;
    const fair = folded.fairDrawsChecked;
    const summary = [
      `${checked} events verified: hash chain intact, every move legal`,
      fairnessChecked ? `${fair} random outcomes recomputed from the seed` : 'random outcomes not yet checkable (the seed is revealed when the game ends)',
      folded.randomSource === 'supplied' ? 'some random values were supplied (organizer deal or imported record), not drawn by the referee' : null,
      folded.clock ? 'clocks rerun from the stamps: no move after its deadline' : null,
      folded.ended ? `result: ${endingWords(folded, folded.seatNames) ?? 'none'}` : 'the game goes on',
    ]
      .filter(Boolean)
      .join('; ');
    return { ok: true, eventsChecked: checked, drawsRecomputed: fair, badSeq: null, problem: null, fairnessChecked, summary };
  } catch (err) {
    if (!(err instanceof StreamError)) throw err;
    return {
      ok: false,
      eventsChecked: checked,
      drawsRecomputed: 0,
      badSeq: err.seq,
      problem: err.message,
      fairnessChecked: false,
      summary: `FAILED at event ${err.seq}: ${err.message}`,
    };
  }
}

/** Verifies a bundle as an outsider would: only what the bundle itself contains. */
export function verifyBundle(registry: EngineRegistry, bundle: Bundle): Verdict {
  if (bundle?.format !== 'arbiter-bundle/1' || !Array.isArray(bundle.events) || typeof bundle.game?.id !== 'string') {
    return { ok: false, eventsChecked: 0, drawsRecomputed: 0, badSeq: null, problem: 'not an arbiter-bundle/1 file', fairnessChecked: false, summary: 'FAILED: not an arbiter-bundle/1 file' };
  }
  const first = bundle.events[0];
  if (first && first.prevHash !== GENESIS_HASH) {
    return {
      ok: false,
      eventsChecked: 0,
      drawsRecomputed: 0,
      badSeq: first.seq,
      problem: 'the first event does not start the chain',
      fairnessChecked: false,
      summary: `FAILED at event ${first.seq}: the first event does not start the chain`,
    };
  }
  // Bundles exported before heads were published carry none: their status still requires an end.
  const head = bundle.head ?? { seq: 0, hash: null };
  return verifyStream(registry, bundle.game.id, bundle.events, {
    serverSeed: bundle.game.serverSeed,
    expectedCommitment: bundle.game.seedCommitment,
    expectedHead: { version: head.seq, hash: head.hash, status: bundle.game.status === 'FINISHED' || bundle.game.status === 'ABORTED' ? bundle.game.status : 'ACTIVE' },
  });
}

function revealedSeedOf(events: StoredEvent[]): string | null {
  const stored = events.find((x) => x.type === 'SeedRevealed');
  const e = stored && decodeGameEvent(stored);
  return e?.ok && e.value.type === 'SeedRevealed' ? e.value.payload.serverSeed : null;
}
