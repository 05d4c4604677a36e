/** The Arbiter TypeScript client: the hand-written ArbiterClient, the generated typed documents, and typed webhook deliveries. */
export * from './client.js';
export * from './generated/graphql.js';
export * from './webhooks.js';
