// The public surface is what src/index.ts exports; everything else may change without notice. These lists
// make growing it a decision: a new export fails here until it is added on purpose (with a CHANGELOG line).
import { join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import ts from 'typescript';
import { describe, expect, it } from 'vitest';
import * as sdk from '../../src/index.js';

const root = fileURLToPath(new URL('../..', import.meta.url));
const entry = join(root, 'src/index.ts');

const RUNTIME_EXPORTS = [
  'Transfers',
  'Divisions',
  'verifyTransferNotification',
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
  'GatewayOrderNotFinalError',
  'GatewayOrderPaidError',
  'GatewayOutcomeUnknownError',
  'GatewayPayloadTooLargeError',
  'GatewayReconciliationMismatchError',
  'GatewayResponseContractError',
  'GatewayResponseError',
  'GatewayResponseMismatchError',
  'GatewayResponseTooLargeError',
  'GatewayResponseValidationError',
  'GatewaySignatureError',
  'GatewayTimeoutError',
  'GatewayTruncatedResponseError',
  'GatewayValidationError',
  'GatewayWaitTimeoutError',
  'NOTIFICATION_ACK',
  'PAY_DATA_TYPES',
  'PayOrderState',
  'RefundOrderState',
  'Refunds',
  'RETRY_DEFAULTS',
  'WAIT_FOR_ORDER_DEFAULTS',
  'createNotificationProcessor',
  'isFinalPayOrderState',
  'isGatewayError',
  'memoryStore',
  'notificationAckResponse',
  'payOrderStateName',
  'sign',
  'verifyNotification',
  'verifyRefundNotification',
  'verifySettlementNotification',
  'verifySign',
];

const TYPE_ONLY_EXPORTS = [
  'ChannelExtra',
  'CloseParams',
  'CreatedOrder',
  'RecoveredOrder',
  'OperationMethods',
  'GatewayApiErrorReason',
  'GatewayClientOptions',
  'GatewayHooks',
  'GatewayLogger',
  'LogLevel',
  'NotificationInput',
  'NotificationOptions',
  'NotificationOutcome',
  'NotificationProcessor',
  'NotificationProcessorOptions',
  'NotificationReply',
  'NotificationStore',
  'OperationName',
  'OrderTransaction',
  'PayDataType',
  'PayOrder',
  'PayOrderExpectation',
  'PayOrderNotification',
  'PaymentExpectation',
  'PaymentProcessorOptions',
  'ProcessingContext',
  'QueryParams',
  'RequestOptions',
  'TransactionStatus',
  'UnifiedOrderParams',
  'UnifiedOrderResult',
  'VerifyNotificationOptions',
  'VerifySignOptions',
  'WayCode',
  'PaidOrder',
  'PaymentNotificationProcessor',
  'Payments',
  'Settlements',
  'SweepOptions',
  'SweepReport',
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

describe('the public surface (src/index.ts)', () => {
  it('is at most 100 names: what a merchant uses, no internal machinery', () => {
    expect(new Set([...RUNTIME_EXPORTS, ...TYPE_ONLY_EXPORTS]).size).toBeLessThanOrEqual(100);
  });

  it('exports exactly these values at run time', () => {
    expect(Object.keys(sdk).sort()).toEqual([...RUNTIME_EXPORTS].sort());
  });

  it('exports exactly these types besides', () => {
    const runtime = new Set(RUNTIME_EXPORTS);
    const types = declaredExports().map(({ name }) => name).filter((name) => !runtime.has(name));
    expect(types.sort()).toEqual([...TYPE_ONLY_EXPORTS].sort());
  }, 30_000); // a whole TypeScript program is built: a few seconds on a busy 2-core machine
});

