/** The tournaments' public entry: the Nest module the application imports (everything else is theirs alone). */
export { TournamentsModule } from './tournaments.module.js';
