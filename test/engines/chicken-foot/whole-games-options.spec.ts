import fc from 'fast-check';
import { replay } from '../../../src/engines/kit/index.js';
import { engine } from './helpers.js';
import { checkGame } from './random-games.js';

// Its own file: the longest property of the engine tests, run beside the others by a second jest worker.
describe('whole games of Chicken Foot played at random', () => {
  const optionsArb = fc.record({
    preset: fc.constantFrom('classic', 'malta-cross'),
    players: fc.integer({ min: 2, max: 8 }),
    setMax: fc.constantFrom(6, 9, 12),
    handSize: fc.integer({ min: 1, max: 9 }),
    drawPolicy: fc.constantFrom('one', 'untilPlayable'),
    mustPlayDrawn: fc.boolean(),
    blockedDetection: fc.constantFrom('immediate', 'passCycle'),
    emptyYardEndsRound: fc.boolean(),
    startDoubleSource: fc.constantFrom('setAside', 'fromHand'),
    missingStartDouble: fc.constantFrom('drawUntilFound', 'burn'),
    firstToActNext: fc.boolean(),
    extraHubArms: fc.integer({ min: 0, max: 2 }),
    toesPerFoot: fc.integer({ min: 1, max: 4 }),
    yardReserve: fc.integer({ min: 0, max: 3 }),
    doubleBlankValue: fc.constantFrom(0, 50),
    blankEndValue: fc.constantFrom(null, 25),
    lastTileDoublePenalty: fc.constantFrom(0, 50),
    lastTileCall: fc.constantFrom(undefined, { enabled: true, penaltyDraws: 2 }),
    gameEnd: fc.constantFrom('allDoubles', { targetScore: 60 }),
    firstDealer: fc.constantFrom('random', 0, 1),
    seed: fc.integer({ min: 1, max: 2 ** 31 - 1 }),
  });

  it('end, conserve tiles and replay exactly under any combination of options', () => {
    fc.assert(
      fc.property(optionsArb, (o) => {
        const { seed, firstToActNext, extraHubArms, ...rest } = o;
        const setAside = o.startDoubleSource === 'setAside';
        const input: Record<string, unknown> = {
          ...rest,
          missingStartDouble: setAside ? 'drawUntilFound' : o.missingStartDouble,
          firstToAct: firstToActNext ? 'nextAfterPlacer' : setAside ? 'finder' : 'placer',
          hubRequiredArms: Math.min(o.setMax, o.preset === 'classic' ? Math.min(8, o.players + extraHubArms) : 2 + extraHubArms),
        };
        if (input.lastTileCall === undefined) delete input.lastTileCall;
        const parsed = engine.parseRuleset(input);
        fc.pre(parsed.ok);
        if (!parsed.ok) return;
        const { state, entries } = checkGame(parsed.value, seed, seed % 4 === 0);
        const replayed = replay(engine, parsed.value, entries);
        expect(replayed.ok && replayed.state).toEqual(state);
      }),
      { numRuns: 100 },
    );
  });
});
