import { seededRandom } from '../../src/engines/kit/index.js';
import { backgammonEngine } from '../../src/games/backgammon/engine/index.js';
import { Bot, gql } from '../../tools/bot.js';

/** Random moves the seat told to lose plays before it resigns: the game is played, not forfeited. */
const MOVES_BEFORE_RESIGNING = 6;

const RESIGN = `mutation($g: ID!, $m: String!) { resignGame(gameId: $g, moveId: $m) { __typename ... on Rejection { code message } } }`;

/**
 * Bots play a 1-point backgammon game of a tournament to its end through the API at `url`, each
 * seat with its participant's token. With `loser` (a participant), the game is decided: that
 * participant's seat resigns the game (resignGame) after a few moves.
 */
export async function playOutBackgammon(url: string, gameId: string, seats: string[], tokens: Map<string, string>, seed: number, loser?: string): Promise<void> {
  const bot = new Bot(url, backgammonEngine, { matchLength: 1 }, seededRandom(seed), `bot-${gameId}`);
  await bot.play(
    gameId,
    seats.map((s) => tokens.get(s)!),
  );
  for (let moves = 0; !bot.finished(); moves++) {
    if (loser !== undefined && moves === MOVES_BEFORE_RESIGNING) {
      const resigned = (await gql(url, RESIGN, { g: gameId, m: `resign-${gameId}` }, tokens.get(loser))).data?.resignGame;
      if (resigned?.__typename !== 'MoveAccepted') throw new Error(`game ${gameId}: ${JSON.stringify(resigned)}`);
      return;
    }
    const moved = await bot.move();
    if (!moved.accepted) throw new Error(`game ${gameId}: ${moved.code}`);
  }
}
