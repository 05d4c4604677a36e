/**
 * Legal-play generation speed: positions with dice (collected from seeded random games, doubles
 * included) per second on one core. Target: at least 20,000/s.
 */
import { performance } from 'node:perf_hooks';
import { seededRandom } from '../src/engines/kit/index.js';
import { generatePlays } from '../src/games/backgammon/engine/board.js';
import { backgammonEngine, type BackgammonState } from '../src/games/backgammon/engine/index.js';

const ruleset = backgammonEngine.parseRuleset({ cubeEnabled: false });
if (!ruleset.ok) throw new Error(ruleset.error.message);

// Every state where dice await a play, from whole games of random plays (no resignations).
const positions: BackgammonState[] = [];
for (let seed = 1; positions.length < 10_000; seed++) {
  const rand = seededRandom(seed);
  let state = backgammonEngine.init(ruleset.value);
  while (!backgammonEngine.outcome(state)) {
    const pending = backgammonEngine.pendingChance(state);
    const seat = backgammonEngine.toAct(state)[0];
    const actions = pending ? [] : backgammonEngine.legalActions(state, seat).filter((a) => a.type !== 'resign');
    const next = pending
      ? backgammonEngine.resolveChance(
          state,
          pending.ranges.map((n) => rand(n)),
        )
      : backgammonEngine.apply(state, seat, actions[rand(actions.length)]);
    if (!next.ok) throw new Error(next.error.message);
    state = next.value;
    if (state.phase === 'awaiting-play') positions.push(state);
  }
}
const doubles = positions.filter((s) => s.dice![0] === s.dice![1]).length;
// The generator itself: the engine keeps each state's plays once asked, and these states were asked as they were reached.
const legalPlays = (s: BackgammonState) => generatePlays(s.board[s.turn], s.board[1 - s.turn], s.dice![0], s.dice![1]);

let plays = 0;
for (const s of positions.slice(0, 500)) plays += legalPlays(s).length; // warm-up

const rounds = 4;
plays = 0;
const start = performance.now();
for (let r = 0; r < rounds; r++) for (const s of positions) plays += legalPlays(s).length;
const seconds = (performance.now() - start) / 1000;
const rate = (positions.length * rounds) / seconds;

console.log(`backgammon legal-play generation: ${positions.length} positions with dice (${doubles} doubles), ${rounds} rounds`);
console.log(`  ${Math.round(rate).toLocaleString('en-US')} positions-with-dice/s (${(plays / rounds / positions.length).toFixed(1)} distinct plays each on average)`);
console.log(`  target 20,000/s: ${rate >= 20_000 ? 'met' : 'NOT met'}`);
