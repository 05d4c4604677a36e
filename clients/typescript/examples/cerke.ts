/**
 * Two bots play one season of Cerke (the `online` profile) through the typed client: the game is
 * created with `createCerkeGame`; each seat reads its typed legal moves with its own token and plays one at random with Cerke's typed
 * mutations (cerkeMove, cerkeCompleteStep, cerkeDrop, cerkeMoveTam2, ...).
 *
 *   ARBITER_URL=http://127.0.0.1:3000 node clients/typescript/dist/examples/cerke.js
 */
import { expectTypename } from '../src/client.js';
import {
  CerkeAbandonStepDocument,
  CerkeCompleteStepDocument,
  CerkeDeclareContinueDocument,
  CerkeDeclareEndSeasonDocument,
  CerkeDropDocument,
  CerkeMoveDocument,
  CerkeMoveTam2Document,
  CreateCerkeGameDocument,
} from '../src/generated/graphql.js';
import { type GameBot, runIfMain, tokensOf } from './lib/harness.js';

const need = <T>(value: T | null | undefined, what: string): T => {
  if (value === null || value === undefined) throw new Error(`a legal action lacks its ${what}`);
  return value;
};

export const cerkeBot: GameBot = {
  kind: 'cerke',
  describe: 'online profile, 1 season',
  async create(arbiter) {
    const { createCerkeGame } = await arbiter.request(CreateCerkeGameDocument, { input: { ruleset: { profile: 'ONLINE', seasons: 1 } } });
    return tokensOf(expectTypename(createCerkeGame, 'GameCreated'));
  },
  async move({ seatClient, gameId, version, moveId, pick, legal }) {
    const a = pick(expectTypename(legal, 'CerkeLegalActions').actions);
    const args = { gameId, moveId, expectedVersion: version };
    switch (a.type) {
      case 'MOVE': {
        const from = need(a.from, 'from');
        const to = need(a.to, 'to');
        const outcome = (await seatClient.request(CerkeMoveDocument, { ...args, from, via: a.via, to })).cerkeMove;
        return { action: `move ${from}${a.via ? `-${a.via}` : ''}-${to}`, outcome };
      }
      case 'COMPLETE_STEP': {
        const to = need(a.to, 'to');
        return { action: `completeStep ${to}`, outcome: (await seatClient.request(CerkeCompleteStepDocument, { ...args, to })).cerkeCompleteStep };
      }
      case 'ABANDON_STEP':
        return { action: 'abandonStep', outcome: (await seatClient.request(CerkeAbandonStepDocument, args)).cerkeAbandonStep };
      case 'DROP': {
        const drop = { colour: need(a.colour, 'colour'), kind: need(a.kind, 'kind'), to: need(a.to, 'to') };
        return { action: `drop ${drop.colour} ${drop.kind} ${drop.to}`, outcome: (await seatClient.request(CerkeDropDocument, { ...args, ...drop })).cerkeDrop };
      }
      case 'MOVE_TAM2': {
        const tam = { firstSquare: need(a.firstSquare, 'firstSquare'), to: need(a.to, 'to'), via: a.via, stepDuring: a.stepDuring };
        return { action: `moveTam2 ${tam.firstSquare}-${tam.to}`, outcome: (await seatClient.request(CerkeMoveTam2Document, { ...args, ...tam })).cerkeMoveTam2 };
      }
      case 'CONTINUE':
        return { action: 'continue', outcome: (await seatClient.request(CerkeDeclareContinueDocument, args)).cerkeDeclareContinue };
      case 'END_SEASON':
        return { action: 'endSeason', outcome: (await seatClient.request(CerkeDeclareEndSeasonDocument, args)).cerkeDeclareEndSeason };
    }
  },
};

runIfMain(import.meta.url, cerkeBot);
