import type { Type } from '@nestjs/common';

/** One Nest module per game, each adding its typed GraphQL API on top of the referee core. */
export const GAME_MODULES: Type[] = [];
