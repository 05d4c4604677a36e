import type { Markup } from '../html.js';

/**
 * What a game's board is drawn from: the game as the public GraphQL API answers it to the
 * viewer (a seat's token, or none for a spectator). Boards never fetch anything themselves.
 */
export interface BoardContext {
  kind: string;
  /** `game.view`: the engine's view for this viewer (hidden information already removed for spectators). */
  view: unknown;
  /** The viewing seat, or null for a spectator. */
  viewer: number | null;
  /** `game.legalActions` for the viewing seat (empty for a spectator or when it may not act). */
  legalActions: unknown[];
  /** `game.toAct`: the seats that may act now. */
  toAct: number[];
  seatNames: (string | null)[];
  /** `game.result` once the game is over, else null. */
  result: unknown;
  /** What the seat has picked by hand so far this turn (the board's own strings; empty when nothing). */
  picks?: readonly string[];
}

/** What a click on a `data-pick` element makes of the picks: the picks after it, or a legal action to send (its index). */
export type Picked = readonly string[] | { action: number };

/**
 * A game's board. `render` gives markup of a fixed size (an SVG with a viewBox, plus any
 * controls); every element that plays a legal action carries `data-action="<index into
 * legalActions>"` (the page sends that action when it is clicked or activated with the keyboard:
 * give such elements `tabindex="0"` and `role="button"`, and an `aria-label`).
 */
export interface Board {
  render(ctx: BoardContext): Markup;
  /** One action in the game's own notation, for move lists (e.g. backgammon "24/18 13/11"). */
  notation(action: unknown, ctx: { seat: number | null; view?: unknown }): string;
  /**
   * Moves by hand: elements carrying `data-pick="<token>"` (focusable buttons too) build an action
   * over several clicks; the page keeps the picks until the game moves on and sends the action
   * once the board answers one.
   */
  pick?(ctx: BoardContext, token: string): Picked;
}
