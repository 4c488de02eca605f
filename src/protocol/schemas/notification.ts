import * as z from 'zod/mini';
import { payOrderSchema } from './order.js';
import { settlementRecordSchema } from './settlement.js';
import { wireInteger } from './fields.js';

/**
 * Checks a payment notification: the pay-order fields (spec 2.3) plus the `reqTime` the gateway signed it
 * with; unknown extra fields are kept. Values must already be typed (numbers for `amount`, `state` and the
 * times): verification turns the received strings into them first.
 */
export const payOrderNotificationSchema = z.looseObject({
  ...payOrderSchema.def.shape,
  reqTime: wireInteger(),
});

/**
 * Checks a settlement notification: the settlement-record fields (spec 2.7), plus the merchant fields and
 * `reqTime` when the gateway sends them (its callback format is not published).
 */
export const settlementNotificationSchema = z.looseObject({
  ...settlementRecordSchema.def.shape,
  mchNo: z.optional(z.string()),
  appId: z.optional(z.string()),
  reqTime: z.optional(wireInteger()),
});
