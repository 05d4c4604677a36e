/**
 * Test helpers: build positions written in the test-vector notation ("9-2 · 2-8",
 * "9-5 · [5-5]{5-1, 5-6}") directly as engine states, and short-hands for actions and results.
 */
import type { Result, Seat } from '../../../src/engines/kit/index.js';
import { chickenFootEngine, parseRuleset, type ChickenFootAction, type ChickenFootRuleset, type ChickenFootState } from '../../../src/games/chicken-foot/engine/index.js';
import { attach, newTable, type TableNode } from '../../../src/games/chicken-foot/engine/table.js';
import { buildSet, compareTiles, tileId } from '../../../src/games/chicken-foot/engine/tiles.js';

export const engine = chickenFootEngine;

export function rules(input: Record<string, unknown>): ChickenFootRuleset {
  const parsed = parseRuleset(input);
  if (!parsed.ok) throw new Error(parsed.error.message);
  return parsed.value;
}

/** Canonical id of a tile written in any order ("9-5" -> "5-9"). */
export const t = (text: string): string => {
  const [a, b] = text.split('-').map(Number);
  return tileId(a, b);
};

/** Builds a table: hub value plus arms in the vectors' chain notation (touching pip first). */
export function buildTable(hub: number, arms: string[]): TableNode[] {
  let table = newTable(hub);
  for (const arm of arms) {
    let at = 0;
    for (const token of arm.split('·').map((s) => s.trim())) {
      const foot = /^\[(\d+-\d+)\]\{(.*)\}$/.exec(token);
      table = attach(table, at, t(foot ? foot[1] : token));
      at = table.length - 1;
      if (foot) {
        const toes = foot[2]
          .split(',')
          .map((s) => s.trim())
          .filter(Boolean);
        for (const toe of toes) table = attach(table, at, t(toe));
      }
    }
  }
  return table;
}

export interface Position {
  ruleset: Record<string, unknown>;
  hub: number;
  arms?: string[];
  /** Hands by seat. */
  hands: string[][];
  /** Top of the yard (next drawn first). */
  yardTop?: string[];
  /** Yard size; filled up after yardTop with tiles not used elsewhere. */
  yardSize?: number;
  turn: Seat;
  totals?: number[];
}

/** A position fragment as a state in play (round 1, first dealer seat 0). */
export function position(p: Position): ChickenFootState {
  const ruleset = rules(p.ruleset);
  const table = buildTable(p.hub, p.arms ?? []);
  const hands = p.hands.map((h) => h.map(t).sort(compareTiles));
  while (hands.length < ruleset.players) hands.push([]);
  const top = (p.yardTop ?? []).map(t);
  const used = new Set([...table.map((n) => n.tile), ...hands.flat(), ...top]);
  const spare = buildSet(ruleset.setMax).filter((tile) => !used.has(tile));
  const yard = [...top, ...spare.slice(0, Math.max(0, (p.yardSize ?? top.length) - top.length))];
  return {
    ruleset,
    firstDealer: 0,
    awaiting: null,
    scheduledDouble: p.hub,
    round: {
      number: 1,
      dealer: 0,
      searchStart: 1 % ruleset.players,
      startDouble: p.hub,
      starter: 0,
      searchDraws: new Array(ruleset.players).fill(0),
      shuffle: [],
      order: [],
      dealt: hands,
      hands,
      yard,
      table,
      turn: p.turn,
      drawsThisTurn: 0,
      passesInRow: 0,
    },
    rounds: [],
    totals: p.totals ?? new Array(ruleset.players).fill(0),
    end: null,
  };
}

export const play = (tile: string, target: string): ChickenFootAction => ({ type: 'play', tile: t(tile), target: target === 'hub' ? 'hub' : t(target) });
export const DRAW: ChickenFootAction = { type: 'draw' };
export const PASS: ChickenFootAction = { type: 'pass' };

export function accepted<S>(result: Result<S>): S {
  if (!result.ok) throw new Error(`expected the action to be legal, got ${result.error.code}: ${result.error.message}`);
  return result.value;
}

export function refusedWith<S>(result: Result<S>, code: string): string {
  if (result.ok) throw new Error(`expected ${code}, but the action was accepted`);
  expect(result.error.code).toBe(code);
  return result.error.message;
}

/** Applies actions in order, each expected legal. */
export function playAll(state: ChickenFootState, steps: [Seat, ChickenFootAction][]): ChickenFootState {
  return steps.reduce((s, [seat, action]) => accepted(engine.apply(s, seat, action)), state);
}

export const round = (state: ChickenFootState) => {
  if (!state.round) throw new Error('no round in play');
  return state.round;
};

/** The round that just ended. */
export const lastRound = (state: ChickenFootState) => state.rounds[state.rounds.length - 1];

export const hubArms = (state: ChickenFootState) => round(state).table[0].children.length;
