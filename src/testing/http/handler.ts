/**
 * The gateway's request handler, shared by `fetch`, the msw handlers and the node server: exactly
 * `{base}{path}` of an operation is answered as the gateway, `/_mock/...`, `/cashier/...` and `/` by the
 * tools, anything else with the web framework's 404.
 *
 * @module
 */
import { apiErrorReason } from '../../errors/index.js';
import type { OperationName } from '../../operations/table.js';
import { PayOrderState, payOrderStateName } from '../../protocol/schemas/enums.js';
import type { SimulatedClock } from '../domain/clock.js';
import type { GatewayControls } from '../domain/controls.js';
import type { FaultPlan } from '../domain/faults.js';
import type { MerchantRegistry } from '../domain/merchants.js';
import { OPERATIONS } from '../domain/operations.js';
import type { OrderBook } from '../domain/orders.js';
import { Refusal } from '../domain/refusals.js';
import { bounded, type MockRequestRecord, type RequestLog } from '../domain/request-log.js';
import { ADDRESS_STATUS_NAMES, SETTLEMENT_STATUS_NAMES, type SettlementDesk } from '../domain/settlements.js';
import { handleCashier } from '../pages/cashier-page.js';
import { handleDashboard } from '../pages/dashboard-page.js';
import { handleControl } from './control-routes.js';
import { OPERATION_ROUTES, type OperationRoute } from './operation-routes.js';
import { BodyTooLarge, tooLargeResponse } from './request-body.js';
import { faultOutcome, frameworkError, render, type Answer, type Outcome } from './respond.js';
import { acceptRequest, readBody } from './wire-request.js';

/** The gateway's parts the handler works with. */
export interface HandlerSetup {
  /** The path of the gateway's base URL, without a trailing slash (`''` for none). */
  readonly basePath: string;
  readonly successCode: number;
  readonly clock: SimulatedClock;
  readonly merchants: MerchantRegistry;
  readonly orders: OrderBook;
  readonly settlements: SettlementDesk;
  readonly faults: FaultPlan;
  readonly requests: RequestLog;
  /** What the pages and the control routes act through. */
  readonly controls: GatewayControls;
  /** Told of every operation request once it is answered. */
  readonly onRequest: (record: MockRequestRecord) => void;
}

type Recording = { -readonly [K in keyof MockRequestRecord]: MockRequestRecord[K] };

/** The fields a request names its record by, shown in the log. */
const KEY_FIELDS = ['mchOrderNo', 'payOrderId', 'requestId'] as const;
/** The fields of an answer's `data` shown in the log. */
const RESULT_FIELDS = ['payOrderId', 'serverRequestId', 'orderState', 'state', 'status'] as const;

export function createRequestHandler(setup: HandlerSetup): (request: Request) => Promise<Outcome> {
  return async (request) => {
    const url = new URL(request.url);
    const path = url.pathname.startsWith(`${setup.basePath}/`) ? url.pathname.slice(setup.basePath.length) : undefined;
    const route = path === undefined ? undefined : OPERATION_ROUTES.get(path);
    const base = url.origin + setup.basePath;
    if (route) return request.method === 'POST' ? handleOperation(setup, route, request, base) : frameworkError(405, url.pathname, setup.clock.now());
    if (path === undefined) return frameworkError(404, url.pathname, setup.clock.now());
    const segments = decodeSegments(path);
    // A malformed %-escape is the client's mistake, answered once here for every page and control route.
    if (segments === undefined) return frameworkError(400, url.pathname, setup.clock.now());
    const tool =
      (await handleControl(setup.controls, request, path, segments)) ?? handleCashier(setup.controls, request, segments, base) ?? handleDashboard(() => setup.controls.state(), request, path, base);
    return tool ? { kind: 'response', response: tool } : frameworkError(404, url.pathname, setup.clock.now());
  };
}

/** The path's segments, each %-decoded once (`''` first, for the leading `/`), or `undefined` when an escape is malformed. */
function decodeSegments(path: string): string[] | undefined {
  try {
    return path.split('/').map(decodeURIComponent);
  } catch {
    return undefined;
  }
}

async function handleOperation(setup: HandlerSetup, route: OperationRoute, request: Request, base: string): Promise<Outcome> {
  const started = performance.now();
  const record: Recording = { operation: route.operation, at: setup.clock.now(), keys: {}, outcome: 'in progress', ms: 0 };
  setup.requests.add(record);
  const outcome = await answer(setup, route, request, base, record);
  record.ms = Math.round(performance.now() - started);
  setup.onRequest(record);
  return outcome;
}

async function answer(setup: HandlerSetup, route: OperationRoute, request: Request, base: string, record: Recording): Promise<Outcome> {
  const fault = setup.faults.take(route.operation);
  if (fault) record.fault = fault.kind;
  if (fault?.when === 'before') {
    record.outcome = `${fault.kind} before processing: the gateway did nothing`;
    return faultOutcome(fault.kind as 'html502' | 'emptyBody' | 'connectionReset');
  }
  let result: Answer;
  try {
    const body = await readBody(request);
    record.body = body;
    record.keys = keysOf(body);
    const accepted = acceptRequest(route, body, setup.merchants);
    setup.orders.expire();
    const payerFirst = fault?.kind === 'closeRacesPayer';
    const data = OPERATIONS[route.operation]({ orders: setup.orders, settlements: setup.settlements, ...accepted, origin: base, payerFirst });
    result = { kind: 'success', data, secret: accepted.app.secret };
  } catch (error) {
    if (error instanceof BodyTooLarge) {
      record.outcome = `HTTP 413: ${error.message}`;
      return { kind: 'response', response: tooLargeResponse(error) };
    }
    if (!(error instanceof Refusal)) throw error;
    result = { kind: 'refusal', code: error.code, msg: error.msg };
    record.signature = error.signature;
  }
  describe(record, result, setup.successCode);
  if (fault) record.outcome += `, then the fault ${fault.kind}`;
  return render(result, setup.successCode, fault?.kind);
}

function describe(record: Recording, result: Answer, successCode: number): void {
  if (result.kind === 'success') {
    record.code = successCode;
    record.msg = 'SUCCESS';
    const shown = RESULT_FIELDS.filter((name) => result.data[name] !== undefined && !(name in record.keys)).map((name) => ` ${name}=${String(result.data[name])}${stateName(record.operation, name, result.data[name])}`);
    record.outcome = `SUCCESS${shown.join('')}`;
    return;
  }
  record.code = result.code;
  record.msg = bounded(result.msg, 200);
  record.reason = apiErrorReason(result.code, result.msg);
  record.outcome = `${result.code} ${record.msg} (${record.reason})`;
}

/** A state's name beside its number in the log (` (Succeeded)`, ` (completed)`): the wire has only numbers. */
function stateName(operation: OperationName, field: string, value: unknown): string {
  if (typeof value !== 'number') return '';
  const names: Readonly<Record<number, string | undefined>> = field !== 'status' ? PAY_ORDER_STATE_NAMES : operation === 'settleAddressApply' ? ADDRESS_STATUS_NAMES : SETTLEMENT_STATUS_NAMES;
  const name = names[value];
  return name === undefined ? '' : ` (${name})`;
}

const PAY_ORDER_STATE_NAMES: Readonly<Record<number, string>> = Object.fromEntries(Object.values(PayOrderState).map((state) => [state, payOrderStateName(state)]));

function keysOf(body: Readonly<Record<string, unknown>>): Record<string, string> {
  const keys: Record<string, string> = {};
  for (const name of KEY_FIELDS) {
    const value = body[name];
    if ((typeof value === 'string' && value !== '') || typeof value === 'number') keys[name] = bounded(String(value), 64);
  }
  return keys;
}
