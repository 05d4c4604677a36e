import fc from 'fast-check';
import { backgammonEngine, type BackgammonAction, type BackgammonState, type BackgammonView } from '../../src/games/backgammon/engine/index.js';
import { backgammonBoard } from '../../web/src/boards/backgammon.js';
import { handOf, pickPlace } from '../../web/src/boards/backgammon-hand.js';
import { type Turn, nextSteps, turnOf, viewAfter } from '../../web/src/boards/backgammon-steps.js';
import type { BoardContext } from '../../web/src/boards/board.js';
import { ok, position, ruleset } from '../engines/backgammon/helpers.js';

/**
 * Moving checkers by hand (issue 28 item 5): after any clicks, the page offers only steps that can
 * still end in a legal play, every legal play can be built by clicking its moves, and whatever a
 * player clicks to the end is a play the engine accepts, landing where the play sent lands.
 */
type Move = { from: number | 'bar'; to: number | 'off' };

const plays = (s: BackgammonState, seat: number) => backgammonEngine.legalActions(s, seat).filter((a): a is Extract<BackgammonAction, { type: 'play' }> => a.type === 'play');
const turnAt = (s: BackgammonState): Turn => turnOf(backgammonEngine.view(s, s.turn) as BackgammonView, s.turn, backgammonEngine.legalActions(s, s.turn))!;

/** The boards the engine reaches by playing these moves, or by the legal action sent. */
const board = (s: BackgammonState, moves: Move[]) => ok(backgammonEngine.apply(s, s.turn, { type: 'play', moves })).board;

/** Clicks a place; a completed play answers its index. */
function click(turn: Turn, picks: string[], where: number | 'bar' | 'off' | 'undo'): string[] | number {
  const next = pickPlace(turn, picks, String(where));
  return 'action' in next ? next.action : [...next];
}

/**
 * A game played at random to some turn with dice to play: chance and choices from `seeds`,
 * cube and resignation left aside. Null when the game ended first.
 */
function reach(seeds: number[]): BackgammonState | null {
  let s = backgammonEngine.init(ruleset({ matchLength: 1 }));
  for (const seed of seeds) {
    const chance = backgammonEngine.pendingChance(s);
    if (chance) {
      s = ok(
        backgammonEngine.resolveChance(
          s,
          chance.ranges.map((r, i) => (seed >> (3 * i)) % r),
        ),
      );
      continue;
    }
    const seat = backgammonEngine.toAct(s)[0];
    if (seat === undefined) return null;
    const options = backgammonEngine.legalActions(s, seat).filter((a) => a.type === 'roll' || a.type === 'play' || a.type === 'take');
    if (options.length === 0) return null;
    s = ok(backgammonEngine.apply(s, seat, options[seed % options.length]));
  }
  return s.phase === 'awaiting-play' ? s : null;
}

const games = fc
  .array(fc.nat({ max: 1 << 20 }), { minLength: 1, maxLength: 160 })
  .map(reach)
  .filter((s): s is BackgammonState => s !== null && plays(s, s.turn).length > 0);

describe('backgammon by hand: legal steps', () => {
  it('builds every legal play by clicking its moves in order, and sends that play', () => {
    fc.assert(
      fc.property(games, (s) => {
        const turn = turnAt(s);
        plays(s, s.turn).forEach((play) => {
          let picks: string[] | number = [];
          for (const { from, to } of play.moves) {
            expect(typeof picks).not.toBe('number');
            picks = click(turn, click(turn, picks as string[], from) as string[], to);
          }
          expect(backgammonEngine.legalActions(s, s.turn)[picks as number]).toEqual(play);
        });
      }),
      { numRuns: 60 },
    );
  });

  it('ends whatever is clicked, undos included, in a play the engine accepts as the play sent', () => {
    fc.assert(
      fc.property(games, fc.array(fc.nat(), { minLength: 40, maxLength: 40 }), (s, choices) => {
        const turn = turnAt(s);
        let picks: string[] = [];
        for (const choice of choices) {
          const { taken, selected } = handOf(picks);
          const steps = nextSteps(turn, taken);
          expect(steps.length).toBeGreaterThan(0);
          const places = selected === null ? steps.map((x) => x.from) : steps.filter((x) => x.from === selected).map((x) => x.to);
          // Now and then an undo; else a place the board offers.
          const next = choice % 7 === 0 ? click(turn, picks, 'undo') : click(turn, picks, places[choice % places.length]);
          if (typeof next === 'number') {
            const moves = [...taken, ...(selected === null ? [] : steps.filter((x) => x.from === selected && x.to === places[choice % places.length]).slice(0, 1))];
            expect(board(s, moves)).toEqual(board(s, (backgammonEngine.legalActions(s, s.turn)[next] as { moves: Move[] }).moves));
            return;
          }
          picks = next;
        }
      }),
      { numRuns: 60 },
    );
  });
});

describe('backgammon by hand: the board', () => {
  const context = (s: BackgammonState, picks: string[]): BoardContext => ({
    kind: 'backgammon',
    view: backgammonEngine.view(s, s.turn),
    viewer: s.turn,
    legalActions: backgammonEngine.legalActions(s, s.turn),
    toAct: backgammonEngine.toAct(s),
    seatNames: ['Alice', 'Bob'],
    result: null,
    picks,
  });
  const picked = (s: BackgammonState, picks: string[], token: string) => backgammonBoard.pick!(context(s, picks), token) as string[];
  const marks = (markup: string, role: string) => [...markup.matchAll(new RegExp(`class="bg-pick bg-pick-${role}" data-pick="([^"]+)"`, 'g'))].map((m) => m[1]);

  it('marks the checkers that can move, then where the one picked up can go, and moves it on the board', () => {
    // White to play 6-1 from the opening position.
    const s = position({ 24: 2, 13: 5, 8: 3, 6: 5 }, { 24: 2, 13: 5, 8: 3, 6: 5 }, 0, [6, 1]);
    const start = backgammonBoard.render(context(s, [])).text;
    expect(marks(start, 'source').sort()).toEqual(['13', '24', '6', '8']);
    expect(start).toContain('aria-label="Pick up a checker from point 13 (5 there)"');

    const at13 = picked(s, [], '13');
    const choosing = backgammonBoard.render(context(s, at13)).text;
    expect(marks(choosing, 'selected')).toEqual(['13']);
    // The 6, or the 6 and the 1 with the same checker (the 1 alone lands on Black's 13-point, his 12).
    expect(marks(choosing, 'target').sort()).toEqual(['6', '7']);

    const moved = picked(s, at13, '7');
    const after = backgammonBoard.render(context(s, moved)).text;
    expect(after).toContain('Moved 13/7');
    expect(after).toContain('dice left 1');
    expect(after).toMatch(/data-point="7" data-seat="0" data-count="1"/);
    // Undo puts the checker back.
    expect(picked(s, moved, 'undo')).toEqual([]);
    // The last step sends the play: one action, 13/7 8/7 as listed.
    const sent = backgammonBoard.pick!(context(s, picked(s, moved, '8')), '7');
    expect(backgammonEngine.legalActions(s, 0)[(sent as { action: number }).action]).toEqual({
      type: 'play',
      moves: [
        { from: 13, to: 7 },
        { from: 8, to: 7 },
      ],
    });
  });

  it('enters from the bar first, and hits a blot, showing the hit checker on the bar', () => {
    const s = position({ bar: 1, 13: 5, 6: 5, 8: 4 }, { 24: 2, 13: 5, 8: 3, 6: 4, 4: 1 }, 0, [4, 3]);
    expect(marks(backgammonBoard.render(context(s, [])).text, 'source')).toEqual(['bar']);
    // Black's blot on his 4-point is White's 21-point.
    const hit = picked(s, picked(s, [], 'bar'), '21');
    const turn = turnAt(s);
    const view = viewAfter(backgammonEngine.view(s, 0) as BackgammonView, 0, turn, handOf(hit).taken);
    expect(view.board.sides[1].bar).toBe(1);
    expect(view.board.sides[0].bar).toBe(0);
  });
});
