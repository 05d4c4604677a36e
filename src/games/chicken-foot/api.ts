import type { GameApi } from '../game-package.js';
import { ChickenFootModule } from './chicken-foot.module.js';
import { chickenFootTyped } from './typed.js';

export const chickenFootApi: GameApi = { module: ChickenFootModule, typed: chickenFootTyped };
