/**
 * Cerke actions written as cerke_online records write moves (`LAU弓LAILY`, `赤弓LY`,
 * `ZO皇[ZU]ZY`, `再行`), and spelled out in words for screen readers. A small copy of the
 * engine's record writer (src/games/cerke/engine/record.ts): boards import no runtime code from src/.
 */
import type { CerkeAction, Colour, Kind, Side } from '../../../src/games/cerke/engine/index.js';
import type { view } from '../../../src/games/cerke/engine/view.js';

/** What `game.view` answers for a Cerke game. */
export type CerkeView = ReturnType<typeof view>;
export type BoardPiece = CerkeView['board'][number];

/** The characters cerke_online writes for each kind, also drawn on the pieces. */
export const KIND_CHARS: Record<Kind, string> = {
  Vessel: '船',
  Pawn: '兵',
  Archer: '弓',
  Chariot: '車',
  Tiger: '虎',
  Horse: '馬',
  Officer: '筆',
  Shaman: '巫',
  General: '将',
  King: '王',
};
export const COLOUR_CHARS: Record<Colour, string> = { red: '赤', black: '黒' };
export const TAM2_CHAR = '皇';
/** The records' "some piece" when the kind is not known. */
const ANY_PIECE = '片';
const STICK_CHARS = ['無', '一', '二', '三', '四', '五'];
const NOT_THIS = '此無';

export const pieceOn = (view: CerkeView | null, square: string): BoardPiece | undefined => view?.board.find((p) => p.square === square);

/**
 * The mover's kind: on `from` while the move is a legal action; on `to` once it has been played
 * (a move list shows past actions with the view after them).
 */
const moverChar = (view: CerkeView | null, from: string, to: string): string => {
  const piece = pieceOn(view, from) ?? pieceOn(view, to);
  return piece ? KIND_CHARS[piece.kind] : ANY_PIECE;
};

type StepDecision = Extract<NonNullable<CerkeView['pendingDecision']>, { type: 'stepCompletion' }>;
const stepDecision = (view: CerkeView | null): StepDecision | null => (view?.pendingDecision?.type === 'stepCompletion' ? view.pendingDecision : null);

/** The whole stepping move as its record line: the cast after 橋, 此無 when abandoned. */
function stepText(view: CerkeView | null, to: string | null): string {
  const step = stepDecision(view);
  if (!step) return to === null ? '橋' + NOT_THIS : to + '橋';
  const move = step.from + moverChar(view, step.from, step.planned) + step.via;
  return to === null ? move + step.planned + '橋' + STICK_CHARS[step.cast] + NOT_THIS : move + to + '橋' + STICK_CHARS[step.cast];
}

export function cerkeNotation(action: CerkeAction, view: CerkeView | null): string {
  switch (action.type) {
    case 'move':
      return action.from + moverChar(view, action.from, action.to) + (action.via ?? '') + action.to;
    case 'drop':
      return COLOUR_CHARS[action.colour] + KIND_CHARS[action.kind] + action.to;
    case 'moveTam2': {
      const first = `[${action.firstSquare}]`;
      const path = action.stepDuring === 'firstHalf' ? action.via + first + action.to : first + (action.via ?? '') + action.to;
      return (view?.tam2 ?? '') + TAM2_CHAR + path;
    }
    case 'completeStep':
      return stepText(view, action.to);
    case 'abandonStep':
      return stepText(view, null);
    case 'continue':
      return '再行';
    case 'endSeason':
      return '終季';
  }
}

const pieceWords = (p: { colour: Colour; kind: Kind }) => `${p.colour} ${p.kind}`;

/** The action in words (a button's aria-label): what moves where and what it captures. */
export function describeAction(action: CerkeAction, view: CerkeView | null, side: Side | null): string {
  switch (action.type) {
    case 'move': {
      const mover = pieceOn(view, action.from);
      const target = pieceOn(view, action.to);
      const via = action.via ? `, stepping on ${action.via},` : '';
      const capture = target && target.side !== side ? `, capturing the ${pieceWords(target)}` : '';
      return `${mover ? pieceWords(mover) : 'Piece'} ${action.from}${via} to ${action.to}${capture}`;
    }
    case 'drop':
      return `Drop the ${pieceWords(action)} from your hand on ${action.to}`;
    case 'moveTam2': {
      const via = action.via ? ` stepping on ${action.via} in the ${action.stepDuring === 'firstHalf' ? 'first' : 'second'} step` : '';
      return `Tam2 ${view?.tam2 ?? ''} to ${action.firstSquare} then ${action.to}${via}`;
    }
    case 'completeStep':
      return `Finish the step on ${action.to}`;
    case 'abandonStep':
      return 'Abandon the step: the piece stays where it was';
    case 'continue': {
      const decision = view?.pendingDecision;
      return `Continue the season (ty mok1)${decision?.type === 'declaration' ? `: the stake becomes ×${decision.stakeIfContinued}` : ''}`;
    }
    case 'endSeason': {
      const decision = view?.pendingDecision;
      return `End the season (ta xot1)${decision?.type === 'declaration' ? ` and take ${decision.pointsIfSeasonEnds} points` : ''}`;
    }
  }
}
