/**
 * The kinds of notification the gateway sends, declared once each: verification (`verify.ts`), its options
 * (`options.ts`) and the processor (`processor.ts`) derive from these rows, and every field name in a row is
 * checked by the compiler against the kind's schema.
 *
 * @module
 */
import * as z from 'zod/mini';
import { PayOrderState } from '../protocol/schemas/enums.js';
import { minorUnits, requiredText } from '../protocol/schemas/fields.js';
import type { Keys } from '../protocol/schemas/keys.js';
import { lazySchema } from '../protocol/schemas/lazy.js';
import { payOrderNotificationSchema, settlementNotificationSchema } from '../protocol/schemas/notification.js';

/** A value a field must have, or a list of the values it may have. */
export type Expected = string | number | readonly (string | number)[] | undefined;

/** An event's time, the signed field it was read from and what that field says, which a `stale` error names. */
export interface EventTime<Field extends string = string> {
  readonly field: Field;
  readonly time: number;
  /** e.g. `was paid`, as in "the payment notification was paid at ...". */
  readonly happened: string;
}

/** What sets one kind of notification apart from another; the rules are the same for all. */
export interface NotificationKind<
  Schema extends z.ZodMiniObject = z.ZodMiniObject,
  Expect extends z.ZodMiniObject = z.ZodMiniObject,
  Handler extends string = string,
  Name extends string = string,
  HandlerName extends string = string,
> {
  /** The kind's name, the key of its row, and its name in telemetry (`payment`). */
  readonly name: Name;
  /** For messages, e.g. `payment notification`. */
  readonly label: string;
  /** The processor option that holds this kind's handler, e.g. `onPaid`: a processor's kind is the one whose handler it is given. */
  readonly handler: Handler;
  /** The handler as telemetry names it, e.g. `on_paid`. */
  readonly handlerName: HandlerName;
  /** The typed shape of the verified notification. */
  readonly schema: Schema;
  /** What the caller's `expect` may pin: fields of the notification, each optional. */
  readonly expect: Expect;
  /** Whether `mchNo` and `appId` must be present (otherwise they are checked when present). */
  readonly merchantRequired: boolean;
  /** The key under which the event is processed once, from declared fields only (a misspelled one does not compile). */
  // A method, so that a row is also a NotificationKind of any schema (a list of kinds, the verifier's parameter).
  idempotencyKey(notification: Pick<z.output<Schema>, Keys<Schema>>): string;
  /** What every notification of this kind must match unless the caller's `expect` says otherwise; a processor requires it. */
  readonly defaultExpect?: Readonly<Partial<Record<Keys<Schema>, Expected>>> | undefined;
  /**
   * When the event happened, as the gateway signed it in every message of the event alike: what a store's
   * horizon is compared with. Not `reqTime` for a payment: a payer can have the cashier's return redirect
   * signed again, with a new `reqTime`, at will.
   */
  eventTime(notification: Pick<z.output<Schema>, Keys<Schema>>): EventTime<Keys<Schema>>;
  /** What to do about an event the store may have forgotten (a `stale` outcome), e.g. `Query the order (client.query) and fulfil it`. */
  readonly recover: string;
}

/** A compile error unless every field an expectation names is a field of the notification. */
type ExpectsOnlyFields<Schema extends z.ZodMiniObject, Expect extends z.ZodMiniObject> =
  [Exclude<Keys<Expect>, Keys<Schema>>] extends [never] ? unknown : { readonly expect: `not a field of the notification: ${Exclude<Keys<Expect>, Keys<Schema>>}` };

/** Declares a notification kind: checks every field name in it against its schema, and keeps its types for those derived. */
export function defineNotificationKind<
  Schema extends z.ZodMiniObject,
  Expect extends z.ZodMiniObject,
  const Handler extends `on${string}`,
  const Name extends string,
  const HandlerName extends `on_${string}`,
>(kind: NotificationKind<Schema, Expect, Handler, Name, HandlerName> & ExpectsOnlyFields<Schema, Expect>): NotificationKind<Schema, Expect, Handler, Name, HandlerName> {
  return kind;
}

const STATES: ReadonlySet<unknown> = new Set(Object.values(PayOrderState));
// One state or a non-empty list of them; a check rather than a zod union, which would cost bundle size.
const expectedState = () =>
  z.custom<PayOrderState | readonly PayOrderState[]>((v) => STATES.has(v) || (Array.isArray(v) && v.length > 0 && v.every((s) => STATES.has(s))), {
    error: 'must be a pay-order state (0 to 6) or a non-empty list of them, e.g. PayOrderState.Succeeded',
  });

// What `expect` may pin, per kind. Each row reads its schemas through getters: a schema is built when a
// verifier or a processor first needs it (protocol/schemas/lazy.ts), not at import.
const paymentExpect = lazySchema(() =>
  z.strictObject({
    /** Your order number. */
    mchOrderNo: z.optional(requiredText()),
    /** The amount in integer minor units. */
    amount: z.optional(minorUnits()),
    /** The currency code, compared case-insensitively. */
    currency: z.optional(requiredText()),
    /** The state, or the states, the notification may carry. Default `PayOrderState.Succeeded` (2) only. */
    state: z.optional(expectedState()),
  }),
);

const settlementExpect = lazySchema(() =>
  z.strictObject({
    /** Your settlement `requestId`. */
    requestId: z.optional(requiredText()),
    /** The amount in integer minor units. */
    amount: z.optional(minorUnits()),
    /** The currency code, compared case-insensitively. */
    currency: z.optional(requiredText()),
    /** The settlement token id, e.g. `TRON_USDT`. */
    tokenId: z.optional(requiredText()),
  }),
);

/** The gateway's notification of a paid order, at the order's `notifyUrl`: `verifyNotification`, `onPaid`. */
const payment = defineNotificationKind({
  name: 'payment',
  label: 'payment notification',
  handler: 'onPaid',
  handlerName: 'on_paid',
  get schema() {
    return payOrderNotificationSchema();
  },
  get expect() {
    return paymentExpect();
  },
  merchantRequired: true,
  idempotencyKey: (n) => `${n.payOrderId}:${n.state}`,
  // The gateway notifies only paid orders: a message of another state is not a payment.
  defaultExpect: { state: PayOrderState.Succeeded },
  // When it was paid; an order's creation (earlier, so refused sooner) when successTime is not sent.
  eventTime: (n) => (n.successTime !== undefined ? { field: 'successTime', time: n.successTime, happened: 'was paid' } : { field: 'createdAt', time: n.createdAt, happened: 'is of an order created' }),
  recover: 'Query the order (client.query) and fulfil it',
});

/** The gateway's call to a settlement's `notifyUrl`: `verifySettlementNotification`, `onSettlement`. */
const settlement = defineNotificationKind({
  name: 'settlement',
  label: 'settlement notification',
  handler: 'onSettlement',
  handlerName: 'on_settlement',
  get schema() {
    return settlementNotificationSchema();
  },
  get expect() {
    return settlementExpect();
  },
  // Required as in a payment notification: a settleRequestGet answer, signed alike, carries neither.
  merchantRequired: true,
  idempotencyKey: (n) => `${n.serverRequestId}:${n.status}`,
  // Signed for the merchant's own callback only, and re-sent with its original reqTime: no payer can have it signed again.
  eventTime: (n) => ({ field: 'reqTime', time: n.reqTime, happened: 'was signed' }),
  recover: 'Read the settlement (client.settleRequestGet) and record it',
});

/** Every kind, by name. A new kind is a new row here (see CONTRIBUTING.md, "Adding a notification kind"). */
export const notificationKinds = { payment, settlement } satisfies { readonly [Name in string]: { readonly name: Name } };

/** A kind's name: `payment`, `settlement`. */
export type NotificationKindName = keyof typeof notificationKinds;

/** A row of {@link notificationKinds}, of the given schema: what verification and the processor take. */
export type DeclaredKind<Schema extends z.ZodMiniObject = z.ZodMiniObject> = NotificationKind<
  Schema,
  z.ZodMiniObject,
  (typeof notificationKinds)[NotificationKindName]['handler'],
  NotificationKindName,
  (typeof notificationKinds)[NotificationKindName]['handlerName']
>;
