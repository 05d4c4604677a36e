import type { Engine, EngineReplay, ReplayEntry } from './engine.js';
import type { Result, RuleViolation } from './result.js';

export interface ReplayFailure {
  /** Index of the first entry that could not be applied. */
  index: number;
  error: RuleViolation;
}

/**
 * Replays entries from a ruleset through an engine, checking each step the way the referee
 * does live: chance values only when a chance is pending and within range, actions only when
 * none is. Used by the referee, the offline verifier, importers and tests.
 */
export function replay<R, S, A>(
  engine: Engine<R, S, A>,
  ruleset: R,
  entries: readonly ReplayEntry<A>[],
  onStep?: (state: S, index: number) => void,
): { ok: true; state: S } | { ok: false; state: S; failure: ReplayFailure } {
  let state = engine.init(ruleset);
  for (let index = 0; index < entries.length; index++) {
    const next = step(engine, state, entries[index]);
    if (!next.ok) return { ok: false, state, failure: { index, error: next.error } };
    state = next.value;
    onStep?.(state, index);
  }
  return { ok: true, state };
}

/**
 * One replay step with the referee's checks: chance values only while a chance is pending and
 * each within its range (the one place that range check is made), actions only when none is.
 */
export function step<S, A>(engine: EngineReplay<S, A>, state: S, entry: ReplayEntry<A>): Result<S> {
  const pending = engine.pendingChance(state);
  if (entry.kind === 'chance') {
    if (!pending) return { ok: false, error: { code: 'INVALID_INPUT', message: 'random values given where no chance is pending' } };
    const bad = checkValues(pending.ranges, entry.values);
    if (bad) return { ok: false, error: { code: 'INVALID_INPUT', message: `${pending.label}: ${bad}` } };
    return engine.resolveChance(state, entry.values);
  }
  if (pending) return { ok: false, error: { code: 'INVALID_INPUT', message: `an action was given while ${pending.label} is pending` } };
  return entry.kind === 'resign' ? engine.resign(state, entry.seat) : engine.apply(state, entry.seat, entry.action);
}

/** Null when `values` answers `ranges`; otherwise what is wrong. */
export function checkValues(ranges: readonly number[], values: readonly number[]): string | null {
  if (!Array.isArray(values) || values.length !== ranges.length) return `expected ${ranges.length} values, got ${Array.isArray(values) ? values.length : 'none'}`;
  for (let i = 0; i < ranges.length; i++) {
    const v = values[i];
    if (!Number.isInteger(v) || v < 0 || v >= ranges[i]) return `value ${i} (${String(v)}) is outside [0, ${ranges[i]})`;
  }
  return null;
}
