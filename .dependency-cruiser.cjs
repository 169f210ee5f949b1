// The layers of src/ (docs/rules.md §9), checked by dependency-cruiser in CI
// (`npm run check:layers`). Entry assembles; domains hold the product; infrastructure
// knows no domain. Type-only imports count: a cycle of types is still a cycle.
const ENTRY = '^src/(cli/|operations/|sweeper/|app\\.ts$|server\\.ts$)';
const DOMAINS = '^src/(auth|bank|brand|channels|docs|events|journey|links|portal|proposals|reports|sandbox|webhooks)/';
const INFRA = '^src/(config|crypto|db|http|metrics|observability|rate-limits|text)/|^src/(errors|clock)\\.ts$';
/** The HTTP edge of a domain: its routes and the plugins that hook into the server. */
const HTTP_EDGE = '^src/http/|\\.(routes|plugin)\\.ts$|^src/(app|server)\\.ts$';

/** @type {import('dependency-cruiser').IConfiguration} */
module.exports = {
  forbidden: [
    {
      name: 'no-circular',
      severity: 'error',
      comment: 'A module that reaches itself back through others: one of them points up.',
      from: { path: '^src/' },
      to: { circular: true },
    },
    {
      name: 'infrastructure-knows-no-domain',
      severity: 'error',
      comment:
        'config, crypto, db, http, metrics, observability, rate-limits, text, errors and clock import no domain and no entry module.',
      from: { path: INFRA },
      to: { path: [DOMAINS, ENTRY] },
    },
    {
      name: 'domains-do-not-import-entry',
      severity: 'error',
      comment: 'A domain is assembled by the entry (app.ts, server.ts, cli/, operations/, sweeper/), never the other way.',
      from: { path: DOMAINS },
      to: { path: ENTRY },
    },
    {
      name: 'context-is-types-only',
      severity: 'error',
      comment: 'src/context.ts names what every part receives; it may name domain types, never run domain code.',
      from: { path: '^src/context\\.ts$' },
      to: { path: DOMAINS, dependencyTypesNot: ['type-only'] },
    },
    {
      name: 'fastify-only-at-the-http-edge',
      severity: 'error',
      comment:
        'Only http/, the route files and the server plugins (*.routes.ts, *.plugin.ts) import Fastify; services and repositories take plain values.',
      from: { path: '^src/', pathNot: HTTP_EDGE },
      to: { path: '(^|/)node_modules/(fastify|@fastify/[^/]+)/' },
    },
    {
      name: 'not-to-tests-or-benches',
      severity: 'error',
      comment: 'The service never imports its tests, benchmarks or scripts.',
      from: { path: '^src/' },
      to: { path: '^(test|bench|scripts)/' },
    },
  ],
  options: {
    doNotFollow: { path: 'node_modules' },
    tsPreCompilationDeps: true,
    tsConfig: { fileName: 'tsconfig.json' },
    enhancedResolveOptions: { exportsFields: ['exports'], conditionNames: ['import', 'require', 'node', 'default'] },
  },
};
