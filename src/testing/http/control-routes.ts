/**
 * The control API, `{base}/_mock/...`: the gateway's test controls as JSON over HTTP, for test suites in
 * any language and for the dashboard's buttons. Declared once here; the router below, the command's usage
 * and the guide's table (checked by a test) follow this list.
 *
 * @module
 */
import * as z from 'zod/mini';
import { safeInteger } from '../../protocol/schemas/fields.js';
import { parseInput } from '../../protocol/schemas/parse.js';
import type { GatewayControls } from '../domain/controls.js';
import { channelUserModeSchema } from '../domain/channel-users.js';
import { faultOptionsSchema } from '../domain/faults.js';
import { MOCK_KINDS, NOTIFICATION_REFS_TEXT } from '../domain/kinds.js';
import { hasModes, type MockKindView } from '../domain/record-kind.js';
import { runPartControl, segmentOf, type MockPartView } from '../domain/mock-part.js';
import { PART_VIEWS } from '../domain/parts.js';
import { controlName, controlSchemas } from '../domain/record-desk.js';
import { BodyTooLarge, readBodyText } from './request-body.js';

/** One control route. */
export interface ControlRoute {
  readonly method: 'GET' | 'POST' | 'DELETE';
  /** Below the gateway's base; a `{name}` segment is the id of the record it acts on. */
  readonly path: string;
  /** The JSON body it reads, as people write it; none when it reads none. */
  readonly body?: string;
  /** The gateway method it calls, as a JavaScript test would. */
  readonly calls: string;
  /** What it does, in a few words. */
  readonly does: string;
  /** Answers the route: `ref` is the `{name}` segment, `body` what {@link ControlRoute.bodySchema} read. */
  readonly run: (gateway: GatewayControls, ref: string, body: never) => unknown;
  readonly bodySchema?: z.ZodMiniType;
}

function route<Body = undefined>(declared: Omit<ControlRoute, 'run' | 'bodySchema'> & { bodySchema?: z.ZodMiniType<Body>; run: (gateway: GatewayControls, ref: string, body: Body) => unknown }): ControlRoute {
  return declared as ControlRoute;
}

/**
 * A declared kind's routes (`/_mock/{plural}/...`): its mode (if it has modes), its own controls, the decision of one
 * record, its step if it declares `steps`, its decisions' aliases and its controls on one record that declare a route.
 */
export function kindRoutes(kind: MockKindView): ControlRoute[] {
  const schemas = controlSchemas(kind);
  const base = `/_mock/${kind.plural}`;
  const mode = route({
    method: 'POST', path: `${base}/mode`, body: `{ mode, ${kind.key}? }`, calls: `${controlName(kind, 'mode')}(mode, target)`,
    does: `${kind.modeDoes}; with ${kind.key}, that ${kind.name} only (it wins over the mode of all)`,
    bodySchema: z.strictObject({ mode: schemas.mode, [kind.key]: z.optional(schemas.key) }),
    run: (gateway, _ref, body: Readonly<Record<string, string | undefined>>) => {
      const { mode: chosen, [kind.key]: key } = body;
      gateway.setMode(kind.name, String(chosen), key === undefined ? undefined : { [kind.key]: key });
      return key === undefined ? { mode: chosen } : { mode: chosen, [kind.key]: key };
    },
  });
  const own = (kind.controls ?? []).map((control) =>
    route({
      method: control.method, path: `${base}/${control.path}`, body: control.body, calls: `${control.name}(${control.argument})`, does: control.does,
      bodySchema: control.bodySchema,
      run: (gateway, _ref, body: unknown) => gateway.control(kind.name, control.name, body),
    }),
  );
  const settle = route({
    method: 'POST', path: `${base}/{${kind.id}}/settle`, body: '{ to, errCode?, errMsg? }', calls: `${controlName(kind, 'settle')}(ref, decision)`, does: kind.settleDoes,
    bodySchema: schemas.decision,
    run: (gateway, ref, decision) => gateway.settle(kind.name, ref, decision),
  });
  const { steps } = kind;
  const progress = steps && route({
    method: 'POST', path: `${base}/{${kind.key}}/progress`, body: '{ to? }', calls: `${controlName(kind, 'progress')}(ref, to)`, does: steps.does,
    bodySchema: z.strictObject({ to: schemas.step }),
    run: (gateway, ref, { to }: { readonly to?: string | undefined }) => gateway.progress(kind.name, ref, to),
  });
  const aliases = (kind.aliases ?? []).map((alias) =>
    route({
      method: 'POST', path: `${base}/{${kind.id}}/${alias.path}`, ...(alias.body === undefined ? {} : { body: alias.body }),
      calls: `${alias.name}(ref${alias.argument === undefined ? '' : `, ${alias.argument}`})`, does: alias.does,
      ...(alias.bodySchema === undefined ? {} : { bodySchema: alias.bodySchema }),
      run: (gateway, ref, body: unknown) => gateway.alias(kind.name, alias.name, ref, body),
    }),
  );
  const onRecord = (kind.recordControls ?? []).flatMap((control) => {
    const member = control.route?.member;
    if (control.route === undefined) return [];
    return [
      route({
        method: 'POST', path: `${base}/{${kind.id}}/${control.path}`, ...(member === undefined ? {} : { body: `{ ${member} }` }),
        calls: `${control.name}(ref${member === undefined ? '' : `, ${member}`})`, does: control.does,
        ...(member === undefined || control.bodySchema === undefined ? {} : { bodySchema: z.strictObject({ [member]: control.bodySchema }) }),
        run: (gateway, ref, body: Readonly<Record<string, unknown>> | undefined) => gateway.recordControl(kind.name, control.name, ref, member === undefined ? undefined : body?.[member]),
      }),
    ];
  });
  return [...(hasModes(kind) ? [mode] : []), ...own, settle, ...(progress ? [progress] : []), ...aliases, ...onRecord];
}

/**
 * A declared part's routes: one per control, `/_mock/{path}`, answering what its facade method answers with the body,
 * or with the `{name}` segment for a control whose path has one.
 */
export function partRoutes(part: MockPartView): ControlRoute[] {
  return part.controls.map((control) => {
    const segment = segmentOf(control);
    if (segment !== undefined && control.bodySchema !== undefined) throw new Error(`the mock's ${part.name} part: ${control.name} takes its argument from {${segment}}, so it reads no body: drop its bodySchema`);
    return route({
      method: control.method, path: `/_mock/${control.path}`, ...(control.body === undefined ? {} : { body: control.body }), calls: `${control.name}(${control.argument})`, does: control.does,
      ...(control.bodySchema === undefined ? {} : { bodySchema: control.bodySchema }),
      run: (gateway, ref, body: unknown) => runPartControl(gateway, control, segment === undefined ? body : ref),
    });
  });
}

/** Every control route, in the order the usage and the guide list them. */
export const CONTROL_ROUTES: readonly ControlRoute[] = [
  route({
    method: 'GET', path: '/_mock/state', calls: 'state()',
    does: `everything the mock holds: merchants (no secrets), ${MOCK_KINDS.map((kind) => `${kind.plural}, `).join('')}notifications and their attempts, ${PART_VIEWS.map((part) => `${part.holds}, `).join('')}the latest 200 requests`,
    run: (gateway) => gateway.state(),
  }),
  route({ method: 'POST', path: '/_mock/notifications/deliver', calls: 'deliverNotifications()', does: 'attempts every notification due now', run: (gateway) => gateway.deliverNotifications() }),
  route({
    method: 'POST', path: '/_mock/notifications/{id}/resend', calls: 'resendNotification(ref)',
    does: `sends a notification again now, with its original reqTime and sign: by its id (N1, N2...), or the ${NOTIFICATION_REFS_TEXT} it notifies`,
    run: (gateway, id) => gateway.resendNotification(id),
  }),
  route({
    method: 'POST', path: '/_mock/clock/advance', body: '{ "ms": N }', calls: 'advanceTime(ms)',
    does: 'moves the clock on: unpaid orders expire, retries fall due (on the real clock, an offset)',
    bodySchema: z.strictObject({ ms: safeInteger(0) }),
    run: (gateway, _ref, { ms }) => {
      gateway.advanceTime(ms);
      return { now: gateway.now() };
    },
  }),
  ...MOCK_KINDS.flatMap(kindRoutes),
  ...PART_VIEWS.flatMap(partRoutes),
  route({
    method: 'POST', path: '/_mock/channel-users/mode', body: '{ mode }', calls: 'setChannelUserMode(mode)',
    does: "what the stand-in channel login does with the coming channel user jumps: 'succeed' (the payer's fake id comes back, the default) or 'fail' (back to redirectUrl without channelUserId)",
    bodySchema: z.strictObject({ mode: channelUserModeSchema }),
    run: (gateway, _ref, { mode }) => {
      gateway.setChannelUserMode(mode);
      return { mode };
    },
  }),
  route({
    method: 'POST', path: '/_mock/faults', body: '{ kind, operation?, when?, times?, msg?, code?, leaves? }', calls: 'injectFault(options)',
    does: 'arms a fault for the next matching requests (msg, code and leaves: of refusedAfterStore)',
    bodySchema: faultOptionsSchema,
    run: (gateway, _ref, options) => {
      const { kind, operation, when, hits, remaining, refusal } = gateway.injectFault(options);
      return { kind, operation, when, hits, remaining, ...refusal };
    },
  }),
  route({
    method: 'DELETE', path: '/_mock/faults', calls: 'clearFaults()', does: 'disarms every fault',
    run: (gateway) => {
      gateway.clearFaults();
      return { cleared: true };
    },
  }),
];

/** Control bodies are a few small fields; anything bigger is refused unread. */
const MAX_BODY_BYTES = 16 * 1024;

/** Answers a control request, or `undefined` when `path` is not under `/_mock/`; `segments` are the path's, decoded. */
export async function handleControl(gateway: GatewayControls, request: Request, path: string, segments: readonly string[]): Promise<Response | undefined> {
  if (!path.startsWith('/_mock/')) return undefined;
  const found = match(request.method, segments);
  if (!found) {
    return json({ error: `no control ${request.method} ${path}; the control API has: ${CONTROL_ROUTES.map((r) => `${r.method} ${r.path}`).join(', ')}` }, 404);
  }
  const [control, ref] = found;
  try {
    const body = control.bodySchema ? parseInput(control.bodySchema, await readObject(request), `Invalid body of ${control.method} ${control.path}`, 'options') : undefined;
    return json((await control.run(gateway, ref, body as never)) ?? null);
  } catch (error) {
    return json({ error: error instanceof Error ? error.message : String(error) }, error instanceof BodyTooLarge ? 413 : 400);
  }
}

/** The route and its `{name}` segment, if any route has this method and shape. */
function match(method: string, segments: readonly string[]): [ControlRoute, string] | undefined {
  for (const control of CONTROL_ROUTES) {
    const pattern = control.path.split('/');
    if (control.method !== method || pattern.length !== segments.length) continue;
    let ref = '';
    const fits = pattern.every((part, i) => {
      const segment = segments[i] ?? '';
      if (!part.startsWith('{')) return part === segment;
      ref = segment;
      return segment !== '';
    });
    if (fits) return [control, ref];
  }
  return undefined;
}

/** The JSON object body, or `{}` when empty; bounded to {@link MAX_BODY_BYTES}. */
async function readObject(request: Request): Promise<unknown> {
  const text = (await readBodyText(request, MAX_BODY_BYTES)).trim();
  if (text === '') return {};
  try {
    return JSON.parse(text);
  } catch {
    throw new TypeError('the body is not JSON: send a JSON object, e.g. {"ms":60000}');
  }
}

function json(value: unknown, status = 200): Response {
  return new Response(JSON.stringify(value), { status, headers: { 'content-type': 'application/json', 'cache-control': 'no-store' } });
}
