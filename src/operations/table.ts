/**
 * The operations of the gateway, each declared once in its kind's declaration (`kinds/<kind>/declaration.ts`) and
 * gathered here. Everything else is derived from this table: the client's methods and their types, the mock
 * gateway's routing and field binding, the README's operation table and the public-surface test. Adding an
 * operation: CONTRIBUTING.md.
 *
 * @module
 */
import type { OperationDefinition } from '../kinds/define-operation.js';
import { kindOperations } from '../kinds/index.js';
import type { NamedInput, NamedOutput } from '../protocol/schemas/fields.js';

/**
 * The operation table: each operation's path, schemas, retry class, key, binding and reconciliation.
 *
 * @example
 * ```ts
 * import { operations } from '../operations/table.js'; // internal: the SDK's own code, scripts and the mock
 * operations.query.path;          // '/api/pay/query'
 * operations.unifiedOrder.retry;  // 'create'
 * operations.unifiedOrder.key;    // 'mchOrderNo'
 * ```
 */
// Each row reads its schemas through getters: a schema is built on the first call that needs it
// (protocol/schemas/lazy.ts), so a cold start builds only its first operation's.
export const operations = kindOperations;

/**
 * The name of an operation: a key of the SDK's operation table and the name of its {@link GatewayClient} method.
 *
 * @example
 * ```ts
 * import type { OperationName } from 'payment-gateway-sdk';
 *
 * // Every call's outcome, counted by operation (e.g. from a GatewayError's `operation`).
 * const outcomes = new Map<OperationName, number>();
 * const count = (operation: OperationName) => outcomes.set(operation, (outcomes.get(operation) ?? 0) + 1);
 * count('unifiedOrder');
 * ```
 */
export type OperationName = keyof typeof operations;

/**
 * What an operation's method takes: the input type of its parameter schema.
 *
 * @example
 * ```ts
 * import type { ParamsOf } from './table.js'; // internal: not exported by the package
 *
 * const lookup: ParamsOf<'query'> = { mchOrderNo: 'order-1001' }; // the same as QueryParams
 * ```
 */
export type ParamsOf<Op extends OperationName> = NamedInput<(typeof operations)[Op]['params']>;

/**
 * What an operation's method resolves to: its response's typed `data`, or nothing where the table says so (close).
 *
 * @example
 * ```ts
 * import type { ResultOf } from './table.js'; // internal: not exported by the package
 *
 * const keep = (order: ResultOf<'query'>) => order.state; // the same as PayOrder
 * ```
 */
export type ResultOf<Op extends OperationName> = (typeof operations)[Op] extends { readonly resolves: 'nothing' }
  ? void
  : (typeof operations)[Op] extends {
        /** The operation's own result, where it differs from `data`. */
        readonly answer: (data: never, params: never) => infer Result;
      }
    ? Result
    : NamedOutput<(typeof operations)[Op]['result']>; // the named results carry NotUniquelySigned themselves

/**
 * The record `confirm: true` resolves to: the data of the operation's confirming lookup.
 *
 * @example
 * ```ts
 * import type { ConfirmedOf } from './table.js'; // internal: not exported by the package
 *
 * const closed = (order: ConfirmedOf<'close'>) => order.state === PayOrderState.Closed; // a PayOrder
 * ```
 */
export type ConfirmedOf<Op extends OperationName> = (typeof operations)[Op] extends { readonly confirm: { readonly lookup: infer Lookup extends OperationName } } ? NamedOutput<(typeof operations)[Lookup]['result']> : never;

/** The names of the operations, in the table's order. */
export const OPERATION_NAMES = Object.keys(operations) as OperationName[];

/** An operation's declaration as generic code reads it (the table itself keeps each entry's literal types). */
export function definitionOf(operation: OperationName): OperationDefinition<OperationName> {
  return operations[operation];
}
