/**
 * The six operations, each declared once: path, parameter schema, result schema and retry class. The
 * client's methods, the mock gateway and the docs are derived from this table.
 *
 * @module
 */
import type * as z from 'zod/mini';
import {
  closeParamsSchema,
  closeResultSchema,
  payOrderSchema,
  queryParamsSchema,
  unifiedOrderParamsSchema,
  unifiedOrderResultSchema,
} from '../protocol/schemas/order.js';
import {
  settleAddressApplyParamsSchema,
  settlementRecordSchema,
  settlementResultSchema,
  settleRequestGetParamsSchema,
  settleRequestParamsSchema,
} from '../protocol/schemas/settlement.js';

/**
 * How an operation may be repeated after a failure whose outcome is unknown:
 * - `read`: no effect on the gateway, safe to repeat;
 * - `idempotent`: repeating has the same effect as doing it once (close);
 * - `create`: makes a record keyed by the merchant's own id; never replayed blindly.
 *
 * @example
 * ```ts
 * import { endpoints, type RetryClass } from 'payment-gateway-sdk';
 *
 * // What an operator may do after a failure whose outcome is unknown.
 * function afterUnknownOutcome(retry: RetryClass): string {
 *   switch (retry) {
 *     case 'read': return 'run it again';
 *     case 'idempotent': return 'run it again: doing it twice is doing it once';
 *     case 'create': return 'look the record up by your own key before sending it again';
 *   }
 * }
 * afterUnknownOutcome(endpoints.settleRequest.retry); // 'look the record up by your own key before sending it again'
 * ```
 */
export type RetryClass = 'read' | 'idempotent' | 'create';

/**
 * The declaration of one operation, as {@link endpoints} holds it.
 *
 * @example
 * ```ts
 * import { endpoints, type EndpointDefinition } from 'payment-gateway-sdk';
 *
 * // One line per operation, e.g. for a runbook or an allow-list of the gateway's paths.
 * const describe = (name: string, endpoint: EndpointDefinition) => `${name}: POST ${endpoint.path} (${endpoint.retry}) ${endpoint.summary}`;
 * for (const [name, endpoint] of Object.entries(endpoints)) console.log(describe(name, endpoint));
 * ```
 */
export interface EndpointDefinition {
  /** Path below `baseUrl`. */
  readonly path: string;
  /** Zod schema of the operation's own parameters (the common fields are added by the client). */
  readonly params: z.ZodMiniObject;
  /** Zod schema of the response's `data`. */
  readonly result: z.ZodMiniType;
  /** How the operation may be repeated. */
  readonly retry: RetryClass;
  /** For creates: the merchant's parameter that identifies the record (the idempotency key). */
  readonly key?: string;
  /**
   * The parameters the response's `data` must echo: a record for another order or request (a replayed or
   * substituted answer) is a {@link GatewayResponseMismatchError}, never a result.
   */
  readonly binds: readonly string[];
  /** Parameters that may carry URLs or JSON with query strings: only a field name of this operation may not follow an `&` in them. */
  readonly urlParams?: readonly string[];
  /** The one field of the response's `data` that may carry a URL with a query string. */
  readonly resultUrlField?: string;
  /**
   * For creates: how to find the record after an ambiguous failure. Absent where the gateway offers no
   * lookup (settleAddressApply): an ambiguous failure there ends in {@link GatewayOutcomeUnknownError}.
   */
  readonly reconcile?: ReconcileDefinition;
  /**
   * For calls whose answer proves nothing about the record (close, settleRequest): how the `confirm`
   * option reads it back, and which fields of the answer the record must repeat.
   */
  readonly confirm?: {
    readonly lookup: 'query' | 'settleRequestGet';
    readonly params: (params: Record<string, unknown>) => Record<string, unknown>;
    readonly answered?: readonly string[];
  };
  /** One line for documentation. */
  readonly summary: string;
}

/**
 * How a create's record is looked up by the merchant's key, and turned into the create's result. The
 * record found is the result only if every field the create sent that the record carries is equal; a
 * `decisive` field sent that the record does not show leaves the outcome unknown.
 *
 * @example
 * ```ts
 * import { endpoints, type ReconcileDefinition } from 'payment-gateway-sdk';
 *
 * const reconcile: ReconcileDefinition | undefined = endpoints.unifiedOrder.reconcile;
 * reconcile?.lookup;                                             // 'query'
 * reconcile?.params({ mchOrderNo: 'order-1001', amount: 1999 }); // { mchOrderNo: 'order-1001' }
 * reconcile?.decisive;                                           // ['amount', 'currency', 'wayCode']
 * endpoints.settleAddressApply.reconcile;                        // undefined: the gateway offers no lookup
 * ```
 */
export interface ReconcileDefinition {
  /** The read operation that finds the record. */
  readonly lookup: 'query' | 'settleRequestGet';
  /** The lookup's parameters, from the create's parameters. */
  readonly params: (createParams: Record<string, unknown>) => Record<string, unknown>;
  /** The create's result, from the record found. */
  readonly toResult: (record: Record<string, unknown>) => Record<string, unknown>;
  /**
   * The fields that decide the payment: when the create sent one and the record does not show it (a
   * payout to a declared address: the record has no `addrServerRequestId`), the record cannot be proved to
   * be this create's, and the outcome stays unknown ({@link GatewayOutcomeUnknownError}). Every other field
   * sent that the record carries must be equal too, or the record is an older one under the same key
   * ({@link GatewayReconciliationMismatchError}).
   */
  readonly decisive: readonly string[];
}

function pick(record: Record<string, unknown>, keys: readonly string[]): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const key of keys) if (record[key] !== undefined) out[key] = record[key];
  return out;
}

/**
 * The name of an operation: a key of {@link endpoints} and the name of its {@link GatewayClient} method.
 *
 * @example
 * ```ts
 * import { endpoints, type OperationName } from 'payment-gateway-sdk';
 *
 * // A failed create may still have made a record: page someone instead of retrying it blindly.
 * const isCreate = (operation: OperationName): boolean => endpoints[operation].retry === 'create';
 * isCreate('unifiedOrder'); // true
 * ```
 */
export type OperationName = 'unifiedOrder' | 'query' | 'close' | 'settleAddressApply' | 'settleRequest' | 'settleRequestGet';

const definitions = {
  unifiedOrder: {
    path: '/api/pay/unifiedOrder',
    params: unifiedOrderParamsSchema,
    result: unifiedOrderResultSchema,
    retry: 'create',
    key: 'mchOrderNo',
    binds: ['mchOrderNo'],
    urlParams: ['notifyUrl', 'returnUrl', 'channelExtra'],
    resultUrlField: 'payData',
    // A recovered result has payOrderId, mchOrderNo, orderState, errCode, errMsg: the query has no payData.
    reconcile: {
      lookup: 'query',
      params: (p) => ({ mchOrderNo: p.mchOrderNo }),
      toResult: (order) => ({ ...pick(order, ['payOrderId', 'mchOrderNo', 'errCode', 'errMsg']), orderState: order.state }),
      decisive: ['amount', 'currency', 'wayCode'],
    },
    summary: 'Create a payment order and get the parameters to collect it.',
  },
  query: {
    path: '/api/pay/query',
    params: queryParamsSchema,
    result: payOrderSchema,
    retry: 'read',
    binds: ['payOrderId', 'mchOrderNo'],
    summary: 'Read the latest state of an order, with its on-chain transactions.',
  },
  close: {
    path: '/api/pay/close',
    params: closeParamsSchema,
    result: closeResultSchema,
    retry: 'idempotent',
    // The gateway answers an empty data: nothing to bind; confirm queries the order by the same ids.
    binds: [],
    confirm: { lookup: 'query', params: (p) => p },
    summary: 'Close an order that is not paid yet (state 0 or 1).',
  },
  settleAddressApply: {
    path: '/api/channelbiz/coinpay/settleAddressApply',
    params: settleAddressApplyParamsSchema,
    result: settlementResultSchema,
    retry: 'create',
    key: 'requestId',
    // The answer is { serverRequestId, status }: nothing of the request to bind, and no lookup.
    binds: [],
    summary: 'Declare a crypto address to receive settlements (reviewed by the platform).',
  },
  settleRequest: {
    path: '/api/channelbiz/coinpay/settleRequest',
    params: settleRequestParamsSchema,
    result: settlementResultSchema,
    retry: 'create',
    key: 'requestId',
    // The answer is { serverRequestId, status }: nothing to bind; confirm reads the record by requestId.
    binds: [],
    urlParams: ['notifyUrl'],
    confirm: { lookup: 'settleRequestGet', params: (p) => ({ requestId: p.requestId }), answered: ['serverRequestId'] },
    reconcile: {
      lookup: 'settleRequestGet',
      params: (p) => ({ requestId: p.requestId }),
      toResult: (record) => pick(record, ['serverRequestId', 'status']),
      decisive: ['amount', 'tokenId', 'currency', 'address', 'addrServerRequestId'],
    },
    summary: 'Settle available balance to a declared or given crypto address.',
  },
  settleRequestGet: {
    path: '/api/channelbiz/coinpay/settleRequestGet',
    params: settleRequestGetParamsSchema,
    result: settlementRecordSchema,
    retry: 'read',
    binds: ['requestId'],
    resultUrlField: 'notifyUrl',
    summary: 'Read a settlement request by your requestId.',
  },
} as const satisfies Record<OperationName, EndpointDefinition>;

/**
 * The operation table: each operation's path, schemas, retry class and reconciliation.
 *
 * @example
 * ```ts
 * import { endpoints } from 'payment-gateway-sdk';
 * endpoints.query.path; // '/api/pay/query'
 * endpoints.unifiedOrder.retry; // 'create'
 * ```
 */
export const endpoints: { readonly [Op in OperationName]: EndpointDefinition } = definitions;

/** The common fields every signed request carries besides the operation's own (spec 2.1). */
export const COMMON_REQUEST_FIELDS = ['version', 'signType', 'sign', 'reqTime', 'mchNo', 'appId'] as const;

/**
 * The fields the gateway knows for an operation: the common ones and the operation's own. The gateway
 * signs exactly these, so nothing else may be sent.
 */
export function wireFields(operation: OperationName): readonly string[] {
  return [...COMMON_REQUEST_FIELDS, ...Object.keys(endpoints[operation].params.def.shape)];
}
