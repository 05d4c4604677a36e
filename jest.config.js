/** Jest runs the TypeScript sources as ES modules (NestJS 12 is ESM-only). */
export default {
  testEnvironment: 'node',
  roots: ['<rootDir>/test'],
  testMatch: ['**/*.spec.ts'],
  extensionsToTreatAsEsm: ['.ts'],
  moduleNameMapper: { '^(\\.{1,2}/.*)\\.js$': '$1' },
  transform: {
    '^.+\\.ts$': ['ts-jest', { useESM: true, tsconfig: 'tsconfig.json', diagnostics: { warnOnly: false } }],
  },
  // A safety net, not a speed goal: a test that waits longer than this is stuck, not slow.
  testTimeout: 120000,
  // Each ES-module test file leaves its module graph behind in the process that ran it; run in band,
  // the whole suite outgrew the 4 GB heap (CI, 2026-12-07). A limit makes Jest use a worker even on
  // one core and replace it once a file leaves it above the limit.
  workerIdleMemoryLimit: '1GB',
};
