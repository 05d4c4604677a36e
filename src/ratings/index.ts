/** The ratings' public entry: the Nest module the application imports. */
export { RatingsModule } from './ratings.module.js';
