import { seededRandom } from '../../src/engines/kit/index.js';
import { backgammonEngine } from '../../src/games/backgammon/engine/index.js';
import { Bot } from '../../tools/bot.js';

/** Bots play a 1-point backgammon game of a tournament to its end through the API at `url`, each seat with its participant's token. */
export async function playOutBackgammon(url: string, gameId: string, seats: string[], tokens: Map<string, string>, seed: number): Promise<void> {
  const bot = new Bot(url, backgammonEngine, { matchLength: 1 }, seededRandom(seed), `bot-${gameId}`);
  await bot.play(
    gameId,
    seats.map((s) => tokens.get(s)!),
  );
  while (!bot.finished()) {
    const moved = await bot.move();
    if (!moved.accepted) throw new Error(`game ${gameId}: ${moved.code}`);
  }
}
