/**
 * The architecture, checked: `npm run depcruise` (dependency-cruiser over src/).
 *
 * Layers: engines (pure game rules: kit + one folder per game) <- referee/core (pure referee logic)
 * <- referee/store (persistence) <- referee/application (use cases) <- api / games / ops / app (NestJS wiring).
 * Type-only imports count too (tsPreCompilationDeps): a pure layer may not even name a framework type.
 *
 * Relative imports are written with `.js` (nodenext ESM); they resolve to the `.ts` sources: dependency-cruiser
 * retries an unresolvable `.js` as `.ts`, as tsc does (the `not-to-unresolvable` rule fails the run if one is left).
 */
/** @type {import('dependency-cruiser').IConfiguration} */
module.exports = {
  forbidden: [
    {
      name: 'no-circular',
      severity: 'error',
      comment: 'No import cycles anywhere in src: they make the order of module evaluation (and NestJS providers) fragile.',
      from: { path: '^src/' },
      to: { circular: true },
    },
    {
      name: 'not-to-unresolvable',
      severity: 'error',
      comment: 'Every import resolves to a file or an installed package (also proves that the rules below see the real graph).',
      from: { path: '^src/' },
      to: { couldNotResolve: true },
    },
    {
      name: 'engines-are-pure',
      severity: 'error',
      comment:
        'src/engines/<game>/ imports only its own folder and src/engines/kit/; src/engines/kit/ ($1 = kit) imports only itself. ' +
        'No node builtins (node:crypto, node:fs, ...) and no npm packages: engines are pure functions of their inputs.',
      from: { path: '^src/engines/([^/]+)/' },
      to: { pathNot: ['^src/engines/$1/', '^src/engines/kit/'] },
    },
    {
      name: 'referee-core-is-pure',
      severity: 'error',
      comment:
        'src/referee/core/ imports only src/referee/core/, src/engines/kit/ and node:crypto (hashing). ' +
        'No @nestjs/*, @prisma/*, pg, fastify, src/generated, src/database, src/referee/store, src/referee/application, src/api, src/games, src/ops.',
      from: { path: '^src/referee/core/' },
      to: { pathNot: ['^src/referee/core/', '^src/engines/kit/', '^(node:)?crypto$'] },
    },
    {
      name: 'referee-store-layering',
      severity: 'error',
      comment: 'src/referee/store/ may import src/referee/core/, src/database/, src/generated/ and npm packages; ' + 'not src/referee/application/, src/api/, src/games/ (nor anything else in src).',
      from: { path: '^src/referee/store/' },
      to: { path: '^src/', pathNot: ['^src/referee/(store|core)/', '^src/database/', '^src/generated/'] },
    },
    {
      name: 'referee-application-layering',
      severity: 'error',
      comment: 'src/referee/application/ must not import the transport or the wiring: src/api/, src/games/, src/app*, src/main.ts.',
      from: { path: '^src/referee/application/' },
      to: { path: ['^src/api/', '^src/games/', '^src/app[^/]*$', '^src/main\\.ts$'] },
    },
    {
      name: 'referee-and-engines-below-the-wiring',
      severity: 'error',
      comment: 'src/referee/** and src/engines/** must not import src/games/**, src/api/**, src/ops/**, src/app*, src/main.ts.',
      from: { path: '^src/(referee|engines)/' },
      to: { path: ['^src/games/', '^src/api/', '^src/ops/', '^src/app[^/]*$', '^src/main\\.ts$'] },
    },
  ],
  options: {
    // Generated Prisma client and installed packages are leaves: seen as targets, not cruised into.
    doNotFollow: { path: ['node_modules', '^src/generated/'] },
    tsPreCompilationDeps: true,
    tsConfig: { fileName: 'tsconfig.json' },
    enhancedResolveOptions: {
      exportsFields: ['exports'],
      conditionNames: ['import', 'require', 'node', 'default', 'types'],
      mainFields: ['module', 'main', 'types', 'typings'],
      extensions: ['.ts', '.js', '.mjs', '.cjs', '.d.ts', '.json'],
    },
    skipAnalysisNotInRules: true,
    reporterOptions: { text: { highlightFocused: true } },
  },
};
