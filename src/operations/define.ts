/**
 * What one operation of the gateway is: `defineOperation` checks a declaration's shape and keeps its
 * literal types, so the client's methods, their parameter and result types, the mock's routing and the
 * docs can all be derived from the one table (./table.ts).
 *
 * @module
 */
import type * as z from 'zod/mini';

/**
 * How an operation may be repeated after a failure whose outcome is unknown:
 * - `read`: no effect on the gateway, safe to repeat;
 * - `idempotent`: repeating has the same effect as doing it once (close);
 * - `create`: makes a record keyed by the merchant's own id; never replayed blindly.
 *
 * @example
 * ```ts
 * import { operations, type RetryClass } from 'payment-gateway-sdk';
 *
 * // What an operator may do after a failure whose outcome is unknown.
 * function afterUnknownOutcome(retry: RetryClass): string {
 *   switch (retry) {
 *     case 'read': return 'run it again';
 *     case 'idempotent': return 'run it again: doing it twice is doing it once';
 *     case 'create': return 'look the record up by your own key before sending it again';
 *   }
 * }
 * afterUnknownOutcome(operations.settleRequest.retry); // 'look the record up by your own key before sending it again'
 * ```
 */
export type RetryClass = 'read' | 'idempotent' | 'create';

/**
 * How a create's record is looked up by the merchant's key after an ambiguous failure, and turned into the
 * create's result. The record is the result only if every field the create sent that the record's schema
 * has is equal; a `decisive` field that the record cannot show leaves the outcome unknown.
 *
 * @example
 * ```ts
 * import { operations, type ReconcileDefinition } from 'payment-gateway-sdk';
 *
 * const reconcile: ReconcileDefinition | undefined = operations.unifiedOrder.reconcile;
 * reconcile?.lookup;                                             // 'query'
 * reconcile?.params({ mchOrderNo: 'order-1001', amount: 1999 }); // { mchOrderNo: 'order-1001' }
 * reconcile?.decisive;                                           // ['amount', 'currency', 'wayCode']
 * ```
 */
export interface ReconcileDefinition<Lookup extends string = string> {
  /** The read operation that finds the record. */
  readonly lookup: Lookup;
  /** The lookup's parameters, from the create's parameters. */
  readonly params: (createParams: Readonly<Record<string, unknown>>) => Record<string, unknown>;
  /** The create's result, from the record found. */
  readonly toResult: (record: Readonly<Record<string, unknown>>) => Record<string, unknown>;
  /** The fields that decide the payment: sent but not shown by the record, the outcome stays unknown. */
  readonly decisive: readonly string[];
}

/**
 * How the `confirm` option reads back the record of a call whose answer binds nothing of the request
 * (close answers `{}`, settleRequest `{ serverRequestId, status }`).
 *
 * @example
 * ```ts
 * import { operations, type ConfirmDefinition } from 'payment-gateway-sdk';
 *
 * const confirm: ConfirmDefinition | undefined = operations.settleRequest.confirm;
 * confirm?.lookup;   // 'settleRequestGet'
 * confirm?.answered; // ['serverRequestId']: the record must repeat what the answer said
 * ```
 */
export interface ConfirmDefinition<Lookup extends string = string> {
  /** The read operation that finds the record. */
  readonly lookup: Lookup;
  /** Its parameters, from the call's parameters. */
  readonly params: (params: Readonly<Record<string, unknown>>) => Record<string, unknown>;
  /** Fields of the call's answer that the record read back must repeat. */
  readonly answered?: readonly string[];
}

/**
 * One operation of the gateway, as the table {@link operations} declares it.
 *
 * @example
 * ```ts
 * import { operations, type OperationDefinition } from 'payment-gateway-sdk';
 *
 * // One line per operation, e.g. for a runbook or an allow-list of the gateway's paths.
 * const line = (name: string, op: OperationDefinition) => `${name}: POST ${op.path} (${op.retry}) ${op.summary}`;
 * for (const [name, op] of Object.entries(operations)) console.log(line(name, op));
 * ```
 */
export interface OperationDefinition<Lookup extends string = string> {
  /** Path below `baseUrl`. */
  readonly path: `/${string}`;
  /** Zod schema of the operation's own parameters (the client adds the common fields). */
  readonly params: z.ZodMiniObject;
  /** Zod schema of the response's `data`. */
  readonly result: z.ZodMiniObject;
  /** How the operation may be repeated. */
  readonly retry: RetryClass;
  /** What the method resolves to: the response's `data` (default), or nothing (close's `data` is `{}`). */
  readonly resolves?: 'data' | 'nothing';
  /** Turns the gateway's own answer into the method's result (e.g. marks it apart from a recovered one). */
  readonly answer?: (data: never) => unknown;
  /** For creates: the merchant's parameter that identifies the record (the idempotency key). */
  readonly key?: string;
  /** The parameters the response's `data` must echo: another record (a replayed answer) is refused. */
  readonly binds: readonly string[];
  /** For creates with a lookup: how to settle an ambiguous failure. Absent: no lookup, the outcome stays unknown. */
  readonly reconcile?: ReconcileDefinition<Lookup>;
  /** For answers that bind nothing: how `confirm: true` reads the record back. */
  readonly confirm?: ConfirmDefinition<Lookup>;
  /** One line for documentation (the README's operation table). */
  readonly summary: string;
}

/** Declares how a create is reconciled, keeping the lookup's name as a literal type. */
export function reconcileBy<const Lookup extends string>(definition: ReconcileDefinition<Lookup>): ReconcileDefinition<Lookup> {
  return definition;
}

/** Declares how `confirm: true` reads a record back, keeping the lookup's name as a literal type. */
export function confirmBy<const Lookup extends string>(definition: ConfirmDefinition<Lookup>): ConfirmDefinition<Lookup> {
  return definition;
}

/** Declares an operation: checks its shape and keeps its literal types for the derived ones. */
export function defineOperation<const Definition extends OperationDefinition>(definition: Definition): Definition {
  return definition;
}
