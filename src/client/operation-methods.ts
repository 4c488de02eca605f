import type { ConfirmedOf, OperationName, operations, ParamsOf, ResultOf } from '../operations/table.js';
import type { ConfirmOptions, RequestOptions } from './options.js';

/**
 * The parameter and result types of one operation, as {@link OperationTypes} lists them.
 *
 * @example
 * ```ts
 * import type { OperationTypes } from './operation-methods.js'; // internal: not exported by the package
 *
 * type Query = OperationTypes['query']; // Operation<QueryParams, PayOrder>
 * async function auditedQuery(params: Query['params']): Promise<Query['result']> {
 *   const order = await client.query(params);
 *   log.info({ payOrderId: order.payOrderId, state: order.state }, 'order read');
 *   return order;
 * }
 * ```
 */
export interface Operation<Params, Result> {
  /** What the method takes. */
  params: Params;
  /** What the method resolves to. */
  result: Result;
}

/**
 * Parameters and results of each operation, by name, derived from the SDK's operation table: one place to
 * type code that handles any operation generically (queues, audit logs, test doubles).
 *
 * @example
 * ```ts
 * import type { OperationName } from 'payment-gateway-sdk';
 * import type { OperationTypes } from './operation-methods.js'; // internal: not exported by the package
 *
 * // A job queued now and run later by a worker, typed by the operation it will call.
 * interface GatewayJob<Op extends OperationName> {
 *   operation: Op;
 *   params: OperationTypes[Op]['params'];
 * }
 * const job: GatewayJob<'query'> = { operation: 'query', params: { mchOrderNo: 'order-1001' } };
 * ```
 */
export type OperationTypes = { [Op in OperationName]: Operation<ParamsOf<Op>, ResultOf<Op>> };

/**
 * An operation's method: its parameters, the per-call options and its result (`confirm: true` where the
 * table offers it).
 *
 * @example
 * ```ts
 * import type { OperationMethods } from 'payment-gateway-sdk';
 *
 * // Inject just the query method into a service.
 * const readOrder: OperationMethods['query'] = client.query.bind(client);
 * ```
 */
export type OperationMethod<Op extends OperationName> =
  (typeof operations)[Op] extends { readonly confirm: object }
    ? {
        (params: ParamsOf<Op>, options: ConfirmOptions & { confirm: true }): Promise<ConfirmedOf<Op>>;
        (params: ParamsOf<Op>, options?: ConfirmOptions & { confirm?: false | undefined }): Promise<ResultOf<Op>>;
        (params: ParamsOf<Op>, options?: ConfirmOptions): Promise<ResultOf<Op> | ConfirmedOf<Op>>;
      }
    : (params: ParamsOf<Op>, options?: RequestOptions) => Promise<ResultOf<Op>>;

/**
 * The operation methods of {@link GatewayClient}, one per entry of the SDK's operation table (its TSDoc
 * is the method's). Each validates, signs and sends, verifies the response and resolves to its typed data.
 *
 * @example
 * ```ts
 * import type { OperationMethods } from 'payment-gateway-sdk';
 *
 * // A service that only reads orders gets just that method, e.g. a test double of it.
 * type OrderReader = Pick<OperationMethods, 'query'>;
 * const reader: OrderReader = client;
 * ```
 */
export type OperationMethods = { readonly [Op in keyof typeof operations]: OperationMethod<Op> };
