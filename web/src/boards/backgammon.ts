/**
 * The backgammon board: the SVG of backgammon-svg.ts, a status line, and for a seat that may act
 * one button per legal action, in standard notation. The viewing seat sits at the bottom (a
 * spectator sees White there); the first play listed is outlined on the board.
 */
import type { BackgammonAction, BackgammonView, CheckerMove } from '../../../src/games/backgammon/engine/index.js';
import { type Markup, html } from '../html.js';
import type { Board, BoardContext, Picked } from './board.js';
import { type Hand, handMarks, handOf, pickPlace, playing } from './backgammon-hand.js';
import { diceLeft, turnOf, viewAfter } from './backgammon-steps.js';
import { SEAT_COLOURS, asAction, asView, comparePlays, movesNotation, notation, resignText, sortMoves } from './backgammon-notation.js';
import { type Scene, drawBoard } from './backgammon-svg.js';

/** More plays than this are grouped by their first move, so the list stays short enough to scan. */
const FLAT_LIST_MAX = 40;

type Names = readonly [string, string];

/** A seat's name, or its colour while the seat has none. */
const seatName = (ctx: BoardContext, seat: number): string => ctx.seatNames[seat]?.trim() || SEAT_COLOURS[seat];

/** `game.result` as the referee gives it (the engine's Outcome), read defensively. */
function outcomeOf(result: unknown, names: Names): Scene['result'] {
  if (result === null || typeof result !== 'object') return null;
  const { winners, summary } = result as { winners?: unknown; summary?: unknown };
  const winner = Array.isArray(winners) && winners.length === 1 ? Number(winners[0]) : null;
  return { headline: winner === 0 || winner === 1 ? `${names[winner]} wins` : 'Game over', summary: typeof summary === 'string' ? summary : '' };
}

/** Whose move it is and what he is to do. */
function statusText(view: BackgammonView, names: Names, result: Scene['result']): string {
  if (result) return `${result.headline}. ${result.summary}`;
  const { resignation, pendingDouble, playerOnRoll: turn, dice } = view;
  if (resignation) return `${names[resignation.by]} offers to ${resignText(resignation.level)}: ${names[1 - resignation.by]} to accept or reject`;
  switch (view.phase) {
    case 'opening-roll':
      return 'Opening roll: each player throws one die';
    case 'awaiting-roll':
      return `${names[turn]} to roll${view.cube.mayDouble ? ' or double' : ''}`;
    case 'rolling':
      return `${names[turn]} rolls`;
    case 'double-offered': {
      const offer = pendingDouble!;
      const verb = offer.stage === 'double' ? 'doubles' : `${offer.stage}s`;
      return `${names[offer.by]} ${verb} to ${offer.value}: ${names[1 - offer.by]} to take or drop`;
    }
    case 'awaiting-play':
      return `${names[turn]} to play ${dice![0]}-${dice![1]}`;
    case 'match-over':
      return view.matchWinner === null ? 'Game over' : `${names[view.matchWinner]} wins`;
  }
}

/** The match (or money game), the game number, Crawford, and the last turn played. */
function infoText(view: BackgammonView, names: Names): string {
  const last = view.lastTurn;
  const lastText = last && `Last: ${names[last.seat]} ${last.dice ? `${last.dice[0]}-${last.dice[1]} ` : ''}${last.passed ? 'could not move' : movesNotation(last.moves)}`;
  return [view.matchLength ? `Match to ${view.matchLength}` : 'Money game', `game ${view.gameNumber}`, view.crawfordGame && 'Crawford game', view.postCrawford && 'post-Crawford', lastText]
    .filter(Boolean)
    .join(' · ');
}

interface Entry {
  index: number;
  action: BackgammonAction;
  label: string;
}
type PlayEntry = Entry & { action: { type: 'play'; moves: CheckerMove[] } };

const isPlay = (e: Entry): e is PlayEntry => e.action.type === 'play';

/** The plays among the legal actions, as a move list reads: highest moves first. */
const playsOf = (entries: Entry[]): PlayEntry[] => entries.filter(isPlay).sort((a, b) => comparePlays(a.action.moves, b.action.moves));

/** What a screen reader says for a button: the notation with its verb. */
function spoken(entry: Entry, view: BackgammonView): string {
  switch (entry.action.type) {
    case 'play':
      return `Play ${entry.label}`;
    case 'double':
      return `Double to ${view.cube.value * 2}`;
    case 'take':
    case 'drop':
      return `${entry.label} the cube at ${view.pendingDouble?.value}`;
    case 'resign':
      return `Offer to ${resignText(entry.action.level)}`;
    default:
      return entry.label;
  }
}

function button(entry: Entry, view: BackgammonView, extra = ''): Markup {
  return html`<span class="bg-action${extra}" role="button" tabindex="0" data-action="${entry.index}" aria-label="${spoken(entry, view)}">${entry.label}</span>`;
}

/** The first play is the one outlined on the board. */
const playButton = (entry: PlayEntry, view: BackgammonView, first: boolean): Markup => button(entry, view, first ? ' bg-action-shown' : '');

/** Many plays: one collapsible group per first move ("13/7 …"), the first open, every play reachable. */
function groupedPlays(plays: PlayEntry[], view: BackgammonView, outline: boolean): Markup[] {
  const groups = new Map<string, PlayEntry[]>();
  for (const play of plays) {
    const [first] = sortMoves(play.action.moves);
    const key = `${first.from}/${first.to}`;
    groups.set(key, [...(groups.get(key) ?? []), play]);
  }
  return [...groups].map(
    ([first, entries], i) =>
      html`<details class="bg-play-group"${i === 0 ? ' open' : ''}><summary>${first} … (${entries.length})</summary><div class="bg-action-list">${entries.map((e) => playButton(e, view, outline && e === plays[0]))}</div></details>`,
  );
}

/** The viewing seat's legal actions as buttons: decisions and plays first, resigning last and set apart. */
function actionList(entries: Entry[], view: BackgammonView, outline: boolean): Markup {
  if (entries.length === 0) return html``;
  const plays = playsOf(entries);
  const decisions = entries.filter((e) => e.action.type !== 'play' && e.action.type !== 'resign');
  const resigns = entries.filter((e) => e.action.type === 'resign');
  const playList = plays.length > FLAT_LIST_MAX ? groupedPlays(plays, view, outline) : html`<div class="bg-action-list">${plays.map((e, i) => playButton(e, view, i === 0 && outline))}</div>`;
  const outlined = plays.length > 1 && outline ? ', the first outlined on the board' : '';
  const heading = plays.length ? `${outline ? 'Your play' : 'Or choose a whole play'}: ${plays.length} legal${outlined}` : 'Your move';
  return html`<div class="bg-actions" role="group" aria-label="Your legal actions">
  <p class="bg-actions-heading">${heading}</p>
  ${decisions.length ? html`<div class="bg-action-list">${decisions.map((e) => button(e, view))}</div>` : ''}${plays.length ? playList : ''}
  ${resigns.length ? html`<div class="bg-action-list bg-secondary">${resigns.map((e) => button(e, view, ' bg-action-resign'))}</div>` : ''}
</div>`;
}

/** The turn the seat is building by hand, when it may move checkers now. */
function handTurn(ctx: BoardContext) {
  const view = asView(ctx.view);
  return view && playing(view, ctx.viewer) ? turnOf(view, ctx.viewer, ctx.legalActions) : null;
}

function pick(ctx: BoardContext, token: string): Picked {
  const turn = handTurn(ctx);
  return turn ? pickPlace(turn, ctx.picks ?? [], token) : [];
}

/** Above the list: what moving by hand has done so far, the dice left, and an undo. */
function handPanel(hand: Hand, left: number[], picks: number): Markup {
  const moved = hand.taken.length ? `Moved ${movesNotation(hand.taken)}` : 'Click a checker, then where it goes';
  const picked = hand.selected !== null ? ` · picked up from ${hand.selected}` : '';
  return html`<p class="bg-hand" aria-live="polite"><span>${moved}${picked} · dice left ${left.join(', ')}</span>
  ${picks ? html` <button type="button" class="bg-undo" data-pick="undo">Undo</button>` : ''}</p>`;
}

function render(ctx: BoardContext): Markup {
  const shownView = asView(ctx.view);
  if (!shownView) return html`<p class="bg-status">No backgammon position to show.</p>`;
  const turn = handTurn(ctx);
  const hand = handOf(ctx.picks ?? []);
  const view = turn ? viewAfter(shownView, ctx.viewer!, turn, hand.taken) : shownView;
  // The first listed play is outlined until the player starts moving checkers himself.
  const picking = (ctx.picks?.length ?? 0) > 0;
  const names: Names = [seatName(ctx, 0), seatName(ctx, 1)];
  const entries: Entry[] = ctx.legalActions.flatMap((raw, index) => {
    const action = asAction(raw);
    return action ? [{ index, action, label: notation(action, { seat: ctx.viewer, view }) }] : [];
  });
  const result = outcomeOf(ctx.result, names);
  const status = statusText(view, names, result);
  const match = view.matchLength ? `, match to ${view.matchLength}` : '';
  const scene: Scene = {
    view,
    bottom: ctx.viewer ?? 0,
    names,
    toAct: ctx.toAct,
    shown: picking ? [] : (playsOf(entries)[0]?.action.moves ?? []),
    result,
    title: `Backgammon: ${names[0]} (White) ${view.score[0]}, ${names[1]} (Black) ${view.score[1]}${match}. ${status}`,
    hand: turn ? { ...handMarks(turn, hand), selected: hand.selected } : undefined,
  };
  return html`<div class="bg-board">
${drawBoard(scene)}
<p class="bg-status">${status}</p>
<p class="bg-info">${infoText(view, names)}</p>
${turn ? handPanel(hand, diceLeft(turn, hand.taken), ctx.picks?.length ?? 0) : ''}
${actionList(entries, shownView, !picking)}
</div>`;
}

export const backgammonBoard: Board = { render, notation, pick };
export default backgammonBoard;
