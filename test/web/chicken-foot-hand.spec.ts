import fc from 'fast-check';
import { chickenFootEngine as engine, type ChickenFootAction, type ChickenFootState } from '../../src/games/chicken-foot/engine/index.js';
import type { BoardContext } from '../../web/src/boards/board.js';
import { decisionAfter } from './decisions.js';
import { chickenFootBoard as board } from '../../web/src/boards/chicken-foot.js';

/**
 * Playing a Chicken Foot tile by hand (issue 28 item 5): a playable tile in the hand picks it up,
 * the table then offers exactly the ends it fits, and clicking one sends that play; every legal
 * play can be made so, and nothing else can.
 */
type Play = Extract<ChickenFootAction, { type: 'play' }>;

const reach = (players: number, choices: number[]) => decisionAfter(engine, { players }, choices);

const decisions = fc
  .tuple(fc.integer({ min: 2, max: 6 }), fc.array(fc.nat(), { minLength: 1, maxLength: 60 }))
  .map(([players, choices]) => reach(players, choices))
  .filter((s): s is ChickenFootState => s !== null);

function context(state: ChickenFootState, picks: readonly string[]): BoardContext {
  const seat = engine.toAct(state)[0];
  return {
    kind: 'chicken-foot',
    view: engine.view(state, seat),
    viewer: seat,
    legalActions: engine.legalActions(state, seat),
    toAct: engine.toAct(state),
    seatNames: ['A', 'B', 'C', 'D', 'E', 'F'],
    result: null,
    picks,
  };
}

/** The `data-pick` tokens a board offers. */
const offered = (ctx: BoardContext) => [...board.render(ctx).text.matchAll(/data-pick="([^"]+)"/g)].map((m) => m[1]);

describe('Chicken Foot by hand', () => {
  it('makes every legal play by clicking its tile then its end, and offers no end the tile does not fit', () => {
    fc.assert(
      fc.property(decisions, (state) => {
        const start = context(state, []);
        const plays = start.legalActions.flatMap((a, i) => ((a as ChickenFootAction).type === 'play' ? [[a as Play, i] as const] : []));
        expect(offered(start).sort()).toEqual([...new Set(plays.map(([p]) => `tile ${p.tile}`))].sort());
        for (const [play, index] of plays) {
          const picks = board.pick!(start, `tile ${play.tile}`) as string[];
          const holding = context(state, picks);
          const ends = offered(holding).filter((t) => t.startsWith('end '));
          expect(ends.sort()).toEqual(
            plays
              .filter(([p]) => p.tile === play.tile)
              .map(([p]) => `end ${p.target}`)
              .sort(),
          );
          expect(board.pick!(holding, `end ${play.target}`)).toEqual({ action: index });
          // Clicking the tile again puts it back.
          expect(board.pick!(holding, `tile ${play.tile}`)).toEqual([]);
        }
      }),
      { numRuns: 80 },
    );
  });

  it('leaves draw and pass as the buttons when no tile can be played', () => {
    fc.assert(
      fc.property(decisions, (state) => {
        const ctx = context(state, []);
        if (ctx.legalActions.some((a) => (a as ChickenFootAction).type === 'play')) return;
        expect(offered(ctx)).toEqual([]);
        expect(board.render(ctx).text).toMatch(/aria-label="(Draw a tile from the boneyard|Pass the turn)"/);
      }),
      { numRuns: 80 },
    );
  });
});
