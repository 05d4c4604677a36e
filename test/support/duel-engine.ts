import { applyShuffle, fail, ok, shuffleRanges, type Engine, type Outcome, type Viewer } from '../../src/engines/kit/index.js';

/**
 * A tiny test-only game that exercises everything the referee core must handle: a hidden
 * shuffle (each seat sees only its own hand), public dice, turns, resignation and an end.
 * Two seats are dealt `handSize` cards from 0..cards-1; in turn each plays a card; an even card
 * earns a die roll added to the player's score; when both hands are empty the higher score wins.
 * With `autoPlayForced`, a seat's last card is forced: the referee plays it.
 */
export interface DuelRuleset {
  cards: number;
  handSize: number;
  autoPlayForced?: true;
}
export interface DuelState {
  ruleset: DuelRuleset;
  dealt: boolean;
  hands: number[][];
  played: number[][];
  rolls: number[];
  turn: number;
  rollFor: number | null;
  resigned: number | null;
}
export type DuelAction = { type: 'play'; card: number };

const score = (s: DuelState, seat: number) => s.played[seat].reduce((a, b) => a + b, 0) + s.rolls[seat];

export const duelEngine: Engine<DuelRuleset, DuelState, DuelAction> = {
  kind: 'duel',
  parseRuleset(input) {
    const r = (input ?? {}) as Partial<DuelRuleset>;
    const cards = r.cards ?? 10;
    const handSize = r.handSize ?? 3;
    if (!Number.isInteger(cards) || cards < 2 || cards > 52) return fail('INVALID_INPUT', 'cards must be 2-52');
    if (!Number.isInteger(handSize) || handSize < 1 || handSize * 2 > cards) return fail('INVALID_INPUT', 'two hands must fit in the deck');
    return ok({ cards, handSize, ...(r.autoPlayForced ? { autoPlayForced: true as const } : {}) });
  },
  seatCount: () => 2,
  parseAction(input) {
    const a = input as DuelAction;
    if (a?.type !== 'play' || !Number.isInteger(a.card) || Object.keys(a).length !== 2) return fail('INVALID_INPUT', 'an action is { type: "play", card: <int> }');
    return ok({ type: 'play', card: a.card });
  },
  init: (ruleset) => ({ ruleset, dealt: false, hands: [[], []], played: [[], []], rolls: [0, 0], turn: 0, rollFor: null, resigned: null }),
  pendingChance(s) {
    if (!s.dealt) return { label: 'CardsShuffled', ranges: shuffleRanges(s.ruleset.cards), hidden: true };
    if (s.rollFor !== null) return { label: 'DiceRolled', ranges: [6] };
    return null;
  },
  resolveChance(s, values) {
    if (!s.dealt) {
      const order = applyShuffle(
        Array.from({ length: s.ruleset.cards }, (_, i) => i),
        values,
      );
      const h = s.ruleset.handSize;
      return ok({ ...s, dealt: true, hands: [order.slice(0, h).sort((a, b) => a - b), order.slice(h, 2 * h).sort((a, b) => a - b)] });
    }
    const seat = s.rollFor!;
    return ok({ ...s, rolls: s.rolls.map((r, i) => (i === seat ? r + values[0] + 1 : r)), rollFor: null });
  },
  toAct: (s) => (!s.dealt || s.rollFor !== null || duelEngine.outcome(s) ? [] : [s.turn]),
  legalActions: (s, seat) => (duelEngine.toAct(s).includes(seat) ? s.hands[seat].map((card) => ({ type: 'play' as const, card })) : []),
  forcedAction(s) {
    const seat = s.ruleset.autoPlayForced ? duelEngine.toAct(s)[0] : undefined;
    return seat !== undefined && s.hands[seat].length === 1 ? { seat, action: { type: 'play', card: s.hands[seat][0] } } : null;
  },
  apply(s, seat, action) {
    if (duelEngine.outcome(s)) return fail('GAME_OVER', 'the duel is over');
    if (!duelEngine.toAct(s).includes(seat)) return fail('NOT_YOUR_TURN', `it is seat ${s.turn}'s turn`);
    if (!s.hands[seat].includes(action.card)) return fail('ILLEGAL_MOVE', `card ${action.card} is not in your hand`);
    const hands = s.hands.map((h, i) => (i === seat ? h.filter((c) => c !== action.card) : h));
    const played = s.played.map((p, i) => (i === seat ? [...p, action.card] : p));
    return ok({ ...s, hands, played, turn: 1 - seat, rollFor: action.card % 2 === 0 ? seat : null });
  },
  resign: (s, seat) => (duelEngine.outcome(s) ? fail('GAME_OVER', 'the duel is over') : ok({ ...s, resigned: seat })),
  view: (s, viewer: Viewer) => ({
    hands: s.hands.map((h, i) => (viewer === i ? h : h.length)),
    played: s.played,
    rolls: s.rolls,
    turn: s.turn,
  }),
  outcome(s): Outcome | null {
    if (s.resigned !== null) return { winners: [1 - s.resigned], points: [score(s, 0), score(s, 1)], summary: `seat ${s.resigned} resigned` };
    if (!s.dealt || s.rollFor !== null || s.hands.some((h) => h.length > 0)) return null;
    const points = [score(s, 0), score(s, 1)];
    const winners = points[0] === points[1] ? [0, 1] : [points[0] > points[1] ? 0 : 1];
    return { winners, points, summary: winners.length === 2 ? `a tie at ${points[0]}` : `seat ${winners[0]} wins ${points[winners[0]]} to ${points[1 - winners[0]]}` };
  },
  chanceView: (_before, after, _values, viewer) => ({ hand: viewer === 'spectator' ? null : after.hands[viewer] }),
  actionView: (_before, _after, _seat, action) => action,
  exportRecord: (ruleset, entries) => JSON.stringify({ ruleset, entries }),
  importRecord(text) {
    try {
      const r = JSON.parse(text);
      return ok({ ruleset: r.ruleset, entries: r.entries });
    } catch {
      return fail('INVALID_INPUT', 'a duel record is JSON');
    }
  },
  recordContentType: 'application/json',
};
