/**
 * Two bots play Chicken Foot (classic, 2 players, double-9 set, the game ending after the first
 * round in which someone scores) through the typed client: the game is created with the typed
 * `createChickenFootGame`, each seat reads its typed legal moves with its own token and plays
 * one at random with chickenFootPlay / chickenFootDraw / chickenFootPass.
 *
 *   ARBITER_URL=http://127.0.0.1:3000 node clients/typescript/dist/examples/chicken-foot.js
 */
import { expectTypename } from '../src/client.js';
import { ChickenFootDrawDocument, ChickenFootPassDocument, ChickenFootPlayDocument, CreateChickenFootGameDocument } from '../src/generated/graphql.js';
import { type GameBot, runIfMain, tokensOf } from './lib/harness.js';

type Choice = { type: 'play'; tile: string; target: string; announce: boolean } | { type: 'draw' } | { type: 'pass' };

export const chickenFootBot: GameBot = {
  kind: 'chicken-foot',
  describe: 'classic, 2 players, target score 1',
  async create(arbiter) {
    const { createChickenFootGame } = await arbiter.request(CreateChickenFootGameDocument, {
      input: { ruleset: { preset: 'CLASSIC', players: 2, targetScore: 1 } },
    });
    return tokensOf(expectTypename(createChickenFootGame, 'GameCreated'));
  },
  async move({ seatClient, gameId, version, moveId, pick, legal: moves }) {
    const legal = expectTypename(moves, 'ChickenFootLegalActions');
    const choices: Choice[] = [
      ...legal.plays.map((p) => ({ type: 'play' as const, ...p })),
      ...(legal.canDraw ? [{ type: 'draw' as const }] : []),
      ...(legal.canPass ? [{ type: 'pass' as const }] : []),
    ];
    const choice = pick(choices);
    const args = { gameId, moveId, expectedVersion: version };
    switch (choice.type) {
      case 'play': {
        const { tile, target, announce } = choice;
        return { action: `play ${tile} on ${target}`, outcome: (await seatClient.request(ChickenFootPlayDocument, { ...args, tile, target, announce })).chickenFootPlay };
      }
      case 'draw':
        return { action: 'draw', outcome: (await seatClient.request(ChickenFootDrawDocument, args)).chickenFootDraw };
      case 'pass':
        return { action: 'pass', outcome: (await seatClient.request(ChickenFootPassDocument, args)).chickenFootPass };
    }
  },
};

runIfMain(import.meta.url, chickenFootBot);
