/**
 * GraphQL enums over the engine's closed sets. Each enum's values are the engine's own strings
 * (named in SCREAMING_CASE in the schema), so engine data passes through without translation.
 */
import { registerEnumType } from '@nestjs/graphql';
import { type CerkeAction, type CerkeRuleset, type GameResult, type HandName, type NegativeHand, type Phase, type Profile, type SeasonResult, type StickCast } from '../engine/index.js';
import { COLOURS, KINDS, SIDES } from '../engine/board.js';
import { CERKE_CHOICES } from '../ruleset-choices.js';

/** Checks at compile time that a list holds every value of `V` (and nothing else). */
const every =
  <V extends string>() =>
  <const L extends readonly V[]>(values: L & ([V] extends [L[number]] ? unknown : 'a value of the engine type is missing')) =>
    values;

const screaming = (value: string) => value.replace(/([a-z0-9])([A-Z])/g, '$1_$2').toUpperCase();

function engineEnum<V extends string>(name: string, description: string, values: readonly V[], valueDescriptions: Partial<Record<V, string>> = {}): Record<string, V> {
  const ref = Object.fromEntries(values.map((v) => [screaming(v), v]));
  const valuesMap = Object.fromEntries(values.filter((v) => valueDescriptions[v]).map((v) => [screaming(v), { description: valueDescriptions[v] }]));
  registerEnumType(ref, { name, description, valuesMap });
  return ref;
}

export const CerkeSide = engineEnum('CerkeSide', 'IA: home rows AI AU IA, black King, seat 0. A: home rows A E I, red King, seat 1.', SIDES, {
  IA: 'Seat 0: home rows AI AU IA, black King',
  A: 'Seat 1: home rows A E I, red King',
});

export const CerkeColour = engineEnum('CerkeColour', "A piece's colour (red or black); it never changes, even when the piece changes side", COLOURS);

export const CerkeKind = engineEnum('CerkeKind', "A piece's kind", KINDS, {
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
});

export const CerkeProfile = engineEnum('CerkeProfile', "The rule profile: cerke_online's rules, or the strict standardized rules", every<Profile>()(CERKE_CHOICES.profile), {
  online: "cerke_online's rules",
  strict: 'The strict standardized rules',
});

export type StepDuring = NonNullable<Extract<CerkeAction, { type: 'moveTam2' }>['stepDuring']>;
export const CerkeStepDuring = engineEnum(
  'CerkeStepDuring',
  'When Tam2 steps on the occupied `via` square: during its first or its second King step',
  every<StepDuring>()(['firstHalf', 'secondHalf']),
  { firstHalf: 'During its first King step', secondHalf: 'During its second King step' },
);

export const CerkeActionType = engineEnum(
  'CerkeActionType',
  'What a legal action does',
  every<CerkeAction['type']>()(['move', 'completeStep', 'abandonStep', 'drop', 'moveTam2', 'continue', 'endSeason']),
  {
    move: 'Move a piece, directly or stepping on `via`',
    completeStep: 'After the stepping cast: end the stick-limited leg on `to`',
    abandonStep: 'After the stepping cast: leave the piece where it was; the turn ends',
    drop: 'Put a piece of your captured pile (hop1zuo1) on an empty square',
    moveTam2: 'Move Tam2 two King steps',
    continue: 'ty mok1: play on; the stake doubles',
    endSeason: "ta xot1: end the season and take the hands' value times the stake",
  },
);

export const CerkePhase = engineEnum(
  'CerkePhase',
  'What the game waits for',
  every<Phase['name']>()(['firstMoverCast', 'move', 'steppingCast', 'stepCompletion', 'waterCast', 'declaration', 'gameOver']),
  {
    firstMoverCast: 'Both sides cast the sticks to decide who moves first this season',
    move: 'The side to move plays a piece move, a drop or a Tam2 move',
    steppingCast: "The sticks are cast for a stepping move's second leg",
    stepCompletion: 'The mover completes or abandons the stepping move after the cast',
    waterCast: 'The sticks are cast for a piece entering water',
    declaration: 'The mover made a new hand and declares ty mok1 (continue) or ta xot1 (end the season)',
    gameOver: 'The game is over',
  },
);

export const CerkeHandName = engineEnum(
  'CerkeHandName',
  'A hand (役) of a captured pile, with its base value (a flash, all of one colour, adds 2), or a [strict] negative hand of a turn',
  every<HandName | NegativeHand['name']>()(['Unbeatable', 'SocialOrder', 'Culture', 'Cavalry', 'Attack', 'King', 'Animals', 'Army', 'Comrades', 'DeadlyArmy', 'Stepping', 'FutileMove']),
  {
    Unbeatable: '無抗行処: one of every kind (50)',
    SocialOrder: '筆兵無傾: Officer, Shaman, General, Archer, Pawn (10)',
    Culture: '地心: Officer, Shaman, General (7)',
    Cavalry: '馬弓兵: Horse, Archer, Pawn (5)',
    Attack: '行行: Vessel, Chariot, Horse (5)',
    King: '王: a King (3, always counted as a flash: 5)',
    Animals: '獣: Tiger, Horse (3)',
    Army: '戦集: General and two Pawns (3)',
    Comrades: '助友: Chariot and two Pawns (3)',
    DeadlyArmy: '闇戦之集: five Pawns (3)',
    Stepping: '撃皇 [strict]: stepping on Tam2 (−5)',
    FutileMove: '皇再来 [strict]: a futile Tam2 move (−3)',
  },
);

export const CerkeCastPurpose = engineEnum('CerkeCastPurpose', 'Why the sticks were cast', every<StickCast['purpose']>()(['firstMover', 'stepping', 'waterEntry']), {
  firstMover: 'Both sides cast to decide who moves first; the higher count moves first, equal counts cast again',
  stepping: "The count limits a stepping move's second leg",
  waterEntry: 'A piece enters water on a count of three or more',
});

export const CerkeSeasonEndCause = engineEnum('CerkeSeasonEndCause', 'How a season ended', every<SeasonResult['endedBy']['how']>()(['endSeason', 'steppingOnTam2', 'resignation', 'noLegalAction']), {
  endSeason: 'ta xot1: `side` declared the end of the season',
  steppingOnTam2: '[online] `side` stepped on Tam2 and its payment ran the points out',
  resignation: '`side` resigned the game',
  noLegalAction: '`side` had no legal action',
});

export const CerkeGameEndReason = engineEnum('CerkeGameEndReason', 'Why the game ended', every<GameResult['reason']>()(['pointsRanOut', 'lastSeason', 'resignation', 'noLegalAction']), {
  pointsRanOut: 'A side reached 0 (the other 40) points',
  lastSeason: 'The last season of the ruleset was played',
  resignation: 'A side resigned',
  noLegalAction: 'The side to move had no legal action',
});

export const CerkeTamAfterTamMoved = engineEnum(
  'CerkeTamAfterTamMoved',
  'Moving Tam2 on the turn right after the opponent moved it',
  every<CerkeRuleset['movingTamImmediatelyAfterTamHasMoved']>()(CERKE_CHOICES.movingTamImmediatelyAfterTamHasMoved),
  { forbidden: 'Not allowed', penalized: 'Allowed, as the negative hand The Futile Move (皇再来, −3)' },
);

export const CerkeTamMunMok = engineEnum('CerkeTamMunMok', 'Tam2 ending its move on the square it started from', every<CerkeRuleset['tamMunMok']>()(CERKE_CHOICES.tamMunMok), {
  allowed: 'Allowed, with no effect',
  penalized: 'The negative hand The Futile Move (皇再来, −3)',
});

export const CerkeCastAnnouncement = engineEnum(
  'CerkeCastAnnouncement',
  'What the mover names before the sticks limit a stepping move’s second leg (§8.3)',
  every<CerkeRuleset['whatToSayBeforeCastingSticks']>()(CERKE_CHOICES.whatToSayBeforeCastingSticks),
  { direction: 'Its direction: the completion may end on any square that way within the count', exactDestination: 'Its exact destination square' },
);
