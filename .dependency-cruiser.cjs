/**
 * The architecture, checked: `npm run depcruise` (dependency-cruiser over src/).
 *
 * Layers: engines (pure game rules: kit + one folder per game) <- referee/core (pure referee logic)
 * <- referee/store (persistence) <- referee/application (use cases) <- api / games / ops / app (NestJS wiring).
 * Type-only imports count too (tsPreCompilationDeps): a pure layer may not even name a framework type.
 * Modules (referee, tournaments, webhooks) meet only through their public entries (index.ts), and the referee
 * knows none of the modules that plug into it.
 *
 * Relative imports are written with `.js` (nodenext ESM); they resolve to the `.ts` sources: dependency-cruiser
 * retries an unresolvable `.js` as `.ts`, as tsc does (the `not-to-unresolvable` rule fails the run if one is left).
 */
/** Code that runs without the service (the offline verifier, the record parser's worker thread, the list of games they load and its plain data). */
const LIGHT = '^src/(cli|workers)/|^src/games/(index|game-package|ruleset-spellings)\\.ts$|^src/games/[^/]+/(index|ruleset-choices)\\.ts$';

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
        "A game's engine (src/games/<game>/engine/) imports only its own folder and src/engines/kit/. " +
        'No node builtins (node:crypto, node:fs, ...) and no npm packages: engines are pure functions of their inputs.',
      from: { path: '^src/games/([^/]+)/engine/' },
      to: { pathNot: ['^src/games/$1/engine/', '^src/engines/kit/'] },
    },
    {
      name: 'engine-kit-is-pure',
      severity: 'error',
      comment: 'src/engines/kit/, the contract every engine meets, imports only itself: no node builtins, no npm packages.',
      from: { path: '^src/engines/kit/' },
      to: { pathNot: '^src/engines/kit/' },
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
      comment: 'src/referee/** and src/engines/kit/ must not import src/games/**, src/api/**, src/ops/**, src/app*, src/main.ts.',
      from: { path: '^src/(referee|engines)/' },
      to: { path: ['^src/games/', '^src/api/', '^src/ops/', '^src/app[^/]*$', '^src/main\\.ts$'] },
    },
    {
      name: 'modules-through-their-entries',
      severity: 'error',
      comment:
        'A module (src/referee, src/tournaments, src/webhooks, src/transparency) is used from outside its folder only through its public entry, its index.ts: ' +
        'what it offers others is said in one place, and its layers and files may change without touching them. ' +
        'Code that must not load the service is ruled apart (light-code-uses-the-pure-core).',
      from: { path: '^src/([^/]+)', pathNot: LIGHT },
      to: { path: '^src/(referee|tournaments|webhooks|transparency)/', pathNot: ['^src/$1/', '^src/(referee|tournaments|webhooks|transparency)/index\\.ts$'] },
    },
    {
      name: 'light-code-uses-the-pure-core',
      severity: 'error',
      comment:
        "The offline verifier (src/cli/), the record parser's worker thread (src/workers/) and the list of games they load (src/games/index.ts and each game's index.ts) " +
        "use the referee's pure core (src/referee/core/) or the modules' entries, never the store or the application: the referee's entry " +
        'loads the whole service (Nest, the database driver: a second and 40 MB) where a bundle is checked or a record parsed.',
      from: { path: LIGHT },
      to: { path: '^src/(referee|tournaments|webhooks|transparency)/', pathNot: ['^src/referee/core/', '^src/(referee|tournaments|webhooks|transparency)/index\\.ts$'] },
    },
    {
      name: 'webhooks-use-the-referee-entry',
      severity: 'error',
      comment:
        "src/webhooks/ and src/transparency/ use the referee only through src/referee/index.ts: they plug their outbox and log entries into the games' " +
        "(and tournaments') consequences and the event store's statement, and the webhooks their low-time warnings into the deadline worker, through the registries the entry offers.",
      from: { path: '^src/(webhooks|transparency)/' },
      to: { path: '^src/referee/', pathNot: '^src/referee/index\\.ts$' },
    },
    {
      name: 'referee-knows-no-webhooks-or-tournaments',
      severity: 'error',
      comment:
        'src/referee/ imports nothing of src/webhooks/ or src/tournaments/: they plug into the referee (consequences, projection writers, ' +
        'low-time listeners, the token directory), never the referee into them.',
      from: { path: '^src/referee/' },
      to: { path: '^src/(webhooks|tournaments|transparency)/' },
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
