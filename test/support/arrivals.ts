import type { NotificationStore, ProcessingContext } from '../../src/index.js';

/**
 * `store`, noting each delivery that reaches it (each brings its own effect); `arrived` resolves once
 * `count` deliveries have. An `onPaid` that waits for it proves the deliveries overlapped, which a
 * fixed pause in `onPaid` only hopes for.
 */
export function noteArrivals<C extends ProcessingContext>(store: NotificationStore<C>, count: number): { store: NotificationStore<C>; arrived: Promise<void> } {
  const effects = new Set<unknown>();
  const arrived = Promise.withResolvers<void>();
  return {
    store: {
      runOnce(key, effect, event) {
        effects.add(effect);
        if (effects.size >= count) arrived.resolve();
        return store.runOnce(key, effect, event);
      },
      ...(store.horizon && { horizon: () => store.horizon!() }),
    },
    arrived: arrived.promise,
  };
}
