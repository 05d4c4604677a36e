/**
 * Organizer deals: the exact shuffle values that make a round come out as a given deal, so an
 * organizer's prepared deal can be fed to the referee as supplied chance values (kit drawsForOrder).
 */
import { Codes, drawsForOrder, fail, ok, type Result, type Seat } from '../../../engines/kit/index.js';
import type { ChickenFootState } from './game.js';
import type { ChickenFootRuleset } from './ruleset.js';
import { buildSet, normalizeTile, setSize, type TileId } from './tiles.js';

/**
 * One round's deal as docs/rules/chicken-foot.md §4 describes it. `hands[seat]` in any order, `yard` top (next drawn)
 * first. With startDoubleSource "setAside" the starting double is in neither (it is the one tile
 * missing), and `dealer` and `finder` say who dealt and which seat's search turned the double up.
 */
export interface OrganizerDeal {
  hands: string[][];
  yard: string[];
  dealer?: Seat;
  finder?: Seat;
  /** With "setAside": the round (1-based), which decides the double set aside: setMax, setMax-1, ..., 0, setMax, ... */
  round?: number;
}

/** The round about to be dealt: which double it starts with and who deals (for building an OrganizerDeal). */
export function pendingDeal(state: ChickenFootState): { round: number; startDouble: TileId; dealer: Seat } | null {
  if (state.end || state.awaiting !== 'shuffle' || state.firstDealer === null) return null;
  const round = state.rounds.length + 1;
  return { round, startDouble: `${state.scheduledDouble}-${state.scheduledDouble}`, dealer: (state.firstDealer + round - 1) % state.ruleset.players };
}

/** The TilesShuffled values that produce `deal`; INVALID_INPUT names what is impossible about it. */
export function dealValues(ruleset: ChickenFootRuleset, deal: OrganizerDeal): Result<number[]> {
  const bad = (message: string) => fail<number[]>(Codes.INVALID_INPUT, `impossible deal: ${message}`);
  const { players: P, handSize: H, setMax: N } = ruleset;
  const setAside = ruleset.startDoubleSource === 'setAside';
  if (typeof deal !== 'object' || deal === null) return bad('expected { hands, yard, dealer?, finder?, round? }');
  const extra = Object.keys(deal).find((k) => !['hands', 'yard', 'dealer', 'finder', 'round'].includes(k));
  if (extra) return bad(`unknown field "${extra}"`);
  if (!Array.isArray(deal.hands) || deal.hands.length !== P) return bad(`hands must list ${P} hands, one per seat`);
  const seen = new Set<TileId>();
  const read = (list: unknown, where: string): TileId[] | string => {
    if (!Array.isArray(list)) return `${where} must be an array of tiles`;
    const tiles: TileId[] = [];
    for (const text of list) {
      const tile = typeof text === 'string' ? normalizeTile(text, N) : null;
      if (!tile) return `${where} holds ${JSON.stringify(text)}, which is not a tile of a double-${N} set`;
      if (seen.has(tile)) return `${tile} is dealt twice`;
      seen.add(tile);
      tiles.push(tile);
    }
    return tiles;
  };
  const hands: TileId[][] = [];
  for (let seat = 0; seat < P; seat++) {
    const hand = read(deal.hands[seat], `hand ${seat}`);
    if (typeof hand === 'string') return bad(hand);
    if (hand.length !== H) return bad(`hand ${seat} has ${hand.length} tiles, not ${H}`);
    hands.push(hand);
  }
  const yard = read(deal.yard, 'yard');
  if (typeof yard === 'string') return bad(yard);
  const yardSize = setSize(N) - P * H - (setAside ? 1 : 0);
  if (yard.length !== yardSize) return bad(`the yard must hold ${yardSize} tiles, not ${yard.length}`);
  const set = buildSet(N);
  const missing = set.filter((t) => !seen.has(t));
  const dealt = [...hands.flat(), ...yard];
  if (!setAside) {
    if (deal.dealer !== undefined || deal.finder !== undefined || deal.round !== undefined) {
      return bad('dealer, finder and round apply only when the starting double is set aside before the deal');
    }
    return ok(drawsForOrder(set, dealt));
  }
  if (!Number.isInteger(deal.round) || (deal.round as number) < 1) return bad('round must be the round number (1 or more): it decides which double is set aside');
  // A set-aside double is always found, so rounds start setMax, setMax-1, ..., 0 and wrap round.
  const pip = N - (((deal.round as number) - 1) % (N + 1));
  const start: TileId = `${pip}-${pip}`;
  if (missing.length !== 1 || missing[0] !== start) {
    return bad(`round ${deal.round} starts with ${start}, set aside before the deal: it must be the one tile missing from hands and yard; missing: ${missing.join(', ') || 'none'}`);
  }
  for (const key of ['dealer', 'finder'] as const) {
    const seat = deal[key];
    if (typeof seat !== 'number' || !Number.isInteger(seat) || seat < 0 || seat >= P) return bad(`${key} must be a seat from 0 to ${P - 1}`);
  }
  // The search turns up the double at stack index k for finder = (next(dealer) + k) mod P.
  const k = ((((deal.finder as number) - (deal.dealer as number) - 1) % P) + P) % P;
  return ok(drawsForOrder(set, [...dealt.slice(0, k), missing[0], ...dealt.slice(k)]));
}
