import { fail, ok, type Result, type Seat, step } from '../../../engines/kit/index.js';
import { canonicalJson, hashOf, sameNumbers } from '../canonical.js';
import type { EngineRegistry } from '../engine-registry.js';
import { clientSeedMix, FairSource, seedCommitment } from '../fairness.js';
import { MALFORMED, type StoredEvent } from '../stream.js';
import {
  addTime,
  type ClockState,
  deadlineMs,
  elapse,
  firstOverdue,
  followGame,
  isoOf,
  declinePause,
  pause,
  requestPause,
  requestResume,
  resume,
  stampMs,
  stampTime,
  type TimeoutRule,
  timeOut,
} from './clock.js';
import type { EvolveContext } from './commands.js';
import { type Chance, type GameEvent } from './events.js';
import { type GameState, genesis } from './state.js';

/**
 * A game's evolution: `evolve` is the one transition that both deciding and folding go through,
 * the clocks' rules included (a clock event's own rules, deadlines, the turns the referee owes).
 * Pure: time and the secret seed come in as arguments.
 */

const broken = (message: string): Result<never> => fail(MALFORMED, message);

export function found(registry: EngineRegistry, gameId: string, first: GameEvent, ctx: EvolveContext): Result<GameState> {
  if (first.type !== 'GameCreated') return broken(`the first event must be GameCreated, found ${first.type}`);
  const created = first.payload;
  const engine = registry.get(created.kind);
  if (!engine) return broken(`unknown game kind "${created.kind}"`);
  const parsed = engine.parseRuleset(created.ruleset);
  if (!parsed.ok) return broken(`the ruleset is invalid: ${parsed.error.message}`);
  if (canonicalJson(parsed.value) !== canonicalJson(created.ruleset)) return broken('the ruleset is not in its complete, validated form');
  if (hashOf(created.ruleset) !== created.rulesetHash) return broken('the ruleset hash does not match the ruleset');
  const seatCount = engine.seatCount(parsed.value);
  if (created.seats.length !== seatCount) return broken(`the game must have ${seatCount} seats`);
  if (ctx.serverSeed !== null && seedCommitment(ctx.serverSeed) !== created.seedCommitment) return broken('the server seed does not match the published commitment');
  if (created.timeControl && created.imported) return broken('an imported record carries no clock: an imported game has no time control');
  return ok(genesis(gameId, engine, { ...created, ruleset: parsed.value }));
}

/** The game after one event, or the rule the event breaks. */
export function evolve(g: GameState, e: GameEvent, stored: Pick<StoredEvent, 'createdAt'>, ctx: EvolveContext): Result<GameState> {
  if (g.revealedSeed !== null) return broken('no event may follow SeedRevealed');
  if (g.ended && e.type !== 'SeedRevealed') return broken('only SeedRevealed may follow GameEnded');
  const owed = owedTurn(g);
  if (owed && !(e.type === 'ActionTaken' && e.actor === owed.seat && e.payload[owed.mark]))
    return broken(
      owed.mark === 'auto' ? `seat ${owed.seat} is auto-played: the referee plays its turn before anything else` : `seat ${owed.seat}'s move is forced: the referee plays it before anything else`,
    );
  if (!g.clock) return CLOCK_EVENTS.has(e.type) ? fail('NO_CLOCK', 'this game has no clock') : transition(g, e, ctx);
  const clock = clocked(g, g.clock, e, stored.createdAt);
  if (!clock.ok) return clock;
  // The transition reads the clocks only for an action's auto-play, which clocked leaves as it was (a TimedOut changes it): no copy of the game with them first.
  const next = transition(g, e, ctx);
  return next.ok ? ok(followed(next.value, clock.value)) : next;
}

const CLOCK_EVENTS = new Set<GameEvent['type']>(['TimedOut', 'TimeAdded', 'PauseRequested', 'ResumeRequested', 'PauseDeclined', 'ClockPaused', 'ClockResumed']);

/** The clock event's own rules and the clocks run up to its stamp, or why it may not come now. */
function clocked(g: GameState, c: ClockState, e: GameEvent, stamp: string): Result<ClockState> {
  const t = stampMs(stamp);
  if (t === null) return broken(`a game with a clock stamps its events in ISO 8601 with milliseconds (UTC), not ${JSON.stringify(stamp)}`);
  if (e.type === 'TimedOut') {
    // Checked first: a timeout asked for too early is refused as such, whatever its stamp.
    const { seat, rule } = e.payload;
    const deadline = isSeat(g, seat) ? deadlineMs(c, seat) : null;
    if (deadline === null) return fail('NOT_TIMED_OUT', `seat ${seat}'s clock is not running`);
    if (t < deadline) return fail('NOT_TIMED_OUT', `seat ${seat}'s time runs out at ${isoOf(deadline)}, after ${stamp}`);
    if (rule !== timeoutRule(g)) return broken(`a timeout in this game is "${timeoutRule(g)}", not "${rule}"`);
  }
  if (c.at !== null && t < stampTime(c.at)) return broken(`the event is stamped ${stamp}, before the event before it (${c.at}): time does not run backwards`);
  const late = firstOverdue(c, t, (seat) => !excused(e, seat));
  if (late !== undefined) {
    const deadline = isoOf(deadlineMs(c, late) ?? t);
    const own = (e.type === 'ActionTaken' || e.type === 'Resigned') && e.actor === late;
    return fail(
      'OUT_OF_TIME',
      own
        ? `seat ${late} ${e.type === 'Resigned' ? 'resigned' : 'acted'} at ${stamp}, after the seat's deadline (${deadline})`
        : `${e.type} at ${stamp}, after seat ${late}'s deadline (${deadline}): the seat's timeout comes first`,
    );
  }
  if (CLOCK_EVENTS.has(e.type) && !g.started) return broken(`${e.type} before the game started`);
  const run = elapse(c, stamp);
  switch (e.type) {
    case 'TimedOut':
      return ok(timeOut(run, e.payload.seat, e.payload.rule));
    case 'TimeAdded': {
      const { seat, ms, by, vacation } = e.payload;
      if (!isSeat(g, seat) || (by !== 'organizer' && !isSeat(g, by))) return fail('INVALID_INPUT', `seats are 0 to ${g.seatCount - 1}`);
      return addTime(run, seat, ms, by, vacation);
    }
    case 'PauseRequested':
    case 'ResumeRequested':
      if (!isSeat(g, e.payload.seat)) return fail('INVALID_INPUT', `seats are 0 to ${g.seatCount - 1}`);
      return e.type === 'PauseRequested' ? requestPause(run, e.payload.seat) : requestResume(run, e.payload.seat);
    case 'PauseDeclined':
      if (!isSeat(g, e.payload.seat)) return fail('INVALID_INPUT', `seats are 0 to ${g.seatCount - 1}`);
      return declinePause(run, e.payload.seat);
    case 'ClockPaused':
      return pause(run, e.payload.by);
    case 'ClockResumed':
      return resume(run, e.payload.by);
    default:
      return ok(run);
  }
}

/** What may still come after a running seat's deadline: its timeout, the organizer's time for it, an adjudication. */
function excused(e: GameEvent, seat: Seat): boolean {
  if (e.type === 'TimedOut') return e.payload.seat === seat;
  if (e.type === 'TimeAdded') return e.payload.by === 'organizer' && e.payload.seat === seat;
  return e.type === 'GameEnded' && e.payload.adjudication !== undefined;
}

/** What a timeout does in this game: auto-play when the engine can and its ruleset says so, else the game is conceded. */
export function timeoutRule(g: Pick<GameState, 'engine' | 'ruleset'>): TimeoutRule {
  const { engine } = g;
  return engine.autoAction && engine.roundOf && engine.onTimeout?.(g.ruleset) === 'autoPlay' ? 'autoPlay' : 'concede';
}

/** A turn the referee plays at once, before anything else may happen: an auto-played seat's, else a forced move. */
export function owedTurn(g: GameState): { seat: Seat; action: unknown; mark: 'auto' | 'forced' } | null {
  const { clock, engine } = g;
  if (g.ended) return null;
  if (clock?.autoPlayed.includes(true) && !engine.pendingChance(g.state)) {
    const seat = engine.toAct(g.state).find((s) => clock.autoPlayed[s]);
    const action = seat === undefined ? null : engine.autoAction?.(g.state, seat);
    if (seat !== undefined && action !== null && action !== undefined) return { seat, action, mark: 'auto' };
  }
  // The engine answers null at once when its ruleset plays no forced moves.
  const forced = engine.forcedAction?.(g.state);
  return forced && !engine.pendingChance(g.state) ? { ...forced, mark: 'forced' } : null;
}

/** A recorded action that is the forced move the referee would have played, marked as such. */
export function forcedIfOwed(g: GameState, e: GameEvent): GameEvent {
  if (e.type !== 'ActionTaken' || !g.engine.forcedAction) return e;
  const owed = owedTurn(g);
  return owed?.mark === 'forced' && owed.seat === e.actor && canonicalJson(owed.action) === canonicalJson(e.payload.action) ? { ...e, payload: { ...e.payload, forced: true } } : e;
}

/** The clocks after the event, from the seats the game now waits for. */
function followed(g: GameState, clock: ClockState): GameState {
  const { engine, state } = g;
  const waiting = !g.started || g.ended || engine.pendingChance(state) ? [] : engine.awaited ? engine.awaited(state) : engine.toAct(state);
  return { ...g, clock: followGame(clock, waiting, engine.roundOf ? engine.roundOf(state) : null) };
}

/** The event's effect on the game itself (its clocks aside). */
function transition(g: GameState, e: GameEvent, ctx: EvolveContext): Result<GameState> {
  const { engine } = g;
  switch (e.type) {
    case 'GameCreated':
      return broken('GameCreated may only start the stream');
    case 'SeatJoined':
      if (g.started) return broken('a seat joined after the game started');
      if (!isSeat(g, e.payload.seat)) return broken('no such seat');
      return ok({
        ...g,
        seatNames: g.seatNames.map((n, i) => (i === e.payload.seat ? e.payload.name : n)),
        seatPlayers: g.seatPlayers.map((p, i) => (i === e.payload.seat ? (e.payload.player ?? null) : p)),
      });
    case 'GameStarted':
      if (g.started) return broken('the game started twice');
      if (e.payload.clientSeeds.length !== g.seatCount) return broken('one client seed (or null) per seat');
      if (clientSeedMix(e.payload.clientSeeds) !== e.payload.mix) return broken('the client seed mix does not match the client seeds');
      return ok({ ...g, started: true, mix: e.payload.mix });
    case 'ChanceDrawn':
      return drawn(g, e.label, e.payload.chance, ctx);
    case 'ActionTaken':
    case 'Resigned': {
      if (!g.started) return broken('an action before the game started');
      if (!isSeat(g, e.actor)) return broken('the actor is not a seat of this game');
      let next: Result<unknown>;
      if (e.type === 'Resigned') next = step(engine, g.state, { kind: 'resign', seat: e.actor });
      else {
        const auto = e.payload.auto === true;
        if (auto !== (g.clock?.autoPlayed[e.actor] === true))
          return broken(auto ? `seat ${e.actor} is not auto-played` : `seat ${e.actor} is auto-played until the round ends: the referee plays its turns`);
        if (auto && canonicalJson(engine.autoAction?.(g.state, e.actor) ?? null) !== canonicalJson(e.payload.action)) return broken("the auto-played action is not the one the game's rule gives");
        if (e.payload.forced && canonicalJson(engine.forcedAction?.(g.state)?.action ?? null) !== canonicalJson(e.payload.action)) return broken('the action marked forced is not the only legal one');
        const action = engine.parseAction(e.payload.action);
        next = action.ok ? step(engine, g.state, { kind: 'action', seat: e.actor, action: action.value }) : action;
      }
      if (!next.ok) return next;
      // The referee's own moves (forced, auto-played) are no seat's: they leave the game abortable.
      if (e.type === 'ActionTaken') return ok({ ...g, state: next.value, moved: g.moved || !(e.payload.auto || e.payload.forced) });
      return ok({ ...g, state: next.value, ending: { reason: 'resigned', seat: e.actor } });
    }
    case 'GameEnded': {
      if (e.payload.adjudication) {
        // An organizer's decision (a result entered for the game, a forfeit): taken as given, checked for shape.
        if (!g.started) return broken('a game was adjudicated before it started');
        const { winners, points } = e.payload.outcome;
        if (!Array.isArray(winners) || !winners.every((s) => isSeat(g, s)) || !Array.isArray(points) || points.length !== g.seatCount)
          return broken("the adjudicated outcome does not fit the game's seats");
        return ok({ ...g, ended: true, outcome: e.payload.outcome, ending: { reason: 'adjudicated', why: e.payload.adjudication.reason } });
      }
      const outcome = engine.outcome(g.state);
      if (!outcome) return broken('GameEnded while the game goes on');
      if (canonicalJson(outcome) !== canonicalJson(e.payload.outcome)) return broken('the recorded result is not the one the rules give');
      // A concession (a resignation, a timeout) named its seat already; else the rules ended the game.
      return ok({ ...g, ended: true, outcome, ending: g.ending ?? { reason: 'rules' } });
    }
    case 'GameAborted':
      if (!isSeat(g, e.actor)) return broken('the actor is not a seat of this game');
      if (g.moved) return fail('ABORT_TOO_LATE', 'a seat has moved: the game can no longer be aborted (resign instead)');
      return ok({ ...g, ended: true, ending: { reason: 'aborted', seat: e.actor } });
    case 'SeedRevealed': {
      if (!g.ended) return broken('the seed was revealed before the game ended');
      const revealed = e.payload.serverSeed;
      if (seedCommitment(revealed) !== g.seedCommitment) return broken('the revealed seed does not match the published commitment');
      if (ctx.serverSeed !== null && ctx.serverSeed !== revealed) return broken("the revealed seed is not the game's seed");
      return ok({ ...g, revealedSeed: revealed });
    }
    case 'TimedOut': {
      if (e.payload.rule === 'autoPlay') return ok(g);
      // The seat concedes the whole game, exactly as if it resigned; the ending says it was on time.
      const next = step(engine, g.state, { kind: 'resign', seat: e.payload.seat });
      return next.ok ? ok({ ...g, state: next.value, ending: { reason: 'time', seat: e.payload.seat } }) : next;
    }
    case 'TimeAdded':
    case 'PauseRequested':
    case 'ResumeRequested':
    case 'PauseDeclined':
    case 'ClockPaused':
    case 'ClockResumed':
      return ok(g);
  }
}

export const isSeat = (g: GameState, s: number): boolean => Number.isInteger(s) && s >= 0 && s < g.seatCount;

/** A chance event: the draw the rules call for, from the game's fair source or a supplied list. */
function drawn(g: GameState, label: string, chance: Chance, ctx: EvolveContext): Result<GameState> {
  if (!g.started) return broken('random values before the game started');
  const pending = g.engine.pendingChance(g.state);
  if (!pending) return broken('random values where the rules call for none');
  if (pending.label !== label) return broken(`expected ${pending.label}, found ${label}`);
  if (!sameNumbers(pending.ranges, chance.ranges)) return broken('the ranges drawn from are not the ones the rules call for');
  let { counter, fairDrawsChecked, suppliedUsed } = g;
  if (chance.source === 'fair') {
    if (!chance.counter || chance.counter[0] !== g.counter) return broken(`fair draws must continue at counter ${g.counter}`);
    if (ctx.serverSeed !== null) {
      const redraw = new FairSource(ctx.serverSeed, g.gameId, g.mix ?? '', g.counter).draw(chance.ranges);
      if (!sameNumbers(redraw.values, chance.values)) return broken(`the values ${JSON.stringify(chance.values)} are not the ones the seed gives (${JSON.stringify(redraw.values)})`);
      if (redraw.counter[1] !== chance.counter[1]) return broken('the draw counters do not match the seed');
      fairDrawsChecked++;
    }
    counter = chance.counter[1];
  } else if (chance.source === 'supplied') {
    if (g.randomSource !== 'supplied') return broken('supplied values in a game announced as fairly drawn');
    suppliedUsed++;
  } else return broken(`unknown random source "${String(chance.source)}"`);
  const next = step(g.engine, g.state, { kind: 'chance', values: chance.values });
  return next.ok ? ok({ ...g, state: next.value, counter, fairDrawsChecked, suppliedUsed }) : next;
}
