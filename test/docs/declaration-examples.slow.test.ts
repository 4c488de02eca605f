// Every @example in the shipped declarations (dist/*.d.ts, what an editor shows on hover) compiles as a merchant
// would write it: importing only the package and its subpath entries, never an internal module ('./x.js'), with
// the identifiers an example leaves free (`client`, `params`, `body`, ...) declared once by PRELUDE.
import { readdirSync, readFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import ts from 'typescript';
import { beforeAll, describe, expect, it } from 'vitest';
import { npm, repoRoot } from '../../scripts/lib/shipped-package.mjs';

interface Example {
  /** The declaration file and the symbol the comment documents, e.g. `index.d.ts GatewayClient`. */
  readonly where: string;
  /** The source file that holds the comment (found by its text), for the allow-list. */
  readonly source: string;
  readonly symbol: string;
  readonly code: string;
}

/**
 * Examples in files another change is rewriting (their TSDoc is fixed there), each by source file and symbol,
 * with what is wrong. Empty it as they are fixed: an entry that compiles fails the test.
 */
const PENDING: Readonly<Record<string, string>> = {
  'src/operations/table.ts operations': "imports '../operations/table.js', an internal module",
  'src/operations/table.ts ParamsOf': "imports './table.js', an internal module",
  'src/operations/table.ts ResultOf': "imports './table.js', an internal module",
  'src/operations/table.ts ConfirmedOf': "imports './table.js', an internal module",
};

// What an example may leave undeclared: a merchant's own values and helpers, as the guides name them. The
// package's own names need no import line in an example: the one an editor would add is added (entryImports).
const PRELUDE = `
type Effect = (...args: unknown[]) => Promise<void>;
declare const client: import('payment-gateway-sdk').GatewayClient;
declare const gateway: import('payment-gateway-sdk/testing').MockGateway;
declare const server: import('payment-gateway-sdk/testing').MockGatewayServer;
declare const merchant: import('payment-gateway-sdk/testing').MockMerchant;
declare const merchants: import('payment-gateway-sdk/testing').MockMerchant[];
declare const declared: Awaited<ReturnType<import('payment-gateway-sdk').GatewayClient['settleAddressApply']>>;
declare const credentials: { baseUrl: string; mchNo: string; appId: string; secret: string };
declare const config: import('payment-gateway-sdk').GatewayClientOptions;
declare const mchNo: string, appId: string, secret: string, mchOrderNo: string, payOrderId: string, receivedSign: string;
declare const params: import('payment-gateway-sdk').UnifiedOrderParams;
declare const order: import('payment-gateway-sdk').UnifiedOrderParams;
declare const payout: import('payment-gateway-sdk').Transfers.CreateParams;
declare const row: { number: string; gatewayId: string; totalMinor: number; currency: string };
declare const orders: { get(mchOrderNo: string): Promise<typeof row | undefined>; find(mchOrderNo: string): Promise<typeof row>; nextNumber(cartId: string): Promise<string>; markPaid: Effect };
declare const cartId: string;
declare const error: unknown;
declare const request: Request;
declare const body: string;
declare const rawBody: Buffer, rawBodyBuffer: Buffer;
declare const req: import('express').Request;
declare const res: import('express').Response;
declare const reply: import('fastify').FastifyReply;
declare const app: import('express').Express;
declare const processor: import('payment-gateway-sdk').PaymentNotificationProcessor;
declare const notification: import('payment-gateway-sdk').PayOrderNotification;
declare const store: import('payment-gateway-sdk').NotificationStore;
declare const report: import('payment-gateway-sdk').SweepReport;
declare const myRunOnce: import('payment-gateway-sdk').NotificationStore['runOnce'];
declare const myTracking: NonNullable<import('payment-gateway-sdk').NotificationStore['tracking']>;
declare const pool: import('pg').Pool;
declare const db: { query(sql: string, values?: unknown[]): Promise<unknown>; settlements: { update: Effect } };
declare const archive: { put: Effect };
declare const log: { debug: Effect; info: Effect; warn: Effect; error: Effect };
declare const appLog: typeof log;
declare const metrics: { timing: Effect; increment: Effect; count: Effect };
declare const paymentsTracerProvider: import('@opentelemetry/api').TracerProvider;
declare const paymentsMeterProvider: import('@opentelemetry/api').MeterProvider;
declare const onPaid: (notification: import('payment-gateway-sdk').PaidOrder) => Promise<void>;
declare const fulfil: Effect, fulfilOnce: Effect, fulfilIfPaid: Effect, effect: Effect, ship: Effect, reserveStock: Effect;
declare const keepForSupport: Effect, alertOnCall: Effect, markPaid: Effect, markRefunded: Effect, markPaidOut: Effect, recordSettlement: Effect, scheduleRetry: Effect, reconcileLater: Effect, alertSecurityTeam: Effect;
declare const showQrImage: Effect, showPending: Effect, showPaid: Effect, showNotPaid: Effect;
declare function alreadyProcessed(idempotencyKey: string): Promise<boolean>;
declare function redirectTo(url: string | undefined): void;
declare function nextOrderNumber(): string;
declare const expect: typeof import('vitest').expect;
declare const afterEach: typeof import('vitest').afterEach;
`;

const DIST = join(repoRoot, 'dist');

function declarationFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) =>
    entry.isDirectory() ? declarationFiles(join(dir, entry.name)) : entry.name.endsWith('.d.ts') ? [join(dir, entry.name)] : [],
  );
}

const SOURCES = (function sourceFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => (entry.isDirectory() ? sourceFiles(join(dir, entry.name)) : entry.name.endsWith('.ts') ? [join(dir, entry.name)] : []));
})(join(repoRoot, 'src')).map((file) => ({ file: relative(repoRoot, file), text: commentText(readFileSync(file, 'utf8')) }));

/** A file's text with the comments' leading ` * ` taken off, as an example's lines read. */
function commentText(text: string): string {
  return text.split('\n').map((line) => line.replace(/^\s*\* ?/, '')).join('\n');
}

/** Each ```ts block under an @example tag of a TSDoc comment, with the declaration the comment documents. */
function examplesOf(file: string): Example[] {
  const text = readFileSync(file, 'utf8');
  const examples: Example[] = [];
  for (const comment of text.matchAll(/\/\*\*([\s\S]*?)\*\/(?=\s*([^\n]*))/g)) {
    const body = commentText(comment[1]!);
    const symbol = /(?:class|interface|type|const|function|let|var|enum|namespace)\s+([\w$]+)|^\s*(?:readonly\s+)?(?:static\s+)?(?:get\s+)?([\w$]+)\??\s*[:(<]/.exec(comment[2]!)?.slice(1).find(Boolean) ?? comment[2]!.trim();
    for (const tag of body.split(/^@example\b/m).slice(1)) {
      const code = /```(?:ts|typescript)\n([\s\S]*?)```/.exec(tag.split(/^@\w+/m)[0]!)?.[1];
      if (code === undefined) continue;
      const needle = code.trim().split('\n').slice(0, 3).join('\n');
      const source = SOURCES.find(({ text: source }) => source.includes(needle))?.file ?? '(not found in src)';
      examples.push({ where: `${relative(DIST, file)} ${symbol}`, source, symbol, code });
    }
  }
  return examples;
}

/** The package's entries and the names each exports, as the shipped declarations give them. */
function entryExports(): Map<string, { entry: string; typeOnly: boolean }> {
  const entries = ['payment-gateway-sdk', 'payment-gateway-sdk/testing', 'payment-gateway-sdk/testing/msw', 'payment-gateway-sdk/stores/postgres', 'payment-gateway-sdk/stores/redis', 'payment-gateway-sdk/stores/sqlite', 'payment-gateway-sdk/opentelemetry'];
  const names = new Map<string, { entry: string; typeOnly: boolean }>();
  for (const entry of entries) {
    const file = join(DIST, `${entry.replace(/^payment-gateway-sdk\/?/, '') || 'index'}.d.ts`);
    const text = readFileSync(file, 'utf8');
    for (const block of text.matchAll(/export\s*(type\s*)?\{([^}]*)\}/g)) {
      for (const item of block[2]!.split(',')) {
        const match = /^\s*(type\s+)?(?:[\w$]+\s+as\s+)?([\w$]+)\s*$/.exec(item);
        if (match && !names.has(match[2]!)) names.set(match[2]!, { entry, typeOnly: Boolean(block[1] ?? match[1]) });
      }
    }
  }
  return names;
}

/**
 * The example as a file: the import lines an editor would add for the package names it uses undeclared, its
 * own imports, and the rest in an async function (a snippet from a handler may `return` or `await`).
 */
function asFile(code: string, exported: ReadonlyMap<string, { entry: string; typeOnly: boolean }>): string {
  const lines = code.split('\n');
  const imports = lines.filter((line) => /^import\b/.test(line));
  const rest = lines.filter((line) => !/^import\b/.test(line));
  const restText = rest.join('\n');
  const imported = new Set(imports.flatMap((line) => [...line.matchAll(/([\w$]+)\s*(?:,|\}|$| from)/g)].map((m) => m[1]!)));
  const added = new Map<string, string[]>();
  for (const [name, { entry, typeOnly }] of exported) {
    if (imported.has(name) || !new RegExp(`(?<![\\w$.])${name.replace('$', '\\$')}(?![\\w$])`).test(restText)) continue;
    added.set(entry, [...(added.get(entry) ?? []), typeOnly ? `type ${name}` : name]);
  }
  const autoImports = [...added].map(([entry, names]) => `import { ${names.join(', ')} } from '${entry}';`);
  // An example that exports (a route module) is a module as it stands.
  if (/^export\b/m.test(restText)) return [...autoImports, ...imports, restText, ''].join('\n');
  return [...autoImports, ...imports, 'export async function example() {', restText, '}', ''].join('\n');
}

/** The compiler's complaints about each example, compiled together against dist as the package's own name. */
function compile(examples: readonly Example[]): string[][] {
  const dir = join(repoRoot, 'test', 'docs', '.examples');
  const files = new Map<string, string>([[join(dir, 'prelude.d.ts'), PRELUDE]]);
  const exported = entryExports();
  const paths = examples.map((example, i) => {
    const path = join(dir, `example-${i}.ts`);
    files.set(path, asFile(example.code, exported));
    return path;
  });
  const options: ts.CompilerOptions = { module: ts.ModuleKind.NodeNext, moduleResolution: ts.ModuleResolutionKind.NodeNext, target: ts.ScriptTarget.ES2023, strict: true, noEmit: true, skipLibCheck: true, types: ['node'] };
  const host = ts.createCompilerHost(options);
  const { getSourceFile, fileExists, readFile } = host;
  host.fileExists = (path) => files.has(path) || fileExists(path);
  host.readFile = (path) => files.get(path) ?? readFile(path);
  host.getSourceFile = (path, language, ...rest) => (files.has(path) ? ts.createSourceFile(path, files.get(path)!, language) : getSourceFile(path, language, ...rest));
  const program = ts.createProgram([...files.keys()], options, host);
  const prelude = [...program.getSyntacticDiagnostics(program.getSourceFile(join(dir, 'prelude.d.ts'))), ...program.getSemanticDiagnostics(program.getSourceFile(join(dir, 'prelude.d.ts')))];
  if (prelude.length > 0) throw new Error(`the prelude does not compile: ${ts.flattenDiagnosticMessageText(prelude[0]!.messageText, ' ')}`);
  return paths.map((path) => {
    const file = program.getSourceFile(path)!;
    return [...program.getSyntacticDiagnostics(file), ...program.getSemanticDiagnostics(file)].map((d) => {
      const line = d.start === undefined ? 0 : file.getLineAndCharacterOfPosition(d.start).line + 1;
      return `line ${line}: ${ts.flattenDiagnosticMessageText(d.messageText, ' ')}`;
    });
  });
}

let examples: Example[];
let problems: string[][];

beforeAll(async () => {
  await npm(['run', 'build'], { timeoutMs: 300_000 });
  examples = declarationFiles(DIST).flatMap(examplesOf);
  problems = compile(examples);
  if (process.env.EXAMPLES_DUMP) (await import('node:fs')).writeFileSync(process.env.EXAMPLES_DUMP, JSON.stringify(examples.map((e, i) => ({ ...e, problems: problems[i]! })).filter((e) => e.problems.length > 0), null, 1));
}, 300_000);

describe('the @example of every shipped declaration', () => {
  it('are found', () => {
    console.log(`${examples.length} examples in ${new Set(examples.map((e) => e.where.split(' ')[0])).size} declaration files`);
    expect(examples.length).toBeGreaterThan(200);
  });

  it('import only the package and its entries, never an internal module', () => {
    const internal = examples.filter((e) => /from\s+'\.{1,2}\//.test(e.code) && !(`${e.source} ${e.symbol}` in PENDING));
    expect(internal.map((e) => `${e.where} (${e.source})`)).toEqual([]);
  });

  it('compile as a merchant writes them', () => {
    const failing = examples.flatMap((example, i) => (problems[i]!.length > 0 && !(`${example.source} ${example.symbol}` in PENDING) ? [`${example.where} (${example.source}):\n  ${problems[i]!.join('\n  ')}`] : []));
    expect(failing).toEqual([]);
  });

  it('the allow-list names only examples that still fail', () => {
    const failingKeys = new Set(examples.flatMap((example, i) => (problems[i]!.length > 0 || /from\s+'\.{1,2}\//.test(example.code) ? [`${example.source} ${example.symbol}`] : [])));
    expect(Object.keys(PENDING).filter((key) => !failingKeys.has(key))).toEqual([]);
  });
});
