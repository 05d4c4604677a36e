/** The players' public entry: the Nest module the application imports. */
export { PlayersModule } from './players.module.js';
export { Me } from './models.js';
