/**
 * Tournament pairing and standings at scale: `npm run bench -- bench/tournaments.js [--participants 1000] [--rounds 9]`.
 * Builds a Swiss tournament in process through the pure formats (random ratings, random results
 * with a few draws, no games), and times
 * - pairing each round (S5: the target is under 1 s for a round of 1,000 participants);
 * - the standings after the last round with the default Swiss tie-breaks (TB8: target under 100 ms);
 * - a whole tournament aggregate folded from its stream with every pairing recomputed (what the
 *   offline verifier does).
 * Each figure is the median of several runs; the first (cold) run is shown apart.
 */
import { parseArgs } from 'node:util';
import { createRegistry } from '../src/games/index.js';
import { seededRandom } from '../src/engines/kit/index.js';
import { foldTournament } from '../src/referee/core/tournament/audit.js';
import { decideTournament, tournamentAggregate } from '../src/referee/core/tournament/decider.js';
import { standingsOf } from '../src/referee/core/tournament/formats.js';
import { historyOf, pointsOf } from '../src/referee/core/tournament/history.js';
import { SeededLots } from '../src/referee/core/tournament/lots.js';
import { resultFromOutcome } from '../src/referee/core/tournament/results.js';
import type { TournamentState } from '../src/referee/core/tournament/state.js';
import { pairSwiss } from '../src/referee/core/tournament/swiss.js';
import { advanceHead, chainEvents, emptyHead, type Folded, type StoredEvent } from '../src/referee/core/stream.js';

const { values } = parseArgs({ options: { participants: { type: 'string', default: '1000' }, rounds: { type: 'string', default: '9' } } });
const N = Number(values.participants);
const ROUNDS = Number(values.rounds);
const SEED = 'ab'.repeat(32);
const registry = createRegistry();
const below = seededRandom(42);
/** A uniform number in [0, 1). */
const random = () => below(1_000_000) / 1_000_000;

const ms = (start: bigint) => Number(process.hrtime.bigint() - start) / 1e6;
const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];

/** A Swiss tournament of N participants played through `rounds` rounds by its decider. */
function play(rounds: number): { t: Folded<TournamentState>; events: StoredEvent[]; pairMs: number[] } {
  let games = 0;
  const ctx = { now: '2026-11-30T12:00:00.000Z', seed: SEED, newGameId: () => `g${++games}`, actor: { role: 'organizer' } as const };
  const step = (t: Folded<TournamentState> | null, command: Parameters<typeof decideTournament>[0]) => {
    const decided = decideTournament(command, t, ctx, { registry });
    if (!decided.ok) throw new Error(decided.error.message);
    const head = t ?? emptyHead();
    const events = chainEvents('t-bench', head, decided.value.drafts);
    return { t: { ...decided.value.state, ...advanceHead(head, events, tournamentAggregate.follows) }, events };
  };
  let { t, events } = step(null, { type: 'CreateTournament', tournamentId: 't-bench', config: { kind: 'backgammon', ruleset: { matchLength: 1 }, format: 'swiss', rounds } });
  const all = [...events];
  for (let i = 1; i <= N; i++) {
    ({ t, events } = step(t, { type: 'RegisterParticipant', participantId: `p${i}`, name: `P${i}`, rating: 1000 + Math.floor(random() * 1500) }));
    all.push(...events);
  }
  const pairMs: number[] = [];
  for (let r = 1; r <= rounds; r++) {
    const start = process.hrtime.bigint();
    ({ t, events } = step(t, { type: 'PairRound', round: r }));
    pairMs.push(ms(start));
    all.push(...events);
    for (const board of t.rounds[r - 1].boards) {
      for (const game of board.games) {
        const draw = random() < 0.05;
        const winner = random() < 0.5 ? 0 : 1;
        const outcome = draw ? { winners: [0, 1], points: [1, 1] } : { winners: [winner], points: winner === 0 ? [1, 0] : [0, 1] };
        ({ t, events } = step(t, { type: 'RecordResult', correction: false, result: resultFromOutcome(t.config, { round: r, board: board.board, game }, outcome, { seq: 1, hash: 'x' }) }));
        all.push(...events);
      }
    }
  }
  return { t, events: all, pairMs };
}

console.log(`Swiss, ${N} participants, ${ROUNDS} rounds (each round's pairing through the tournament's decider, which also evolves the state)`);
const { t, events, pairMs } = play(ROUNDS);
console.log(`pairing per round (ms): ${pairMs.map((x) => x.toFixed(0)).join(', ')}; slowest ${Math.max(...pairMs).toFixed(0)} ms`);

// The pairing function alone, for round ROUNDS from the state before it (the decider adds event bookkeeping).
const before = t.rounds.length - 1;
const history = historyOf(t, before);
const runs: number[] = [];
for (let i = 0; i < 7; i++) {
  const start = process.hrtime.bigint();
  const paired = pairSwiss({ round: before + 1, participants: t.participants, history, tp: pointsOf(history), forbidden: [], manual: { pairings: [], bye: null }, absent: [], requestedByes: [] });
  runs.push(ms(start));
  if (!paired.ok) throw new Error(paired.error.message);
}
console.log(`pairSwiss, round ${before + 1} of ${N}: cold ${runs[0].toFixed(1)} ms, median ${median(runs.slice(1)).toFixed(1)} ms (target < 1000 ms)`);

const standings: number[] = [];
for (let i = 0; i < 7; i++) {
  const start = process.hrtime.bigint();
  standingsOf(t, new SeededLots(SEED, t.tournamentId));
  standings.push(ms(start));
}
console.log(`standings after ${ROUNDS} rounds, ${t.config.tieBreaks.join(', ')}: cold ${standings[0].toFixed(1)} ms, median ${median(standings.slice(1)).toFixed(1)} ms (target < 100 ms)`);

const start = process.hrtime.bigint();
const refolded = foldTournament(registry, t.tournamentId, events, SEED);
console.log(`verifier's fold of ${events.length} events, every pairing recomputed and every hash checked: ${ms(start).toFixed(0)} ms (${refolded.finished ? 'finished' : 'not finished'})`);
