/**
 * The payment kind, declared once: the rows of `unifiedOrder`, `query` and `close`, and the payment notification
 * with its tracking. Its schemas and states are beside it (`schemas.ts`, `enums.ts`), which every part of the SDK
 * reads.
 *
 * @module
 */
import * as z from 'zod/mini';
import { currencyCode, requiredText, wireInteger } from '../../protocol/schemas/fields.js';
import { lazySchema } from '../../protocol/schemas/lazy.js';
import { PayOrderState } from './enums.js';
import {
  closeParamsSchema,
  closeResultSchema,
  GATEWAY_DEFAULT_EXPIRED_TIME_S,
  payOrderSchema,
  queryParamsSchema,
  unifiedOrderParamsSchema,
  unifiedOrderResultSchema,
  type PayOrder,
  type UnifiedOrderResult,
} from './schemas.js';
import { defineNotificationKind, orderExpect, settledBy, successElseCreated } from '../define-notification.js';
import { defineOperation, pick } from '../define-operation.js';
import { missingOrderId, orderNotFound } from '../refusals.js';

/**
 * Checks a payment notification: the pay-order fields (spec 2.3) plus the `reqTime` the gateway signed it
 * with; unknown extra fields are kept. Values must already be typed (numbers for `amount`, `state` and the
 * times): verification turns the received strings into them first.
 */
const payOrderNotificationSchema = lazySchema(() =>
  z.looseObject({
    ...payOrderSchema().def.shape,
    /** When the gateway first sent the notification, milliseconds since the epoch (kept on every retry). */
    reqTime: wireInteger(),
  }),
);

const paymentExpect = lazySchema(() => orderExpect(PayOrderState, 'must be a pay-order state (0 to 6) or a non-empty list of them, e.g. PayOrderState.Succeeded'));

/** The payment operations: rows of the operation table (`operations/table.ts`), checked by `defineOperation`. */
export const operations = {
  /** Creates a payment order (`POST /api/pay/unifiedOrder`); the method docs: {@link GatewayClient.unifiedOrder}. */
  unifiedOrder: /* @__PURE__ */ defineOperation({
    path: '/api/pay/unifiedOrder',
    get params() {
      return unifiedOrderParamsSchema();
    },
    get result() {
      return unifiedOrderResultSchema();
    },
    /** The gateway's own answer, marked apart from an order recovered by a lookup, with the validity sent (processor.track reads it). */
    answer: (data: z.output<ReturnType<typeof unifiedOrderResultSchema>>, params: z.output<ReturnType<typeof unifiedOrderParamsSchema>>): UnifiedOrderResult => ({
      ...data,
      recovered: false,
      sentExpiredTime: params.expiredTime ?? GATEWAY_DEFAULT_EXPIRED_TIME_S,
    }),
    retry: 'create',
    key: 'mchOrderNo',
    binds: ['mchOrderNo'],
    refusals: {
      duplicate_order: {
        match: /订单\[[^\]]*\]已存在|order (?:\[[^\]]*\] )?already exists|duplicate (?:mchOrderNo|(?:merchant )?order)/i,
        advice: 'an order with this mchOrderNo exists already: query it by mchOrderNo; a new mchOrderNo is for a new purchase only, never for this one',
      },
      amount_invalid: { match: /金额不能为空|amount (?:cannot be empty|is (?:invalid|required))|invalid amount/i, advice: 'the gateway refused the amount: send a whole number of minor units, at least 1' },
      way_code_unsupported: {
        match: /不支持的支付方式|unsupported (?:payment )?(?:way(?: ?code)?|method)|way ?code (?:is )?not supported/i,
        advice: 'this application cannot take payments with this wayCode: use a way code configured for it at the gateway',
      },
    },
    // Decided by the request's own fields, whatever exists under its key: a repeat is refused as duplicate_order.
    refusedBeforeRecord: ['amount_invalid', 'way_code_unsupported'],
    // A recovered result has payOrderId, mchOrderNo, orderState, errCode, errMsg: the query has no payData.
    reconcile: {
      lookup: 'query',
      by: ['mchOrderNo'],
      toResult: (order: PayOrder) => ({ ...pick(order, ['payOrderId', 'mchOrderNo', 'errCode', 'errMsg']), orderState: order.state, recovered: true }),
      decisive: ['amount', 'currency', 'wayCode'],
    },
    logged: ['payOrderId', 'orderState'],
    summary: 'Creates a payment order. Resolves to a `CreatedOrder` (`recovered: false`, with `payData`) or, after a lost answer, the `RecoveredOrder` found by `mchOrderNo` (no `payData`: see `reissueOrder`).',
  }),
  /** Reads an order (`POST /api/pay/query`); the method docs: {@link GatewayClient.query}. */
  query: /* @__PURE__ */ defineOperation({
    path: '/api/pay/query',
    get params() {
      return queryParamsSchema();
    },
    get result() {
      return payOrderSchema();
    },
    retry: 'read',
    binds: ['payOrderId', 'mchOrderNo'],
    refusals: { missing_order_id: missingOrderId, order_not_found: orderNotFound },
    notFound: ['order_not_found'],
    logged: ['payOrderId', 'state'],
    summary: 'Reads an order by `payOrderId` or `mchOrderNo`. Resolves to the `PayOrder` asked for, with its on-chain transactions (amounts as exact decimal strings).',
  }),
  /** Closes an unpaid order (`POST /api/pay/close`); the method docs: {@link GatewayClient.close}. */
  close: /* @__PURE__ */ defineOperation({
    path: '/api/pay/close',
    get params() {
      return closeParamsSchema();
    },
    get result() {
      return closeResultSchema();
    },
    retry: 'idempotent',
    resolves: 'nothing',
    refusals: {
      missing_order_id: missingOrderId,
      order_not_closable: { match: /不可关闭|cannot be closed|not closable/i, advice: 'the order cannot be closed in its state (only unpaid orders, states 0 and 1, can be): query it to learn its state' },
      order_not_found: orderNotFound,
    },
    // The gateway answers an empty data: nothing to bind; confirm queries the order by the same ids.
    binds: [],
    emptyAnswer: 'The gateway does this when the channel refuses the close: query the order to learn its state.',
    // A refused close of an order already closed is a repeat that already took effect. Its success answer is
    // no proof: the reference answers it when a payer moved the order to 1 meanwhile, so confirm asks a final state.
    confirm: {
      lookup: 'query',
      by: ['payOrderId', 'mchOrderNo'],
      done: (order: PayOrder) => order.state === PayOrderState.Closed,
      settled: (order: PayOrder) => order.state !== PayOrderState.Generated && order.state !== PayOrderState.Paying,
    },
    summary: 'Closes an unpaid order (state 0 or 1). Resolves to nothing; with `{ confirm: true }`, to the `PayOrder` queried afterwards, which must be final (not 0 or 1).',
  }),
};

/** The gateway's notification of a paid order, at the order's `notifyUrl`: `verifyNotification`, `onPaid`. */
export const notification = defineNotificationKind(
  {
    name: 'payment',
    label: 'payment notification',
    verifier: 'verifyNotification',
    handlers: {
      onPaid: { name: 'on_paid', states: [PayOrderState.Succeeded] },
    },
    expectOption: 'expect',
    identifiedBy: ['payOrderId', 'mchOrderNo'],
    stateField: 'state',
    amountField: 'amount',
    // Read by both ids, so that the answer is bound to both; 0 and 1 may still be paid. Tracked under the bare
    // payOrderId since the first release (stores hold these keys), the only kind without a prefix.
    tracking: {
      read: 'query', by: ['payOrderId', 'mchOrderNo'], open: [PayOrderState.Generated, PayOrderState.Paying], states: PayOrderState,
      notFound: 'order_not_found', noun: 'order', found: 'paid order found by a sweep', prefix: '',
      waited: 'show the payment as pending, and rely on the notification or a later query',
      byKey: { prefix: 'order-key:', currency: currencyCode },
      // Only an order has a validity a sweep may act on: closeExpired closes one still open past it.
      expiry: { close: 'close', sent: 'sentExpiredTime' },
    },
    get schema() {
      return payOrderNotificationSchema();
    },
    get expect() {
      return paymentExpect();
    },
    merchantRequired: true,
    // Unchanged since the first release: durable stores hold these keys, and another form would run onPaid again.
    idempotencyKey: (n) => `${n.payOrderId}:${n.state}`,
    // The gateway notifies only paid orders: a message of another state is not a payment.
    defaultExpect: { state: PayOrderState.Succeeded },
    // When it was paid; an order's creation (earlier, so refused sooner) when successTime is not sent.
    eventTime: successElseCreated('was paid', 'is of an order created'),
    recover: 'Query the order (client.query) and fulfil it',
  },
  settledBy<typeof operations>(),
);
