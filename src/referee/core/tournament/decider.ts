import { ok, type Result } from '../../../engines/kit/index.js';
import type { Aggregate, DraftEvent } from '../stream.js';
import { matchesIn } from './brackets.js';
import {
  type DecidingHost,
  type RecordingLots,
  refuse,
  type TournamentActor,
  type TournamentCommand,
  type TournamentDecideContext,
  type TournamentDecision,
  type TournamentEvolveContext,
} from './commands.js';
import { parseConfig } from './config.js';
import { decodeTournamentEvent, draftOf, ORGANIZER, type TournamentEvent } from './events.js';
import { evolve, found, lotKey } from './evolve.js';
import { decideBoard, eventOver, finalRanking } from './formats.js';
import { type LotDrawn, lotsCommitment, SeededLots } from './lots.js';
import { pairNextRound, setRoundSettings } from './pairing-commands.js';
import { registerParticipant, registerParticipants, withdrawParticipant } from './registration.js';
import { decideReport } from './reports.js';
import { recordResult } from './result-commands.js';
import { decideSchedule, scheduleNextRound, unfinishedRound } from './schedule.js';
import { boardOfGame, currentRound, participantById, type TournamentState } from './state.js';

/**
 * A tournament's decider (decide/evolve, as a game's): `decide` turns an organizer's or a
 * participant's command into events, `evolve` (evolve.ts) is the one transition both deciding and
 * folding go through. Each command family decides in its own file through the `Deciding` host.
 */

export { CORRECTION_LIMIT, PARTICIPANT_LIMIT } from './commands.js';
export type { TournamentActor, TournamentCommand, TournamentDecideContext, TournamentDecision, TournamentEvolveContext } from './commands.js';

export type TournamentAggregate = Aggregate<TournamentState, TournamentEvent, TournamentEvolveContext>;

export const tournamentAggregate: TournamentAggregate = {
  decode: decodeTournamentEvent,
  found,
  evolve,
  // A result may bring the lots it needed, a replay game, the next round's schedule (P2.11) and the tournament's end.
  follows: (type) => type === 'LotsDrawn' || type === 'GamesScheduled' || type === 'RoundPaired' || type === 'TournamentFinished' || type === 'ResultRecorded' || type === 'RoundScheduled',
};

/** The events a command causes, or a typed refusal; nothing is decided from a refused command. */
export function decideTournament(
  command: TournamentCommand,
  t: TournamentState | null,
  ctx: TournamentDecideContext,
  evolveCtx: Omit<TournamentEvolveContext, 'recompute' | 'seed'>,
): Result<TournamentDecision> {
  const d = new Deciding(t, ctx, { ...evolveCtx, seed: null, recompute: false });
  if (command.type === 'CreateTournament') {
    if (t) return refuse('INVALID_INPUT', 'the tournament exists');
    const config = parseConfig(command.config, evolveCtx.registry);
    if (!config.ok) return config;
    const founded = found(command.tournamentId, { type: 'TournamentCreated', payload: { config: config.value, seedCommitment: lotsCommitment(ctx.seed) } }, d.ctx);
    if (!founded.ok) return founded;
    d.state = founded.value;
    d.drafts.push(draftOf({ type: 'TournamentCreated', payload: { config: config.value, seedCommitment: lotsCommitment(ctx.seed) } }, ctx.now, ORGANIZER));
    return d.done();
  }
  if (!t) return refuse('NOT_FOUND', 'no such tournament');
  if (t.finished) return refuse(...finishedRefusal(t, command));
  return d.run(command);
}

/** Why a finished tournament refuses a command: an entry for a game with its result (which may be what finished it) is told that first. */
function finishedRefusal(t: TournamentState, command: TournamentCommand): [string, string] {
  if (command.type === 'RecordResult' && !command.correction && boardOfGame(t, command.result.gameId)?.board.results[command.result.gameId])
    return ['RESULT_ALREADY_RECORDED', `game ${command.result.gameId} already has its result, and the tournament is over`];
  return ['TOURNAMENT_FINISHED', 'the tournament is over'];
}

class Deciding implements DecidingHost {
  readonly drafts: DraftEvent[] = [];
  state: TournamentState;

  constructor(
    t: TournamentState | null,
    readonly decide: TournamentDecideContext,
    readonly ctx: TournamentEvolveContext,
  ) {
    this.state = t as TournamentState;
  }

  get organizer(): boolean {
    return this.decide.actor.role === 'organizer' || this.decide.actor.role === 'referee';
  }

  private get actorNumber(): number | null {
    const a = this.decide.actor;
    if (a.role === 'referee') return null;
    return a.role === 'organizer' ? ORGANIZER : (participantById(this.state, a.participantId)?.registrationNo ?? ORGANIZER);
  }

  get now(): string {
    return this.decide.now;
  }

  get actor(): TournamentActor {
    return this.decide.actor;
  }

  run(command: Exclude<TournamentCommand, { type: 'CreateTournament' }>): Result<TournamentDecision> {
    const t = this.state;
    switch (command.type) {
      case 'RegisterParticipant':
        return registerParticipant(this, command);
      case 'RegisterParticipants':
        return registerParticipants(this, command);
      case 'ReportResult':
      case 'SettleDispute': {
        // R3.10, R3.11: a report (and the dispute it opens), or a settlement, then the result they record.
        const d = decideReport(t, command, this.decide.actor, this.ctx);
        const applied = d.ok ? this.applyAll(d.value.events) : d;
        if (!applied.ok || !d.ok) return applied;
        return d.value.result ? recordResult(this, d.value.result, false, true) : this.done();
      }
      case 'WithdrawParticipant':
        return withdrawParticipant(this, command.participantId, command.reason);
      case 'SetRoundSettings':
        return setRoundSettings(this, command.settings);
      case 'PairRound':
        return this.pair(command.round);
      case 'RecordResult':
        return recordResult(this, command.result, command.correction);
      case 'FinishTournament': {
        // Finishing freezes the standings and reveals the seed: the organizer's act alone.
        if (!this.organizer) return refuse('FORBIDDEN', 'only the organizer finishes a tournament');
        if (!currentRound(t)) return refuse('ROUND_NOT_FINISHED', 'no round was played');
        const open = unfinishedRound(t);
        if (open) return refuse('ROUND_NOT_FINISHED', `round ${open.round} still has games without a result`);
        return this.finish();
      }
      case 'CheckIn':
      case 'RunSchedule':
        return decideSchedule(this, command);
    }
  }

  pair(requested: number | null): Result<TournamentDecision> {
    return pairNextRound(this, requested);
  }

  /** After a result: a knockout match may need another game; the last round's last result ends the tournament. */
  afterResult(): Result<TournamentDecision> {
    const t = this.state;
    const round = currentRound(t);
    if (!round) return this.done();
    if (matchesIn(t, round.round)) {
      for (const board of round.boards) {
        if (board.winner !== undefined || board.games.some((g) => !board.results[g.gameId])) continue;
        const d = decideBoard(t, board, this.recordingLots());
        if (!d.ok) return d;
        if (d.value.kind === 'NEXT_GAME') {
          const r = this.apply({ type: 'GamesScheduled', payload: { round: round.round, board: board.board, games: [{ gameId: this.decide.newGameId(), seats: d.value.seats }] } });
          if (!r.ok) return r;
        }
      }
    }
    if (eventOver(this.state) && !unfinishedRound(this.state)) return this.finish();
    return scheduleNextRound(this);
  }

  private finish(): Result<TournamentDecision> {
    const lots = this.recordingLots();
    const ranking = finalRanking(this.state, lots);
    for (const lot of lots.drawn) {
      const r = this.apply({ type: 'LotsDrawn', payload: lot });
      if (!r.ok) return r;
    }
    const r = this.apply({ type: 'TournamentFinished', payload: { seed: this.decide.seed, ranking } });
    if (!r.ok) return r;
    return this.done();
  }

  /** Lots drawn from the seed, each kept to be recorded as a LotsDrawn event. */
  recordingLots(): RecordingLots {
    const seeded = new SeededLots(this.decide.seed, this.state.tournamentId);
    const drawn: LotDrawn[] = [];
    return {
      drawn,
      uniform(label: string, k: number): number {
        const result = seeded.uniform(label, k);
        drawn.push({ label, k, result });
        return result;
      },
      shuffle<T>(label: string, items: readonly T[]): T[] {
        const result = seeded.shuffle(label, items);
        drawn.push({ label, input: items.map(lotKey), result: result.map(lotKey) });
        return result;
      },
    };
  }

  applyAll(events: readonly TournamentEvent[]): Result<TournamentDecision> {
    for (const e of events) {
      const r = this.apply(e);
      if (!r.ok) return r;
    }
    return this.done();
  }

  /** Evolves through one event and keeps it; answers the refusal if evolve refuses it. */
  apply(e: TournamentEvent): Result<TournamentDecision> {
    const draft = draftOf(e, this.decide.now, this.actorNumber);
    const next = evolve(this.state, e, draft, this.ctx);
    if (!next.ok) return next;
    this.state = next.value;
    this.drafts.push(draft);
    return this.done();
  }

  done(): Result<TournamentDecision> {
    return ok({ state: this.state, drafts: this.drafts });
  }
}
