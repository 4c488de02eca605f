/**
 * Never lose a paid order: track each order as it is created, and sweep the tracked orders on a schedule. A
 * paid order whose notification never came (the endpoint was down for longer than the gateway's 17 minutes of
 * retries) is fulfilled by the sweep, through the same exactly-once claim as its notification.
 *
 * One sweep at a time per process (a sweep that outlasts the interval is not doubled up), and a clean stop:
 * `stop()` aborts the sweep under way (its checks in progress finish) and waits for it.
 */
import type { PaymentNotificationProcessor, SweepReport, UnifiedOrderParams, UnifiedOrderResult } from 'payment-gateway-sdk';

/** Creates the order and tracks it before the payer sees the payment page. */
export async function createTrackedOrder(
  client: { unifiedOrder(params: UnifiedOrderParams): Promise<UnifiedOrderResult> },
  processor: PaymentNotificationProcessor,
  params: UnifiedOrderParams,
): Promise<UnifiedOrderResult> {
  const order = await client.unifiedOrder(params);
  await processor.track(order, { expiredTime: params.expiredTime });
  return order;
}

export interface SweepSchedule {
  /** Stops the schedule: aborts the sweep under way and resolves once it has ended. */
  stop(): Promise<void>;
}

/** Sweeps every `everyMs`, checking orders tracked or last checked `olderThanMs` ago; reports each sweep to `onReport`. */
export function sweepEvery(
  processor: PaymentNotificationProcessor,
  { everyMs = 60_000, olderThanMs = 60_000, onReport = (_report: SweepReport) => {}, onError = (error: unknown) => console.error(error) } = {},
): SweepSchedule {
  const stopping = new AbortController();
  let running: Promise<void> = Promise.resolve();
  const tick = () => {
    running = processor
      .sweep({ olderThanMs, signal: stopping.signal })
      .then(onReport, (error: unknown) => {
        if (!stopping.signal.aborted) onError(error);
      })
      .finally(() => {
        if (!stopping.signal.aborted) timer = setTimeout(tick, everyMs); // the next one starts after this one ends
      });
  };
  let timer = setTimeout(tick, everyMs);
  return {
    async stop() {
      stopping.abort();
      clearTimeout(timer);
      await running;
    },
  };
}
