import { type CerkeAction, type CerkeState, cerkeEngine, castValues } from '../../src/games/cerke/engine/index.js';
import { seededRandom } from '../../src/engines/kit/index.js';
import type { BoardContext } from '../../web/src/boards/board.js';
import { PALETTE, cerkeBoard } from '../../web/src/boards/cerke.js';
import type { CerkeView } from '../../web/src/boards/cerke-notation.js';

const engine = cerkeEngine;

function ruleset(input: Record<string, unknown> = {}) {
  const parsed = engine.parseRuleset(input);
  if (!parsed.ok) throw new Error(parsed.error.message);
  return parsed.value;
}

/** The opening with IA moving first (IA casts one marked stick, A none). */
function opening(): CerkeState {
  const cast = engine.resolveChance(engine.init(ruleset()), [1, 0, 0, 0, 0, 0, 0, 0, 0, 0]);
  if (!cast.ok) throw new Error(cast.error.message);
  return cast.value;
}

function play(state: CerkeState, action: CerkeAction): CerkeState {
  const next = engine.apply(state, state.toMove, action);
  if (!next.ok) throw new Error(`${JSON.stringify(action)}: ${next.error.message}`);
  return next.value;
}

/** One random step: a chance with drawn values, or a random legal action of the seat to act. */
function randomStep(state: CerkeState, rand: (n: number) => number): CerkeState {
  const pending = engine.pendingChance(state);
  if (pending) {
    const next = engine.resolveChance(
      state,
      pending.ranges.map((n) => rand(n)),
    );
    if (!next.ok) throw new Error(next.error.message);
    return next.value;
  }
  const seat = engine.toAct(state)[0];
  const actions = engine.legalActions(state, seat);
  return play(state, actions[rand(actions.length)]);
}

/** What the page would pass for `viewer` (a seat, or null for a spectator). */
function context(state: CerkeState, viewer: number | null, seatNames: (string | null)[] = ['Ama', 'Beni']): BoardContext {
  const outcome = engine.outcome(state);
  return {
    kind: 'cerke',
    view: JSON.parse(JSON.stringify(engine.view(state, viewer ?? 'spectator'))),
    viewer,
    legalActions: viewer === null ? [] : engine.legalActions(state, viewer),
    toAct: engine.toAct(state),
    seatNames,
    result: outcome,
  };
}

const render = (ctx: BoardContext) => cerkeBoard.render(ctx).text;
const attributeValues = (markup: string, name: string) => [...markup.matchAll(new RegExp(`\\s${name}="([^"]*)"`, 'g'))].map((m) => m[1]);
/** Opening tags that carry `data-action`. */
const clickables = (markup: string) => [...markup.matchAll(/<[^>]*\sdata-action="[^"]*"[^>]*>/g)].map((m) => m[0]);

function expectEveryActionClickableOnce(ctx: BoardContext) {
  const markup = render(ctx);
  const tags = clickables(markup);
  const indices = tags.map((tag) => Number(/data-action="(\d+)"/.exec(tag)![1])).sort((a, b) => a - b);
  expect(indices).toEqual(ctx.legalActions.map((_, i) => i));
  for (const tag of tags) {
    expect(tag).toContain('tabindex="0"');
    expect(tag).toContain('role="button"');
    expect(tag).toMatch(/aria-label="[^"]+"/);
  }
}

describe('the Cerke board', () => {
  it('draws every piece of the opening once on its square, and Tam2 on ZO', () => {
    const ctx = context(opening(), 0);
    const view = ctx.view as CerkeView;
    const markup = render(ctx);
    const drawn = attributeValues(markup, 'data-piece');
    expect(drawn).toHaveLength(48);
    expect(drawn.sort()).toEqual(view.board.map((p) => p.square).sort());
    expect(attributeValues(markup, 'data-square')).toHaveLength(81);
    expect(new Set(attributeValues(markup, 'data-square')).size).toBe(81);
    expect(attributeValues(markup, 'data-tam2')).toEqual(['ZO']);
    // The IA side's black King on ZIA and the A side's red King on ZA carry their kind, colour and side.
    expect(markup).toMatch(/data-piece="ZIA" data-kind="King" data-colour="black" data-side="IA"/);
    expect(markup).toMatch(/data-piece="ZA" data-kind="King" data-colour="red" data-side="A"/);
    expect(markup).toContain('>王</text>');
  });

  it('marks the water squares and the fixed squares of Tam2 field as the engine does', () => {
    const markup = render(context(opening(), null));
    const squaresWith = (cls: string) =>
      [...markup.matchAll(/<rect class="([^"]*)" data-square="([^"]*)"/g)]
        .filter((m) => m[1].split(' ').includes(cls))
        .map((m) => m[2])
        .sort();
    expect(squaresWith('ck-water')).toEqual(['CO', 'NO', 'TO', 'XO', 'ZAI', 'ZI', 'ZO', 'ZU', 'ZY']);
    expect(squaresWith('ck-tam2-hue')).toEqual(['CAI', 'CI', 'NAI', 'NI', 'TU', 'TY', 'XU', 'XY', 'ZO']);
    expect(squaresWith('ck-tam2-field')).toEqual(['TO', 'TU', 'TY', 'XO', 'XU', 'XY', 'ZU', 'ZY'].sort());
  });

  it('turns each side to face its direction and puts the viewing seat at the bottom', () => {
    const state = opening();
    const turned = (markup: string, square: string) => new RegExp(`data-piece="${square}"[^>]*><title>[^<]*</title><g transform="[^"]*rotate\\(180\\)`).test(markup);
    const asIA = render(context(state, 0));
    expect(turned(asIA, 'ZIA')).toBe(false);
    expect(turned(asIA, 'ZA')).toBe(true);
    const asA = render(context(state, 1));
    expect(turned(asA, 'ZIA')).toBe(true);
    expect(turned(asA, 'ZA')).toBe(false);
  });

  it('shows both hands with the captured pieces after random play with captures', () => {
    const rand = seededRandom(7);
    let state = opening();
    for (let i = 0; i < 400 && !(state.capturedPiles[0].length >= 2 && state.capturedPiles[1].length >= 2) && !engine.outcome(state); i++) state = randomStep(state, rand);
    expect(state.capturedPiles[0].length + state.capturedPiles[1].length).toBeGreaterThan(0);
    const markup = render(context(state, null));
    for (const [seat, side] of [
      [0, 'IA'],
      [1, 'A'],
    ] as const) {
      const shown = new Map<string, number>();
      for (const m of markup.matchAll(new RegExp(`data-hand="${side}" data-kind="(\\w+)" data-colour="(\\w+)" data-count="(\\d+)"`, 'g'))) shown.set(`${m[2]} ${m[1]}`, Number(m[3]));
      const held = new Map<string, number>();
      for (const p of state.capturedPiles[seat]) held.set(`${p.colour} ${p.kind}`, (held.get(`${p.colour} ${p.kind}`) ?? 0) + 1);
      expect(shown).toEqual(held);
    }
    expect(attributeValues(markup, 'data-piece')).toHaveLength(state.board.filter((c) => c !== null && c !== 'Tam2').length);
  });

  it('gives every legal action exactly one clickable element, in every phase of a random game', () => {
    const rand = seededRandom(11);
    let state = engine.init(ruleset({ seasons: 1 }));
    const phases = new Set<string>();
    for (let i = 0; i < 3000 && !engine.outcome(state); i++) {
      for (const seat of engine.toAct(state)) {
        phases.add(state.phase.name);
        if (i % 5 === 0 || state.phase.name !== 'move') expectEveryActionClickableOnce(context(state, seat));
      }
      state = randomStep(state, rand);
    }
    expect(phases).toContain('declaration');
    expect(phases).toContain('stepCompletion');
    expect(clickables(render(context(state, 0)))).toEqual([]);
  });

  it('gives a spectator and a seat waiting for its turn nothing to click', () => {
    const state = opening();
    expect(clickables(render(context(state, null)))).toEqual([]);
    expect(clickables(render(context(state, 1)))).toEqual([]);
  });

  it('marks the first legal action on the board', () => {
    const ctx = context(opening(), 0);
    const first = ctx.legalActions[0] as Extract<CerkeAction, { type: 'move' }>;
    const markup = render(ctx);
    const marked = [...markup.matchAll(/class="ck-mark ck-(\w+)"/g)].map((m) => m[1]);
    expect(marked).toEqual(first.via ? ['from', 'via', 'to'] : ['from', 'to']);
  });

  it('escapes seat names and keeps to the page CSP (no inline styles or scripts)', () => {
    const ctx = context(opening(), 0, ['<script>x</script>', 'A & "B"']);
    const markup = render(ctx);
    expect(markup).not.toContain('<script');
    expect(markup).toContain('&lt;script&gt;x&lt;/script&gt;');
    expect(markup).toContain('A &amp; &quot;B&quot;');
    expect(markup).not.toMatch(/\sstyle=/);
    expect(markup).not.toMatch(/\son\w+=/);
  });

  it('shows the season, the stake, both sides points, whose turn it is and the outcome', () => {
    const state = opening();
    const markup = render(context(state, 0));
    expect(markup).toContain('Spring, season 1 of 4 · stake ×1 (log₂ 0)');
    expect(markup.match(/>20 points</g)).toHaveLength(2);
    expect(markup).toContain('Ama to move');
    const resigned = engine.resign(state, 0);
    if (!resigned.ok) throw new Error(resigned.error.message);
    const over = render(context(resigned.value, 0));
    expect(over).toContain('Game over: A wins: IA resigned');
    expect(over).toMatch(/class="ck-panel ck-panel-A ck-winner"/);
  });

  it('keeps red and black ink readable (WCAG AA) on both sides tiles', () => {
    const luminance = (hex: string) => {
      const [r, g, b] = [1, 3, 5].map((i) => parseInt(hex.slice(i, i + 2), 16) / 255).map((c) => (c <= 0.03928 ? c / 12.92 : ((c + 0.055) / 1.055) ** 2.4));
      return 0.2126 * r + 0.7152 * g + 0.0722 * b;
    };
    const contrast = (a: string, b: string) => {
      const [hi, lo] = [luminance(a), luminance(b)].sort((x, y) => y - x);
      return (hi + 0.05) / (lo + 0.05);
    };
    for (const tile of Object.values(PALETTE.tile)) for (const ink of Object.values(PALETTE.ink)) expect(contrast(tile, ink)).toBeGreaterThanOrEqual(4.5);
    expect(contrast(PALETTE.tam2, PALETTE.tam2Ink)).toBeGreaterThanOrEqual(4.5);
  });
});

describe('Cerke notation', () => {
  const notation = (action: CerkeAction, state: CerkeState) => cerkeBoard.notation(action, { seat: state.toMove, view: engine.view(state, state.toMove) });

  it('writes a move as cerke_online does: origin, kind, destination', () => {
    const state = opening();
    const pawn: CerkeAction = { type: 'move', from: 'KAI', to: 'KY' };
    expect(engine.legalActions(state, 0)).toContainEqual(pawn);
    expect(notation(pawn, state)).toBe('KAI兵KY');
    expect(notation({ type: 'move', from: 'LAU', to: 'LY' }, state)).toBe('LAU弓LY');
  });

  it('writes a stepping move with the square stepped on, and its completion with the cast', () => {
    const state = opening();
    const stepping = engine.legalActions(state, 0).find((a): a is Extract<CerkeAction, { type: 'move' }> => a.type === 'move' && a.via === 'LAI' && a.from === 'LAU');
    expect(stepping).toBeDefined();
    expect(notation(stepping!, state)).toBe(`LAU弓LAI${stepping!.to}`);
    const planned = play(state, { type: 'move', from: 'LAU', via: 'LAI', to: 'LO' });
    const cast = engine.resolveChance(planned, castValues(3));
    if (!cast.ok) throw new Error(cast.error.message);
    expect(cast.value.phase.name).toBe('stepCompletion');
    expect(notation({ type: 'completeStep', to: 'LY' }, cast.value)).toBe('LAU弓LAILY橋三');
    expect(notation({ type: 'abandonStep' }, cast.value)).toBe('LAU弓LAILO橋三此無');
  });

  it('writes a parachute (a drop from the hand) as colour, kind and square', () => {
    const state = { ...opening(), capturedPiles: [[{ kind: 'Archer' as const, colour: 'red' as const }], []] };
    const drop = engine.legalActions(state, 0).find((a) => a.type === 'drop' && a.to === 'LY');
    expect(drop).toEqual({ type: 'drop', colour: 'red', kind: 'Archer', to: 'LY' });
    expect(notation(drop!, state)).toBe('赤弓LY');
  });

  it('writes Tam2 moves, declarations, and a past move with the piece on its new square', () => {
    const state = opening();
    expect(notation({ type: 'moveTam2', firstSquare: 'ZU', to: 'ZI' }, state)).toBe('ZO皇[ZU]ZI');
    expect(notation({ type: 'moveTam2', firstSquare: 'ZY', via: 'ZAI', to: 'ZAU', stepDuring: 'secondHalf' }, state)).toBe('ZO皇[ZY]ZAIZAU');
    expect(notation({ type: 'continue' }, state)).toBe('再行');
    expect(notation({ type: 'endSeason' }, state)).toBe('終季');
    const after = play(state, { type: 'move', from: 'KAI', to: 'KY' });
    expect(notation({ type: 'move', from: 'KAI', to: 'KY' }, after)).toBe('KAI兵KY');
    expect(cerkeBoard.notation({ type: 'move', from: 'KAI', to: 'KY' }, { seat: null })).toBe('KAI片KY');
  });
});
