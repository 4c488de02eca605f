// The README's "No paid order left behind" block: the lines between the readme markers are the README's, written by npm run docs:readme.
import { createNotificationProcessor, GatewayClient, type GatewayClientOptions, type NotificationStore, type PayOrderNotification, type PaymentExpectation, type UnifiedOrderParams } from 'payment-gateway-sdk';

declare const config: GatewayClientOptions;
declare const store: NotificationStore;
declare const params: UnifiedOrderParams;
declare const expect: (n: PayOrderNotification) => Promise<PaymentExpectation | undefined>;
declare const onPaid: (n: PayOrderNotification) => Promise<void>;
declare const log: { error(error: unknown): void };
const client = new GatewayClient(config);

// #region readme
const processor = createNotificationProcessor({ ...config, store, client, expect, onPaid });
const order = await client.unifiedOrder(params);
await processor.track(order);                                   // remembered until it is final
setInterval(() => processor.sweep({ olderThanMs: 60_000 }).catch(log.error), 60_000);
// one log line per sweep: checked, paid (onPaid ran now), alreadyDone, open, closed, failed, busy, notFound, neverMade, mismatched, tooOld
// #endregion readme
