import { registerEnumType } from '@nestjs/graphql';
import type { BoardPhase, ChickenFootAction, ChickenFootView, RoundEnd } from '../engine/index.js';
import { ChickenFootDrawPolicy, ChickenFootPreset } from '../ruleset-choices.js';

export { ChickenFootDrawPolicy, ChickenFootPreset };

// GraphQL names on the left, the engine's own values on the right: values pass through unchanged.

registerEnumType(ChickenFootPreset, {
  name: 'ChickenFootPreset',
  description: 'Classic (the starting double set aside, a hub arm per player, blanks count 0) or Malta Cross (the holder places the starting double, four arms, double-blank 50)',
});

registerEnumType(ChickenFootDrawPolicy, {
  name: 'ChickenFootDrawPolicy',
  description: 'A seat without a play draws one tile per turn, or keeps drawing until it can play',
  valuesMap: {
    ONE: { description: 'Draw at most one tile per turn, then play or pass' },
    UNTIL_PLAYABLE: { description: 'Keep drawing until a tile can be played (or no tile may be drawn)' },
  },
});

export const ChickenFootStatus = {
  DEALING: 'dealing',
  PLAYING: 'playing',
  FINISHED: 'finished',
} as const satisfies Record<string, ChickenFootView['status']>;
registerEnumType(ChickenFootStatus, {
  name: 'ChickenFootStatus',
  description: 'Waiting for a round to be dealt (or for seats), a round in play, or the whole game over',
  valuesMap: {
    DEALING: { description: 'Waiting for a round to be dealt (or for seats)' },
    PLAYING: { description: 'A round is in play' },
    FINISHED: { description: 'The whole game is over' },
  },
});

export const ChickenFootPhase = {
  OPENING: 'OPENING',
  OPEN: 'OPEN',
  FOOT_OPEN: 'FOOT_OPEN',
} as const satisfies Record<string, BoardPhase>;
registerEnumType(ChickenFootPhase, {
  name: 'ChickenFootPhase',
  description: 'OPENING: the hub still needs arms; OPEN: any open end may be played; FOOT_OPEN: a chicken foot needs its toes before anything else',
  valuesMap: {
    OPENING: { description: 'The hub still needs arms: only the hub may be played on' },
    OPEN: { description: 'Any open end may be played on' },
    FOOT_OPEN: { description: 'A chicken foot needs its toes before anything else' },
  },
});

export const ChickenFootRoundEnd = {
  DOMINO: 'domino',
  BLOCKED: 'blocked',
  ABANDONED: 'abandoned',
} as const satisfies Record<string, RoundEnd>;
registerEnumType(ChickenFootRoundEnd, {
  name: 'ChickenFootRoundEnd',
  description: 'A seat played its last tile (domino), nobody could play or draw (blocked), or a resignation ended the game mid-round (abandoned, not scored)',
  valuesMap: {
    DOMINO: { description: 'A seat played its last tile' },
    BLOCKED: { description: 'Nobody could play or draw' },
    ABANDONED: { description: 'A resignation ended the game mid-round; the round is not scored' },
  },
});

export const ChickenFootActionType = {
  PLAY: 'play',
  DRAW: 'draw',
  PASS: 'pass',
} as const satisfies Record<string, ChickenFootAction['type']>;
registerEnumType(ChickenFootActionType, {
  name: 'ChickenFootActionType',
  description: 'A Chicken Foot action, each with its mutation: chickenFootPlay, chickenFootDraw, chickenFootPass',
});
