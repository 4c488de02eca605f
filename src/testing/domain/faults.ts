/**
 * Faults a test arms for the next matching requests, striking before the gateway acts or after it
 * (docs/guides/testing.md, "Faults").
 *
 * @module
 */
import * as z from 'zod/mini';
import { definitionOf, OPERATION_NAMES, type OperationName } from '../../operations/table.js';
import { safeInteger } from '../../protocol/schemas/fields.js';
import { parseInput } from '../../protocol/schemas/parse.js';

/**
 * What goes wrong with the response (docs/guides/testing.md, "Faults", says each in full):
 * - `wrongSign`: a success envelope signed with another secret (after processing only);
 * - `html502`: HTTP 502 with an HTML page, as from a proxy; `emptyBody`: HTTP 200 with no body;
 * - `truncatedJson`: the JSON answer cut in the middle (after processing only);
 * - `connectionReset`: no answer at all; `fetch` and the msw handlers fail with a network error (`TypeError`);
 * - `stall`: no answer until the client gives up (at most {@link STALL_MAX_MS}), then the connection resets;
 * - `closeRacesPayer` (`close` only): a payer moves the order to 1 (paying) while the close runs, and the close
 *   is answered as done all the same: only a read after the close tells;
 * - `refusedAfterStore` (a create, after only): the record is stored, then an unsigned refusal `{ code, msg }` is
 *   answered (the reference's `系统异常`); the record waits as {@link FaultOptions.leaves} says: only a lookup tells;
 * - `status408`, `status429`: HTTP 408 or 429 without a signed envelope, as a proxy or a rate limiter answers.
 * `before`: the gateway never saw the request; `after` (the default): it acted, and the answer is lost or corrupted.
 *
 * @example
 * ```ts
 * const kind: FaultKind = 'connectionReset';
 * ```
 */
export type FaultKind = 'wrongSign' | 'html502' | 'emptyBody' | 'truncatedJson' | 'connectionReset' | 'stall' | 'closeRacesPayer' | 'refusedAfterStore' | 'status408' | 'status429';

/**
 * A fault to inject with {@link MockGateway.injectFault}.
 *
 * @example
 * ```ts
 * // The order is created, then the connection drops before the answer: the client must not create it twice.
 * gateway.injectFault({ kind: 'connectionReset', operation: 'unifiedOrder', when: 'after' });
 * ```
 */
export interface FaultOptions {
  kind: FaultKind;
  /** Only requests of this operation; by default the next request of any operation. */
  operation?: OperationName | undefined;
  /**
   * `after` (default): the gateway processes the request, then the response is replaced.
   * `before`: the request is not processed at all. `wrongSign` and `truncatedJson` need a response, so
   * they are `after` only.
   */
  when?: 'before' | 'after' | undefined;
  /** How many matching requests get the fault; default 1. */
  times?: number | undefined;
  /** `refusedAfterStore`: the refusal's `msg`; default `系统异常`, the reference's text for any exception once the record is saved. */
  msg?: string | undefined;
  /** `refusedAfterStore`: the refusal's `code`; default 9999, as the reference answers `系统异常` (`ApiRes.customFail`, not code 10). */
  code?: number | undefined;
  /**
   * `refusedAfterStore`: where the stored record is left. `created` (default): state 0, the channel never asked, as
   * after `系统异常` or a channel's system error; `processing`: 1 (paying, refunding), as when the reference moved it to 1
   * and its next update failed (`更新退款单异常!`). Settlements and addresses stay as stored either way.
   */
  leaves?: 'created' | 'processing' | undefined;
}

/**
 * An injected fault: how often it has struck and how often it still will.
 *
 * @example
 * ```ts
 * const fault: InjectedFault = gateway.injectFault({ kind: 'html502', operation: 'query', when: 'before' });
 * await expect(client.query({ mchOrderNo: 'o-1' })).rejects.toBeInstanceOf(GatewayHttpStatusError);
 * expect(fault.hits).toBe(1);
 * ```
 */
export interface InjectedFault {
  readonly kind: FaultKind;
  readonly operation: OperationName | undefined;
  readonly when: 'before' | 'after';
  /** `refusedAfterStore`: the refusal it answers (`code` as given: 9999 when left out) and where it leaves the record. */
  readonly refusal?: { readonly code?: number | undefined; readonly msg: string; readonly leaves: 'created' | 'processing' } | undefined;
  /** Requests it struck so far. */
  readonly hits: number;
  /** Requests it will still strike. */
  readonly remaining: number;
  /** Disarms what remains of it. */
  cancel(): void;
}

const KINDS = ['wrongSign', 'html502', 'emptyBody', 'truncatedJson', 'connectionReset', 'stall', 'closeRacesPayer', 'refusedAfterStore', 'status408', 'status429'] as const satisfies readonly FaultKind[];
const AFTER_ONLY: readonly FaultKind[] = ['wrongSign', 'truncatedJson'];
// Faults that change what the gateway does, not its answer: they strike while processing.
const PROCESSING: readonly FaultKind[] = ['closeRacesPayer', 'refusedAfterStore'];
/** The operations that store a record under the caller's key: the table's `create` rows. */
export const CREATE_OPERATIONS: readonly OperationName[] = OPERATION_NAMES.filter((name) => definitionOf(name).retry === 'create');
/** The reference's answer to any exception once a create's record is saved (`ApiRes.customFail("系统异常")`). */
export const SYSTEM_ERROR_TEXT = '系统异常';
const quoted = (values: readonly string[]) => values.map((v) => `'${v}'`).join(', ');

/** Checks {@link FaultOptions}; the control route `POST /_mock/faults` reads its body with it too. */
export const faultOptionsSchema = z
  .strictObject({
    kind: z.enum(KINDS, { error: `must be one of ${quoted(KINDS)}` }),
    operation: z.optional(z.enum(OPERATION_NAMES, { error: `must be one of ${quoted(OPERATION_NAMES)} (leave it out for any)` })),
    when: z.optional(z.enum(['before', 'after'], { error: "must be 'before' or 'after'" })),
    times: z.optional(safeInteger(1)),
    msg: z.optional(z.string({ error: 'must be a string' }).check(z.minLength(1, { error: 'must not be empty' }), z.maxLength(2000, { error: 'must be at most 2000 characters' }))),
    code: z.optional(safeInteger(1)),
    leaves: z.optional(z.enum(['created', 'processing'], { error: "must be 'created' or 'processing'" })),
  })
  .check(
    z.refine((o) => o.when !== 'before' || !AFTER_ONLY.includes(o.kind), {
      error: (issue) => `${(issue.input as FaultOptions).kind} corrupts a real response, so it can only strike 'after' processing`,
      path: ['when'],
    }),
    z.refine((o) => o.when !== 'before' || !PROCESSING.includes(o.kind), {
      error: (issue) => `${(issue.input as FaultOptions).kind} changes what the gateway does while processing, so it cannot strike 'before'`,
      path: ['when'],
    }),
    z.refine((o) => o.kind !== 'closeRacesPayer' || o.operation === 'close', { error: "closeRacesPayer races a close: give operation: 'close'", path: ['operation'] }),
    z.refine((o) => o.kind !== 'refusedAfterStore' || (o.operation !== undefined && CREATE_OPERATIONS.includes(o.operation)), {
      error: `refusedAfterStore refuses a create whose record is stored: give operation: one of ${quoted(CREATE_OPERATIONS)}`,
      path: ['operation'],
    }),
    z.refine((o) => o.kind === 'refusedAfterStore' || (o.msg === undefined && o.code === undefined && o.leaves === undefined), {
      error: (issue) => `msg, code and leaves are options of refusedAfterStore, not of ${(issue.input as FaultOptions).kind}`,
      path: ['kind'],
    }),
    z.refine((o) => o.code !== 200 && o.code !== 0, { error: 'must not be a success code: the fault answers a refusal', path: ['code'] }),
  );

class ArmedFault implements InjectedFault {
  hits = 0;
  remaining: number;

  constructor(
    readonly kind: FaultKind,
    readonly operation: OperationName | undefined,
    readonly when: 'before' | 'after',
    times: number,
    readonly refusal?: InjectedFault['refusal'],
  ) {
    this.remaining = times;
  }

  cancel(): void {
    this.remaining = 0;
  }
}

/** The armed faults, in the order they were injected. */
export class FaultPlan {
  #armed: ArmedFault[] = [];

  inject(options: FaultOptions): InjectedFault {
    const { kind, operation, when = 'after', times = 1, msg = SYSTEM_ERROR_TEXT, code, leaves = 'created' } = parseInput(faultOptionsSchema, options, 'Invalid injectFault options', 'options');
    const fault = new ArmedFault(kind, operation, when, times, kind === 'refusedAfterStore' ? { code, msg, leaves } : undefined);
    this.#armed.push(fault);
    return fault;
  }

  /** The first armed fault for this operation, counted as struck. */
  take(operation: OperationName): ArmedFault | undefined {
    this.#armed = this.#armed.filter((f) => f.remaining > 0);
    const fault = this.#armed.find((f) => f.operation === undefined || f.operation === operation);
    if (fault) {
      fault.remaining--;
      fault.hits++;
    }
    return fault;
  }

  clear(): void {
    for (const fault of this.#armed) fault.cancel();
    this.#armed = [];
  }
}

/** The page a proxy answers with when the gateway behind it fails. */
export const BAD_GATEWAY_PAGE = '<html>\r\n<head><title>502 Bad Gateway</title></head>\r\n<body>\r\n<center><h1>502 Bad Gateway</h1></center>\r\n<hr><center>nginx</center>\r\n</body>\r\n</html>\r\n';

/** The page a proxy answers with when the request took it too long. */
export const REQUEST_TIMEOUT_PAGE = '<html>\r\n<head><title>408 Request Time-out</title></head>\r\n<body>\r\n<center><h1>408 Request Time-out</h1></center>\r\n<hr><center>nginx</center>\r\n</body>\r\n</html>\r\n';
/** What a rate limiter in front of the gateway answers (Kong's body), and how many seconds it asks to wait. */
export const RATE_LIMITED = { body: '{"message":"API rate limit exceeded"}', retryAfterSeconds: 1 } as const;

/** Half of a JSON text: never valid JSON, as when a connection breaks mid-body. */
export function truncate(json: string): string {
  return json.slice(0, Math.max(1, Math.floor(json.length / 2)));
}

/**
 * The longest a `stall` fault holds a request whose client never gives up: a minute, then the connection resets.
 *
 * @example
 * ```ts
 * gateway.injectFault({ kind: 'stall', operation: 'refundOrder', when: 'after' }); // give the client a timeout below STALL_MAX_MS
 * ```
 */
export const STALL_MAX_MS = 60_000;

/** Resolves when `signal` aborts (the client gave up), or after {@link STALL_MAX_MS}. */
export function stallUntilAborted(signal: AbortSignal): Promise<void> {
  return new Promise((resolve) => {
    const timer = setTimeout(done, STALL_MAX_MS);
    (timer as { unref?: () => void }).unref?.();
    function done(): void {
      clearTimeout(timer);
      signal.removeEventListener('abort', done);
      resolve();
    }
    if (signal.aborted) done();
    else signal.addEventListener('abort', done, { once: true });
  });
}
