import { backgammonEngine, type BackgammonState } from '../../src/games/backgammon/engine/index.js';
import { backgammonBoard } from '../../web/src/boards/backgammon.js';
import { PALETTE } from '../../web/src/boards/backgammon-svg.js';
import type { BoardContext } from '../../web/src/boards/board.js';
import { act, moves, ok, position, roll, ruleset } from '../engines/backgammon/helpers.js';

const START = { 24: 2, 13: 5, 8: 3, 6: 5 };

function context(s: BackgammonState, viewer: number | null, seatNames: (string | null)[] = ['Alice', 'Bob']): BoardContext {
  return {
    kind: 'backgammon',
    view: backgammonEngine.view(s, viewer ?? 'spectator'),
    viewer,
    legalActions: viewer === null ? [] : backgammonEngine.legalActions(s, viewer),
    toAct: backgammonEngine.toAct(s),
    seatNames,
    result: backgammonEngine.outcome(s),
  };
}

const render = (s: BackgammonState, viewer: number | null, names?: (string | null)[]): string => backgammonBoard.render(context(s, viewer, names)).text;

/** The opening roll: White's 6 against Black's 3, so White starts with 6-3. */
const opening = (): BackgammonState => ok(backgammonEngine.resolveChance(backgammonEngine.init(ruleset({ matchLength: 7 })), [5, 2]));

/** Attributes of every start tag whose class list holds `cls`. */
function tags(markup: string, cls: string): Record<string, string>[] {
  return [...markup.matchAll(/<\w+\s([^>]*)>/g)]
    .map(([, attrs]) => Object.fromEntries([...attrs.matchAll(/([\w-]+)="([^"]*)"/g)].map(([, k, v]) => [k, v])))
    .filter((a) => a.class?.split(' ').includes(cls));
}

/** Checkers drawn per seat: place → count (points in the bottom seat's numbering, "bar", "off"). */
function checkers(markup: string, seat: number): Record<string, number> {
  const drawn: Record<string, number> = {};
  for (const g of tags(markup, 'bg-checkers')) if (g['data-seat'] === String(seat) && g['data-count'] !== '0') drawn[g['data-point']] = Number(g['data-count']);
  return drawn;
}

const total = (drawn: Record<string, number>): number => Object.values(drawn).reduce((a, b) => a + b, 0);

describe('backgammon board: drawing', () => {
  it('draws the opening position, 15 checkers a side, from the viewer’s side of the table', () => {
    const fromWhite = render(opening(), 0);
    expect(checkers(fromWhite, 0)).toEqual({ 24: 2, 13: 5, 8: 3, 6: 5 });
    // Black's 24, 13, 8 and 6 points are White's 1, 12, 17 and 19.
    expect(checkers(fromWhite, 1)).toEqual({ 1: 2, 12: 5, 17: 3, 19: 5 });
    expect(tags(fromWhite, 'bg-point')).toHaveLength(24);

    const fromBlack = render(opening(), 1);
    expect(checkers(fromBlack, 1)).toEqual({ 24: 2, 13: 5, 8: 3, 6: 5 });
    expect(checkers(fromBlack, 0)).toEqual({ 1: 2, 12: 5, 17: 3, 19: 5 });
    // A spectator sees White at the bottom.
    expect(checkers(render(opening(), null), 0)).toEqual(checkers(fromWhite, 0));
  });

  it('draws checkers on the bar and borne off, and counts stacks taller than five', () => {
    const s = position({ 6: 7, 5: 2, bar: 1 }, { 24: 2, 13: 5, bar: 2 }, 0);
    const markup = render(s, 0);
    expect(checkers(markup, 0)).toEqual({ 6: 7, 5: 2, bar: 1, off: 5 });
    expect(checkers(markup, 1)).toEqual({ 1: 2, 12: 5, bar: 2, off: 6 });
    expect(total(checkers(markup, 0))).toBe(15);
    // Seven checkers on the 6-point: five circles, the last labelled 7.
    const six = markup.match(/<g class="bg-checkers bg-seat-0" data-point="6"[^>]*>(.*?)<\/g>/s)![1];
    expect(six.match(/<circle/g)).toHaveLength(5);
    expect(six).toMatch(/>7<\/text>/);
    expect(markup).toMatch(/5 off/);
  });

  it('shows the cube centred at 64 at the start, then its value and owner', () => {
    const centred = tags(render(opening(), 0), 'bg-cube')[0];
    expect(centred).toMatchObject({ 'data-value': '1', 'data-owner': 'none', 'aria-label': 'Cube at 1, centred' });
    expect(render(opening(), 0)).toMatch(/>64<\/text>/);

    const offered = act(position(START, START, 0), 0, { type: 'double' });
    const offer = render(offered, 1);
    expect(tags(offer, 'bg-cube-offered')[0]).toMatchObject({ 'data-value': '2' });
    expect(offer).toContain('Alice doubles to 2: Bob to take or drop');

    const taken = act(offered, 1, { type: 'take' });
    const cube = tags(render(taken, 0), 'bg-cube')[0];
    expect(cube).toMatchObject({ 'data-value': '2', 'data-owner': '1', 'aria-label': 'Cube at 2, owned by Bob' });
    expect(tags(render(taken, 0), 'bg-cube-offered')).toHaveLength(0);
  });

  it('shows the dice, whose turn it is, the names, pips, score and match length', () => {
    const markup = render(opening(), 1);
    expect(tags(markup, 'bg-die').map((d) => d['data-value'])).toEqual(['6', '3']);
    expect(tags(markup, 'bg-acting')).toEqual([expect.objectContaining({ 'data-seat': '0' })]);
    expect(markup).toContain('Alice to play 6-3');
    expect(markup).toContain('Match to 7');
    expect(markup).toMatch(/167 pips/);
    expect(markup.match(/class="bg-score"[^>]*>0</g)).toHaveLength(2);
  });

  it('is one SVG with a viewBox, scaling to its container, with no inline style or script', () => {
    const markup = render(opening(), 0);
    expect(markup.match(/<svg /g)).toHaveLength(1);
    expect(markup).toMatch(/<svg [^>]*viewBox="0 0 \d+ \d+" width="100%"/);
    expect(markup).not.toMatch(/style=|<script|<style/i);
  });

  it('escapes seat names', () => {
    const markup = render(opening(), null, ['<script>alert(1)</script>', 'Bob "the" <b>']);
    expect(markup).not.toContain('<script>');
    expect(markup).not.toContain('<b>');
    expect(markup).toContain('&lt;script&gt;alert(1)&lt;/script&gt;');
    expect(markup).toContain('Bob &quot;the&quot; &lt;b&gt;');
  });

  it('shows the outcome once the match is over', () => {
    const s = position({ 1: 1 }, { 19: 2, 6: 13 }, 0, [6, 5], { matchLength: 1 });
    const over = act(s, 0, { type: 'play', moves: moves('1/off') });
    const result = backgammonEngine.outcome(over)!;
    const markup = render(over, 1);
    expect(tags(markup, 'bg-result')).toHaveLength(1);
    expect(markup).toContain('Alice wins');
    expect(markup).toContain(result.summary);
    expect(markup).not.toContain('data-action');
  });

  it('keeps both checker colours at WCAG AA contrast (3:1) against the felt, the points and the bar', () => {
    const luminance = (hex: string) => {
      const [r, g, b] = [1, 3, 5].map((i) => parseInt(hex.slice(i, i + 2), 16) / 255).map((c) => (c <= 0.03928 ? c / 12.92 : ((c + 0.055) / 1.055) ** 2.4));
      return 0.2126 * r + 0.7152 * g + 0.0722 * b;
    };
    const contrast = (a: string, b: string) => {
      const [hi, lo] = [luminance(a), luminance(b)].sort((x, y) => y - x);
      return (hi + 0.05) / (lo + 0.05);
    };
    for (const checker of PALETTE.checker) {
      for (const ground of [PALETTE.felt, PALETTE.bar, ...PALETTE.points]) expect(contrast(checker, ground)).toBeGreaterThanOrEqual(3);
    }
    expect(contrast(PALETTE.text, PALETTE.frame)).toBeGreaterThanOrEqual(4.5);
    expect(contrast(PALETTE.muted, PALETTE.frame)).toBeGreaterThanOrEqual(4.5);
  });
});

describe('backgammon board: playing by clicking', () => {
  /** data-action indexes in the markup, each with the attributes a keyboard needs. */
  function clickable(markup: string): number[] {
    const actors = [...markup.matchAll(/<[^>]*data-action="(\d+)"[^>]*>/g)];
    for (const [tag] of actors) expect(tag).toMatch(/role="button"[^>]*tabindex="0"|tabindex="0"[^>]*role="button"/);
    return actors.map(([, i]) => Number(i)).sort((a, b) => a - b);
  }

  const states: [string, () => BackgammonState, number][] = [
    ['the opening play', opening, 0],
    ['rolling or doubling', () => position(START, START, 0), 0],
    ['answering a double', () => act(position(START, START, 0), 0, { type: 'double' }), 1],
    ['answering a resignation', () => act(position(START, START, 0), 0, { type: 'resign', level: 'gammon' }), 1],
    ['entering from the bar', () => position({ 13: 5, 6: 5, bar: 1 }, START, 0, [6, 3]), 0],
    ['more than 40 plays', () => position(START, START, 0, [1, 1]), 0],
  ];

  it.each(states)('gives every legal action exactly one clickable element: %s', (_, make, seat) => {
    const s = make();
    const legal = backgammonEngine.legalActions(s, seat);
    expect(legal.length).toBeGreaterThan(0);
    expect(clickable(render(s, seat))).toEqual(legal.map((_, i) => i));
  });

  it('groups a long list of plays by their first move, every play still there', () => {
    const s = position(START, START, 0, [1, 1]);
    expect(backgammonEngine.legalActions(s, 0).length).toBeGreaterThan(40);
    const markup = render(s, 0);
    expect(markup).toMatch(/<details class="bg-play-group" open><summary>24\/23 … \(\d+\)<\/summary>/);
  });

  it('labels buttons in standard notation, resigning last and set apart', () => {
    const markup = render(position(START, START, 0), 0);
    const labels = [...markup.matchAll(/data-action="(\d+)"[^>]*>([^<]*)</g)].map(([, i, label]) => `${i}:${label}`);
    expect(labels).toEqual(['0:Roll', '1:Double', '2:Resign a single game', '3:Resign a gammon', '4:Resign a backgammon']);
    expect(tags(markup, 'bg-action-resign')).toHaveLength(3);
    expect(markup).toMatch(/aria-label="Double to 2"/);
    expect(render(act(position(START, START, 0), 0, { type: 'double' }), 1)).toMatch(/>Take<.*>Drop</s);
  });

  it('outlines the first listed play on the board', () => {
    const markup = render(position({ 13: 5, 6: 5, bar: 1 }, START, 0, [6, 3]), 0);
    const first = markup.match(/class="bg-action bg-action-shown"[^>]*>([^<]*)</)![1];
    // Black holds White's 19-point, so the checker enters on 22 and moves on with the 6.
    expect(first).toBe('bar/22 22/16');
    // Outlined: the bar it leaves and the 16-point it reaches, not the 22-point it passes.
    expect(tags(markup, 'bg-from')).toHaveLength(1);
    expect(tags(markup, 'bg-to')).toHaveLength(1);
  });

  it('has no clickable element for a spectator', () => {
    const markup = render(opening(), null);
    expect(markup).not.toContain('data-action');
    expect(markup).not.toContain('bg-actions');
    expect(tags(markup, 'bg-from')).toHaveLength(0);
  });
});

describe('backgammon board: notation', () => {
  const play = (text: string) => ({ type: 'play' as const, moves: moves(text) });
  const withView = (s: BackgammonState, seat: number) => ({ seat, view: backgammonEngine.view(s, seat) });

  it('writes plays highest point first', () => {
    expect(backgammonBoard.notation(play('6/5 8/5'), { seat: 0 })).toBe('8/5 6/5');
    expect(backgammonBoard.notation(play('13/11 24/18'), { seat: 1 })).toBe('24/18 13/11');
    expect(backgammonBoard.notation(play('13/10 13/7'), { seat: 0 })).toBe('13/7 13/10');
    expect(backgammonBoard.notation(play('6/3 8/5 6/3 8/5'), { seat: 0 })).toBe('8/5(2) 6/3(2)');
  });

  it('marks hits in the mover’s numbering, for either seat, and agrees with the engine', () => {
    // Black's blot on its 17-point is White's 8-point.
    const white = position({ 24: 2, 13: 5, 6: 8 }, { 17: 1, 13: 4, 6: 5, 8: 3, 24: 2 }, 0, [5, 2]);
    expect(backgammonBoard.notation(play('13/8 13/11'), withView(white, 0))).toBe('13/8* 13/11');
    // Only the first of two checkers landing on a blot hits it.
    // White's blot on its 5-point is Black's 20-point.
    const black = position({ 5: 1, 13: 5, 8: 3, 6: 5, 24: 1 }, START, 1, [4, 4]);
    expect(backgammonBoard.notation(play('24/20 24/20'), withView(black, 1))).toBe('24/20* 24/20');
    const after = act(white, 0, play('13/8 13/11'));
    expect(after.lastTurn!.moves).toContainEqual({ from: 13, to: 8, hit: true });
    expect(render(after, 1)).toContain('Last: Alice 5-2 13/8* 13/11');
  });

  it('writes bar entries and bearing off', () => {
    const entering = position({ 13: 5, 6: 5, 8: 4, bar: 1 }, START, 0, [3, 1]);
    expect(backgammonBoard.notation(play('bar/22 6/5'), withView(entering, 0))).toBe('bar/22 6/5');
    expect(backgammonBoard.notation(play('bar/22'), { seat: 1 })).toBe('bar/22');
    expect(backgammonBoard.notation(play('5/off 6/off'), { seat: 0 })).toBe('6/off 5/off');
    expect(backgammonBoard.notation(play('6/off 6/off 6/off 6/off'), { seat: 0 })).toBe('6/off(4)');
  });

  it('names cube and resignation actions', () => {
    const n = (action: unknown) => backgammonBoard.notation(action, { seat: 0 });
    expect([{ type: 'roll' }, { type: 'double' }, { type: 'take' }, { type: 'drop' }, { type: 'beaver' }].map(n)).toEqual(['Roll', 'Double', 'Take', 'Drop', 'Beaver']);
    expect(n({ type: 'resign', level: 'gammon' })).toBe('Resign a gammon');
    expect(n({ type: 'acceptResignation' })).toBe('Accept resignation');
  });

  it('lists the legal plays of a real roll in notation', () => {
    const s = roll(position(START, START, 0), [3, 1]);
    const labels = backgammonEngine.legalActions(s, 0).map((a) => backgammonBoard.notation(a, withView(s, 0)));
    expect(labels).toContain('8/5 6/5');
    expect(new Set(labels).size).toBe(labels.length);
  });
});
