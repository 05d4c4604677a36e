import type { Engine } from '../engines/kit/index.js';

/** Every engine this referee ships, for the service and the offline verifier alike. */
export const ENGINES: Engine<any, any, any>[] = [];
