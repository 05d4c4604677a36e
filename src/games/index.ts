import type { Type } from '@nestjs/common';
import { BackgammonModule } from './backgammon/backgammon.module.js';
import { CerkeModule } from './cerke/cerke.module.js';
import { ChickenFootModule } from './chicken-foot/chicken-foot.module.js';
import { TypedAnswersModule } from './typed-answers.module.js';

/** One Nest module per game, each adding its typed GraphQL API on top of the referee core, and the typed event details they share. */
export const GAME_MODULES: Type[] = [BackgammonModule, ChickenFootModule, CerkeModule, TypedAnswersModule];
