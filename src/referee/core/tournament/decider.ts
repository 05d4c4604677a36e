import { fail, ok, type Result } from '../../../engines/kit/index.js';
import { canonicalJson } from '../canonical.js';
import type { EngineRegistry } from '../engine-registry.js';
import { type Aggregate, type DraftEvent, MALFORMED, type StoredEvent } from '../stream.js';
import { isCompleteConfig, parseConfig, type TournamentConfigInput } from './config.js';
import { type BoardPlan, decodeTournamentEvent, draftOf, type GameResultPayload, ORGANIZER, type RatingTaken, type RoundSettings, type TournamentEvent } from './events.js';
import { bracketStands, matchesIn } from './brackets.js';
import { decideBoard, eventOver, finalRanking, pairRound, type Pairing as RoundPairing, totalRoundsFor } from './formats.js';
import { roundComplete } from './history.js';
import { type LotDrawn, type Lots, lotsCommitment, SeededLots } from './lots.js';
import { impossibleResult, resultShapeProblem } from './results.js';
import {
  decideSchedule,
  evolveSchedule,
  foundSchedule,
  pairedTooEarly,
  playedRounds,
  type ScheduleCommand,
  type ScheduleHost,
  scheduleNextRound,
  selfRegistrationRefused,
  unfinishedRound,
} from './schedule.js';
import { extrasProblem, type RegistrationExtras, withRegisteredByes } from './bulk.js';
import { matchForfeits } from './match-forfeits.js';
import { decideReport, evolveReport, type ReportCommand, reportsAfterResult, resultAgainstReports, settlementBy } from './reports.js';
import { type BoardState, currentRound, participantById, type RoundState, type TournamentState, withdrawnBefore } from './state.js';

/**
 * A tournament's decider (decide/evolve, as a game's): `decide` turns an organizer's or a
 * participant's command into events, `evolve` is the one transition both deciding and folding
 * go through. Folding with `recompute` recomputes every pairing, table, bracket step and the
 * final ranking and refuses a stream whose recorded ones differ (V10.3).
 */

/** Participants one tournament takes (docs/rules/tournaments.md §P2.8): each adds its games to every pairing. */
export const PARTICIPANT_LIMIT = 1000;
/** Corrections one board's results take (docs/rules/tournaments.md §R3.8): each may import a record and close a game. */
export const CORRECTION_LIMIT = 10;

/** The referee: a scheduled tournament's own steps (P2.9-P2.11), with the organizer's say, recorded with the actor null. */
export type TournamentActor = { role: 'organizer' } | { role: 'participant'; participantId: string } | { role: 'referee' };

export type TournamentCommand =
  | { type: 'CreateTournament'; tournamentId: string; config: TournamentConfigInput }
  /** `player`: the player registering (its games' seats are bound to it); absent: anonymous. */
  | ({ type: 'RegisterParticipant'; participantId: string; name: string; rating: number; player?: string | null; ratingFrom?: RatingTaken | null } & RegistrationExtras)
  /** Many at once, all or none (bulk.ts). */
  | { type: 'RegisterParticipants'; entries: Omit<Extract<TournamentCommand, { type: 'RegisterParticipant' }>, 'type'>[] }
  | ReportCommand
  | { type: 'WithdrawParticipant'; participantId: string; reason: string | null }
  | { type: 'SetRoundSettings'; settings: RoundSettings }
  | { type: 'PairRound'; round: number | null }
  | { type: 'RecordResult'; result: GameResultPayload; correction: boolean }
  | { type: 'FinishTournament' }
  | ScheduleCommand;

export interface TournamentDecideContext {
  now: string;
  /** The tournament's secret seed (hex): lots are drawn from it and it is revealed at the end. */
  seed: string;
  /** Ids for the games a pairing schedules (made by the application: random, not derived). */
  newGameId: () => string;
  actor: TournamentActor;
}

export interface TournamentEvolveContext {
  registry: EngineRegistry;
  /** The secret seed when known (the service's own, or revealed): lots are checked against it. */
  seed: string | null;
  /** Recompute pairings, tables, brackets and the final ranking and compare (folding, verifying). */
  recompute: boolean;
}

export interface TournamentDecision {
  state: TournamentState;
  drafts: DraftEvent[];
}

export type TournamentAggregate = Aggregate<TournamentState, TournamentEvent, TournamentEvolveContext>;

export const tournamentAggregate: TournamentAggregate = {
  decode: decodeTournamentEvent,
  found,
  evolve,
  // A result may bring the lots it needed, a replay game, the next round's schedule (P2.11) and the tournament's end.
  follows: (type) => type === 'LotsDrawn' || type === 'GamesScheduled' || type === 'RoundPaired' || type === 'TournamentFinished' || type === 'ResultRecorded' || type === 'RoundScheduled',
};

const broken = (message: string): Result<never> => fail(MALFORMED, message);

function found(tournamentId: string, first: TournamentEvent, ctx: TournamentEvolveContext): Result<TournamentState> {
  if (first.type !== 'TournamentCreated') return broken(`the first event must be TournamentCreated, found ${first.type}`);
  const { config, seedCommitment } = first.payload;
  if (!isCompleteConfig(config, ctx.registry)) return broken('the configuration is not in its complete, validated form');
  if (ctx.seed !== null && lotsCommitment(ctx.seed) !== seedCommitment) return broken('the seed does not match the published commitment (L9.1)');
  return ok({
    tournamentId,
    config,
    seedCommitment,
    revealedSeed: null,
    participants: [],
    settings: {},
    rounds: [],
    totalRounds: config.rounds,
    lots: [],
    finished: false,
    ranking: null,
    ...foundSchedule(config.schedule),
  });
}

/** The tournament after one event, or the rule the event breaks. */
export function evolve(t: TournamentState, e: TournamentEvent, stored: Pick<StoredEvent, 'type' | 'actor' | 'createdAt'>, ctx: TournamentEvolveContext): Result<TournamentState> {
  try {
    return evolveChecked(t, e, stored, ctx);
  } catch (err) {
    if (err instanceof MissingLot) return broken(err.message);
    throw err;
  }
}

function evolveChecked(t: TournamentState, e: TournamentEvent, stored: Pick<StoredEvent, 'type' | 'actor' | 'createdAt'>, ctx: TournamentEvolveContext): Result<TournamentState> {
  if (t.finished) return broken('no event may follow TournamentFinished');
  switch (e.type) {
    case 'TournamentCreated':
      return broken('TournamentCreated may only start the stream');
    case 'ParticipantRegistered': {
      const { participantId, ...rest } = e.payload;
      const p = e.payload;
      if (participantById(t, p.participantId)) return broken(`participant ${p.participantId} is registered twice`);
      if (p.registrationNo !== t.participants.length + 1) return broken(`the next registration number is ${t.participants.length + 1} (P2.1)`);
      if (p.entryRound !== t.rounds.length + 1) return broken(`a participant registered now enters in round ${t.rounds.length + 1}`);
      return ok({
        ...t,
        participants: [
          ...t.participants,
          // The player, external id and requested byes, as far as given.
          { id: participantId, withdrawnAfterRound: null, ...rest },
        ],
      });
    }
    case 'ParticipantWithdrawn': {
      const p = participantById(t, e.payload.participantId);
      if (!p) return broken('no such participant');
      if (p.withdrawnAfterRound !== null) return broken('the participant has already withdrawn');
      if (e.payload.afterRound !== t.rounds.length) return broken(`a withdrawal now takes effect after round ${t.rounds.length} (P2.3)`);
      return ok({ ...t, participants: t.participants.map((x) => (x.id === p.id ? { ...x, withdrawnAfterRound: e.payload.afterRound } : x)) });
    }
    case 'RoundSettingsSet': {
      if (e.payload.round !== t.rounds.length + 1) return broken(`settings are for the next round to pair (${t.rounds.length + 1})`);
      return ok({ ...t, settings: { ...t.settings, [e.payload.round]: e.payload } });
    }
    case 'LotsDrawn': {
      if (ctx.seed !== null && !lotMatchesSeed(e.payload, ctx.seed, t.tournamentId)) return broken(`the lot ${e.payload.label} is not the one the seed gives (L9.2)`);
      return ok({ ...t, lots: [...t.lots, e.payload] });
    }
    case 'RoundPaired': {
      const p = e.payload;
      if (p.round !== t.rounds.length + 1) return broken(`expected round ${t.rounds.length + 1}`);
      const previous = currentRound(t);
      if (previous && !roundComplete(t, previous) && !t.config.schedule?.scheduleAll) return broken(`round ${previous.round} was paired before round ${previous.round - 1} was finished`);
      if (t.totalRounds !== null && p.round > t.totalRounds) return broken(`the tournament has ${t.totalRounds} rounds`);
      const early = pairedTooEarly(t, p.round, stored);
      if (early) return broken(early);
      if (ctx.recompute) {
        const again = pairRound(t, recordedLots(t));
        if (!again.ok) return broken(`round ${p.round} cannot be paired again: ${again.error.message}`);
        const mismatch = samePairing(again.value, p);
        if (mismatch) return broken(`round ${p.round}: ${mismatch}`);
      }
      const round: RoundState = {
        round: p.round,
        boards: p.boards.map((b) => boardState(t, p.round, b)),
        byes: p.byes,
        rest: p.rest,
        warnings: p.warnings,
        absent: t.settings[p.round]?.absent ?? [],
        requestedByes: t.settings[p.round]?.requestedByes ?? [],
        ...(p.order ? { order: p.order } : {}),
      };
      const totalRounds = t.totalRounds ?? totalRoundsFor(t, p.order ?? []);
      return ok({ ...t, rounds: [...t.rounds, round], totalRounds });
    }
    case 'GamesScheduled': {
      const found = boardAt(t, e.payload.round, e.payload.board);
      if (!found) return broken('no such board');
      const decision = decideBoard(t, found.board, recordedLots(t));
      if (!decision.ok) return broken(decision.error.message);
      if (decision.value.kind !== 'NEXT_GAME') return broken('a game was scheduled for a match that needs none');
      const seats = e.payload.games.map((g) => g.seats);
      if (seats.length !== 1 || canonicalJson(seats[0]) !== canonicalJson(decision.value.seats)) return broken(`the match's next game seats ${decision.value.seats.join(' v ')} (K6.6, K6.7)`);
      return ok(replaceBoard(t, found.round, { ...found.board, games: [...found.board.games, ...e.payload.games] }));
    }
    case 'ResultRecorded':
    case 'ResultCorrected':
      return recorded(t, e.payload, e.type === 'ResultCorrected', ctx, stored.actor);
    case 'ResultReported':
    case 'ResultDisputed':
    case 'DisputeSettled':
      return evolveReport(t, e, stored, ctx.registry);
    case 'TournamentFinished': {
      if (lotsCommitment(e.payload.seed) !== t.seedCommitment) return broken('the revealed seed does not match the published commitment (L9.1)');
      if (ctx.seed !== null && ctx.seed !== e.payload.seed) return broken("the revealed seed is not the tournament's seed");
      for (const lot of t.lots) if (!lotMatchesSeed(lot, e.payload.seed, t.tournamentId)) return broken(`the lot ${lot.label} is not the one the revealed seed gives (L9.2)`);
      const open = unfinishedRound(t);
      if (open) return broken(`the tournament finished while round ${open.round} was being played`);
      if (ctx.recompute) {
        const ranking = finalRanking(t, recordedLots(t));
        if (canonicalJson(ranking) !== canonicalJson(e.payload.ranking)) return broken('the final ranking is not the one the standings give (V10.3 step 4)');
      }
      return ok({ ...t, finished: true, revealedSeed: e.payload.seed, ranking: e.payload.ranking });
    }
    case 'RegistrationOpened':
    case 'RegistrationClosed':
    case 'CheckInOpened':
    case 'ParticipantCheckedIn':
    case 'CheckInClosed':
    case 'RoundScheduled':
      return evolveSchedule(t, e, stored);
  }
}

function boardState(t: TournamentState, round: number, b: BoardPlan): BoardState {
  const board: BoardState = { ...b, results: {} };
  if (!matchesIn(t, round) || b.games.length > 0) return board;
  // K6.5: a match facing an empty slot is over before it starts; K6.8: so is a walkover. Whoever
  // withdrew forfeits it, so from a bye or a match between two who withdrew nobody goes through.
  const through = b.seats.filter((s) => s !== b.walkover && !withdrawnBefore(t, s, round));
  return { ...board, winner: through.length === 1 ? through[0] : null };
}

function boardAt(t: TournamentState, round: number, board: number): { round: RoundState; board: BoardState } | null {
  const r = t.rounds[round - 1];
  const b = r?.boards.find((x) => x.board === board);
  return r && b ? { round: r, board: b } : null;
}

function replaceBoard(t: TournamentState, round: RoundState, board: BoardState): TournamentState {
  const next: RoundState = { ...round, boards: round.boards.map((b) => (b.board === board.board ? board : b)) };
  return { ...t, rounds: t.rounds.map((r) => (r.round === round.round ? next : r)) };
}

function recorded(t: TournamentState, result: GameResultPayload, correction: boolean, ctx: TournamentEvolveContext, actor: number | null): Result<TournamentState> {
  const found = boardAt(t, result.round, result.board);
  if (!found) return fail('NOT_IN_TOURNAMENT', `round ${result.round} has no board ${result.board}`);
  const { round, board } = found;
  const game = board.games.find((g) => g.gameId === result.gameId);
  if (!game) return fail('NOT_IN_TOURNAMENT', `game ${result.gameId} is not scheduled on board ${result.board} of round ${result.round}`);
  const earlier = board.results[result.gameId];
  if (!correction && earlier) return fail('RESULT_ALREADY_RECORDED', `game ${result.gameId} already has its result; correct it with a reason instead`);
  if (correction && !earlier) return fail('NO_RESULT_TO_CORRECT', `game ${result.gameId} has no result to correct`);
  if (correction && !result.reason) return fail('INVALID_INPUT', 'a correction needs a reason (P2.7)');
  if (correction && bracketStands(t, round.round)) return fail('ROUND_ALREADY_PAIRED', 'the next knockout round is paired: its bracket stands (R3.7)');
  const shape = resultShapeProblem(t, game.seats, result) ?? impossibleResult(ctx.registry.get(t.config.kind), t.config, result);
  if (shape) return fail('INVALID_RESULT', shape);
  const unreported = resultAgainstReports(t, result, actor);
  if (unreported) return broken(unreported);
  t = reportsAfterResult(t, result.gameId);
  let next: BoardState = { ...board, results: { ...board.results, [result.gameId]: result }, ...(correction ? { corrections: (board.corrections ?? 0) + 1 } : {}) };
  if (matchesIn(t, round.round)) {
    const decision = decideBoard(t, next, recordedLots(t));
    if (!decision.ok) return broken(decision.error.message);
    next = decision.value.kind === 'DECIDED' ? { ...next, winner: decision.value.winner } : { ...next, winner: undefined };
  }
  return ok(replaceBoard(t, round, next));
}

/** Lots as recorded in the stream: pairing and standings recomputed offline take the recorded draws (checked against the seed once known). */
export function recordedLots(t: TournamentState): Lots {
  const find = (label: string) => t.lots.find((l) => l.label === label);
  return {
    uniform(label: string, k: number): number {
      const lot = find(label);
      if (!lot || lot.k !== k || typeof lot.result !== 'number') throw new MissingLot(label);
      return lot.result;
    },
    shuffle<T>(label: string, items: readonly T[]): T[] {
      const lot = find(label);
      if (!lot || !Array.isArray(lot.result) || !lot.input) throw new MissingLot(label);
      const keys = items.map(lotKey);
      if (canonicalJson(keys) !== canonicalJson(lot.input)) throw new MissingLot(label);
      return (lot.result as (string | number)[]).map((k) => items[keys.indexOf(k)]);
    },
  };
}

/** Lots name participants by id, standings' by registration number: both are recorded as given. */
const lotKey = (item: unknown): string | number => (typeof item === 'object' && item !== null && 'id' in item ? (item as { id: string }).id : (item as string | number));

class MissingLot extends Error {
  constructor(label: string) {
    super(`the lot ${label} is not recorded before the event that needs it (L9.5)`);
  }
}

function lotMatchesSeed(lot: LotDrawn, seed: string, tournamentId: string): boolean {
  const lots = new SeededLots(seed, tournamentId);
  if (lot.input) return canonicalJson(lots.shuffle(lot.label, lot.input)) === canonicalJson(lot.result);
  return lot.k !== undefined && lots.uniform(lot.label, lot.k) === lot.result;
}

/** What differs between a recorded pairing and the one recomputed, or null. */
function samePairing(again: RoundPairing, p: { boards: BoardPlan[]; byes: string[]; rest: string | null; order?: string[] }): string | null {
  const seatsOf = (boards: { seats: string[]; walkover: string | null }[]) => canonicalJson(boards.map((b) => [b.seats, b.walkover]));
  if (seatsOf(again.boards) !== seatsOf(p.boards)) return 'the boards and seats are not the ones the pairing rules give';
  if (canonicalJson(again.byes) !== canonicalJson(p.byes)) return 'the byes are not the ones the pairing rules give';
  if (again.rest !== p.rest) return 'the resting participant is not the one the schedule gives (RR4.4)';
  if (canonicalJson(again.order ?? null) !== canonicalJson(p.order ?? null)) return 'the pairing numbers or seeds are not the ones the lots give';
  const gameSeats = p.boards.map((b) => b.games.map((g) => g.seats));
  if (canonicalJson(gameSeats) !== canonicalJson(again.boards.map((b) => b.games))) return "the games' seats are not the ones the rules give (K6.6)";
  return null;
}

// ------------------------------------------------------------------ decide

/** Refusals a decider gives: a typed code and a message a person can act on. */
const refuse = (code: string, message: string): Result<never> => fail(code, message);

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
  if (t.finished) return refuse('TOURNAMENT_FINISHED', 'the tournament is over');
  return d.run(command);
}

class Deciding implements ScheduleHost<TournamentDecision> {
  readonly drafts: DraftEvent[] = [];
  state: TournamentState;

  constructor(
    t: TournamentState | null,
    private readonly decide: TournamentDecideContext,
    readonly ctx: TournamentEvolveContext,
  ) {
    this.state = t as TournamentState;
  }

  private get organizer(): boolean {
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
      case 'RegisterParticipant': {
        if (!this.organizer && !t.config.openRegistration) return refuse('FORBIDDEN', 'registration is by the organizer only');
        const outsideWindow = this.organizer ? null : selfRegistrationRefused(t, this.decide.now);
        if (outsideWindow) return outsideWindow;
        const paired = t.rounds.length;
        if (paired > 0 && !['swiss', 'tables'].includes(t.config.format)) return refuse('REGISTRATION_CLOSED', `a ${t.config.format} tournament takes no entries after round 1 is paired (P2.2)`);
        if (paired > 0 && !this.organizer) return refuse('REGISTRATION_CLOSED', 'registration closed when round 1 was paired; a late entry is added by the organizer (P2.1, P2.2)');
        if (t.totalRounds !== null && paired >= t.totalRounds) return refuse('REGISTRATION_CLOSED', 'every round is paired');
        if (t.participants.length >= PARTICIPANT_LIMIT) return refuse('TOO_MANY_PARTICIPANTS', `a tournament takes at most ${PARTICIPANT_LIMIT} participants (P2.8)`);
        const { player, externalId, requestedByes } = command;
        if (player && t.participants.some((p) => p.player === player)) return refuse('PLAYER_ALREADY_SEATED', 'this player is a participant of this tournament already');
        const extras = extrasProblem(t, command);
        if (!extras.ok) return extras;
        return this.apply({
          type: 'ParticipantRegistered',
          payload: {
            participantId: command.participantId,
            registrationNo: t.participants.length + 1,
            name: command.name,
            rating: command.rating,
            entryRound: paired + 1,
            ...(player ? { player } : {}),
            ...(command.ratingFrom ? { ratingFrom: command.ratingFrom } : {}),
            ...(externalId ? { externalId } : {}),
            ...(requestedByes?.length ? { requestedByes } : {}),
          },
        });
      }
      case 'RegisterParticipants': {
        if (!this.organizer) return refuse('FORBIDDEN', 'the organizer registers participants in bulk');
        for (const entry of command.entries) {
          const r = this.run({ type: 'RegisterParticipant', ...entry });
          if (!r.ok) return r;
        }
        return this.done();
      }
      case 'ReportResult':
      case 'SettleDispute': {
        // R3.10, R3.11: a report (and the dispute it opens), or a settlement, then the result they record.
        const d = decideReport(t, command, this.decide.actor, this.ctx);
        const applied = d.ok ? this.applyAll(d.value.events) : d;
        if (!applied.ok || !d.ok) return applied;
        return d.value.result ? this.record(d.value.result, false, true) : this.done();
      }
      case 'WithdrawParticipant':
        return this.withdraw(command.participantId, command.reason);
      case 'SetRoundSettings':
        return this.settings(command.settings);
      case 'PairRound':
        return this.pair(command.round);
      case 'RecordResult':
        return this.record(command.result, command.correction);
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

  private withdraw(participantId: string, reason: string | null): Result<TournamentDecision> {
    const t = this.state;
    const p = participantById(t, participantId);
    if (!p) return refuse('NOT_IN_TOURNAMENT', `participant ${participantId} is not in this tournament`);
    if (!this.organizer && !(t.config.selfWithdrawal && this.decide.actor.role === 'participant' && this.decide.actor.participantId === participantId)) {
      return refuse('FORBIDDEN', 'only the organizer withdraws participants here');
    }
    if (p.withdrawnAfterRound !== null) return refuse('ALREADY_WITHDRAWN', `${p.name} withdrew after round ${p.withdrawnAfterRound}`);
    const refused = this.apply({ type: 'ParticipantWithdrawn', payload: { participantId, afterRound: t.rounds.length, reason } });
    if (!refused.ok) return refused;
    // P2.4: each game of the current round it has not played is its forfeit loss, every game of a
    // knockout match included (K6.8: the first decides the match, docs/rules/tournaments.md §K6.8).
    // They are all recorded before the round goes on, which may end the tournament.
    // A table plays on without them: the organizer records the table's result (R3.5).
    // Every round of a round-robin scheduled at once is being played (P2.11): each forfeits its unplayed games.
    const rounds = t.config.format === 'tables' ? [] : playedRounds(this.state);
    if (rounds.length === 0) return this.done();
    for (const round of rounds)
      for (const board of round.boards) {
        for (const game of board.games) {
          if (!game.seats.includes(participantId) || board.results[game.gameId]) continue;
          const forfeit = forfeitResult(this.state, round.round, board.board, game, participantId, reason ?? 'withdrawn (P2.4)');
          const r = this.apply({ type: 'ResultRecorded', payload: forfeit });
          if (!r.ok) return r;
        }
      }
    return this.afterResult();
  }

  private settings(s: RoundSettings): Result<TournamentDecision> {
    const t = this.state;
    if (!this.organizer) return refuse('FORBIDDEN', 'only the organizer sets a round up');
    if (s.round !== t.rounds.length + 1) return refuse('ROUND_ALREADY_PAIRED', `settings are for the next round to pair, round ${t.rounds.length + 1}`);
    const known = new Set(t.participants.map((p) => p.id));
    const named = [
      ...s.manualPairings.flatMap((p) => [p.a, p.b, ...(p.seats ?? [])]),
      ...(s.manualBye ? [s.manualBye] : []),
      ...s.manualTables.flat(),
      ...s.absent,
      ...s.requestedByes,
      ...s.forbiddenPairs.flat(),
      ...(s.seeds ?? []),
    ];
    const stranger = named.find((id) => !known.has(id));
    if (stranger) return refuse('NOT_IN_TOURNAMENT', `participant ${stranger} is not in this tournament`);
    const placed = [...s.manualPairings.flatMap((p) => [p.a, p.b]), ...(s.manualBye ? [s.manualBye] : []), ...s.manualTables.flat(), ...s.absent, ...s.requestedByes];
    if (new Set(placed).size !== placed.length) return refuse('INVALID_INPUT', 'a participant is named twice among manual pairings, tables, byes and absences');
    for (const p of s.manualPairings)
      if (p.seats && (p.seats.length !== 2 || !p.seats.includes(p.a) || !p.seats.includes(p.b))) return refuse('INVALID_INPUT', "manual seats list the pairing's two participants");
    const twoSeat = t.config.format !== 'tables';
    if (s.manualTables.length > 0 && twoSeat) return refuse('INVALID_INPUT', 'manual tables are for the tables format');
    if ((s.manualPairings.length > 0 || s.manualBye) && t.config.format !== 'swiss')
      return refuse('INVALID_INPUT', 'manual pairings and byes are for Swiss rounds (round-robin and knockout rounds are fixed)');
    if ((s.absent.length > 0 || s.requestedByes.length > 0) && !['swiss', 'tables'].includes(t.config.format))
      return refuse('INVALID_INPUT', 'absences and requested byes are for Swiss and tables rounds (P2.6)');
    for (const table of s.manualTables)
      if (table.length < t.config.minSeats || table.length > t.config.seatCount) return refuse('INVALID_INPUT', `a table seats ${t.config.minSeats} to ${t.config.seatCount}`);
    for (const id of s.requestedByes) {
      const used = t.rounds.filter((r) => r.requestedByes.includes(id)).length;
      if (used >= t.config.maxRequestedByes) return refuse('BYE_LIMIT', `${participantById(t, id)!.name} has had ${used} requested bye(s), the most allowed (P2.6)`);
    }
    return this.apply({ type: 'RoundSettingsSet', payload: s });
  }

  pair(requested: number | null): Result<TournamentDecision> {
    const t = this.state;
    if (!this.organizer) return refuse('FORBIDDEN', 'only the organizer pairs rounds');
    const round = t.rounds.length + 1;
    if (requested !== null && requested !== round) return refuse('ROUND_NOT_FINISHED', `the next round to pair is round ${round}`);
    const last = currentRound(t);
    if (last && !roundComplete(t, last) && !t.config.schedule?.scheduleAll) return refuse('ROUND_NOT_FINISHED', `round ${last.round} still has games without a result`);
    if (t.totalRounds !== null && round > t.totalRounds) return refuse('TOURNAMENT_COMPLETE', `all ${t.totalRounds} rounds are paired`);
    const active = t.participants.filter((p) => p.withdrawnAfterRound === null);
    if (round === 1 && active.length < 2) return refuse('TOO_FEW_PARTICIPANTS', 'a tournament needs at least 2 participants');
    // P2.6: the byes participants asked for when they registered are the round's settings too.
    const byes = withRegisteredByes(t, round);
    const set = this.applyAll(byes ? [{ type: 'RoundSettingsSet', payload: byes }] : []);
    if (!set.ok) return set;
    const lots = this.recordingLots();
    const pairing = pairRound(this.state, lots);
    if (!pairing.ok) return pairing;
    for (const lot of lots.drawn) {
      const r = this.apply({ type: 'LotsDrawn', payload: lot });
      if (!r.ok) return r;
    }
    const p = pairing.value;
    const boards: BoardPlan[] = p.boards.map((b, i) => ({
      board: i + 1,
      seats: b.seats,
      games: b.games.map((seats) => ({ gameId: this.decide.newGameId(), seats })),
      manual: b.manual,
      walkover: b.walkover,
    }));
    const paired = this.apply({ type: 'RoundPaired', payload: { round, boards, byes: p.byes, rest: p.rest, warnings: p.warnings, ...(p.order ? { order: p.order } : {}) } });
    if (!paired.ok) return paired;
    // A round of byes and walkovers only (a knockout's first round can be) is over at once.
    return this.afterResult();
  }

  private record(result: GameResultPayload, correction: boolean, agreed = false): Result<TournamentDecision> {
    if (result.source === 'organizer' && !this.organizer && !agreed) return refuse('FORBIDDEN', 'only the organizer records results');
    // R3.11: an organizer's result for a disputed game settles the dispute.
    const settles = settlementBy(this.state, result);
    const settled = settles.ok ? this.applyAll(settles.value ? [settles.value] : []) : settles;
    if (!settled.ok) return settled;
    const t = this.state;
    const lots = this.recordingLots();
    const at = boardAt(t, result.round, result.board);
    if (correction && at && (at.board.corrections ?? 0) >= CORRECTION_LIMIT)
      return refuse('TOO_MANY_CORRECTIONS', `board ${result.board} of round ${result.round} was corrected ${CORRECTION_LIMIT} times, the most allowed (R3.8)`);
    if (at && matchesIn(t, at.round.round) && !at.board.results[result.gameId]) {
      // Draw the match's lot now if the result leaves it to lots (K6.7), so it is recorded before it is used.
      const withResult = { ...at.board, results: { ...at.board.results, [result.gameId]: result } };
      const d = decideBoard(t, withResult, lots);
      if (!d.ok) return refuse('INVALID_RESULT', d.error.message);
    }
    for (const lot of lots.drawn) {
      const r = this.apply({ type: 'LotsDrawn', payload: lot });
      if (!r.ok) return r;
    }
    const r = this.apply({ type: correction ? 'ResultCorrected' : 'ResultRecorded', payload: result });
    if (!r.ok) return r;
    const forfeits = this.applyAll(matchForfeits(this.state, result, correction).map((payload) => ({ type: 'ResultRecorded' as const, payload })));
    if (!forfeits.ok) return forfeits;
    return this.afterResult();
  }

  /** After a result: a knockout match may need another game; the last round's last result ends the tournament. */
  private afterResult(): Result<TournamentDecision> {
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
  private recordingLots() {
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

  private applyAll(events: readonly TournamentEvent[]): Result<TournamentDecision> {
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

/** A forfeit lost by `absentee` on a scheduled game (P2.4, R3.2). */
export function forfeitResult(t: TournamentState, round: number, board: number, game: { gameId: string; seats: string[] }, absentee: string, reason: string): GameResultPayload {
  const twoSeat = t.config.format !== 'tables';
  return {
    round,
    board,
    gameId: game.gameId,
    source: 'organizer',
    seats: game.seats.map((participantId) => ({
      participantId,
      kind: participantId === absentee ? 'FORFEIT_LOSS' : twoSeat ? 'FORFEIT_WIN' : 'FORFEIT_LOSS',
      gamePoints: null,
    })),
    ranking: [],
    head: null,
    record: null,
    reason,
  };
}
