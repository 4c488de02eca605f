import * as z from 'zod/mini';
import { wireInteger } from './fields.js';
import { lazySchema } from './lazy.js';
import { settlementRecordSchema } from './settlement.js';

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
