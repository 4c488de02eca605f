/**
 * Faults a test arms for the next matching requests, striking before the gateway acts or after it
 * (docs/guides/testing.md, "Faults").
 *
 * @module
 */
import * as z from 'zod/mini';
import { OPERATION_NAMES, type OperationName } from '../../operations/table.js';
import { safeInteger } from '../../protocol/schemas/fields.js';
import { parseInput } from '../../protocol/schemas/parse.js';

/**
 * What goes wrong with the response:
 * - `wrongSign`: a success envelope signed with another secret (after processing only);
 * - `html502`: HTTP 502 with an HTML page, as from a proxy;
 * - `emptyBody`: HTTP 200 with no body (what `close` answers when the channel refuses);
 * - `truncatedJson`: the JSON answer cut in the middle (after processing only);
 * - `connectionReset`: no answer at all: the real server destroys the socket; `fetch` and the msw
 *   handlers fail with a network error (`TypeError`);
 * - `stall`: no answer until the client gives up (its request is aborted: the client's `timeout`, or the
 *   connection closed), then the connection resets; at most {@link STALL_MAX_MS}. `before`: the gateway never
 *   saw the request; `after`: it acted, and the answer never came;
 * - `closeRacesPayer` (`close` only): a payer reaches the channel while the close runs, as the reference
 *   gateway allows: the order moves to 1 (paying) and stays open, and the close is answered as done
 *   (`data: {}`) all the same. Only a read after the close tells.
 *
 * @example
 * ```ts
 * const kind: FaultKind = 'connectionReset';
 * ```
 */
export type FaultKind = 'wrongSign' | 'html502' | 'emptyBody' | 'truncatedJson' | 'connectionReset' | 'stall' | 'closeRacesPayer';

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
  /** Requests it struck so far. */
  readonly hits: number;
  /** Requests it will still strike. */
  readonly remaining: number;
  /** Disarms what remains of it. */
  cancel(): void;
}

const KINDS = ['wrongSign', 'html502', 'emptyBody', 'truncatedJson', 'connectionReset', 'stall', 'closeRacesPayer'] as const satisfies readonly FaultKind[];
const AFTER_ONLY: readonly FaultKind[] = ['wrongSign', 'truncatedJson'];
// Faults that change what the gateway does, not its answer: they strike while processing.
const PROCESSING: readonly FaultKind[] = ['closeRacesPayer'];
const quoted = (values: readonly string[]) => values.map((v) => `'${v}'`).join(', ');

/** Checks {@link FaultOptions}; the control route `POST /_mock/faults` reads its body with it too. */
export const faultOptionsSchema = z
  .strictObject({
    kind: z.enum(KINDS, { error: `must be one of ${quoted(KINDS)}` }),
    operation: z.optional(z.enum(OPERATION_NAMES, { error: `must be one of ${quoted(OPERATION_NAMES)} (leave it out for any)` })),
    when: z.optional(z.enum(['before', 'after'], { error: "must be 'before' or 'after'" })),
    times: z.optional(safeInteger(1)),
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
  );

class ArmedFault implements InjectedFault {
  hits = 0;
  remaining: number;

  constructor(
    readonly kind: FaultKind,
    readonly operation: OperationName | undefined,
    readonly when: 'before' | 'after',
    times: number,
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
    const { kind, operation, when = 'after', times = 1 } = parseInput(faultOptionsSchema, options, 'Invalid injectFault options', 'options');
    const fault = new ArmedFault(kind, operation, when, times);
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
