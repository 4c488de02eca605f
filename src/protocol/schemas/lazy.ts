/**
 * Schemas built on first use. Building every schema of the SDK at import was about a third of the import's
 * evaluation in a cold start, and a process uses a few of them (a first `query` needs its own two).
 *
 * @module
 */

/**
 * Returns a getter that builds the value once, on its first call, and returns the same value after: the
 * memo holds one of the SDK's own schemas, never anything received.
 *
 * @example
 * ```ts
 * import * as z from 'zod/mini';
 * import { lazySchema } from './lazy.js'; // internal: not exported by the package
 *
 * const trackSchema = lazySchema(() => z.object({ payOrderId: z.string() }));
 * trackSchema().parse({ payOrderId: 'P1' }); // built here, on the first call; trackSchema() === trackSchema()
 * ```
 */
// A call builds nothing until its getter is called: a bundler may drop one whose getter is never read.
/* @__NO_SIDE_EFFECTS__ */
export function lazySchema<T>(build: () => T): () => T {
  let built: { readonly value: T } | undefined;
  return () => (built ??= { value: build() }).value;
}

/**
 * {@link lazySchema} per declaration: the value for a declaration object (a record kind, an operation row) is built
 * on the first call for it. Keyed by the object in a `WeakMap`: only the SDK's own declarations reach it, never
 * received data.
 *
 * @example
 * ```ts
 * import * as z from 'zod/mini';
 * import { lazySchemaOf } from './lazy.js'; // internal: not exported by the package
 *
 * const refundKind = { id: 'refundOrderId' } as const; // a declaration of the SDK's own
 * const idsOf = lazySchemaOf((kind: { readonly id: string }) => z.object({ [kind.id]: z.string() }));
 * idsOf(refundKind).parse({ refundOrderId: 'R1' }); // built for refundKind here, once; idsOf(refundKind) === idsOf(refundKind)
 * ```
 */
/* @__NO_SIDE_EFFECTS__ */
export function lazySchemaOf<Of extends object, T>(build: (of: Of) => T): (of: Of) => T {
  const built = new WeakMap<Of, { readonly value: T }>();
  return (of) => {
    let memo = built.get(of);
    if (memo === undefined) built.set(of, (memo = { value: build(of) }));
    return memo.value;
  };
}
