import { registerEnumType } from '@nestjs/graphql';
import type { BackgammonAction, GameEnd, Phase, PendingDouble, ResignationLevel } from '../engine/index.js';
import { BackgammonOpeningRoll, BackgammonResignWhen } from '../ruleset-choices.js';

export { BackgammonOpeningRoll, BackgammonResignWhen };

// GraphQL names on the left, the engine's own values on the right: values pass through unchanged.

export const BackgammonResignationLevel = {
  SINGLE: 'single',
  GAMMON: 'gammon',
  BACKGAMMON: 'backgammon',
} as const satisfies Record<string, ResignationLevel>;
registerEnumType(BackgammonResignationLevel, {
  name: 'BackgammonResignationLevel',
  description: 'How much a resignation concedes: a single game (the cube value), a gammon (twice) or a backgammon (three times)',
  valuesMap: {
    SINGLE: { description: 'A single game: the cube value' },
    GAMMON: { description: 'A gammon: twice the cube value' },
    BACKGAMMON: { description: 'A backgammon: three times the cube value' },
  },
});

export const BackgammonPhase = {
  OPENING_ROLL: 'opening-roll',
  AWAITING_ROLL: 'awaiting-roll',
  ROLLING: 'rolling',
  DOUBLE_OFFERED: 'double-offered',
  AWAITING_PLAY: 'awaiting-play',
  MATCH_OVER: 'match-over',
} as const satisfies Record<string, Phase>;
registerEnumType(BackgammonPhase, {
  name: 'BackgammonPhase',
  description:
    'Where the turn stands: the opening roll, the player on roll may double or roll, the dice are being rolled, a double awaits its answer, the dice await a play, or the match (or money game) is over',
  valuesMap: {
    OPENING_ROLL: { description: 'Each player throws one die; the higher starts (equal dice throw again)' },
    AWAITING_ROLL: { description: 'The player on roll may double (backgammonDouble) or roll (backgammonRoll)' },
    ROLLING: { description: 'The referee is rolling the dice (nobody acts)' },
    DOUBLE_OFFERED: { description: "A double, beaver or raccoon awaits the other player's answer" },
    AWAITING_PLAY: { description: 'The player on roll plays the dice (backgammonPlay)' },
    MATCH_OVER: { description: 'The match (or money game) is over' },
  },
});

export const BackgammonCubeStage = {
  DOUBLE: 'double',
  BEAVER: 'beaver',
  RACCOON: 'raccoon',
} as const satisfies Record<string, PendingDouble['stage']>;
registerEnumType(BackgammonCubeStage, {
  name: 'BackgammonCubeStage',
  description: 'The cube turn awaiting an answer: a double, a beaver (the taker redoubles at once, keeping the cube) or a raccoon (the doubler redoubles the beaver)',
  valuesMap: {
    DOUBLE: { description: 'The player on roll doubled' },
    BEAVER: { description: 'The taker redoubled at once, keeping the cube (money play)' },
    RACCOON: { description: 'The doubler redoubled the beaver, keeping the cube (money play)' },
  },
});

export const BackgammonGameEnd = {
  BEAR_OFF: 'bear-off',
  DROPPED_DOUBLE: 'dropped-double',
  RESIGNATION: 'resignation',
  FORFEIT: 'forfeit',
} as const satisfies Record<string, GameEnd>;
registerEnumType(BackgammonGameEnd, {
  name: 'BackgammonGameEnd',
  description: 'How a game ended: a player bore off all fifteen checkers, a double was dropped, a resignation was accepted, or a player conceded the match',
  valuesMap: {
    BEAR_OFF: { description: 'The winner bore off all fifteen checkers' },
    DROPPED_DOUBLE: { description: 'A double was dropped' },
    RESIGNATION: { description: 'A resignation offer was accepted' },
    FORFEIT: { description: 'A player conceded the whole match (resignGame)' },
  },
});

export const BackgammonActionType = {
  ROLL: 'roll',
  PLAY: 'play',
  DOUBLE: 'double',
  TAKE: 'take',
  DROP: 'drop',
  BEAVER: 'beaver',
  RACCOON: 'raccoon',
  RESIGN: 'resign',
  ACCEPT_RESIGNATION: 'acceptResignation',
  REJECT_RESIGNATION: 'rejectResignation',
} as const satisfies Record<string, BackgammonAction['type']>;
registerEnumType(BackgammonActionType, {
  name: 'BackgammonActionType',
  description:
    'A kind of backgammon action, each with its mutation: backgammonRoll, backgammonPlay, backgammonDouble, backgammonTake, backgammonDrop, backgammonBeaver, backgammonRaccoon, backgammonOfferResignation (RESIGN), backgammonAcceptResignation, backgammonRejectResignation',
});

registerEnumType(BackgammonOpeningRoll, {
  name: 'BackgammonOpeningRoll',
  description: 'After the opening roll (one die each, higher starts): the starter plays the two opening dice, or rolls both dice afresh for his first turn',
  valuesMap: {
    USE_OPENING_DICE: { description: 'The starter plays the two opening dice' },
    REROLL_BOTH_DICE: { description: 'The starter rolls both dice afresh for his first turn' },
  },
});

registerEnumType(BackgammonResignWhen, {
  name: 'BackgammonResignWhen',
  description: 'When a player may offer to resign: only on his own turn, or at any time',
  valuesMap: {
    OWN_TURN: { description: 'Only on his own turn' },
    ANY_TIME: { description: "At any time, also on the opponent's turn" },
  },
});
