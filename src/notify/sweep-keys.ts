/**
 * Records tracked by their key alone: an order whose `unifiedOrder`, or a refund whose `refundOrder`, ended in
 * `GatewayOutcomeUnknownError` (it may or may not exist). Each is tracked under a key of its own, `order-key:<mchOrderNo>`
 * or `refund-key:<mchRefundNo>` (no id tracked before can take either form: `track` refuses it), with what was sent
 * written where a tracked record's number goes, so that every store keeps it without a new column and refuses a
 * conflicting track as it refuses any (the record kept has another number).
 *
 * @module
 */
import * as z from 'zod/mini';
import { currencyCode, minorUnits, requiredText } from '../protocol/schemas/fields.js';
import { lazySchema } from '../protocol/schemas/lazy.js';
import { sameFieldValue } from '../protocol/schemas/field-equality.js';
import type { TrackedOrder } from './tracking.js';

/**
 * An order `processor.track` takes when `unifiedOrder` rejected with `GatewayOutcomeUnknownError`: known by your
 * `mchOrderNo` and what you sent. A sweep looks it up by `mchOrderNo`; a record found must have the amount and
 * currency sent (else it is `mismatched` and `onPaid` never runs), and is then tracked and settled as any order.
 * One the gateway proves absent is reported `neverMade` and no longer tracked. A `UnifiedOrderParams` is one.
 *
 * @example
 * ```ts
 * try {
 *   await processor.track(await client.unifiedOrder(params));
 * } catch (error) {
 *   if (!(error instanceof GatewayOutcomeUnknownError)) throw error;
 *   await processor.track({ mchOrderNo: params.mchOrderNo, amount: params.amount, currency: params.currency });
 * }
 * ```
 */
export interface UnconfirmedOrder {
  /** Your order number, as sent to `unifiedOrder`: the key the order is looked up by. */
  readonly mchOrderNo: string;
  /** The amount sent, in minor units: the record found must have it. */
  readonly amount: number;
  /** The currency sent: the record found must have it (in any case). */
  readonly currency: string;
  /** Never given: an order with its `payOrderId` is tracked by its ids. */
  readonly payOrderId?: undefined;
  /** Never given: a record with a `mchRefundNo` is a refund. */
  readonly mchRefundNo?: undefined;
}

/**
 * A refund `processor.track` takes when `refundOrder` rejected with `GatewayOutcomeUnknownError`: known by your
 * `mchRefundNo`, the amount and currency sent, and exactly one id of the order refunded, as sent. A sweep looks it
 * up by `mchRefundNo`; a record found must be of that amount, currency and order (one refunded by `mchOrderNo` is
 * compared with the `payOrderId` a signed query of the order gives), else it is `mismatched` and no handler runs.
 * Found, it is tracked and settled as any refund; proved absent, it is reported `neverMade` and no longer tracked.
 *
 * @example
 * ```ts
 * await processor.track({ mchRefundNo: 'refund-1001', refundAmount: 400, currency: 'USD', mchOrderNo: 'order-1001' });
 * ```
 */
export type UnconfirmedRefund = {
  /** Your refund number, as sent to `refundOrder`: the key the refund is looked up by. */
  readonly mchRefundNo: string;
  /** The amount sent, in minor units: the record found must have it. */
  readonly refundAmount: number;
  /** The currency sent: the record found must have it (in any case). */
  readonly currency: string;
  /** Never given: a refund with its `refundOrderId` is tracked by its ids. */
  readonly refundOrderId?: undefined;
} &
  ({ readonly payOrderId: string; readonly mchOrderNo?: undefined } | { readonly mchOrderNo: string; readonly payOrderId?: undefined });

const ORDER_KEY = 'order-key:';
const REFUND_KEY = 'refund-key:';

/** Whether an id given to track begins as a key-tracked record's key does: no record may be tracked under one. */
export const isKeyTrackedId = (id: string): boolean => id.startsWith(ORDER_KEY) || id.startsWith(REFUND_KEY);

/** What was sent of an order tracked by its key. @internal */
export interface SentOrder {
  readonly kind: 'order';
  readonly mchOrderNo: string;
  readonly amount: number;
  readonly currency: string;
}

/** What was sent of a refund tracked by its key, with the one order id it named. @internal */
export interface SentRefund {
  readonly kind: 'refund';
  readonly mchRefundNo: string;
  readonly refundAmount: number;
  readonly currency: string;
  readonly orderBy: 'payOrderId' | 'mchOrderNo';
  readonly orderId: string;
}

// Built on first use (protocol/schemas/lazy.ts). Loose: the parameters sent (with a subject, a reason) may be given as they are.
export const unconfirmedOrderSchema = lazySchema(() => z.object({ mchOrderNo: requiredText(), amount: minorUnits(), currency: currencyCode() }));
export const unconfirmedRefundSchema = lazySchema(() =>
  z
    .object({ mchRefundNo: requiredText(), refundAmount: minorUnits(), currency: requiredText(), payOrderId: z.optional(requiredText()), mchOrderNo: z.optional(requiredText()) })
    .check(z.refine((refund) => (refund.payOrderId === undefined) !== (refund.mchOrderNo === undefined), { error: 'give exactly one of payOrderId and mchOrderNo: the order id the refund was sent with', path: ['payOrderId'] })),
);

/** The tracked record of an order known by its key: what was sent goes where a number goes, exactly as written. @internal */
export function trackedOrderKey(order: z.output<ReturnType<typeof unconfirmedOrderSchema>>, trackedAt: number, expiresAt: number | undefined): TrackedOrder {
  // A fixed shape (and the currency in one case), so that the same order tracked twice is written the same.
  return { payOrderId: `${ORDER_KEY}${order.mchOrderNo}`, mchOrderNo: JSON.stringify([order.mchOrderNo, order.amount, order.currency.toUpperCase()]), trackedAt, expiresAt };
}

/** The tracked record of a refund known by its key. @internal */
export function trackedRefundKey(refund: z.output<ReturnType<typeof unconfirmedRefundSchema>>, trackedAt: number): TrackedOrder {
  const [orderBy, orderId] = refund.payOrderId === undefined ? (['mchOrderNo', refund.mchOrderNo!] as const) : (['payOrderId', refund.payOrderId] as const);
  const sent = JSON.stringify([refund.mchRefundNo, refund.refundAmount, refund.currency.toUpperCase(), orderBy, orderId]);
  return { payOrderId: `${REFUND_KEY}${refund.mchRefundNo}`, mchOrderNo: sent, trackedAt, expiresAt: undefined };
}

/** The key a record known by its key is tracked under, for `forget`. @internal */
export const orderKeyOf = (mchOrderNo: string): string => `${ORDER_KEY}${mchOrderNo}`;
/** The key a refund known by its key is tracked under, for `forget`. @internal */
export const refundKeyOf = (mchRefundNo: string): string => `${REFUND_KEY}${mchRefundNo}`;

/**
 * What was sent of a record tracked by its key, read back from the store: `undefined` for a record tracked by its
 * ids, `'unreadable'` for one under a key's form whose values are not what `track` wrote. @internal
 */
export function sentOf(tracked: TrackedOrder): SentOrder | SentRefund | 'unreadable' | undefined {
  const kind = tracked.payOrderId.startsWith(ORDER_KEY) ? 'order' : tracked.payOrderId.startsWith(REFUND_KEY) ? 'refund' : undefined;
  if (kind === undefined) return undefined;
  const key = tracked.payOrderId.slice((kind === 'order' ? ORDER_KEY : REFUND_KEY).length);
  let value: unknown;
  try {
    value = JSON.parse(tracked.mchOrderNo);
  } catch {
    return 'unreadable';
  }
  if (!Array.isArray(value) || value[0] !== key || !Number.isSafeInteger(value[1]) || typeof value[2] !== 'string') return 'unreadable';
  if (kind === 'order') return value.length === 3 ? { kind, mchOrderNo: key, amount: value[1] as number, currency: value[2] } : 'unreadable';
  if (value.length !== 5 || (value[3] !== 'payOrderId' && value[3] !== 'mchOrderNo') || typeof value[4] !== 'string') return 'unreadable';
  return { kind, mchRefundNo: key, refundAmount: value[1] as number, currency: value[2], orderBy: value[3], orderId: value[4] };
}

/** What was sent, as a conflict or a mismatch names it. @internal */
export const describeSent = (sent: SentOrder | SentRefund): string =>
  sent.kind === 'order' ? `amount ${sent.amount}, currency ${JSON.stringify(sent.currency)}` : `refundAmount ${sent.refundAmount}, currency ${JSON.stringify(sent.currency)}, ${sent.orderBy} ${JSON.stringify(sent.orderId)}`;

/** How a record found under a key differs from what was sent (each `field found, not sent`), or `undefined` when it does not. @internal */
export function sentDifferences(sent: Readonly<Record<string, unknown>>, record: Readonly<Record<string, unknown>>): string | undefined {
  const differing = Object.keys(sent).filter((field) => !sameFieldValue(field, sent[field], record[field]));
  if (differing.length === 0) return undefined;
  return differing.map((field) => `${field} ${JSON.stringify(record[field])}, not ${JSON.stringify(sent[field])} as sent`).join('; ');
}
