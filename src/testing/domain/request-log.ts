/**
 * The requests the mock received, newest last, bounded: what `gateway.requests`, `GET /_mock/state`, the
 * dashboard and the command's log show.
 *
 * @module
 */
import type { GatewayApiErrorReason } from '../../operations/api-error.js';
import type { OperationName } from '../../operations/table.js';
import type { FaultKind } from './faults.js';

/**
 * Why the mock refused a request's signature, for the person debugging the signer: the string the
 * gateway's rule hashes with the secret shown as `***`, the fields it saw, and the most likely mistake.
 * It never holds the secret or the string hashed with it. The gateway's answer stays `验签失败`.
 *
 * @example
 * ```ts
 * const refusal: MockSignatureRefusal | undefined = gateway.requests.at(-1)?.signature;
 * console.log(refusal?.mistake?.summary ?? refusal?.hint); // 'the string starts with "&"'
 * console.log(refusal?.expected);                         // 'amount=1999&appId=app-1&...&key=***'
 * ```
 */
export interface MockSignatureRefusal {
  /** The string the gateway's rule hashes over the fields it kept, the secret shown as `***` (at most 4,000 characters). */
  readonly expected: string;
  /** The `sign` received. */
  readonly received: string;
  /** Each field received (at most 64), and whether the gateway signs it. */
  readonly fields: readonly { readonly name: string; readonly signed: boolean; readonly why?: string | undefined }[];
  /** The signer's most likely mistake, when one reproduces the `sign` received; `signedString` is what the signer hashed, secret as `***`. */
  readonly mistake?: { readonly id: string; readonly summary: string; readonly fix: string; readonly signedString: string } | undefined;
  /** What to do, in one sentence. */
  readonly hint: string;
}

/**
 * One request the mock received, for tests that count attempts or inspect what was sent, and for the log.
 *
 * @example
 * ```ts
 * const creates = gateway.requests.filter((r: MockRequestRecord) => r.operation === 'unifiedOrder');
 * expect(creates).toHaveLength(2);
 * expect(creates[1]).toMatchObject({ keys: { mchOrderNo: 'order-1' }, reason: 'duplicate_order' });
 * ```
 */
export interface MockRequestRecord {
  /** The operation, or `channelUserJump` for a payer's browser at `GET /api/channelUserId/jump`. */
  readonly operation: OperationName | 'channelUserJump';
  /** Simulated-clock time of arrival. */
  readonly at: number;
  /** The keys the request names its record by, as sent: `mchOrderNo`, `payOrderId`, `requestId` (each cut at 64 characters). */
  readonly keys: Readonly<Record<string, string>>;
  /** The body as received (parsed JSON or form), unless a fault struck before it was read. */
  readonly body?: Readonly<Record<string, unknown>> | undefined;
  /** The envelope `code` answered, unless a fault struck before processing. */
  readonly code?: number | undefined;
  /** The envelope `msg` answered: `SUCCESS`, or the refusal's text as sent (cut at 200 characters). */
  readonly msg?: string | undefined;
  /** What a refusal means, as the SDK's `GatewayApiError.reason` reads it. */
  readonly reason?: GatewayApiErrorReason | undefined;
  /** What happened, in one line: `SUCCESS payOrderId=P… orderState=0 (Generated)`, `9999 订单不存在 (order_not_found)`, `connectionReset before processing`. */
  readonly outcome: string;
  /** The fault that struck this request, if any. */
  readonly fault?: FaultKind | undefined;
  /** Real milliseconds the mock took to answer. */
  readonly ms: number;
  /** Why the signature was refused, when it was. */
  readonly signature?: MockSignatureRefusal | undefined;
  /**
   * How the mock's own success answer broke the operation's declared result (the issues, cut at 500 characters):
   * the mock's bug or the declaration's. The answer was sent anyway, signed, so the client raised its contract error.
   */
  readonly contractBreak?: string | undefined;
}

/** The latest `limit` records, oldest first. */
export class RequestLog {
  readonly #records: MockRequestRecord[] = [];

  constructor(readonly limit: number) {}

  add(record: MockRequestRecord): void {
    this.#records.push(record);
    if (this.#records.length > this.limit) this.#records.shift();
  }

  get records(): readonly MockRequestRecord[] {
    return this.#records;
  }

  /** The latest `count`, newest first, without bodies (a state snapshot stays small). */
  recent(count: number): Omit<MockRequestRecord, 'body'>[] {
    return this.#records.slice(-count).reverse().map(({ body: _body, ...rest }) => rest);
  }
}

/** `text` cut at `max` characters, saying how much was left out. */
export function bounded(text: string, max: number): string {
  return text.length <= max ? text : `${text.slice(0, max)}… (${text.length - max} more characters)`;
}
