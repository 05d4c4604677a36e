import type { GameApi } from '../game-package.js';
import { CerkeModule } from './cerke.module.js';
import { cerkeTyped } from './typed.js';

export const cerkeApi: GameApi = { module: CerkeModule, typed: cerkeTyped };
