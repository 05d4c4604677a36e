/**
 * Cerke engine benchmark: legal-action listing on positions from random games (positions per
 * second), and random whole games per second under both profiles.
 * Run: node dist/bench/cerke-engine.js
 */
import { playRandomGame, seededRandom } from '../src/engines/kit/index.js';
import { cerkeEngine as engine, type CerkeRuleset, type CerkeState } from '../src/games/cerke/engine/index.js';

function ruleset(input: unknown): CerkeRuleset {
  const parsed = engine.parseRuleset(input);
  if (!parsed.ok) throw new Error(parsed.error.message);
  return parsed.value;
}

/** States where a side chooses a move, drop or Tam2 move, from seeded random games. */
function positions(rules: CerkeRuleset, count: number): CerkeState[] {
  const out: CerkeState[] = [];
  for (let seed = 1; out.length < count; seed++) {
    playRandomGame(engine, rules, seededRandom(seed), 100_000, (state) => {
      if (state.phase.name === 'move' && out.length < count) out.push(state);
    });
  }
  return out;
}

function listingRate(rules: CerkeRuleset, label: string) {
  const states = positions(rules, 5_000);
  let actions = 0;
  const start = performance.now();
  let rounds = 0;
  while (performance.now() - start < 2_000) {
    for (const state of states) actions += engine.legalActions(state, state.toMove).length;
    rounds++;
  }
  const seconds = (performance.now() - start) / 1000;
  const perSecond = (rounds * states.length) / seconds;
  console.log(`${label}: legal-action listing ${Math.round(perSecond).toLocaleString('en')} positions/s (${(actions / (rounds * states.length)).toFixed(1)} actions per position)`);
}

function gameRate(rules: CerkeRuleset, label: string) {
  let games = 0;
  let steps = 0;
  const start = performance.now();
  while (performance.now() - start < 3_000) {
    const game = playRandomGame(engine, rules, seededRandom(1000 + games));
    if (!game.finished) throw new Error('a random game did not finish');
    steps += game.entries.length;
    games++;
  }
  const seconds = (performance.now() - start) / 1000;
  console.log(
    `${label}: ${(games / seconds).toFixed(1)} random whole games/s (${games} games, ${Math.round(steps / games)} steps per game, ${Math.round(steps / seconds).toLocaleString('en')} steps/s)`,
  );
}

const online = ruleset({ profile: 'online' });
const strict = ruleset({ profile: 'strict' });
console.log('Cerke engine benchmark (one core)');
listingRate(online, 'online');
listingRate(strict, 'strict');
gameRate(online, 'online, 4 seasons');
gameRate(strict, 'strict, 4 seasons');
gameRate(ruleset({ profile: 'online', seasons: 1 }), 'online, 1 season');
