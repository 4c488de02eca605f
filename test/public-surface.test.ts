// The public surface is what src/index.ts exports; everything else may change without notice. These lists
// make growing it a decision: a new export fails here until it is added on purpose (with a CHANGELOG line).
import { readdirSync, readFileSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import ts from 'typescript';
import { describe, expect, it } from 'vitest';
import * as sdk from '../src/index.js';

const root = fileURLToPath(new URL('..', import.meta.url));
const entry = join(root, 'src/index.ts');

const RUNTIME_EXPORTS = [
  'CLIENT_DEFAULTS',
  'DivisionMode',
  'GatewayAbortError',
  'GatewayApiError',
  'GatewayClient',
  'GatewayConnectionError',
  'GatewayEmptyResponseError',
  'GatewayError',
  'GatewayHttpStatusError',
  'GatewayNonJsonResponseError',
  'GatewayOutcomeUnknownError',
  'GatewayPayloadTooLargeError',
  'GatewayReconciliationMismatchError',
  'GatewayResponseError',
  'GatewayResponseMismatchError',
  'GatewayResponseTooLargeError',
  'GatewayResponseValidationError',
  'GatewaySignatureError',
  'GatewayTimeoutError',
  'GatewayTruncatedResponseError',
  'GatewayValidationError',
  'GatewayWaitTimeoutError',
  'KNOWN_WAY_CODES',
  'NOTIFICATION_ACK',
  'PAY_DATA_TYPES',
  'PayOrderState',
  'RETRY_DEFAULTS',
  'TRANSACTION_STATUSES',
  'WAIT_FOR_ORDER_DEFAULTS',
  'endpoints',
  'isBarcodeWayCode',
  'isFinalPayOrderState',
  'isFinalTransactionStatus',
  'isGatewayError',
  'notificationAckResponse',
  'payOrderStateName',
  'sign',
  'verifyNotification',
  'verifySettlementNotification',
  'verifySign',
];

const TYPE_ONLY_EXPORTS = [
  'AtLeastOne',
  'ChannelExtra',
  'ClientNotificationOptions',
  'CloseParams',
  'ConfirmOptions',
  'EndpointDefinition',
  'ExactlyOne',
  'FetchLike',
  'GatewayApiErrorReason',
  'GatewayClientOptions',
  'GatewayErrorOptions',
  'GatewayHooks',
  'GatewayLogger',
  'GatewayResponse',
  'HttpExchange',
  'IdempotentNotification',
  'LogLevel',
  'NotificationInput',
  'NotificationOptions',
  'Operation',
  'OperationName',
  'OperationTypes',
  'OrderIds',
  'OrderTransaction',
  'PayDataType',
  'PayOrder',
  'PayOrderExpectation',
  'PayOrderNotification',
  'QueryParams',
  'ReconcileDefinition',
  'ReconcileEvent',
  'ReconcileKey',
  'ReconciliationDifference',
  'RequestEvent',
  'RequestOptions',
  'ResponseEnvelope',
  'ResponseErrorDetails',
  'ResponseEvent',
  'RetryClass',
  'RetryEvent',
  'RetryOptions',
  'RetryPolicy',
  'SettleAddressApplyParams',
  'SettleRequestFields',
  'SettleRequestGetParams',
  'SettleRequestParams',
  'SettlementExpectation',
  'SettlementNotification',
  'SettlementRecord',
  'SettlementResult',
  'SignableParams',
  'SignableValue',
  'TransactionStatus',
  'UnifiedOrderParams',
  'UnifiedOrderResult',
  'ValidationIssue',
  'VerifyNotificationOptions',
  'VerifySettlementNotificationOptions',
  'WaitForOrderOptions',
  'WayCode',
];

/** Every export of the entry (types included) with the file its declaration is in, relative to the repository. */
function declaredExports(): { name: string; file: string }[] {
  const program = ts.createProgram([entry], { module: ts.ModuleKind.NodeNext, moduleResolution: ts.ModuleResolutionKind.NodeNext, target: ts.ScriptTarget.ES2023, strict: true, skipLibCheck: true });
  const checker = program.getTypeChecker();
  const module = checker.getSymbolAtLocation(program.getSourceFile(entry)!)!;
  return checker.getExportsOfModule(module).map((exported) => {
    const symbol = exported.flags & ts.SymbolFlags.Alias ? checker.getAliasedSymbol(exported) : exported;
    return { name: exported.name, file: relative(root, symbol.declarations?.[0]?.getSourceFile().fileName ?? '').replaceAll('\\', '/') };
  });
}

function sourceFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true, recursive: true })
    .filter((e) => e.isFile() && e.name.endsWith('.ts'))
    .map((e) => join(e.parentPath, e.name));
}

/** The repository-relative source files a file imports or re-exports by a relative specifier. */
function relativeImports(file: string): string[] {
  return [...readFileSync(file, 'utf8').matchAll(/(?:from|import)\s*\(?\s*'(\.[^']+)'/g)].map(([, specifier]) =>
    relative(root, resolve(dirname(file), specifier ?? '')).replaceAll('\\', '/').replace(/\.js$/, '.ts'),
  );
}

describe('the public surface (src/index.ts)', () => {
  it('exports exactly these values at run time', () => {
    expect(Object.keys(sdk).sort()).toEqual([...RUNTIME_EXPORTS].sort());
  });

  it('exports exactly these types besides', () => {
    const runtime = new Set(RUNTIME_EXPORTS);
    const types = declaredExports().map(({ name }) => name).filter((name) => !runtime.has(name));
    expect(types.sort()).toEqual([...TYPE_ONLY_EXPORTS].sort());
  }, 30_000); // a whole TypeScript program is built: a few seconds on a busy 2-core machine

  it('re-exports nothing from src/internal/, by path or by a declaration that lives there', () => {
    expect(relativeImports(entry).filter((file) => file.startsWith('src/internal/'))).toEqual([]);
    expect(declaredExports().filter(({ file }) => file.startsWith('src/internal/'))).toEqual([]);
  }, 30_000);
});

describe('layering', () => {
  // src/internal/ sits under the public modules that use it: it may use the errors, the schemas and other
  // internals, never the client, notification verification, transport, the operation table or an entry.
  it('nothing under src/internal/ imports a higher layer', () => {
    const higher = /^src\/(?:client|notify|transport|testing|cli)\/|^src\/(?:endpoints|index|cli)\.ts$/;
    const offending = sourceFiles(join(root, 'src/internal')).flatMap((file) =>
      relativeImports(file).filter((target) => higher.test(target)).map((target) => `${relative(root, file)} -> ${target}`),
    );
    expect(offending).toEqual([]);
  });

  it('the schemas never import the transport, the client or notification verification', () => {
    const offending = sourceFiles(join(root, 'src/schemas')).flatMap((file) =>
      relativeImports(file).filter((target) => /^src\/(?:client|notify|transport)\//.test(target)).map((target) => `${relative(root, file)} -> ${target}`),
    );
    expect(offending).toEqual([]);
  });
});
