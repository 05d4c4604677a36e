/**
 * Hands (役) of a captured pile, scored exactly as docs/rules/cerke.md §11.4 says,
 * with the King as a wildcard of its own colour (§11.3) and flash (§11.2).
 */
import { type CapturedPiece, type Colour, type Kind, COLOURS, KINDS } from './board.js';
import { fail, ok, type Result } from '../../../engines/kit/index.js';

export type HandName = 'Unbeatable' | 'SocialOrder' | 'Culture' | 'Cavalry' | 'Attack' | 'King' | 'Animals' | 'Army' | 'Comrades' | 'DeadlyArmy';

/** A hand found in a pile. The King hand is always reported as a flash worth 5. */
export interface Hand {
  name: HandName;
  flash: boolean;
  value: number;
}

interface HandRule {
  name: HandName;
  base: number;
  needs: Partial<Record<Kind, number>>;
}

/** docs/rules/cerke.md §11.1 in table order (also the order records list hands in). */
export const HAND_RULES: readonly HandRule[] = [
  { name: 'Unbeatable', base: 50, needs: { Vessel: 1, Pawn: 1, Archer: 1, Chariot: 1, Tiger: 1, Horse: 1, Officer: 1, Shaman: 1, General: 1, King: 1 } },
  { name: 'SocialOrder', base: 10, needs: { Officer: 1, Shaman: 1, General: 1, Archer: 1, Pawn: 1 } },
  { name: 'Culture', base: 7, needs: { Officer: 1, Shaman: 1, General: 1 } },
  { name: 'Cavalry', base: 5, needs: { Horse: 1, Archer: 1, Pawn: 1 } },
  { name: 'Attack', base: 5, needs: { Vessel: 1, Chariot: 1, Horse: 1 } },
  { name: 'King', base: 3, needs: { King: 1 } },
  { name: 'Animals', base: 3, needs: { Tiger: 1, Horse: 1 } },
  { name: 'Army', base: 3, needs: { General: 1, Pawn: 2 } },
  { name: 'Comrades', base: 3, needs: { Chariot: 1, Pawn: 2 } },
  { name: 'DeadlyArmy', base: 3, needs: { Pawn: 5 } },
];

const FLASH_BONUS = 2;
/** Most pieces of one colour and kind a pile can hold (the whole set of that colour). */
const MOST_OF_A_KIND: Record<Kind, number> = {
  Vessel: 1,
  Pawn: 8,
  Archer: 2,
  Chariot: 2,
  Tiger: 2,
  Horse: 2,
  Officer: 2,
  Shaman: 2,
  General: 2,
  King: 1,
};

type Counts = Record<Colour, Record<Kind, number>>;

function countPile(pile: readonly CapturedPiece[]): Counts {
  const zero = () => Object.fromEntries(KINDS.map((k) => [k, 0])) as Record<Kind, number>;
  const counts: Counts = { red: zero(), black: zero() };
  for (const piece of pile) counts[piece.colour][piece.kind]++;
  return counts;
}

const contains = (counts: Counts, rule: HandRule, colours: readonly Colour[]): boolean =>
  Object.entries(rule.needs).every(([kind, n]) => colours.reduce((sum, c) => sum + counts[c][kind as Kind], 0) >= n);

function handsOfCounts(counts: Counts): Hand[] {
  const kings = COLOURS.filter((c) => counts[c].King > 0);
  const plain = new Set<HandName>();
  const flash = new Set<HandName>();
  // Each King independently stays a King or stands for one non-King piece of its colour; the
  // hands are the union over every such choice (docs/rules/cerke.md §11.4).
  const choices: (Kind | null)[] = [null, ...KINDS.filter((k) => k !== 'King')];
  const assign = (i: number, current: Counts) => {
    if (i === kings.length) {
      for (const rule of HAND_RULES) {
        if (rule.name === 'King') continue;
        if (contains(current, rule, COLOURS)) plain.add(rule.name);
        if (COLOURS.some((c) => contains(current, rule, [c]))) flash.add(rule.name);
      }
      return;
    }
    const colour = kings[i];
    for (const choice of choices) {
      if (choice === null) assign(i + 1, current);
      else {
        const replaced: Counts = { ...current, [colour]: { ...current[colour], King: current[colour].King - 1, [choice]: current[colour][choice] + 1 } };
        assign(i + 1, replaced);
      }
    }
  };
  assign(0, counts);
  const hands: Hand[] = [];
  for (const rule of HAND_RULES) {
    if (rule.name === 'King') {
      if (kings.length > 0) hands.push({ name: 'King', flash: true, value: rule.base + FLASH_BONUS });
    } else if (flash.has(rule.name)) hands.push({ name: rule.name, flash: true, value: rule.base + FLASH_BONUS });
    else if (plain.has(rule.name)) hands.push({ name: rule.name, flash: false, value: rule.base });
  }
  return hands;
}

const cache = new Map<string, Hand[]>();
const pileKey = (pile: readonly CapturedPiece[]) =>
  pile
    .map((p) => p.colour[0] + p.kind)
    .sort()
    .join(',');

/** The hands a (possible) pile forms, in table order. Results are memoised by pile contents. */
export function handsOf(pile: readonly CapturedPiece[]): Hand[] {
  const key = pileKey(pile);
  let hands = cache.get(key);
  if (!hands) {
    hands = handsOfCounts(countPile(pile));
    if (cache.size > 50_000) cache.clear();
    cache.set(key, hands);
  }
  return hands;
}

export const scoreOf = (hands: readonly Hand[]): number => hands.reduce((sum, h) => sum + h.value, 0);

/** Hands and score of any pile, rejecting piles no game can produce (docs/rules/cerke.md §11.4, the consistency rule). */
export function evaluatePile(pile: readonly CapturedPiece[]): Result<{ hands: Hand[]; score: number }> {
  const counts = countPile(pile);
  const excess: string[] = [];
  for (const colour of COLOURS) for (const kind of KINDS) if (counts[colour][kind] > MOST_OF_A_KIND[kind]) excess.push(`${counts[colour][kind]} ${colour} ${kind}s (at most ${MOST_OF_A_KIND[kind]})`);
  if (excess.length > 0) return fail('INVALID_INPUT', `no game can capture ${excess.join(' and ')}`);
  const hands = handsOf(pile);
  return ok({ hands, score: scoreOf(hands) });
}

/** True when `after` has a hand (or a flash upgrade) that `before` lacks (docs/rules/cerke.md §12.1). */
export function formsNewHand(before: readonly Hand[], after: readonly Hand[]): boolean {
  return after.some((h) => !before.some((b) => b.name === h.name && b.flash === h.flash));
}
