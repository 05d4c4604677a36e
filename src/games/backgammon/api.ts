import type { GameApi } from '../game-package.js';
import { BackgammonModule } from './backgammon.module.js';
import { backgammonTyped } from './typed.js';

export const backgammonApi: GameApi = { module: BackgammonModule, typed: backgammonTyped };
