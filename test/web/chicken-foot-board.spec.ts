/**
 * The Chicken Foot board drawn from real engine views: every table tile once, the viewer's hand
 * and no one else's, one clickable element per legal action, everything inside the viewBox however
 * big the table grows, names escaped, and the move-list notation.
 */
import { chickenFootEngine as engine, parseRuleset, type ChickenFootAction, type ChickenFootState, type ChickenFootView, type TreeView } from '../../src/games/chicken-foot/engine/index.js';
import { seededRandom } from '../../src/engines/kit/index.js';
import type { BoardContext } from '../../web/src/boards/board.js';
import { chickenFootBoard as board } from '../../web/src/boards/chicken-foot.js';
import { face, tableNodes } from '../../web/src/boards/chicken-foot-tiles.js';

const NAMES = ['Ann', 'Bob', 'Cy', 'Di', 'Eve', 'Fay', 'Gus', 'Hal'];

function rules(input: Record<string, unknown>) {
  const parsed = parseRuleset(input);
  if (!parsed.ok) throw new Error(parsed.error.message);
  return parsed.value;
}

/** Plays a random game from the start until `stop` says so (or the game ends); every state passes through `visit`. */
function playUntil(input: Record<string, unknown>, seed: number, stop: (state: ChickenFootState) => boolean, visit?: (state: ChickenFootState) => void): ChickenFootState {
  const rand = seededRandom(seed);
  let state = engine.init(rules(input));
  while (!stop(state) && !state.end) {
    const pending = engine.pendingChance(state);
    let next;
    if (pending) {
      next = engine.resolveChance(
        state,
        pending.ranges.map((n) => rand(n)),
      );
    } else {
      const seat = engine.toAct(state)[0];
      const actions = engine.legalActions(state, seat);
      next = engine.apply(state, seat, actions[rand(actions.length)]);
    }
    if (!next.ok) throw new Error(next.error.message);
    state = next.value;
    visit?.(state);
  }
  return state;
}

/** What the page would pass for this viewer (null: a spectator). */
function context(state: ChickenFootState, viewer: number | null, seatNames: (string | null)[] = NAMES.slice(0, state.ruleset.players)): BoardContext {
  return {
    kind: 'chicken-foot',
    view: engine.view(state, viewer ?? 'spectator'),
    viewer,
    legalActions: viewer === null ? [] : engine.legalActions(state, viewer),
    toAct: engine.toAct(state),
    seatNames,
    result: engine.outcome(state),
  };
}

const render = (ctx: BoardContext) => board.render(ctx).text;
const values = (markup: string, attribute: string) => [...markup.matchAll(new RegExp(` ${attribute}="([^"]*)"`, 'g'))].map((m) => m[1]);
const sorted = (list: string[]) => list.slice().sort();
const tableTiles = (state: ChickenFootState) => state.round!.table.map((node) => node.tile);
const midRound = (state: ChickenFootState) => state.round !== null && state.round.table.length >= 15;
/** A play on the open end of a line (not the hub, not a foot). */
const onLine = (a: ChickenFootAction) => a.type === 'play' && a.target !== 'hub' && a.target.split('-')[0] !== a.target.split('-')[1];

/** Each clickable element's opening tag. */
const clickables = (markup: string) => [...markup.matchAll(/<g [^>]*data-action="[^"]*"[^>]*>/g)].map((m) => m[0]);

interface Box {
  tile: string;
  x: number;
  y: number;
  w: number;
  h: number;
}

/** Every table tile's outline rect (the first child of its group). */
function tileBoxes(markup: string): Box[] {
  const rects = [...markup.matchAll(/data-tile="([^"]+)"[^>]*><rect class="cf-domino" x="([-\d.]+)" y="([-\d.]+)" width="([\d.]+)" height="([\d.]+)"/g)];
  expect(rects.length).toBe(values(markup, 'data-tile').length);
  return rects.map(([, tile, x, y, w, h]) => ({ tile, x: Number(x), y: Number(y), w: Number(w), h: Number(h) }));
}

/** Table tiles reaching out of the viewBox. */
function outside(markup: string): string[] {
  const [, width, height] = /viewBox="0 0 ([\d.]+) ([\d.]+)"/.exec(markup)!.map(Number);
  return tileBoxes(markup)
    .filter((b) => b.x < 0 || b.y < 0 || b.x + b.w > width || b.y + b.h > height)
    .map((b) => b.tile);
}

/** Pairs of table tiles drawn over each other, and tiles a connector runs through (a connector may only touch tiles' edges). */
function collisions(markup: string): string[] {
  const boxes = tileBoxes(markup);
  const inside = (b: Box, x1: number, y1: number, x2: number, y2: number) => x1 < b.x + b.w - 1 && x2 > b.x + 1 && y1 < b.y + b.h - 1 && y2 > b.y + 1;
  const found: string[] = [];
  boxes.forEach((a, i) => {
    for (const b of boxes.slice(i + 1)) if (inside(a, b.x, b.y, b.x + b.w, b.y + b.h)) found.push(`${a.tile} over ${b.tile}`);
  });
  for (const [, d] of markup.matchAll(/class="cf-link" d="([^"]+)"/g)) {
    const points = [...d.matchAll(/([-\d.]+) ([-\d.]+)/g)].map(([, x, y]) => [Number(x), Number(y)]);
    for (let k = 1; k < points.length; k++) {
      const [[x1, y1], [x2, y2]] = [points[k - 1], points[k]];
      for (const b of boxes) if (inside(b, Math.min(x1, x2), Math.min(y1, y2), Math.max(x1, x2), Math.max(y1, y2))) found.push(`link through ${b.tile}`);
    }
  }
  return found;
}

/** Positions (the seat to act's view) where a tile has several targets, where the only move is a draw, and where it is a pass. */
function decisions(): { several: ChickenFootState; draw: ChickenFootState; pass: ChickenFootState } {
  const found: Partial<Record<'several' | 'draw' | 'pass', ChickenFootState>> = {};
  const plays = (actions: ChickenFootAction[]) => actions.flatMap((a) => (a.type === 'play' ? [a.tile] : []));
  for (let seed = 1; !(found.several && found.draw && found.pass); seed++) {
    playUntil(
      { players: 4 },
      seed,
      () => !!(found.several && found.draw && found.pass),
      (state) => {
        if (!state.round || state.end) return;
        const actions = engine.legalActions(state, state.round.turn);
        const tiles = plays(actions);
        if (new Set(tiles).size < tiles.length) found.several ??= state;
        if (actions.some((a) => a.type === 'draw')) found.draw ??= state;
        if (actions.some((a) => a.type === 'pass')) found.pass ??= state;
      },
    );
  }
  return found as { several: ChickenFootState; draw: ChickenFootState; pass: ChickenFootState };
}

/** A view of `state` for a spectator with `table` in place of the round's table. */
function withTable(state: ChickenFootState, table: TreeView): BoardContext {
  const ctx = context(state, null);
  const view = ctx.view as ChickenFootView;
  return { ...ctx, view: { ...view, round: { ...view.round!, table } } };
}

/** Tiles of a double-18 set as eight arms of lines with feet nested three deep, until the tiles run out. */
function bushyTable(): TreeView {
  const tiles: string[] = [];
  for (let a = 0; a <= 18; a++) for (let b = a; b <= 18; b++) if (!(a === 18 && b === 18)) tiles.push(`${a}-${b}`);
  const doubles = tiles.filter((t) => t.split('-')[0] === t.split('-')[1]);
  const lines = tiles.filter((t) => !doubles.includes(t));
  const node = (tile: string, kind: 'line' | 'foot', children: TreeView[]): TreeView => ({ tile, kind, value: Number(tile.split('-')[1]), open: false, children });
  const chain = (length: number, depth: number): TreeView | undefined => {
    const tile = lines.shift();
    if (!tile) return undefined;
    const rest =
      length > 1
        ? chain(length - 1, depth)
        : depth > 0 && doubles.length > 0
          ? node(
              doubles.shift()!,
              'foot',
              [chain(4, depth - 1), chain(6, depth - 1), chain(3, depth - 1)].filter((t): t is TreeView => !!t),
            )
          : undefined;
    return node(tile, 'line', rest ? [rest] : []);
  };
  const arms = Array.from({ length: 8 }, () => chain(5, 3)).filter((t): t is TreeView => !!t);
  return { tile: '18-18', kind: 'hub', value: 18, open: true, children: arms };
}

describe('Chicken Foot board', () => {
  it('draws every tile on the table exactly once, for a seat and for a spectator', () => {
    for (const seed of [1, 2, 3]) {
      const state = playUntil({ players: 4 }, seed, midRound);
      const expected = sorted(tableTiles(state));
      for (const viewer of [0, 2, null]) expect(sorted(values(render(context(state, viewer)), 'data-tile'))).toEqual(expected);
    }
  });

  it("draws the viewer's own hand, and no tile of any hand for a spectator", () => {
    const state = playUntil({ players: 4 }, 4, midRound);
    const hands = state.round!.hands;
    for (let seat = 0; seat < 4; seat++) {
      const markup = render(context(state, seat));
      expect(sorted(values(markup, 'data-hand'))).toEqual(sorted(hands[seat]));
      const others = hands.filter((_, s) => s !== seat).flat();
      expect(values(markup, 'data-hand').filter((t) => others.includes(t))).toEqual([]);
    }
    const spectator = render(context(state, null));
    expect(values(spectator, 'data-hand')).toEqual([]);
    const shown = values(spectator, 'data-tile');
    expect(hands.flat().filter((t) => shown.includes(t))).toEqual([]);
    // Not even in a label: no hand tile's name appears anywhere.
    expect(hands.flat().filter((t) => spectator.includes(`${face(t)} `) || spectator.includes(`"${t}"`))).toEqual([]);
  });

  it('gives every legal action exactly one clickable element, keyboard-reachable and labelled; spectators and waiting seats get none', () => {
    const positions = decisions();
    for (const state of Object.values(positions)) {
      const seat = state.round!.turn;
      const ctx = context(state, seat);
      const tags = clickables(render(ctx));
      expect(sorted(tags.map((tag) => /data-action="(\d+)"/.exec(tag)![1]))).toEqual(sorted(ctx.legalActions.map((_, i) => String(i))));
      for (const tag of tags) {
        expect(tag).toContain('tabindex="0"');
        expect(tag).toContain('role="button"');
        expect(tag).toMatch(/aria-label="[^"]+"/);
      }
      expect(clickables(render(context(state, null)))).toEqual([]);
      expect(clickables(render(context(state, (seat + 1) % 4)))).toEqual([]);
    }
    // A tile with several targets is not itself clickable: each target is a button naming it.
    const several = render(context(positions.several, positions.several.round!.turn));
    expect(several).toMatch(/aria-label="Play \d+\|\d+ on (arm \d+|the hub|foot \d+\|\d+)/);
    expect(render(context(positions.draw, positions.draw.round!.turn))).toContain('aria-label="Draw a tile from the boneyard"');
    expect(render(context(positions.pass, positions.pass.round!.turn))).toContain('aria-label="Pass the turn"');
  });

  it('keeps every tile inside the viewBox however big the table grows', () => {
    // A double-18 round played to its end by two players, and double-12 with eight.
    let biggest: ChickenFootState | null = null;
    const roundOver = playUntil({ players: 2, setMax: 18 }, 11, (s) => s.rounds.length === 1);
    playUntil(
      { players: 8, preset: 'malta-cross', setMax: 12 },
      7,
      (s) => s.rounds.length === 1,
      (s) => {
        if (s.round && s.round.table.length > (biggest?.round?.table.length ?? 0)) biggest = s;
      },
    );
    const lastTable = roundOver.rounds[0].table.map((node) => node.tile);
    expect(lastTable.length).toBeGreaterThan(60);
    const finished = render(context(roundOver, 0));
    expect(sorted(values(finished, 'data-tile'))).toEqual(sorted(lastTable));
    expect(outside(finished)).toEqual([]);
    expect(collisions(finished)).toEqual([]);
    const crowded = render(context(biggest!, 0));
    expect(outside(crowded)).toEqual([]);
    expect(collisions(crowded)).toEqual([]);

    // Made-up tables: one arm of 171 tiles, and feet nested three deep on eight arms.
    const state = playUntil({ players: 2, setMax: 18 }, 3, (s) => s.round !== null);
    const lines: TreeView[] = [];
    for (let a = 0; a < 18; a++) for (let b = a + 1; b <= 18; b++) lines.push({ tile: `${a}-${b}`, kind: 'line', value: b, open: false, children: [] });
    lines.reduce((parent, next) => {
      parent.children.push(next);
      return next;
    });
    const longArm = render(withTable(state, { tile: '18-18', kind: 'hub', value: 18, open: false, children: [lines[0]] }));
    expect(values(longArm, 'data-tile')).toHaveLength(172);
    expect(outside(longArm)).toEqual([]);
    expect(collisions(longArm)).toEqual([]);
    const bushy = bushyTable();
    const bushyMarkup = render(withTable(state, bushy));
    expect(sorted(values(bushyMarkup, 'data-tile'))).toEqual(sorted(tableNodes(bushy).map((node) => node.tile)));
    expect(outside(bushyMarkup)).toEqual([]);
    expect(collisions(bushyMarkup)).toEqual([]);
  });

  it('draws pips up to double-9 and numerals for larger sets', () => {
    const nine = render(context(playUntil({ players: 4 }, 5, midRound), 0));
    expect(nine).toContain('class="cf-pip"');
    expect(nine).not.toContain('class="cf-numeral"');
    const twelve = render(context(playUntil({ players: 4, setMax: 12 }, 5, midRound), 0));
    expect(twelve).toContain('class="cf-numeral"');
    expect(twelve).not.toContain('class="cf-pip"');
  });

  it('escapes seat names and uses no inline style', () => {
    const state = playUntil({ players: 4 }, 6, midRound);
    const markup = render(context(state, 1, ['<script>alert(1)</script>', 'Bob & "Co"', "O'Hara", null]));
    expect(markup).not.toContain('<script');
    // Cut to fit its card, with the whole name as the tooltip.
    expect(markup).toContain('<title>&lt;script&gt;alert(1)&lt;/script&gt;</title>&lt;script&gt;');
    expect(markup).toContain('Bob &amp; &quot;Co&quot;');
    expect(markup).toContain('O&#39;Hara');
    expect(markup).toContain('seat 3');
    expect(markup).not.toMatch(/\sstyle=/);
    expect(markup).not.toContain('<style');
  });

  it('shows the round, the boneyard, each seat and the seat to act, and the result once the game is over', () => {
    const state = playUntil({ players: 4 }, 8, midRound);
    const markup = render(context(state, 0));
    expect(markup).toContain(`Round 1 · boneyard ${state.round!.yard.length}`);
    expect(markup).toContain(`▶ ${NAMES[state.round!.turn]}`);
    expect(markup).toMatch(/Ann<\/text><text class="cf-you"[^>]*>you<\/text>/);
    state.round!.hands.forEach((hand, seat) => {
      expect(markup).toMatch(new RegExp(`${NAMES[seat]}</text>(<text[^>]*>you</text>)?<text[^>]*>${hand.length} tiles</text><text[^>]*>0 pts</text>`));
    });

    const over = playUntil({ players: 3 }, 12, () => false);
    const outcome = engine.outcome(over)!;
    const end = render(context(over, 1));
    expect(end).toContain(`Game over: ${outcome.winners.map((seat) => NAMES[seat]).join(' and ')}`);
    expect(end).toContain(outcome.summary);
    expect(clickables(end)).toEqual([]);
  });

  it('writes each action type in the notation', () => {
    const seat = { seat: 0 };
    expect(board.notation({ type: 'draw' }, seat)).toBe('draws');
    expect(board.notation({ type: 'pass' }, seat)).toBe('passes');
    expect(board.notation({ type: 'play', tile: '4-6', target: 'hub' }, seat)).toBe('6|4 → hub');
    expect(board.notation({ type: 'play', tile: '5-6', target: '5-5' }, seat)).toBe('6|5 → foot 5|5');
    expect(board.notation({ type: 'play', tile: '1-5', target: '5-9', announce: true }, seat)).toBe('5|1 → 9|5 (calls last tile)');

    // With the view, a line's open end is named by its arm, before the play and after it.
    const state = playUntil({ players: 4 }, 9, (s) => midRound(s) && engine.legalActions(s, s.round!.turn).some(onLine));
    const turn = state.round!.turn;
    const play = engine.legalActions(state, turn).find(onLine)!;
    const before = board.notation(play, { seat: turn, view: engine.view(state, 'spectator') });
    expect(before).toMatch(/^\d+\|\d+ → arm \d+(, toe [\d.]+)?$/);
    const after = engine.apply(state, turn, play);
    if (!after.ok) throw new Error(after.error.message);
    expect(board.notation(play, { seat: turn, view: engine.view(after.value, 'spectator') })).toBe(before);
  });
});
