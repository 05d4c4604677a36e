/**
 * Chicken Foot engine benchmark: legal-action listing on positions from random games, and random
 * whole games per second (classic 4 players, classic and malta-cross 8 players).
 * Run: node dist/bench/chicken-foot-engine.js
 */
import { playRandomGame, seededRandom } from '../src/engines/kit/index.js';
import { chickenFootEngine as engine, type ChickenFootRuleset, type ChickenFootState } from '../src/games/chicken-foot/engine/index.js';

function ruleset(input: Record<string, unknown>): ChickenFootRuleset {
  const parsed = engine.parseRuleset(input);
  if (!parsed.ok) throw new Error(parsed.error.message);
  return parsed.value;
}

function wholeGames(name: string, input: Record<string, unknown>, games: number): void {
  const r = ruleset(input);
  let actions = 0;
  const start = performance.now();
  for (let g = 0; g < games; g++) {
    const { entries, finished } = playRandomGame(engine, r, seededRandom(1000 + g));
    if (!finished) throw new Error(`${name}: game ${g} did not finish`);
    actions += entries.length;
  }
  const seconds = (performance.now() - start) / 1000;
  console.log(
    `${name}: ${games} whole games in ${seconds.toFixed(2)} s = ${(games / seconds).toFixed(1)} games/s (${Math.round(actions / games)} entries per game, ${Math.round(actions / seconds)} entries/s)`,
  );
}

function legalActionListing(name: string, input: Record<string, unknown>, games: number, repeats: number): void {
  const r = ruleset(input);
  const positions: ChickenFootState[] = [];
  for (let g = 0; g < games; g++) {
    playRandomGame(engine, r, seededRandom(7000 + g), 100_000, (state) => {
      if (engine.toAct(state).length > 0) positions.push(state);
    });
  }
  let listed = 0;
  const start = performance.now();
  for (let i = 0; i < repeats; i++) {
    for (const state of positions) listed += engine.legalActions(state, engine.toAct(state)[0]).length;
  }
  const seconds = (performance.now() - start) / 1000;
  const calls = positions.length * repeats;
  console.log(
    `${name}: legalActions ${calls} calls on ${positions.length} positions in ${seconds.toFixed(2)} s = ${Math.round(calls / seconds)} calls/s (${(listed / calls).toFixed(1)} actions per call)`,
  );
}

console.log('Chicken Foot engine benchmark (figures after a short warm-up)');
wholeGames('warm-up', { preset: 'classic', players: 4 }, 50);
legalActionListing('classic 4 players', { preset: 'classic', players: 4 }, 20, 20);
legalActionListing('malta-cross 8 players (double-12)', { preset: 'malta-cross', players: 8, setMax: 12 }, 10, 20);
wholeGames('classic 4 players', { preset: 'classic', players: 4 }, 200);
wholeGames('classic 8 players', { preset: 'classic', players: 8 }, 200);
wholeGames('malta-cross 4 players', { preset: 'malta-cross', players: 4 }, 200);
wholeGames('malta-cross 8 players (double-12)', { preset: 'malta-cross', players: 8, setMax: 12 }, 100);
