import type { Outcome } from '../../../engines/kit/index.js';
import { type Bundle, verifyBundle } from '../audit.js';
import type { EngineRegistry } from '../engine-registry.js';
import { decodeGameEvent } from '../game/events.js';
import { type Folded, foldStream, type StoredEvent, StreamError } from '../stream.js';
import { tournamentAggregate } from './decider.js';
import { recordedLots } from './evolve.js';
import { decodeTournamentEvent, type GameResultPayload } from './events.js';
import { isBracket } from './brackets.js';
import { placingsOf, standingsOf } from './formats.js';
import { completedRounds } from './history.js';
import type { Lots } from './lots.js';
import { format } from './rational.js';
import { adjudicationOf } from './entry.js';
import { agreesWith, impossibleResult, resultFromOutcome } from './results.js';
import { statusOf, type TournamentState } from './state.js';
import { canonicalJson } from '../canonical.js';

/** A self-contained export of a tournament: its stream and every game's own bundle (V10.1). */
export interface TournamentBundle {
  format: 'arbiter-tournament-bundle/1';
  tournament: { id: string; name: string; kind: string; format: string; status: string; seedCommitment: string; seed: string | null };
  hashAlgorithm: 'sha256(prevHash || RFC8785(event))';
  /** The head the service published: the stream must end there. */
  head: { seq: number; hash: string };
  events: StoredEvent[];
  /** The scheduled games and imported over-the-board records, each verifiable on its own. */
  games: Bundle[];
}

/** The games a tournament's bundle holds: every scheduled game, and every over-the-board record imported with a result. */
export function bundledGameIds(t: TournamentState): string[] {
  const ids = new Set<string>();
  for (const round of t.rounds)
    for (const board of round.boards) {
      for (const g of board.games) ids.add(g.gameId);
      for (const r of Object.values(board.results)) if (r.record) ids.add(r.record.gameId);
    }
  // R3.10: a record a participant attached to its report, accepted or not.
  for (const game of Object.values(t.reports ?? {})) for (const r of Object.values(game.reports)) if (r.record) ids.add(r.record.gameId);
  return [...ids];
}

/** A tournament's bundle: its stream as stored (`events`, ending at `t`'s head) and its games' own bundles. */
export function tournamentBundle(t: Folded<TournamentState>, events: StoredEvent[], games: Bundle[]): TournamentBundle {
  return {
    format: 'arbiter-tournament-bundle/1',
    tournament: { id: t.tournamentId, name: t.config.name, kind: t.config.kind, format: t.config.format, status: statusOf(t), seedCommitment: t.seedCommitment, seed: t.revealedSeed },
    hashAlgorithm: 'sha256(prevHash || RFC8785(event))',
    head: { seq: t.version, hash: t.lastHash },
    events,
    games,
  };
}

export interface TournamentVerdict {
  ok: boolean;
  eventsChecked: number;
  gamesChecked: number;
  /** The first tournament event that fails (by seq), if any. */
  badSeq: number | null;
  problem: string | null;
  summary: string;
  /** V10.4: the standings (or knockout placings) recomputed, when the stream is sound. */
  standings: { rank: number; participantId: string; name: string; tp: string | null; tieBreaks: { name: string; value: string | null }[] }[] | null;
}

/** Folds a tournament's stream: chain, configuration, every pairing recomputed, every lot checked against the seed once known. */
export function foldTournament(
  registry: EngineRegistry,
  id: string,
  events: readonly StoredEvent[],
  seed: string | null,
  opts: { recompute?: boolean; untilSeq?: number; from?: Folded<TournamentState> } = {},
): Folded<TournamentState> {
  return foldStream(tournamentAggregate, id, events, { registry, seed, recompute: opts.recompute ?? true }, { checkHashes: true, untilSeq: opts.untilSeq, from: opts.from });
}

/** How a game's bundle says it ended: its outcome, and whether the organizer decided it. */
const endOf = (bundle: Bundle): { outcome: Outcome; adjudicated: boolean } | null => {
  for (const e of bundle.events) {
    if (e.type !== 'GameEnded') continue;
    const decoded = decodeGameEvent(e);
    if (decoded.ok && decoded.value.type === 'GameEnded') return { outcome: decoded.value.payload.outcome, adjudicated: decoded.value.payload.adjudication !== undefined };
  }
  return null;
};
const outcomeOf = (bundle: Bundle): Outcome | null => endOf(bundle)?.outcome ?? null;

/**
 * V10.3, in order: the chain and the seed (1), every round recomputed (2), every result against
 * its game's own verified bundle, linked by the head it recorded (3), and the final ranking
 * recomputed with every lot (4). Names the first bad event.
 */
export function verifyTournamentBundle(registry: EngineRegistry, bundle: TournamentBundle): TournamentVerdict {
  const fail = (badSeq: number | null, problem: string, eventsChecked = 0, gamesChecked = 0): TournamentVerdict => ({
    ok: false,
    eventsChecked,
    gamesChecked,
    badSeq,
    problem,
    summary: `FAILED${badSeq ? ` at tournament event ${badSeq}` : ''}: ${problem}`,
    standings: null,
  });
  if (bundle?.format !== 'arbiter-tournament-bundle/1' || !Array.isArray(bundle.events) || !Array.isArray(bundle.games)) return fail(null, 'not an arbiter-tournament-bundle/1 file');
  const seed = bundle.tournament.seed ?? revealedSeed(bundle.events);
  const events = bundle.events.length;
  // Each game's own verdict first: a result is only as good as the game it comes from.
  const games = new Map<string, Bundle>();
  for (const g of bundle.games) {
    const verdict = verifyBundle(registry, g);
    if (!verdict.ok) return fail(null, `game ${g.game?.id}: ${verdict.summary}`, 0, games.size);
    games.set(g.game.id, g);
  }
  // Step 3 reads the results where they stand in the stream, so the first bad event is named
  // whichever check (the fold's or the games') finds it.
  const config = bundle.events[0]?.payload.config as TournamentState['config'] | undefined;
  let resultFailure: { seq: number; problem: string } | null = null;
  for (const e of bundle.events) {
    // A malformed event is the fold's to name.
    const decoded = decodeTournamentEvent(e);
    if (!config || !decoded.ok) continue;
    // A participant's report (R3.10) is checked as an entered result is: possible, and agreeing with its record.
    const v = decoded.value;
    const r = v.type === 'ResultReported' ? v.payload.result : v.type === 'ResultRecorded' || v.type === 'ResultCorrected' ? v.payload : null;
    if (!r) continue;
    // A result its game cannot end with is named by the rule it breaks, before what it contradicts.
    const problem =
      impossibleResult(registry.get(config.kind), config, r) ?? resultProblem(config, r, games) ?? (v.type === 'ResultRecorded' ? endProblem(config, bundle.tournament.id, r, games) : null);
    if (problem) {
      resultFailure = { seq: e.seq, problem: `${problem} (V10.3 step 3)` };
      break;
    }
  }
  let t: Folded<TournamentState>;
  try {
    t = foldTournament(registry, bundle.tournament.id, bundle.events, seed, resultFailure ? { untilSeq: resultFailure.seq - 1 } : {});
  } catch (err) {
    if (err instanceof StreamError) return fail(err.seq, err.message.replace(/^event \d+: /, ''), err.seq - 1, games.size);
    throw err;
  }
  if (resultFailure) return fail(resultFailure.seq, resultFailure.problem, resultFailure.seq - 1, games.size);
  if (bundle.head && (bundle.head.seq !== t.version || bundle.head.hash !== t.lastHash))
    return fail(t.version + 1, `the stream ends at ${t.version}, not at the published head ${bundle.head.seq} (events were cut or added)`, events);
  return { ok: true, eventsChecked: events, gamesChecked: games.size, badSeq: null, problem: null, summary: summaryOf(t, events, games.size), standings: standingsTable(t) };
}

function resultProblem(config: TournamentState['config'], r: GameResultPayload, games: Map<string, Bundle>): string | null {
  if (r.source === 'game') {
    const game = games.get(r.gameId);
    if (!game) return `the bundle lacks game ${r.gameId}, whose result this is`;
    if (!r.head || !game.events.some((e) => e.seq === r.head!.seq && e.hash === r.head!.hash)) return `game ${r.gameId}'s stream does not hold the head the result was taken at`;
    const outcome = outcomeOf(game);
    if (!outcome) return `game ${r.gameId} has no outcome`;
    const scheduled = { round: r.round, board: r.board, game: { gameId: r.gameId, seats: r.seats.map((s) => s.participantId) } };
    const expected = resultFromOutcome(config, scheduled, outcome, r.head);
    if (canonicalJson({ ...expected, reason: r.reason }) !== canonicalJson(r)) return `the result of game ${r.gameId} is not the game's own outcome (${outcome.summary})`;
    return null;
  }
  if (r.record) {
    const record = games.get(r.record.gameId);
    if (!record) return `the bundle lacks the record ${r.record.gameId} attached to game ${r.gameId}`;
    if (!record.events.some((e) => e.seq === r.record!.seq && e.hash === r.record!.hash)) return `the record ${r.record.gameId} does not end at the head the result names`;
    const outcome = outcomeOf(record);
    if (!outcome || !agreesWith(config, r, outcome)) return `the entered result of game ${r.gameId} disagrees with its attached record`;
  }
  return null;
}

/**
 * An organizer's result (not a correction, which replaces a result on purpose, R3.7) against the
 * end of the scheduled game it is for: the organizer's own adjudication with that result, or a
 * game ended by its play whose outcome the result agrees with.
 */
function endProblem(config: TournamentState['config'], tournamentId: string, r: GameResultPayload, games: Map<string, Bundle>): string | null {
  const game = r.source === 'organizer' ? games.get(r.gameId) : undefined;
  const end = game && endOf(game);
  if (!end) return null;
  const { outcome } = adjudicationOf(tournamentId, r);
  const agrees = end.adjudicated ? canonicalJson([outcome.winners, outcome.points]) === canonicalJson([end.outcome.winners, end.outcome.points]) : agreesWith(config, r, end.outcome);
  return agrees ? null : `the organizer's result of game ${r.gameId} contradicts the game's own end (${end.outcome.summary})`;
}

function revealedSeed(events: readonly StoredEvent[]): string | null {
  const finished = events.find((e) => e.type === 'TournamentFinished');
  const seed = finished?.payload.seed;
  return typeof seed === 'string' ? seed : null;
}

function summaryOf(t: TournamentState, events: number, games: number): string {
  const lots = t.revealedSeed ? ', every lot checked against the revealed seed' : '; provisional standings: ties a lot would split are shown shared until the seed is revealed';
  return `${t.config.name || t.tournamentId}: ${statusOf(t).toLowerCase()}, ${t.participants.length} participants, ${t.rounds.length} round(s) recomputed, ${events} events and ${games} game bundles verified${lots}`;
}

/** V10.4: the recomputed standings (lots as recorded), or the knockout placings. */
export function standingsTable(t: TournamentState): TournamentVerdict['standings'] {
  const name = (id: string) => t.participants.find((p) => p.id === id)?.name ?? id;
  if (isBracket(t.config.format)) {
    return placingsOf(t).map((p) => ({ rank: p.place, participantId: p.participantId, name: name(p.participantId), tp: null, tieBreaks: [] }));
  }
  // A finished tournament recorded every lot its ranking drew. Provisional standings draw none
  // offline (the seed is still secret): ties a lot would split are shown shared.
  const provisional = { ...t, config: { ...t.config, tieBreaks: t.config.tieBreaks.filter((b) => b !== 'LOTS') } };
  const rows = t.finished ? standingsOf(t, recordedLots(t), completedRounds(t)).rows : standingsOf(provisional, NO_LOTS, completedRounds(t)).rows;
  return rows.map((r) => ({
    rank: r.rank,
    participantId: r.participantId,
    name: name(r.participantId),
    tp: format(r.tp),
    tieBreaks: r.tieBreaks.map((b) => ({ name: b.name, value: b.value ? format(b.value) : null })),
  }));
}

const NO_LOTS: Lots = {
  uniform: () => {
    throw new RangeError('no lots offline before the seed is revealed');
  },
  shuffle: () => {
    throw new RangeError('no lots offline before the seed is revealed');
  },
};
