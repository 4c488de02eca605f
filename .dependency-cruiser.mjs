// The import graph of src/: no circle, and no import that points up a layer (docs/architecture.md). Run by
// test/architecture.test.ts (so by `npm test` and CI), or by hand: npx depcruise src --config .dependency-cruiser.mjs
// Layers, lowest first: each may import its own files and the layers listed under it. A layer is a folder, but for a
// kind's folder (src/kinds/<kind>/), whose files sit in three: its declaration in kinds, its group of public names
// (public.ts) in public, its mock desk (mock.ts, and its parts, mock-<part>.ts) in testing (docs/architecture.md).
const KIND_PUBLIC = 'kinds/[^/]+/public\\.ts$';
// (`(?:|-part)`, not `(?:-part)?`: dependency-cruiser refuses a repeat inside a repeat as unsafe.)
const KIND_MOCK = 'kinds/[^/]+/mock(?:|-[a-z-]+)\\.ts$';
const LAYERS = [
  ['util', []],
  ['errors', []],
  ['telemetry', []],
  ['protocol', ['errors', 'util']],
  ['kinds', ['protocol', 'errors', 'util'], `kinds/(?![^/]+/(?:public|mock(?:|-[a-z-]+))\\.ts$)`],
  ['operations', ['kinds', 'protocol', 'errors', 'util']],
  ['transport', ['errors', 'util']],
  ['notify', ['kinds', 'operations', 'protocol', 'telemetry', 'errors', 'util']],
  ['stores', ['notify', 'protocol', 'errors', 'util']],
  ['client', ['kinds', 'operations', 'transport', 'notify', 'protocol', 'telemetry', 'errors', 'util']],
  ['testing', ['kinds', 'operations', 'protocol', 'errors', 'util'], `(?:testing/|${KIND_MOCK})`],
  ['cli', ['testing', 'kinds', 'notify', 'operations', 'protocol', 'errors', 'util']],
  ['public', ['kinds', 'notify', 'protocol'], KIND_PUBLIC],
];
/** A layer's files, as a pattern after `^src/`. */
const pathOf = Object.fromEntries(LAYERS.map(([name, , path]) => [name, path ?? `${name}/`]));

const folders = LAYERS.map(([name]) => name);

/** @type {import('dependency-cruiser').IConfiguration} */
export default {
  forbidden: [
    { name: 'no-circular', severity: 'error', comment: 'an import circle ties modules that should be apart', from: { path: '^src/' }, to: { circular: true } },
    ...LAYERS.map(([layer, below]) => ({
      name: `${layer}-points-down`,
      severity: 'error',
      comment: `the ${layer} layer imports only itself and ${below.join(', ') || 'nothing else in src/'}`,
      from: { path: `^src/${pathOf[layer]}` },
      to: { path: `^src/(?!${[layer, ...below].map((name) => pathOf[name]).join('|')})` },
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
      name: 'mock-kind-desk-in-the-domain',
      severity: 'error',
      comment: "a kind's mock desk (src/kinds/<kind>/mock.ts, mock-<part>.ts) is of the mock's domain: it imports of the mock only domain/",
      from: { path: `^src/${KIND_MOCK}` },
      to: { path: '^src/testing/(?!domain/)' },
    },
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
