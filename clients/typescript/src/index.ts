/** The Arbiter TypeScript client: the hand-written ArbiterClient and the generated typed documents. */
export * from './client.js';
export * from './generated/graphql.js';
