/** The transparency log's public entry: the Nest module the application imports, and the service the bundles ask for their proofs. */
export { type BundleLogProof, type InclusionProof, TransparencyLog } from './transparency-log.js';
export { TransparencyModule } from './transparency.module.js';
export { KEY_FILE } from './signing-key.js';
