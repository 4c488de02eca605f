// The import graph of src/: no circle, and no import that points up a layer (docs/architecture.md). Run by
// test/architecture.test.ts (so by `npm test` and CI), or by hand: npx depcruise src --config .dependency-cruiser.mjs
// Layers, lowest first: each may import its own folder and the layers listed under it.
const LAYERS = [
  ['util', []],
  ['errors', []],
  ['telemetry', []],
  ['protocol', ['errors', 'util']],
  ['operations', ['protocol', 'errors', 'util']],
  ['transport', ['errors', 'util']],
  ['notify', ['operations', 'protocol', 'telemetry', 'errors', 'util']],
  ['stores', ['notify', 'protocol', 'errors', 'util']],
  ['client', ['operations', 'transport', 'notify', 'protocol', 'telemetry', 'errors', 'util']],
  ['testing', ['operations', 'protocol', 'errors', 'util']],
  ['cli', ['testing', 'notify', 'operations', 'protocol', 'errors', 'util']],
  ['public', ['notify', 'protocol']],
];

const folders = LAYERS.map(([name]) => name);

/** @type {import('dependency-cruiser').IConfiguration} */
export default {
  forbidden: [
    { name: 'no-circular', severity: 'error', comment: 'an import circle ties modules that should be apart', from: { path: '^src/' }, to: { circular: true } },
    ...LAYERS.map(([layer, below]) => ({
      name: `${layer}-points-down`,
      severity: 'error',
      comment: `src/${layer}/ imports only itself and ${below.join(', ') || 'nothing else in src/'}`,
      from: { path: `^src/${layer}/` },
      to: { path: `^src/(?!(?:${[layer, ...below].join('|')})/)` },
    })),
    // The mock's own layers (docs/guides/testing.md): its domain under its pages, options and log lines,
    // under its HTTP side, under the gateway class, which only its entry imports.
    ...[
      ['domain', 'domain/'],
      ['pages', 'domain/|pages/'],
      ['options-and-log-lines', 'domain/|log-lines\\.ts', '(?:options|log-lines)\\.ts'],
      ['http', 'domain/|pages/|http/|options\\.ts|log-lines\\.ts'],
    ].map(([part, allowed, files = `${part}/`]) => ({
      name: `mock-${part}-points-down`,
      severity: 'error',
      comment: `src/testing/${files} imports of the mock only ${allowed}`,
      from: { path: `^src/testing/${files}` },
      to: { path: `^src/testing/(?!(?:${allowed}))` },
    })),
    {
      name: 'mock-gateway-only-from-its-entry',
      severity: 'error',
      comment: 'pages and routes reach the gateway through the narrow GatewayControls, never the class',
      from: { path: '^src/testing/(?!index\\.ts$)' },
      to: { path: '^src/testing/mock-gateway\\.ts$' },
    },
    {
      name: 'opentelemetry-only-from-its-entry',
      severity: 'error',
      comment: 'only payment-gateway-sdk/opentelemetry loads @opentelemetry/api: the main entry must never import it',
      from: { path: '^src/(?!opentelemetry\\.ts$|telemetry/opentelemetry\\.ts$)' },
      to: { path: '^src/telemetry/opentelemetry\\.ts$|@opentelemetry/' },
    },
    {
      name: 'notify-reads-operations-types-only',
      severity: 'error',
      comment: "a notification kind's tracking names its settling read by type: the operation table stays out of notify's bundles",
      from: { path: '^src/notify/' },
      to: { path: '^src/operations/', dependencyTypesNot: ['type-only'] },
    },
    {
      name: 'entries-only-at-the-top',
      severity: 'error',
      comment: 'nothing in the layers imports an entry (src/index.ts, src/cli.ts)',
      from: { path: `^src/(?:${folders.join('|')})/` },
      to: { path: '^src/(?:index|cli)\\.ts$' },
    },
  ],
  options: {
    doNotFollow: { path: 'node_modules' },
    tsPreCompilationDeps: true,
    tsConfig: { fileName: 'tsconfig.json' },
    enhancedResolveOptions: { exportsFields: ['exports'], conditionNames: ['import', 'require', 'node', 'default', 'types'] },
  },
};
