/**
 * The kinds of notification the gateway sends, declared once each: verification (`verify.ts`), its options
 * (`options.ts`), and the processor's option types (`processor-options.ts`), option checks
 * (`processor-settings.ts`), identification (`identify.ts`), dispatch and telemetry names (`delivery.ts`) derive
 * from these rows, and every field name in a row is checked by the compiler against the kind's schemas.
 *
 * @module
 */
import * as z from 'zod/mini';
import { PayOrderState } from '../protocol/schemas/enums.js';
import { currencyCode, minorUnits, requiredText } from '../protocol/schemas/fields.js';
import type { Keys } from '../protocol/schemas/keys.js';
import { lazySchema } from '../protocol/schemas/lazy.js';
import { payOrderNotificationSchema, settlementNotificationSchema } from '../protocol/schemas/notification.js';
import { RefundOrderState, refundNotificationSchema } from '../protocol/schemas/refund.js';
import { TransferOrderState, transferNotificationSchema } from '../protocol/schemas/transfer.js';
import type { CheckedTracking, KindTracking, StateOf } from './kind-tracking.js';

/** A value a field must have, or a list of the values it may have. */
export type Expected = string | number | readonly (string | number)[] | undefined;

/** An event's time, the signed field it was read from and what that field says, which a `stale` error names. */
export interface EventTime<Field extends string = string> {
  readonly field: Field;
  readonly time: number;
  /** e.g. `was paid`, as in "the payment notification was paid at ...". */
  readonly happened: string;
}

/**
 * One handler a kind's row declares: the processor option that holds it (the key of `handlers`), its name in
 * telemetry, and the states it takes.
 */
export interface KindHandler<HandlerName extends `on_${string}` = `on_${string}`, State extends number = number> {
  /** The handler as telemetry names it, e.g. `on_paid`. */
  readonly name: HandlerName;
  /** The values of the row's `stateField` it takes (typed by its enum where a row is declared); absent: every state (a kind without one). */
  readonly states?: readonly State[] | undefined;
}

/** What sets one kind of notification apart from another; the rules are the same for all. */
export interface NotificationKind<
  Schema extends z.ZodMiniObject = z.ZodMiniObject,
  Expect extends z.ZodMiniObject = z.ZodMiniObject,
  Handlers extends { readonly [Option in `on${string}`]?: KindHandler } = { readonly [Option in `on${string}`]?: KindHandler },
  Name extends string = string,
  ExpectOption extends `expect${string}` = `expect${string}`,
  Tracking extends KindTracking | undefined = KindTracking | undefined,
  AmountField extends string = string,
> {
  /** The kind's name, the key of its row, and its name in telemetry (`payment`). */
  readonly name: Name;
  /** For messages, e.g. `payment notification`. */
  readonly label: string;
  /**
   * The plain verifier of this kind (an export of the package, and a `GatewayClient` method of the same name where
   * it has one), named by the refusal of a message shaped as this kind that another kind's verifier was given.
   */
  readonly verifier: `verify${string}Notification`;
  /**
   * The processor options that hold this kind's handlers (`onPaid`), each with its telemetry name and the
   * states it takes. A processor runs the one given that takes the notification's state.
   */
  readonly handlers: Handlers;
  /** The processor option that holds what this kind's notifications must match, e.g. `expect`, `expectRefund`. */
  readonly expectOption: ExpectOption;
  /**
   * The fields every message of this kind carries and no message of another kind does without being refused:
   * a processor picks the kind whose fields are all present, and refuses a message that two kinds or none
   * claim, or that also carries another kind's identifying fields its own schema does not declare.
   */
  readonly identifiedBy: readonly string[];
  /**
   * The fields that name the record, the only ones of a verified notification that telemetry records. Default: its
   * tracking's `by`, and those of the kind it belongs to (a refund's `payOrderId`); an untracked kind declares them.
   */
  readonly ids?: readonly string[] | undefined;
  /** The field whose value picks the handler (`state`); absent: the kind's handlers take every message. */
  readonly stateField?: string | undefined;
  /** The amount an expectation may pin, which is checked only with `currency` (1000 USD is not 1000 JPY). */
  readonly amountField: AmountField;
  /**
   * How the processor's `track` and `sweep` serve this kind: the read that settles a tracked record, the ids it is
   * read by, the states still open. `undefined` (absent where the row is declared): the kind is not tracked.
   */
  readonly tracking: Tracking;
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

/** The field names a row gives outside its functions, each a field of its schemas (checked where a row is declared). */
interface NamedFields<Schema extends z.ZodMiniObject, StateField extends Keys<Schema> | undefined, AmountField> {
  readonly identifiedBy: readonly Keys<Schema>[];
  readonly ids?: readonly Keys<Schema>[];
  readonly stateField?: StateField;
  readonly amountField: AmountField;
}

/** A compile error unless every field an expectation names is a field of the notification. */
type ExpectsOnlyFields<Schema extends z.ZodMiniObject, Expect extends z.ZodMiniObject> =
  [Exclude<Keys<Expect>, Keys<Schema>>] extends [never] ? unknown : { readonly expect: `not a field of the notification: ${Exclude<Keys<Expect>, Keys<Schema>>}` };

/** A compile error unless every handler option is named `onSomething`. */
type HandlersNamedOn<Handlers> =
  [Exclude<keyof Handlers, `on${string}`>] extends [never] ? unknown : { readonly handlers: `not a handler option (onSomething): ${Exclude<keyof Handlers, `on${string}`> & string}` };

/**
 * Declares a notification kind: checks every field name in it against its schema, each handler's states and the
 * open states against the kind's state enum, its tracking's read against the operation table, and keeps its types
 * for those derived.
 */
export function defineNotificationKind<
  Schema extends z.ZodMiniObject,
  Expect extends z.ZodMiniObject,
  const StateField extends Keys<Schema> | undefined,
  const Handlers extends { readonly [Option in `on${string}`]?: KindHandler<`on_${string}`, StateOf<Schema, StateField>> },
  const Name extends string,
  const ExpectOption extends `expect${string}`,
  const Tracking extends CheckedTracking<StateOf<Schema, StateField>> | undefined = undefined,
  const AmountField extends Keys<Expect> = Keys<Expect>,
>(
  kind: Omit<NotificationKind<Schema, Expect, Handlers, Name, ExpectOption, Tracking, AmountField>, 'tracking'> & { readonly tracking?: Tracking } & NamedFields<Schema, StateField, AmountField> & ExpectsOnlyFields<Schema, Expect> & HandlersNamedOn<Handlers>,
): NotificationKind<Schema, Expect, Handlers, Name, ExpectOption, Tracking, AmountField> {
  // An untracked row may leave tracking out: read, it is undefined, as its type says.
  return kind as NotificationKind<Schema, Expect, Handlers, Name, ExpectOption, Tracking, AmountField>;
}

/**
 * When an event that ended a record happened: its `successTime`, else (it failed) its `createdAt`, each as the gateway
 * signed it in every message of the event alike; never `reqTime`, which a re-send renews.
 */
const successElseCreated =
  (succeeded: string, created: string) =>
  (n: { readonly successTime?: number | undefined; readonly createdAt: number }): EventTime<'successTime' | 'createdAt'> =>
    n.successTime !== undefined ? { field: 'successTime', time: n.successTime, happened: succeeded } : { field: 'createdAt', time: n.createdAt, happened: created };

// One state or a non-empty list of them; a check rather than a zod union, which would cost bundle size.
const expectedState = <State extends number>(states: Readonly<Record<string, State>>, error: string) => {
  const known: ReadonlySet<unknown> = new Set(Object.values(states));
  return z.custom<State | readonly State[]>((v) => known.has(v) || (Array.isArray(v) && v.length > 0 && v.every((s) => known.has(s))), { error });
};

// What `expect` may pin, per kind. Each row reads its schemas through getters: a schema is built when a
// verifier or a processor first needs it (protocol/schemas/lazy.ts), not at import.
// A payment's and a transfer's: your mchOrderNo, the amount with its currency, the states; one builder for both.
const orderExpect = <State extends number>(states: Readonly<Record<string, State>>, error: string) =>
  z.strictObject({
    /** Your order or transfer number. */
    mchOrderNo: z.optional(requiredText()),
    /** The amount in integer minor units. */
    amount: z.optional(minorUnits()),
    /** The currency code, compared case-insensitively. */
    currency: z.optional(requiredText()),
    /** The state, or the states, the notification may carry (default: those the gateway notifies). */
    state: z.optional(expectedState(states, error)),
  });
const paymentExpect = lazySchema(() => orderExpect(PayOrderState, 'must be a pay-order state (0 to 6) or a non-empty list of them, e.g. PayOrderState.Succeeded'));

const refundExpect = lazySchema(() =>
  z.strictObject({
    /** Your refund number, as sent to `refundOrder`. */
    mchRefundNo: z.optional(requiredText()),
    /** The refunded amount in integer minor units. */
    refundAmount: z.optional(minorUnits()),
    /** The currency code, compared case-insensitively. */
    currency: z.optional(requiredText()),
    /** The state, or the states, the notification may carry. Default 2 or 3 (`Refunds.State.Succeeded`, `Failed`): the states the gateway notifies. */
    state: z.optional(expectedState(RefundOrderState, 'must be a refund state (0 to 4) or a non-empty list of them, e.g. RefundOrderState.Succeeded')),
  }),
);

const transferExpect = lazySchema(() => orderExpect(TransferOrderState, 'must be a transfer state (0 to 4) or a non-empty list of them'));

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
  verifier: 'verifyNotification',
  handlers: {
    onPaid: { name: 'on_paid', states: [PayOrderState.Succeeded] },
  },
  expectOption: 'expect',
  identifiedBy: ['payOrderId', 'mchOrderNo'],
  stateField: 'state',
  amountField: 'amount',
  // Read by both ids, so that the answer is bound to both; 0 and 1 may still be paid. Tracked under the bare
  // payOrderId since the first release (stores hold these keys), the only kind without a prefix.
  tracking: {
    read: 'query', by: ['payOrderId', 'mchOrderNo'], open: [PayOrderState.Generated, PayOrderState.Paying], states: PayOrderState,
    notFound: 'order_not_found', noun: 'order', found: 'paid order found by a sweep', prefix: '',
    waited: 'show the payment as pending, and rely on the notification or a later query',
    byKey: { prefix: 'order-key:', currency: currencyCode },
    // Only an order has a validity a sweep may act on: closeExpired closes one still open past it.
    expiry: { close: 'close', sent: 'sentExpiredTime' },
  },
  get schema() {
    return payOrderNotificationSchema();
  },
  get expect() {
    return paymentExpect();
  },
  merchantRequired: true,
  // Unchanged since the first release: durable stores hold these keys, and another form would run onPaid again.
  idempotencyKey: (n) => `${n.payOrderId}:${n.state}`,
  // The gateway notifies only paid orders: a message of another state is not a payment.
  defaultExpect: { state: PayOrderState.Succeeded },
  // When it was paid; an order's creation (earlier, so refused sooner) when successTime is not sent.
  eventTime: successElseCreated('was paid', 'is of an order created'),
  recover: 'Query the order (client.query) and fulfil it',
});

/** The gateway's notification of a refund that ended, at the refund's `notifyUrl`: `verifyRefundNotification`, `onRefunded`, `onRefundFailed`. */
const refund = defineNotificationKind({
  name: 'refund',
  label: 'refund notification',
  verifier: 'verifyRefundNotification',
  handlers: {
    onRefunded: { name: 'on_refunded', states: [RefundOrderState.Succeeded] },
    // 4 (closed) is never notified; a sweep finds it, and it ended without money moving as 3 did.
    onRefundFailed: { name: 'on_refund_failed', states: [RefundOrderState.Failed, RefundOrderState.Closed] },
  },
  expectOption: 'expectRefund',
  identifiedBy: ['refundOrderId', 'mchRefundNo'],
  stateField: 'state',
  amountField: 'refundAmount',
  // 0 and 1 may still end either way; the gateway closes one still open after two hours (4). The kind leads its
  // keys, so that no refund's can be an order's; one tracked by its key names its order by one of the order's ids.
  tracking: {
    read: 'refundQuery', by: ['refundOrderId', 'mchRefundNo'], open: [RefundOrderState.Created, RefundOrderState.Refunding], states: RefundOrderState,
    notFound: 'refund_not_found', noun: 'refund', found: 'refund found by a sweep', prefix: 'refund:',
    waited: "show the refund as in progress, and rely on the refund notification, a processor's sweep or a later refundQuery",
    byKey: { prefix: 'refund-key:', currency: requiredText, of: 'payment' },
    reportedIn: 'refunds',
  },
  get schema() {
    return refundNotificationSchema();
  },
  get expect() {
    return refundExpect();
  },
  // Required: a signed refundQuery answer (the same record, signed with the same secret) carries neither.
  merchantRequired: true,
  // The kind leads, so that no refund's key can be a payment's (`${payOrderId}:${state}`).
  idempotencyKey: (n) => `refund:${n.refundOrderId}:${n.state}`,
  // The gateway notifies a refund when it succeeds or fails, never in another state.
  defaultExpect: { state: [RefundOrderState.Succeeded, RefundOrderState.Failed] },
  // A failed refund has no successTime: its creation (earlier, so refused sooner) then. Never reqTime, which a re-send renews.
  eventTime: successElseCreated('was refunded', 'is of a refund created'),
  recover: 'Read the refund (client.refundQuery) and record it',
});

/**
 * The gateway's notification of a transfer that ended, at the transfer's `notifyUrl`: `verifyTransferNotification`,
 * `onTransferred`, `onTransferFailed`. It carries `mchOrderNo`, `amount` and `state` like a payment, but its 2 is
 * money leaving the merchant: it is told apart by `transferId` and `entryType`, which no payment has.
 */
const transfer = defineNotificationKind({
  name: 'transfer',
  label: 'transfer notification',
  verifier: 'verifyTransferNotification',
  handlers: {
    onTransferred: { name: 'on_transferred', states: [TransferOrderState.Succeeded] },
    // 4 (closed) is declared by the reference and never set; a gateway that sets it ended the transfer without paying.
    onTransferFailed: { name: 'on_transfer_failed', states: [TransferOrderState.Failed, TransferOrderState.Closed] },
  },
  expectOption: 'expectTransfer',
  identifiedBy: ['transferId', 'entryType'],
  stateField: 'state',
  amountField: 'amount',
  // 0 and 1 may still end either way. The reference never closes a transfer and stops asking the channel about one
  // after a day: the sweep says so of one still open then (stalled), and leaves it tracked.
  tracking: {
    read: 'transferQuery', by: ['transferId', 'mchOrderNo'], open: [TransferOrderState.Created, TransferOrderState.Transferring], states: TransferOrderState,
    notFound: 'transfer_not_found', noun: 'transfer', found: 'transfer found by a sweep', prefix: 'transfer:',
    waited: 'show the transfer as in progress; its notification, a sweep or a later transferQuery will tell',
    // A payment is known by mchOrderNo too: one tracked by its number carries its entryType (the parameters sent do).
    byKey: { prefix: 'transfer-key:', currency: requiredText, marker: 'entryType' },
    reportedIn: 'transfers',
    stalled: {
      afterMs: 24 * 60 * 60 * 1000,
      advice: 'the gateway no longer asks the channel about it and never closes it: ask the channel',
    },
  },
  get schema() {
    return transferNotificationSchema();
  },
  get expect() {
    return transferExpect();
  },
  // Required: a signed transferQuery answer carries them too, but a create's answer does not.
  merchantRequired: true,
  // The kind leads, so that no transfer's key can be a payment's (`${payOrderId}:${state}`) or a refund's.
  idempotencyKey: (n) => `transfer:${n.transferId}:${n.state}`,
  // The gateway notifies a transfer when it succeeds or fails, never in another state.
  defaultExpect: { state: [TransferOrderState.Succeeded, TransferOrderState.Failed] },
  // A failed transfer has no successTime: its creation then. Never reqTime, which a re-send renews.
  eventTime: successElseCreated('was transferred', 'was created'),
  recover: 'Read the transfer (client.transferQuery) and record it',
});

/** The gateway's call to a settlement's `notifyUrl`: `verifySettlementNotification`, `onSettlement`. */
const settlement = defineNotificationKind({
  name: 'settlement',
  label: 'settlement notification',
  verifier: 'verifySettlementNotification',
  handlers: {
    onSettlement: { name: 'on_settlement' },
  },
  expectOption: 'expectSettlement',
  identifiedBy: ['serverRequestId'],
  // Your requestId names it, as it names the settlement's create and read.
  ids: ['requestId'],
  amountField: 'amount',
  get schema() {
    return settlementNotificationSchema();
  },
  get expect() {
    return settlementExpect();
  },
  // Required as in a payment notification: a settleRequestGet answer, signed alike, carries neither.
  merchantRequired: true,
  // Unchanged since the first release, as the payment's: durable stores hold these keys.
  idempotencyKey: (n) => `${n.serverRequestId}:${n.status}`,
  // Signed for the merchant's own callback only, and re-sent with its original reqTime: no payer can have it signed again.
  eventTime: (n) => ({ field: 'reqTime', time: n.reqTime, happened: 'was signed' }),
  recover: 'Read the settlement (client.settleRequestGet) and record it',
});

/** Every kind, by name. A new kind is a new row here (see CONTRIBUTING.md, "Adding a notification kind"). */
export const notificationKinds = { payment, refund, transfer, settlement } satisfies { readonly [Name in string]: { readonly name: Name } };

/** A kind's name: `payment`, `refund`, `transfer`, `settlement`. */
export type NotificationKindName = keyof typeof notificationKinds;

/** A row of {@link notificationKinds}, of the given schema: what verification and the processor take. */
export type DeclaredKind<Schema extends z.ZodMiniObject = z.ZodMiniObject> = NotificationKind<
  Schema,
  z.ZodMiniObject,
  { readonly [Option in `on${string}`]?: KindHandler },
  NotificationKindName,
  (typeof notificationKinds)[NotificationKindName]['expectOption']
>;
