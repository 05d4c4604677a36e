/** The challenges' public entry: the Nest module the application imports. */
export { ChallengesModule } from './challenges.module.js';
