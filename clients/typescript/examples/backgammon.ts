/**
 * Two bots play a 1-point backgammon match through the typed client: the game is created with
 * `createBackgammonGame`; each seat reads its typed legal actions (`game.legalMoves` as its own
 * token sees them, in the harness) and plays one at random with backgammon's typed mutations (backgammonRoll,
 * backgammonPlay, ...). Doubling and resigning only when nothing else is legal.
 *
 *   ARBITER_URL=http://127.0.0.1:3000 node clients/typescript/dist/examples/backgammon.js
 */
import { expectTypename } from '../src/client.js';
import {
  BackgammonAcceptResignationDocument,
  type BackgammonActionType,
  BackgammonBeaverDocument,
  BackgammonDoubleDocument,
  BackgammonDropDocument,
  BackgammonOfferResignationDocument,
  BackgammonPlayDocument,
  BackgammonRaccoonDocument,
  BackgammonRejectResignationDocument,
  BackgammonRollDocument,
  BackgammonTakeDocument,
  CreateBackgammonGameDocument,
} from '../src/generated/graphql.js';
import { type GameBot, preferring, runIfMain, tokensOf } from './lib/harness.js';

export const backgammonBot: GameBot = {
  kind: 'backgammon',
  describe: 'a 1-point match',
  async create(arbiter) {
    const { createBackgammonGame } = await arbiter.request(CreateBackgammonGameDocument, { input: { ruleset: { matchLength: 1 } } });
    return tokensOf(expectTypename(createBackgammonGame, 'GameCreated'));
  },
  async move(turn) {
    const { seatClient, gameId, version, moveId, pick } = turn;
    const legal = expectTypename(turn.legal, 'BackgammonLegalActions');
    const type: BackgammonActionType = pick(preferring(legal.types, (t) => t === 'DOUBLE' || t === 'RESIGN'));
    const args = { gameId, moveId, expectedVersion: version };
    switch (type) {
      case 'ROLL':
        return { action: 'roll', outcome: (await seatClient.request(BackgammonRollDocument, args)).backgammonRoll };
      case 'PLAY': {
        const play = pick(legal.plays);
        const moves = play.moves.map(({ from, to }) => ({ from, to }));
        return { action: `play ${play.notation}`, outcome: (await seatClient.request(BackgammonPlayDocument, { ...args, moves })).backgammonPlay };
      }
      case 'DOUBLE':
        return { action: 'double', outcome: (await seatClient.request(BackgammonDoubleDocument, args)).backgammonDouble };
      case 'TAKE':
        return { action: 'take', outcome: (await seatClient.request(BackgammonTakeDocument, args)).backgammonTake };
      case 'DROP':
        return { action: 'drop', outcome: (await seatClient.request(BackgammonDropDocument, args)).backgammonDrop };
      case 'BEAVER':
        return { action: 'beaver', outcome: (await seatClient.request(BackgammonBeaverDocument, args)).backgammonBeaver };
      case 'RACCOON':
        return { action: 'raccoon', outcome: (await seatClient.request(BackgammonRaccoonDocument, args)).backgammonRaccoon };
      case 'RESIGN': {
        const level = pick(legal.resignLevels);
        return { action: `resign ${level}`, outcome: (await seatClient.request(BackgammonOfferResignationDocument, { ...args, level })).backgammonOfferResignation };
      }
      case 'ACCEPT_RESIGNATION':
        return { action: 'acceptResignation', outcome: (await seatClient.request(BackgammonAcceptResignationDocument, args)).backgammonAcceptResignation };
      case 'REJECT_RESIGNATION':
        return { action: 'rejectResignation', outcome: (await seatClient.request(BackgammonRejectResignationDocument, args)).backgammonRejectResignation };
    }
  },
};

runIfMain(import.meta.url, backgammonBot);
