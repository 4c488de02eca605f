/**
 * What every example shares: the shop's own order records, which price each payment on the server, and the
 * notification processor built from them. A notification is accepted only for one of the shop's orders, for
 * the total and currency the shop recorded (never an amount a browser sent), and runs `onPaid` once per
 * payment, through a store every instance shares.
 *
 * In production, pass a store that outlives the process and is shared by your instances:
 *
 * ```ts
 * import { postgresStore } from 'payment-gateway-sdk/stores/postgres';
 * const store = postgresStore({ pool });
 * await store.migrate(); // creates its table: idempotent, safe on every start
 * // or redisStore({ client }) from payment-gateway-sdk/stores/redis
 * ```
 */
import {
  createNotificationProcessor,
  type GatewayClient,
  type NotificationOptions,
  type NotificationReply,
  type NotificationStore,
  type PaidOrder,
  type PaymentExpectation,
  type PaymentNotificationProcessor,
  type PayOrderNotification,
} from 'payment-gateway-sdk';

/** One of the shop's orders, as the shop priced it. */
export interface ShopOrder {
  readonly number: string;
  /** Integer minor units: 1999 is 19.99. */
  readonly totalMinor: number;
  readonly currency: string;
  readonly subject: string;
}

/** The shop's order table, as far as the examples need it. */
export interface ShopOrders {
  /** The order a payment is for: by its number, or by a payment number recorded for it. */
  find(mchOrderNo: string): Promise<ShopOrder | undefined>;
  /** Records another payment number of an order (a replacement order after a lost answer). */
  addPaymentNumber(orderNumber: string, mchOrderNo: string): Promise<void>;
}

export interface ShopOptions {
  /** The merchant application's credentials (and any other verification option). */
  merchant: NotificationOptions;
  orders: ShopOrders;
  /** Where processed notifications are kept: postgresStore (migrated) or redisStore in production, see above. */
  store: NotificationStore;
  /** Your business step for a paid order, e.g. mark it paid and ship it: runs once per payment (notified or swept). */
  onPaid: (paid: PaidOrder) => Promise<void>;
}

/**
 * The processor of the shop's payment notifications: verified, matched against the shop's order, processed once.
 * With the shop's `client` it also sweeps: `processor.track(order)` after each create, and `processor.sweep()` on a
 * schedule (examples/sweep.ts `sweepEvery`) fulfils a paid order whose notifications were all lost, once.
 */
export function shopProcessor({ merchant, orders, store, onPaid }: ShopOptions, client?: GatewayClient): PaymentNotificationProcessor {
  return createNotificationProcessor({
    ...merchant,
    store,
    client,
    // The payment must be for one of our orders, for the total and currency we recorded: no such order, refused (400).
    expect: async (notification): Promise<PaymentExpectation | undefined> => {
      const order = await orders.find(notification.mchOrderNo);
      return order && { mchOrderNo: notification.mchOrderNo, amount: order.totalMinor, currency: order.currency };
    },
    onPaid,
  });
}

/** Logs what the merchant should see of a notification that was not processed; never contains the secret. */
export function logOutcome({ outcome }: NotificationReply<PayOrderNotification>): void {
  if (outcome.kind === 'refused') console.warn('payment notification refused:', outcome.error.message);
  if (outcome.kind === 'failed') console.error('payment notification failed; the gateway will retry:', outcome.error);
}
