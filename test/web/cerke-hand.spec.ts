import fc from 'fast-check';
import { type CerkeAction, type CerkeState, cerkeEngine as engine } from '../../src/games/cerke/engine/index.js';
import type { BoardContext } from '../../web/src/boards/board.js';
import { decisionAfter } from './decisions.js';
import { cerkeBoard as board } from '../../web/src/boards/cerke.js';

/**
 * Moving a Cerke piece by hand (issue 28 item 5): the board offers the pieces that can move, then
 * the squares the one picked up can reach (a stepping move's last squares at once), asks which
 * when several actions end on one square, and sends only legal actions: every move, Tam2 move and
 * step finish can be made by clicks.
 */
const clicked = (a: CerkeAction) => a.type === 'move' || a.type === 'moveTam2' || a.type === 'completeStep';

/** Moves mostly, so games get somewhere: drops and declarations now and then. */
const mostlyMoves = (actions: CerkeAction[], choice: number) => (actions.some(clicked) && choice % 5 ? actions.filter(clicked) : actions);
const reach = (choices: number[]) => decisionAfter(engine, {}, choices, mostlyMoves);

const decisions = fc
  .array(fc.nat(), { minLength: 1, maxLength: 80 })
  .map(reach)
  .filter((s): s is CerkeState => s !== null);

function context(state: CerkeState, picks: readonly string[]): BoardContext {
  const seat = engine.toAct(state)[0];
  return {
    kind: 'cerke',
    view: JSON.parse(JSON.stringify(engine.view(state, seat))),
    viewer: seat,
    legalActions: engine.legalActions(state, seat),
    toAct: engine.toAct(state),
    seatNames: ['Ama', 'Beni'],
    result: null,
    picks,
  };
}

/** The squares a board offers to click, and the actions it asks to choose between. */
const offered = (ctx: BoardContext) => {
  const text = board.render(ctx).text;
  return {
    squares: [...text.matchAll(/data-pick="sq ([^"]+)"/g)].map((m) => m[1]),
    asked: [...text.matchAll(/class="ck-group ck-choice".*?<\/div>/gs)].flatMap((m) => [...m[0].matchAll(/data-action="(\d+)"/g)].map((a) => Number(a[1]))),
  };
};

describe('Cerke by hand', () => {
  it('makes every move, Tam2 move and step finish by clicking squares the board offers, then a choice when several end there', () => {
    fc.assert(
      fc.property(decisions, (state) => {
        const start = context(state, []);
        const view = start.view as { tam2: string | null };
        // One drawing per selection: many actions share their piece.
        const drawn = new Map<string, ReturnType<typeof offered>>();
        const seen = (picks: readonly string[]) => drawn.get(picks.join('|')) ?? drawn.set(picks.join('|'), offered(context(state, picks))).get(picks.join('|'))!;
        start.legalActions.forEach((raw, index) => {
          const action = raw as CerkeAction;
          if (!clicked(action)) return;
          let picks: readonly string[] = [];
          const squares = action.type === 'move' ? [action.from, action.to] : action.type === 'moveTam2' ? [view.tam2!, action.to] : [action.to];
          for (const square of squares) {
            expect(seen(picks).squares).toContain(square);
            const next = board.pick!(context(state, picks), `sq ${square}`);
            if ('action' in next) {
              expect(next.action).toBe(index);
              return;
            }
            picks = next;
          }
          // Several actions end on that square: the board asks, this one among them, each as legal as the rest.
          const { asked } = seen(picks);
          expect(asked).toContain(index);
          for (const other of asked) {
            const a = start.legalActions[other] as CerkeAction;
            expect('to' in a && a.to).toBe(action.to);
          }
        });
      }),
      { numRuns: 10 },
    );
  });

  it('sends nothing for a square that starts or ends nothing, and puts a picked piece back', () => {
    fc.assert(
      fc.property(decisions, fc.nat(), (state, pick) => {
        const start = context(state, []);
        const { squares } = offered(start);
        fc.pre(squares.length > 0);
        const first = board.pick!(start, `sq ${squares[pick % squares.length]}`);
        if ('action' in first) {
          expect(clicked(start.legalActions[first.action] as CerkeAction)).toBe(true);
          return;
        }
        if (first.length) expect(board.pick!(context(state, first), 'put back')).toEqual([]);
        expect(board.pick!(start, 'sq nowhere')).toEqual([]);
      }),
      { numRuns: 60 },
    );
  });
});
