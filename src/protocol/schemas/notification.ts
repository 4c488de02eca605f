import * as z from 'zod/mini';
import { wireInteger } from './fields.js';
import { lazySchema } from './lazy.js';
import { payOrderSchema } from './order.js';
import { settlementRecordSchema } from './settlement.js';

/**
 * Checks a payment notification: the pay-order fields (spec 2.3) plus the `reqTime` the gateway signed it
 * with; unknown extra fields are kept. Values must already be typed (numbers for `amount`, `state` and the
 * times): verification turns the received strings into them first.
 */
export const payOrderNotificationSchema = lazySchema(() =>
  z.looseObject({
    ...payOrderSchema().def.shape,
    /** When the gateway first sent the notification, milliseconds since the epoch (kept on every retry). */
    reqTime: wireInteger(),
  }),
);

/**
 * Checks a settlement notification: the settlement-record fields (spec 2.7), plus what every notification
 * carries (its callback format is not published): the merchant fields and `reqTime`. Required, so that a
 * signed `settleRequestGet` answer (the same record, signed with the same secret, but without them) is not
 * taken for a notification.
 */
export const settlementNotificationSchema = lazySchema(() =>
  z.looseObject({
    ...settlementRecordSchema().def.shape,
    /** The merchant number (checked against the verifier's). */
    mchNo: z.string(),
    /** The application id (checked against the verifier's). */
    appId: z.string(),
    /** When the gateway first sent the callback, milliseconds since the epoch (kept on every retry). */
    reqTime: wireInteger(),
  }),
);
