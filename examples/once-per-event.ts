/**
 * Runs `handle` once per notification event, however often the gateway delivers it: it retries until it
 * reads SUCCESS, and an operator can re-send by hand. Deliveries of one event share `idempotencyKey`.
 *
 * This one keeps the keys in memory, to keep the examples short. In production keep them in your
 * database: insert the key under a unique constraint in the same transaction that marks the order paid,
 * so the rule holds across restarts and across servers.
 */
export function oncePerEvent<Event extends { readonly idempotencyKey: string }>(handle: (event: Event) => Promise<void>): (event: Event) => Promise<void> {
  const handled = new Map<string, Promise<void>>();
  return (event) => {
    let pending = handled.get(event.idempotencyKey);
    if (pending === undefined) {
      // Claimed before the first await, so a concurrent delivery waits for this one instead of running again.
      pending = handle(event);
      handled.set(event.idempotencyKey, pending);
      // A failure is forgotten: the handler answered an error, and the gateway's next retry tries again.
      pending.catch(() => handled.delete(event.idempotencyKey));
    }
    return pending;
  };
}
