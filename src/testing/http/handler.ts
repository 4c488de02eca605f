/**
 * The gateway's request handler, shared by `fetch`, the msw handlers and the node server: exactly
 * `{base}{path}` of an operation is answered as the gateway, so is the payer's browser at the channel user jump
 * (and the stand-in channel login), `/_mock/...`, `/cashier/...` and `/` by the tools, anything else with the web
 * framework's 404.
 *
 * @module
 */
import { apiErrorReason } from '../../operations/api-error.js';
import { recordFields } from '../../kinds/define-operation.js';
import { definitionOf, type OperationName } from '../../operations/table.js';
import { maskPersonalFields } from '../../protocol/schemas/free-text.js';
import { enumName, objectFields } from '../../protocol/schemas/introspect.js';
import { formatIssues } from '../../errors/index.js';
import { toValidationIssues } from '../../protocol/schemas/issues.js';
import type { ChannelUserDesk } from '../domain/channel-users.js';
import type { SimulatedClock } from '../domain/clock.js';
import type { GatewayControls } from '../domain/controls.js';
import { stallUntilAborted, type FaultPlan } from '../domain/faults.js';
import type { MockDesks } from '../domain/kinds.js';
import { LOGGED_NAMES } from '../domain/logged-names.js';
import type { MerchantRegistry } from '../domain/merchants.js';
import { runDue, type MockPartWorlds } from '../domain/mock-part.js';
import { PART_VIEWS } from '../domain/parts.js';
import { OPERATIONS } from '../domain/operations.js';
import { BUSINESS_ERROR, Refusal } from '../domain/refusals.js';
import { bounded, type MockRequestRecord, type RequestLog } from '../domain/request-log.js';
import { DecimalLiteral } from '../domain/json-text.js';
import { handleCashier } from '../pages/cashier-page.js';
import { handleDashboard } from '../pages/dashboard-page.js';
import { handleChannelUser } from './channel-user-routes.js';
import { handleControl } from './control-routes.js';
import { OPERATION_ROUTES, type OperationRoute } from './operation-routes.js';
import { BodyTooLarge, tooLargeResponse } from './request-body.js';
import { faultOutcome, frameworkError, render, type Answer, type BodilessFault, type Outcome } from './respond.js';
import { acceptRequest, readBody } from './wire-request.js';

/** The gateway's parts the handler works with. */
export interface HandlerSetup {
  /** The path of the gateway's base URL, without a trailing slash (`''` for none). */
  readonly basePath: string;
  readonly successCode: number;
  readonly clock: SimulatedClock;
  readonly merchants: MerchantRegistry;
  /** The desk of each declared record kind. */
  readonly desks: MockDesks;
  readonly channelUsers: ChannelUserDesk;
  /** The world of each declared part. */
  readonly parts: MockPartWorlds;
  readonly faults: FaultPlan;
  readonly requests: RequestLog;
  /** What the pages and the control routes act through. */
  readonly controls: GatewayControls;
  /** Told of every operation request once it is answered. */
  readonly onRequest: (record: MockRequestRecord) => void;
}

type Recording = { -readonly [K in keyof MockRequestRecord]: MockRequestRecord[K] } & { operation: OperationName };

export function createRequestHandler(setup: HandlerSetup): (request: Request) => Promise<Outcome> {
  return async (request) => {
    const url = new URL(request.url);
    const path = url.pathname.startsWith(`${setup.basePath}/`) ? url.pathname.slice(setup.basePath.length) : undefined;
    const route = path === undefined ? undefined : OPERATION_ROUTES.get(path);
    const base = url.origin + setup.basePath;
    if (route) return request.method === 'POST' ? handleOperation(setup, route, request, base) : frameworkError(405, url.pathname, setup.clock.now());
    if (path === undefined) return frameworkError(404, url.pathname, setup.clock.now());
    const channelUser = handleChannelUser(setup, request, path, url, base);
    if (channelUser) return channelUser;
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
    if (fault.kind === 'stall') return stalled(request);
    return faultOutcome(fault.kind as BodilessFault);
  }
  let result: Answer;
  let stored: string | undefined;
  try {
    const body = await readBody(request);
    // Kept for a test's assertions and never shown by the state or the log line; a payee's account masked all the same.
    record.body = maskPersonalFields(body, objectFields(definitionOf(route.operation).params).personal);
    record.keys = keysOf(route.operation, body);
    const accepted = acceptRequest(route, body, setup.merchants);
    for (const desk of Object.values<{ expire(): void }>(setup.desks)) desk.expire();
    runDue(PART_VIEWS, setup.parts);
    const payerFirst = fault?.kind === 'closeRacesPayer';
    const interrupted = fault?.refusal?.leaves;
    const { desks, parts } = setup;
    const data = OPERATIONS[route.operation]({ desks, parts, ...accepted, origin: base, payerFirst, interrupted });
    record.contractBreak = contractBreak(route.operation, data);
    result = { kind: 'success', data, secret: accepted.app.secret };
    // The record is stored; the answer is the refusal the reference gives when something fails after its save.
    if (fault?.refusal) {
      describe(record, result, setup.successCode);
      stored = record.outcome;
      result = { kind: 'refusal', code: fault.refusal.code ?? BUSINESS_ERROR, msg: fault.refusal.msg };
    }
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
  if (stored !== undefined) record.outcome = `stored (${stored}), then answered ${record.outcome} by the fault ${fault?.kind}`;
  else if (fault) record.outcome += `, then the fault ${fault.kind}`;
  if (fault?.kind === 'stall') return stalled(request);
  return render(result, setup.successCode, fault?.kind);
}

/** No answer until the client gives up, then a reset (the `stall` fault). */
async function stalled(request: Request): Promise<Outcome> {
  await stallUntilAborted(request.signal);
  return { kind: 'reset' };
}

/**
 * How the mock's answer breaks the operation's declared result, if it does: the mock's bug or the declaration's.
 * It is sent anyway, signed, as a gateway would send it, so the client raises the contract error it exists for.
 */
function contractBreak(operation: OperationName, data: Readonly<Record<string, unknown>>): string | undefined {
  const checked = definitionOf(operation).result.safeParse(asReceived(data));
  return checked.success ? undefined : bounded(formatIssues(toValidationIssues(checked.error.issues)), 500);
}

/** The answer as a client reads it: a decimal literal is the number text it is written as. */
function asReceived(value: unknown, depth = 0): unknown {
  if (value instanceof DecimalLiteral) return value.text;
  if (typeof value !== 'object' || value === null || depth > 4) return value;
  if (Array.isArray(value)) return value.map((item) => asReceived(item, depth + 1));
  return Object.fromEntries(Object.entries(value).map(([key, member]) => [key, asReceived(member, depth + 1)]));
}

function describe(record: Recording, result: Answer, successCode: number): void {
  if (result.kind === 'success') {
    record.code = successCode;
    record.msg = 'SUCCESS';
    const { logged = [], result: schema } = definitionOf(record.operation);
    const shape = schema.def.shape as Readonly<Record<string, Parameters<typeof enumName>[0]>>;
    const shown = logged
      .filter((name) => result.data[name] !== undefined && !(name in record.keys))
      .map((name) => {
        const value = result.data[name];
        const stateName = enumName(shape[name], value) ?? (typeof value === 'number' ? LOGGED_NAMES[record.operation]?.[name]?.[value] : undefined);
        return ` ${name}=${String(value)}${stateName === undefined ? '' : ` (${stateName})`}`;
      });
    record.outcome = `SUCCESS${shown.join('')}`;
    if (record.contractBreak !== undefined) record.outcome += `, an answer that breaks the declared result (${record.contractBreak})`;
    return;
  }
  record.code = result.code;
  record.msg = bounded(result.msg, 200);
  record.reason = apiErrorReason(result.code, result.msg, record.operation);
  record.outcome = `${result.code} ${record.msg} (${record.reason})`;
}

/** The fields that name the request's record (the row's key, bindings and lookup ids), shown in the log. */
function keysOf(operation: OperationName, body: Readonly<Record<string, unknown>>): Record<string, string> {
  const keys: Record<string, string> = {};
  for (const name of recordFields(definitionOf(operation))) {
    const value = body[name];
    if ((typeof value === 'string' && value !== '') || typeof value === 'number') keys[name] = bounded(String(value), 64);
  }
  return keys;
}
