/**
 * The Chicken Foot board: one SVG with the round and the boneyard, every seat's tile count and
 * score, the table as a tree around the hub, and for a seat its own hand with a button (or a
 * clickable tile) for each legal action. Everything drawn comes from the view the API answers to
 * the viewer, so a spectator's board has no hand at all.
 */
import type { ChickenFootAction, ChickenFootView, FinishedRoundView, RoundView, TileId, TreeView } from '../../../src/games/chicken-foot/engine/index.js';
import { type Markup, svg } from '../html.js';
import type { Board, BoardContext } from './board.js';
import { pickedTile, pickTile, playsByTile } from './chicken-foot-hand.js';
import { drawTable } from './chicken-foot-table.js';
import { domino, face, MAX_PIPS, n, pipsOf, placeNames, tableNodes } from './chicken-foot-tiles.js';

const WIDTH = 480;
const PAD = 10;
const TABLE_HEIGHT = 400;
/** Short side of a tile in the hand (the table scales its own). */
const HAND_TILE = 20;
const HAND_STEP = HAND_TILE + 6;
/** How far a playable tile stands out of the hand. */
const RAISE = 6;
const BUTTON_HEIGHT = 28;
const FONT = 'system-ui, -apple-system, Segoe UI, Roboto, sans-serif';

type Play = Extract<ChickenFootAction, { type: 'play' }>;

/** What `ctx.result` holds for a finished game (the engine's outcome). */
interface Result {
  winners?: number[];
  summary?: string;
}

/** A generous width per character (in ems): text is measured without a DOM, so it errs wide. */
const EM_PER_CHAR = 0.58;
const textWidth = (text: string, size: number) => Array.from(text).length * size * EM_PER_CHAR;

/** A line of text, cut with an ellipsis when it would overflow `max` units (a long name, say); the whole text is then its tooltip. */
function label(text: string, x: number, y: number, size: number, max: number, attrs: Markup): Markup {
  const chars = Array.from(text);
  const room = Math.floor(max / (size * EM_PER_CHAR));
  if (chars.length <= room) return svg`<text x="${n(x)}" y="${n(y)}" font-size="${size}" ${attrs}>${text}</text>`;
  return svg`<text x="${n(x)}" y="${n(y)}" font-size="${size}" ${attrs}><title>${text}</title>${chars.slice(0, Math.max(1, room - 1)).join('')}…</text>`;
}

const tiles = (count: number) => `${count} ${count === 1 ? 'tile' : 'tiles'}`;

const seatName = (ctx: BoardContext, seat: number) => ctx.seatNames[seat] ?? `seat ${seat}`;

/** The round in play, else the one just over (its table stays on view), else none. */
function shownRound(view: ChickenFootView): { round: RoundView | null; over: FinishedRoundView | null; hub: TreeView | null } {
  const over = view.round ? null : (view.rounds[view.rounds.length - 1] ?? null);
  return { round: view.round, over, hub: view.round?.table ?? over?.table ?? null };
}

/** Sets above double-9 are drawn with numerals: only the tiles this viewer can see tell how large the set is. */
function needsNumerals(view: ChickenFootView, hub: TreeView | null): boolean {
  const seen = [...(hub ? tableNodes(hub).map((node) => node.tile) : []), ...(view.round?.hand ?? []), ...view.rounds.flatMap((r) => r.order)];
  return seen.some((tile) => Math.max(...pipsOf(tile)) > MAX_PIPS);
}

function headline(ctx: BoardContext, view: ChickenFootView): string[] {
  const { round, over } = shownRound(view);
  if (round) {
    const reserve = round.drawable < round.yardSize ? ` (${round.drawable} drawable)` : '';
    const state =
      round.phase === 'OPENING'
        ? `the hub needs ${round.hub.requiredArms} arms (${round.hub.arms} laid)`
        : round.openFoot
          ? `the chicken foot on ${face(round.openFoot.tile)} needs ${round.openFoot.needed} toes (${round.openFoot.toes} laid)`
          : `${round.hub.arms} arms`;
    return [`Round ${round.number} · boneyard ${round.yardSize}${reserve}`, `${seatName(ctx, round.turn)} to play · ${state}`];
  }
  if (over) {
    const how = over.end === 'domino' && over.wentOut !== null ? `${seatName(ctx, over.wentOut)} went out` : over.end;
    return [`Round ${over.number} over: ${how}`];
  }
  return [`Round ${view.roundNumber}: waiting for the deal`];
}

function resultBanner(ctx: BoardContext, y: number): { markup: Markup; height: number } {
  const result = ctx.result as Result | null;
  if (!result) return { markup: svg``, height: 0 };
  const winners = (result.winners ?? []).map((seat) => seatName(ctx, seat));
  const line = winners.length > 0 ? `Game over: ${winners.join(' and ')} ${winners.length > 1 ? 'win' : 'wins'}` : 'Game over';
  const max = WIDTH - 2 * PAD - 16;
  const markup = svg`<g class="cf-result"><rect x="${PAD}" y="${y}" width="${WIDTH - 2 * PAD}" height="46" rx="6" fill="#2f6b45"/>${label(line, PAD + 8, y + 19, 15, max, svg`font-weight="700" fill="#ffffff"`)}${label(result.summary ?? '', PAD + 8, y + 37, 11, max, svg`fill="#e3f0e7"`)}</g>`;
  return { markup, height: 54 };
}

/** One card per seat: name, tiles in hand, total score; the seat to act and the viewer stand out. */
function seatCards(ctx: BoardContext, view: ChickenFootView, y: number): { markup: Markup; height: number } {
  const { round, over } = shownRound(view);
  const perRow = Math.min(view.players, 4);
  const gap = 6;
  const width = (WIDTH - 2 * PAD - (perRow - 1) * gap) / perRow;
  const height = 38;
  const cards = view.totals.map((total, seat) => {
    const x = PAD + (seat % perRow) * (width + gap);
    const top = y + Math.floor(seat / perRow) * (height + gap);
    const acting = ctx.toAct.includes(seat);
    const you = ctx.viewer === seat;
    const name = `${acting ? '▶ ' : ''}${seatName(ctx, seat)}`;
    const youTag = you ? svg`<text class="cf-you" x="${n(x + width - 6)}" y="${top + 15}" font-size="11" font-weight="700" text-anchor="end" fill="#2f6b45">you</text>` : '';
    // Tiles in hand (or what the round just over added) on the left, the total on the right.
    const left = round ? tiles(round.handSizes[seat]) : over?.scores ? `+${over.scores[seat]}` : '';
    const right = `${total} pts`;
    const classes = `cf-seat${acting ? ' cf-to-act' : ''}${you ? ' cf-viewer' : ''}`;
    return svg`<g class="${classes}"><rect x="${n(x)}" y="${top}" width="${n(width)}" height="${height}" rx="5" fill="${acting ? '#fff1c1' : '#f2f2ef'}" stroke="${you ? '#2f6b45' : '#c9c9c2'}" stroke-width="${you ? 2 : 1}"/>${label(name, x + 6, top + 15, 12, width - (you ? 36 : 12), svg`font-weight="700" fill="#1d1d1d"`)}${youTag}${label(left, x + 6, top + 30, 11, width - 16 - textWidth(right, 11), svg`fill="#444444"`)}<text x="${n(x + width - 6)}" y="${top + 30}" font-size="11" text-anchor="end" fill="#444444">${right}</text></g>`;
  });
  const rows = Math.ceil(view.players / perRow);
  return { markup: svg`<g class="cf-seats">${cards}</g>`, height: rows * (height + gap) };
}

/** The attributes that make an element play `legalActions[index]` when clicked or activated from the keyboard. */
const actionAttrs = (index: number, aria: string) => svg`data-action="${index}" tabindex="0" role="button" aria-label="${aria}"`;

/** "6|4 on arm 2", naming the target as the table shows it. */
function playLabel(play: Play, names: Map<TileId, string>): string {
  const place = play.target === 'hub' ? 'the hub' : (names.get(play.target) ?? face(play.target));
  return `${face(play.tile)} on ${place}${play.announce ? ', calling last tile' : ''}`;
}

/**
 * The viewer's hand, then buttons. A playable tile is raised and is a button that picks it up
 * (the table then offers its ends); the list of buttons below holds every legal action too, one
 * each, for whoever prefers it or cannot point: plays, draw and pass.
 */
function handAndActions(ctx: BoardContext, hand: TileId[], names: Map<TileId, string>, numerals: boolean, y: number): { markup: Markup; height: number } {
  const actions = ctx.legalActions as ChickenFootAction[];
  const plays = playsByTile(actions);
  const held = pickedTile(ctx.picks ?? []);
  const perRow = Math.floor((WIDTH - 2 * PAD + HAND_STEP - HAND_TILE) / HAND_STEP);
  const rowHeight = 2 * HAND_TILE + RAISE + 8;
  const title = held ? `${face(held)} picked up: click a highlighted end on the table` : `Your hand · ${tiles(hand.length)}${actions.length > 0 ? ' · your turn' : ''}`;
  const top = y + 22;
  const drawn = hand.map((tile, i) => {
    const targets = plays.get(tile)?.size ?? 0;
    const [a, b] = pipsOf(tile);
    const cx = PAD + HAND_TILE / 2 + (i % perRow) * HAND_STEP;
    const cy = top + RAISE + HAND_TILE + Math.floor(i / perRow) * rowHeight - (targets > 0 ? RAISE : 0) - (tile === held ? RAISE : 0);
    const shape = { cx, cy, size: HAND_TILE, vertical: true, halves: [Math.max(a, b), Math.min(a, b)] as const, numerals };
    if (targets === 0) return domino(shape, { classes: '', attrs: svg`data-hand="${tile}"` });
    const text = tile === held ? `Put back ${face(tile)}` : `Pick up ${face(tile)}: it fits ${targets === 1 ? 'one end' : `${targets} ends`}`;
    const attrs = svg`data-hand="${tile}" data-pick="tile ${tile}" tabindex="0" role="button" aria-label="${text}" aria-pressed="${tile === held ? 'true' : 'false'}"`;
    return domino(shape, { classes: `cf-playable cf-pick${tile === held ? ' cf-picked' : ''}`, attrs, highlight: true, title: text });
  });
  const handHeight = 22 + Math.ceil(hand.length / perRow) * rowHeight;
  const buttons = actionButtons(
    actions.map((action, index) => ({ action, index })),
    names,
    y + handHeight,
  );
  const markup = svg`<g class="cf-hand"><text class="cf-hand-title" x="${PAD}" y="${y + 14}" font-size="13" font-weight="700" fill="#1d1d1d">${title}</text>${drawn}</g>${buttons.markup}`;
  return { markup, height: handHeight + buttons.height };
}

/** Buttons laid in rows, in the order of the legal actions. */
function actionButtons(list: { action: ChickenFootAction; index: number }[], names: Map<TileId, string>, y: number): { markup: Markup; height: number } {
  const size = 13;
  let x = PAD;
  let top = y;
  const buttons = list.map(({ action, index }) => {
    const [text, aria] =
      action.type === 'play'
        ? [playLabel(action, names), `Play ${playLabel(action, names)}`]
        : action.type === 'draw'
          ? ['Draw from the boneyard', 'Draw a tile from the boneyard']
          : ['Pass', 'Pass the turn'];
    const width = Math.min(WIDTH - 2 * PAD, textWidth(text, size) + 20);
    if (x + width > WIDTH - PAD) {
      x = PAD;
      top += BUTTON_HEIGHT + 6;
    }
    const button = svg`<g class="cf-button cf-action" ${actionAttrs(index, aria)}><rect x="${n(x)}" y="${top}" width="${n(width)}" height="${BUTTON_HEIGHT}" rx="6" fill="#2f6b45"/>${label(text, x + 10, top + 18.5, size, width - 20, svg`font-weight="600" fill="#ffffff"`)}<title>${aria}</title></g>`;
    x += width + 6;
    return button;
  });
  return { markup: svg`<g class="cf-actions">${buttons}</g>`, height: list.length > 0 ? top - y + BUTTON_HEIGHT + 6 : 0 };
}

/** The ends the tile picked up fits, each with its button's words. */
function endsFor(ctx: BoardContext, names: Map<TileId, string>): Map<string, string> {
  const held = pickedTile(ctx.picks ?? []);
  const targets = held ? playsByTile(ctx.legalActions as ChickenFootAction[]).get(held) : undefined;
  return new Map([...(targets ?? [])].map(([target, index]) => [target, `Play ${playLabel(ctx.legalActions[index] as Play, names)}`]));
}

function render(ctx: BoardContext): Markup {
  const view = ctx.view as ChickenFootView;
  const { round, hub } = shownRound(view);
  const numerals = needsNumerals(view, hub);
  const names = hub ? placeNames(hub) : new Map<TileId, string>();
  let y = PAD;

  const lines = headline(ctx, view).map((line, i) => {
    const size = i === 0 ? 16 : 12;
    y += size + 4;
    return label(line, PAD, y, size, WIDTH - 2 * PAD, svg`font-weight="${i === 0 ? 700 : 400}" fill="#1d1d1d"`);
  });
  y += 8;
  const banner = resultBanner(ctx, y);
  y += banner.height;
  const seats = seatCards(ctx, view, y);
  y += seats.height + 4;

  const area = { x: PAD, y, width: WIDTH - 2 * PAD, height: TABLE_HEIGHT };
  const felt = svg`<rect class="cf-felt" x="${area.x}" y="${area.y}" width="${area.width}" height="${area.height}" rx="10" fill="#2f6b45"/>`;
  const inside = { x: area.x + 8, y: area.y + 8, width: area.width - 16, height: area.height - 16 };
  const table = hub
    ? drawTable({ hub, numerals, area: inside, maxScale: 2, ends: endsFor(ctx, names) })
    : svg`<text x="${WIDTH / 2}" y="${area.y + area.height / 2}" text-anchor="middle" font-size="14" fill="#e3f0e7">Waiting for the deal</text>`;
  y += TABLE_HEIGHT + 10;

  // Only a seat with a hand has legal actions; should one come without, it still gets its buttons.
  const actions = (ctx.legalActions as ChickenFootAction[]).map((action, index) => ({ action, index }));
  const hand = round?.hand ? handAndActions(ctx, round.hand, names, numerals, y) : actionButtons(actions, names, y);
  y += hand.height + PAD;

  return svg`<svg class="cf-board" xmlns="http://www.w3.org/2000/svg" viewBox="0 0 ${WIDTH} ${n(y)}" width="100%" font-family="${FONT}" role="group" aria-label="Chicken Foot table"><g class="cf-heading">${lines}</g>${banner.markup}${seats.markup}${felt}${table}${hand.markup}</svg>`;
}

/**
 * A play's target named as the table shows it ("arm 2") when the view's table holds that very
 * play (the tile hangs from the target) or can still take it (the target is open); a move from an
 * earlier round is named by the target tile instead, since arm numbers change from round to round.
 */
function targetText(play: Play, view: ChickenFootView | undefined): string {
  if (play.target === 'hub') return 'hub';
  const [a, b] = pipsOf(play.target);
  // Every double on the table but the hub is a chicken foot.
  if (a === b) return `foot ${face(play.target)}`;
  const hub = view ? shownRound(view).hub : null;
  const nodes = hub ? tableNodes(hub) : [];
  const target = nodes.find((node) => node.tile === play.target);
  if (target?.kind === 'line') {
    const pending = target.open && !nodes.some((node) => node.tile === play.tile);
    if (pending || target.children.some((child) => child.tile === play.tile)) return placeNames(hub!).get(target.tile)!;
  }
  return face(play.target);
}

export const chickenFootBoard: Board = {
  render,
  pick: (ctx, token) => pickTile(ctx.legalActions as ChickenFootAction[], ctx.picks ?? [], token),
  notation(action, ctx) {
    const a = action as ChickenFootAction;
    if (a.type === 'draw') return 'draws';
    if (a.type === 'pass') return 'passes';
    return `${face(a.tile)} → ${targetText(a, ctx.view as ChickenFootView | undefined)}${a.announce ? ' (calls last tile)' : ''}`;
  },
};
