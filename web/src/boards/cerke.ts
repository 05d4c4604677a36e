/**
 * The Cerke board: one SVG (status, both hands, the 9×9 board with water and Tam2's field,
 * the pieces) and, for a seat that may act, its legal actions as a list of buttons in the
 * records' notation, grouped by piece. The viewing seat's side is drawn at the bottom (the
 * IA side for a spectator), its pieces upright and the other side's turned round.
 */
import type { CerkeAction, Colour, Kind, Side } from '../../../src/games/cerke/engine/index.js';
import { type Markup, html, svg } from '../html.js';
import type { Board, BoardContext } from './board.js';
import { cerkeHand, choices, handStart, pickSquare, startSquares, targetsFrom } from './cerke-hand.js';
import { type CerkeView, COLOUR_CHARS, KIND_CHARS, TAM2_CHAR, cerkeNotation, describeAction, pieceOn } from './cerke-notation.js';

const COLUMNS = ['K', 'L', 'N', 'T', 'Z', 'X', 'C', 'M', 'P'];
const ROWS = ['A', 'E', 'I', 'U', 'O', 'Y', 'AI', 'AU', 'IA'];
/** Seat 0 plays the IA side, seat 1 the A side, for the whole game. */
const SIDES: readonly Side[] = ['IA', 'A'];
/** The squares the engine tests water entry on (tam2 nua2, board.ts IS_WATER). */
const WATER = new Set(['NO', 'TO', 'ZO', 'XO', 'CO', 'ZI', 'ZU', 'ZY', 'ZAI']);
/** The fixed squares of Tam2's field (tam2 hue, board.ts IS_FIXED_HUE); the squares next to Tam2 join them. */
const TAM2_HUE = new Set(['NI', 'CI', 'TU', 'XU', 'ZO', 'TY', 'XY', 'NAI', 'CAI']);

/**
 * Colours as SVG presentation attributes, so the board reads without the stylesheet (whose
 * `ck-` rules may override them). Both inks keep WCAG AA (4.5:1) on both sides' tiles.
 */
export const PALETTE = {
  square: '#ecdcb4',
  water: '#9cc4e4',
  hue: '#dcae58',
  hueEdge: '#7a4d00',
  grid: '#4d3d22',
  tile: { IA: '#fff9ec', A: '#d3e2f2' } satisfies Record<Side, string>,
  tileEdge: { IA: '#5c4424', A: '#1f4e79' } satisfies Record<Side, string>,
  ink: { red: '#b00000', black: '#161616' } satisfies Record<Colour, string>,
  tam2: '#262626',
  tam2Ink: '#f2c94c',
  text: '#1d1d1d',
  background: '#fbf7ee',
  mark: '#c2185b',
};

const SQUARE = 60;
const WIDTH = 600;
const BOARD_X = 30;
const STATUS_HEIGHT = 64;
const PANEL_HEIGHT = 150;
const TOP_PANEL_Y = STATUS_HEIGHT;
const BOARD_Y = TOP_PANEL_Y + PANEL_HEIGHT + 30;
const BOTTOM_PANEL_Y = BOARD_Y + 9 * SQUARE + 10;
const LEGEND_Y = BOTTOM_PANEL_Y + PANEL_HEIGHT + 8;
const HEIGHT = LEGEND_Y + 24;
/** Hand slots: one per colour and kind held, ten to a row, two rows (at most 20 such pairs). */
const SLOT = 54;
const HAND_TILE = 36;
const SLOTS_PER_ROW = 10;
/** Long names are cut in the drawing (the list of actions and the page show them whole). */
const NAME_LENGTH = 22;

/** Rows A to IA run down the drawing with the IA side at the bottom; turned round when the A side is. */
function squareAt(name: string, bottom: Side): { x: number; y: number } {
  const column = COLUMNS.indexOf(name.charAt(0));
  const row = ROWS.indexOf(name.slice(1));
  const flipped = bottom === 'A';
  const c = flipped ? 8 - column : column;
  const r = flipped ? 8 - row : row;
  return { x: BOARD_X + c * SQUARE, y: BOARD_Y + r * SQUARE };
}

const nextTo = (a: string, b: string): boolean => {
  const dc = Math.abs(COLUMNS.indexOf(a.charAt(0)) - COLUMNS.indexOf(b.charAt(0)));
  const dr = Math.abs(ROWS.indexOf(a.slice(1)) - ROWS.indexOf(b.slice(1)));
  return Math.max(dc, dr) === 1;
};

const seatName = (ctx: BoardContext, side: Side): string => ctx.seatNames[SIDES.indexOf(side)] || `${side} side`;
const shortName = (name: string) => (name.length > NAME_LENGTH ? name.slice(0, NAME_LENGTH - 1) + '…' : name);

/** A rough width of a line of text: CJK characters are square, the rest about half as wide. */
const textWidth = (text: string, fontSize: number) => [...text].reduce((sum, ch) => sum + (ch.charCodeAt(0) >= 0x2e80 ? 1 : 0.5) * fontSize, 0);
/** SVG text does not wrap: a line estimated wider than `width` is squeezed to fit it. */
const fitted = (text: string, fontSize: number, width = 9 * SQUARE): Markup | '' => (textWidth(text, fontSize) > width ? svg` textLength="${width}" lengthAdjust="spacingAndGlyphs"` : '');

const HANDS_FONT = 16;
const HANDS_WIDTH = 9 * SQUARE - 12;

function handsText(pile: CerkeView['capturedPiles'][Side]): string {
  if (pile.hands.length === 0) return 'No hand yet';
  const list = (noteFlash: boolean) => `Hands: ${pile.hands.map((h) => `${h.name}${noteFlash && h.flash && h.name !== 'King' ? ' (flash)' : ''} ${h.value}`).join(' · ')} = ${pile.score}`;
  // A long list drops the flash notes first: the values still count the flash bonus.
  return textWidth(list(true), HANDS_FONT) <= HANDS_WIDTH ? list(true) : list(false);
}

/**
 * A square tile with the kind's character, turned so its top points the way its side moves;
 * a bar on the back edge shows the turn even on kinds that read the same upside down (王).
 */
function tile(piece: { kind: Kind; colour: Colour }, side: Side, cx: number, cy: number, size: number, upright: boolean): Markup {
  const half = size / 2;
  const bar = size * 0.14;
  return svg`<g transform="translate(${cx} ${cy})${upright ? '' : ' rotate(180)'}"><rect class="ck-tile ck-tile-${side}" x="${-half}" y="${-half}" width="${size}" height="${size}" rx="${size * 0.12}" fill="${PALETTE.tile[side]}" stroke="${PALETTE.tileEdge[side]}" stroke-width="${size * 0.05}"/><rect class="ck-back ck-back-${side}" x="${-half}" y="${half - bar}" width="${size}" height="${bar}" fill="${PALETTE.tileEdge[side]}"/><text class="ck-glyph ck-${piece.colour}" y="${-bar / 2}" font-size="${size * 0.62}" text-anchor="middle" dominant-baseline="central" fill="${PALETTE.ink[piece.colour]}">${KIND_CHARS[piece.kind]}</text></g>`;
}

function squares(view: CerkeView, bottom: Side): Markup[] {
  const out: Markup[] = [];
  for (const row of ROWS)
    for (const column of COLUMNS) {
      const name = column + row;
      const { x, y } = squareAt(name, bottom);
      const water = WATER.has(name);
      const hue = TAM2_HUE.has(name);
      const nearTam2 = view.tam2 !== null && nextTo(name, view.tam2);
      const classes = ['ck-square', water && 'ck-water', hue && 'ck-tam2-hue', nearTam2 && 'ck-tam2-field'].filter(Boolean).join(' ');
      out.push(
        svg`<rect class="${classes}" data-square="${name}" x="${x}" y="${y}" width="${SQUARE}" height="${SQUARE}" fill="${water ? PALETTE.water : hue ? PALETTE.hue : PALETTE.square}" stroke="${PALETTE.grid}"/>`,
      );
      // A frame keeps a hue square visible when it is water too (ZO, the centre).
      if (hue) out.push(svg`<rect class="ck-hue-frame" x="${x + 4}" y="${y + 4}" width="${SQUARE - 8}" height="${SQUARE - 8}" fill="none" stroke="${PALETTE.hueEdge}" stroke-width="3"/>`);
      else if (nearTam2)
        out.push(
          svg`<rect class="ck-field-frame" x="${x + 4}" y="${y + 4}" width="${SQUARE - 8}" height="${SQUARE - 8}" fill="none" stroke="${PALETTE.hueEdge}" stroke-width="2" stroke-dasharray="6 4"/>`,
        );
    }
  return out;
}

function coordinates(bottom: Side): Markup[] {
  const columns = COLUMNS.map((name) => {
    const { x } = squareAt(name + 'A', bottom);
    return svg`<text class="ck-coordinate" x="${x + SQUARE / 2}" y="${BOARD_Y - 10}" font-size="18" text-anchor="middle" fill="${PALETTE.text}">${name}</text>`;
  });
  const rows = ROWS.map((name) => {
    const { y } = squareAt('K' + name, bottom);
    return svg`<text class="ck-coordinate" x="${BOARD_X / 2}" y="${y + SQUARE / 2}" font-size="16" text-anchor="middle" dominant-baseline="central" fill="${PALETTE.text}">${name}</text>`;
  });
  return [...columns, ...rows];
}

function pieces(view: CerkeView, bottom: Side): Markup[] {
  const out = view.board.map((piece) => {
    const { x, y } = squareAt(piece.square, bottom);
    const words = `${piece.colour} ${piece.kind} (${KIND_CHARS[piece.kind]}) of the ${piece.side} side on ${piece.square}`;
    return svg`<g class="ck-piece ck-side-${piece.side}" data-piece="${piece.square}" data-kind="${piece.kind}" data-colour="${piece.colour}" data-side="${piece.side}"><title>${words}</title>${tile(piece, piece.side, x + SQUARE / 2, y + SQUARE / 2, SQUARE - 10, piece.side === bottom)}</g>`;
  });
  if (view.tam2 !== null) {
    const { x, y } = squareAt(view.tam2, bottom);
    out.push(
      svg`<g class="ck-tam2" data-tam2="${view.tam2}"><title>Tam2 on ${view.tam2}</title><circle cx="${x + SQUARE / 2}" cy="${y + SQUARE / 2}" r="${SQUARE / 2 - 6}" fill="${PALETTE.tam2}" stroke="${PALETTE.tam2Ink}" stroke-width="2"/><text x="${x + SQUARE / 2}" y="${y + SQUARE / 2}" font-size="30" text-anchor="middle" dominant-baseline="central" fill="${PALETTE.tam2Ink}">${TAM2_CHAR}</text></g>`,
    );
  }
  return out;
}

/** Where the first legal action starts, steps and ends: marked on the board so a player sees what it means. */
function actionSquares(action: CerkeAction, view: CerkeView): { from?: string | null; via?: string | null; to?: string } {
  const step = view.pendingDecision?.type === 'stepCompletion' ? view.pendingDecision : null;
  switch (action.type) {
    case 'move':
      return { from: action.from, via: action.via, to: action.to };
    case 'drop':
      return { to: action.to };
    case 'moveTam2':
      return { from: view.tam2, via: action.firstSquare, to: action.to };
    case 'completeStep':
      return { from: step?.from, via: step?.via, to: action.to };
    case 'abandonStep':
      return { from: step?.from, via: step?.via };
    default:
      return {};
  }
}

function marks(ctx: BoardContext, view: CerkeView, bottom: Side): Markup[] {
  const first = ctx.legalActions[0] as CerkeAction | undefined;
  if (!first) return [];
  return Object.entries(actionSquares(first, view))
    .filter((entry): entry is [string, string] => typeof entry[1] === 'string')
    .map(([role, square]) => {
      const { x, y } = squareAt(square, bottom);
      return svg`<rect class="ck-mark ck-${role}" data-mark="${role}" x="${x + 2}" y="${y + 2}" width="${SQUARE - 4}" height="${SQUARE - 4}" fill="none" stroke="${PALETTE.mark}" stroke-width="${role === 'via' ? 2 : 4}" stroke-dasharray="${role === 'to' ? '8 4' : 'none'}" pointer-events="none"/>`;
    });
}

/**
 * The squares a seat may click: pieces it can pick up (dotted), the one picked up (solid), where
 * it may go or where a step may finish (dashed); each a button over its square.
 */
function pickLayer(ctx: BoardContext, view: CerkeView, bottom: Side): Markup[] {
  if (ctx.viewer === null || ctx.legalActions.length === 0) return [];
  const side = SIDES[ctx.viewer];
  const { from } = cerkeHand(ctx.picks ?? []);
  const { starts, finishes } = startSquares(ctx.legalActions, view);
  const targets = from ? targetsFrom(ctx.legalActions, view, from) : finishes;
  const label = (square: string): string => {
    const ends = targets.get(square);
    if (ends) return ends.length === 1 ? describeAction(ctx.legalActions[ends[0]] as CerkeAction, view, side) : `Move to ${square} (${ends.length} ways)`;
    if (square === from) return `Put back the piece on ${square}`;
    const piece = pieceOn(view, square);
    return square === view.tam2 ? `Pick up Tam2 on ${square}` : `Pick up the ${piece?.colour ?? ''} ${piece?.kind ?? 'piece'} on ${square}`;
  };
  // A piece picked up from the hand is marked in its panel (handPanel), not on a square.
  const squares = [...new Set([...(from ? [from] : []), ...starts, ...targets.keys()])].filter((square) => !square.startsWith('hand '));
  return squares.map((square) => {
    const role = square === from ? 'selected' : targets.has(square) ? 'target' : 'source';
    const { x, y } = squareAt(square, bottom);
    const dash = role === 'target' ? '8 4' : role === 'source' ? '2 4' : 'none';
    return svg`<g class="ck-pick ck-pick-${role}" data-pick="sq ${square}" role="button" tabindex="0" aria-label="${label(square)}"><rect x="${x + 3}" y="${y + 3}" width="${SQUARE - 6}" height="${SQUARE - 6}" fill="${PALETTE.mark}" fill-opacity="${role === 'selected' ? 0.25 : 0.01}" stroke="${PALETTE.mark}" stroke-width="${role === 'source' ? 2 : 4}" stroke-dasharray="${dash}"/></g>`;
  });
}

/** A piece picked up can be put back; when several actions end on the square clicked, one button each says which. */
function choiceButtons(ctx: BoardContext, view: CerkeView): Markup | '' {
  const asked = choices(ctx.legalActions, view, ctx.picks ?? []);
  const putBack = ctx.picks?.length ? html`<button type="button" class="ck-put-back" data-pick="put back">Put back</button>` : '';
  if (asked.length === 0) return putBack && html`<p class="ck-choice">${putBack}</p>`;
  const side = ctx.viewer === null ? null : SIDES[ctx.viewer];
  const buttons = asked.map((index) => actionButton(ctx.legalActions[index] as CerkeAction, index, view, side));
  return html`<div class="ck-group ck-choice" role="group" aria-label="Which way"><span class="ck-group-label">Which way?</span>${buttons} ${putBack}</div>`;
}

type Outcome = { summary?: unknown; winners?: unknown } | null;
const winnersOf = (result: unknown): number[] => {
  const winners = (result as Outcome)?.winners;
  return Array.isArray(winners) ? winners.filter((w): w is number => typeof w === 'number') : [];
};

/** The seats to act: the game's, or during a replay (which has no toAct) the side the view says moves. */
const actingSeats = (ctx: BoardContext, view: CerkeView): number[] => (ctx.toAct.length > 0 ? ctx.toAct : view.toMove ? [SIDES.indexOf(view.toMove)] : []);

/** One side's panel: name, points, its hands and the captured pieces (hop1zuo1) it may drop. */
function handPanel(ctx: BoardContext, view: CerkeView, side: Side, y: number, upright: boolean): Markup {
  const seat = SIDES.indexOf(side);
  const pile = view.capturedPiles[side];
  const acting = ctx.result === null && actingSeats(ctx, view).includes(seat);
  const won = winnersOf(ctx.result).includes(seat);
  const marker = won ? '★ ' : acting ? '▶ ' : '';
  const hands = handsText(pile);
  const mine = ctx.viewer !== null && SIDES[ctx.viewer] === side && !(ctx.picks ?? []).some((p) => p.startsWith('to '));
  const droppable = mine ? startSquares(ctx.legalActions, view).starts : new Set<string>();
  const from = mine ? cerkeHand(ctx.picks ?? []).from : null;
  const groups = new Map<string, { kind: Kind; colour: Colour; count: number }>();
  for (const piece of pile.pieces) {
    const key = piece.colour + piece.kind;
    const group = groups.get(key) ?? { ...piece, count: 0 };
    group.count++;
    groups.set(key, group);
  }
  const kindOrder = Object.keys(KIND_CHARS);
  const sorted = [...groups.values()].sort((a, b) => kindOrder.indexOf(a.kind) - kindOrder.indexOf(b.kind) || a.colour.localeCompare(b.colour));
  const slots = sorted.map((group, i) => {
    const cx = BOARD_X + (i % SLOTS_PER_ROW) * SLOT + SLOT / 2;
    const cy = y + 84 + Math.floor(i / SLOTS_PER_ROW) * (HAND_TILE + 4);
    const words = `${group.count} ${group.colour} ${group.kind}${group.count > 1 ? 's' : ''} in the ${side} side's hand`;
    // The count sits on the tile's corner, upright whichever way the tile faces.
    const count =
      group.count > 1
        ? svg`<circle class="ck-count" cx="${cx + HAND_TILE / 2}" cy="${cy - HAND_TILE / 2}" r="10" fill="${PALETTE.text}"/><text x="${cx + HAND_TILE / 2}" y="${cy - HAND_TILE / 2}" font-size="14" font-weight="bold" text-anchor="middle" dominant-baseline="central" fill="${PALETTE.background}">${group.count}</text>`
        : '';
    const drawn = svg`<title>${words}</title>${tile(group, side, cx, cy, HAND_TILE, upright)}${count}`;
    const data = svg`data-hand="${side}" data-kind="${group.kind}" data-colour="${group.colour}" data-count="${group.count}"`;
    // The acting seat's own hand: a piece it may drop is picked up like one on the board, then dropped on a highlighted square.
    const start = handStart(group.colour, group.kind);
    if (!droppable.has(start) && from !== start) return svg`<g class="ck-hand-piece" ${data}>${drawn}</g>`;
    const picked = from === start;
    const action = picked ? `Put back the ${group.colour} ${group.kind} into your hand` : `Pick up a ${group.colour} ${group.kind} from your hand to drop it`;
    return svg`<g class="ck-hand-piece ck-pick ck-pick-${picked ? 'selected' : 'source'}" ${data} data-pick="${start}" role="button" tabindex="0" aria-label="${action}"${picked ? svg` aria-pressed="true"` : ''}>${drawn}<rect x="${cx - HAND_TILE / 2 - 3}" y="${cy - HAND_TILE / 2 - 3}" width="${HAND_TILE + 6}" height="${HAND_TILE + 6}" fill="${PALETTE.mark}" fill-opacity="${picked ? 0.25 : 0.01}" stroke="${PALETTE.mark}" stroke-width="${picked ? 4 : 2}" stroke-dasharray="${picked ? 'none' : '2 4'}"/></g>`;
  });
  const classes = ['ck-panel', `ck-panel-${side}`, acting && 'ck-acting', won && 'ck-winner'].filter(Boolean).join(' ');
  return svg`<g class="${classes}" data-side="${side}">
<rect x="${BOARD_X - 4}" y="${y + 4}" width="${9 * SQUARE + 8}" height="${PANEL_HEIGHT - 8}" rx="6" fill="${PALETTE.tile[side]}" stroke="${PALETTE.tileEdge[side]}"/>
<text class="ck-name" x="${BOARD_X + 6}" y="${y + 28}" font-size="22" font-weight="bold" fill="${PALETTE.text}">${marker}${shortName(seatName(ctx, side))}<tspan font-weight="normal" font-size="16"> · ${side} side</tspan></text>
<text class="ck-points" x="${BOARD_X + 9 * SQUARE - 6}" y="${y + 28}" font-size="22" text-anchor="end" fill="${PALETTE.text}">${view.points[side]} points</text>
<text class="ck-hands" x="${BOARD_X + 6}" y="${y + 50}" font-size="${HANDS_FONT}" fill="${PALETTE.text}"${fitted(hands, HANDS_FONT, HANDS_WIDTH)}>${hands}</text>
${slots}</g>`;
}

const STICK_PURPOSE = { firstMover: 'who moves first', stepping: 'the stepping move', waterEntry: 'entering the water' };

/** What is happening now, in one line. */
function situation(ctx: BoardContext, view: CerkeView): string {
  if (ctx.result !== null) {
    const summary = (ctx.result as Outcome)?.summary;
    return `Game over: ${typeof summary === 'string' ? summary : 'the game has ended'}`;
  }
  if (view.pendingCast) return `Casting the sticks for ${STICK_PURPOSE[view.pendingCast.purpose]}`;
  const names = actingSeats(ctx, view)
    .map((seat) => shortName(seatName(ctx, SIDES[seat])))
    .join(', ');
  const decision = view.pendingDecision;
  if (decision?.type === 'declaration') return `${names}: continue (stake ×${decision.stakeIfContinued}) or end the season (+${decision.pointsIfSeasonEnds})`;
  if (decision?.type === 'stepCompletion') return `${names}: cast ${decision.cast}, finish the step or abandon it`;
  return names ? `${names} to move` : '';
}

function status(ctx: BoardContext, view: CerkeView): Markup {
  const season = `${view.season.name}, season ${view.season.number} of ${view.seasonCount}`;
  const stake = `stake ×${view.stake} (log₂ ${Math.log2(view.stake)})`;
  const now = situation(ctx, view);
  const cast = view.lastCast && view.lastCast.purpose !== 'firstMover' ? `last cast ${view.lastCast.value}` : '';
  return svg`<g class="ck-status">
<text class="ck-season" x="${BOARD_X}" y="24" font-size="20" fill="${PALETTE.text}">${season} · ${stake}</text>
<text class="ck-cast" x="${BOARD_X + 9 * SQUARE}" y="24" font-size="16" text-anchor="end" fill="${PALETTE.text}">${cast}</text>
<text class="ck-situation${ctx.result === null ? '' : ' ck-outcome'}" x="${BOARD_X}" y="52" font-size="20" font-weight="bold" fill="${PALETTE.text}"${fitted(now, 20)}>${now}</text>
</g>`;
}

function legend(): Markup {
  const swatch = (x: number, fill: string, words: string) =>
    svg`<rect x="${x}" y="${LEGEND_Y + 2}" width="18" height="18" fill="${fill}" stroke="${PALETTE.grid}"/><text x="${x + 24}" y="${LEGEND_Y + 17}" font-size="16" fill="${PALETTE.text}">${words}</text>`;
  return svg`<g class="ck-legend">${swatch(BOARD_X, PALETTE.water, 'water (tam2 nua2)')}${swatch(BOARD_X + 220, PALETTE.hue, "Tam2's field (tam2 hue)")}</g>`;
}

/** A legal action's button: its notation, spoken as the notation then in words (the name starts with what is shown). */
function actionButton(action: CerkeAction, index: number, view: CerkeView, side: Side | null): Markup {
  const written = cerkeNotation(action, view);
  return html`<span class="ck-action" role="button" tabindex="0" data-action="${index}" aria-label="${written}: ${describeAction(action, view, side)}">${written}</span>`;
}

/** The legal actions, one button each, grouped under the piece (or decision) they belong to. */
function actionList(ctx: BoardContext, view: CerkeView): Markup | '' {
  if (ctx.legalActions.length === 0) return '';
  const side = ctx.viewer === null ? null : SIDES[ctx.viewer];
  const groups = new Map<string, { label: string; words: string; buttons: Markup[] }>();
  ctx.legalActions.forEach((value, index) => {
    const action = value as CerkeAction;
    const { key, label, words } = groupOf(action, view);
    const group = groups.get(key) ?? { label, words, buttons: [] };
    group.buttons.push(actionButton(action, index, view, side));
    groups.set(key, group);
  });
  const sections = [...groups.values()].map(
    (g) => html`<div class="ck-group" role="group" aria-label="${g.words}"><span class="ck-group-label" aria-hidden="true">${g.label}</span>${g.buttons}</div>`,
  );
  return html`<div class="ck-actions" role="group" aria-label="Your legal actions (${ctx.legalActions.length})">${sections}</div>`;
}

function groupOf(action: CerkeAction, view: CerkeView): { key: string; label: string; words: string } {
  switch (action.type) {
    case 'move': {
      const piece = pieceOn(view, action.from);
      return { key: action.from, label: `${piece ? KIND_CHARS[piece.kind] : ''} ${action.from}`, words: `${piece?.kind ?? 'Piece'} on ${action.from}` };
    }
    case 'drop':
      return { key: action.colour + action.kind, label: `${COLOUR_CHARS[action.colour]}${KIND_CHARS[action.kind]} from hand`, words: `Drop a ${action.colour} ${action.kind}` };
    case 'moveTam2':
      return { key: TAM2_CHAR, label: `${TAM2_CHAR} ${view.tam2 ?? ''}`, words: 'Move Tam2' };
    case 'completeStep':
    case 'abandonStep':
      return { key: 'step', label: 'Step', words: 'Finish the stepping move' };
    case 'continue':
    case 'endSeason':
      return { key: 'declare', label: 'Declare', words: 'You made a hand: continue or end the season' };
  }
}

const isCerkeView = (view: unknown): view is CerkeView => typeof view === 'object' && view !== null && Array.isArray((view as CerkeView).board);

export const cerkeBoard: Board = {
  render(ctx) {
    if (!isCerkeView(ctx.view)) return html`<p class="ck-empty">No Cerke position to show.</p>`;
    const view = ctx.view;
    const bottom: Side = ctx.viewer === 1 ? 'A' : 'IA';
    const top: Side = bottom === 'IA' ? 'A' : 'IA';
    return html`<div class="ck-board">
<svg class="ck-svg" xmlns="http://www.w3.org/2000/svg" viewBox="0 0 ${WIDTH} ${HEIGHT}" width="100%" role="group" aria-label="Cerke board" font-family="'Noto Serif CJK JP', 'Noto Sans CJK JP', 'Hiragino Mincho ProN', 'Yu Mincho', serif">
<rect class="ck-background" width="${WIDTH}" height="${HEIGHT}" fill="${PALETTE.background}"/>
${status(ctx, view)}
${handPanel(ctx, view, top, TOP_PANEL_Y, false)}
${coordinates(bottom)}
<g class="ck-squares">${squares(view, bottom)}</g>
<g class="ck-pieces">${pieces(view, bottom)}</g>
${ctx.picks?.length ? '' : marks(ctx, view, bottom)}
${pickLayer(ctx, view, bottom)}
${handPanel(ctx, view, bottom, BOTTOM_PANEL_Y, true)}
${legend()}
</svg>
${choiceButtons(ctx, view)}
${actionList(ctx, view)}
</div>`;
  },

  pick: (ctx, token) => (isCerkeView(ctx.view) ? pickSquare(ctx.legalActions, ctx.view, ctx.picks ?? [], token) : []),

  notation(action, ctx) {
    return cerkeNotation(action as CerkeAction, isCerkeView(ctx.view) ? ctx.view : null);
  },
};
