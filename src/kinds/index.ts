/**
 * The record kinds, each declared once in its folder (`kinds/<kind>/declaration.ts`), and the one list of them: the
 * operation table (`operations/table.ts`) and the notification kinds (`notify/kinds.ts`) are read from here, and
 * name no kind. Adding a kind: CONTRIBUTING.md, "Adding a record kind".
 *
 * @module
 */
import * as division from './division/declaration.js';
import * as payments from './payments/declaration.js';
import * as refunds from './refunds/declaration.js';
import * as settlements from './settlements/declaration.js';
import * as transfers from './transfers/declaration.js';

/** Every kind's operations, in the order the docs list them (a kind's create before its read). */
// Made in a pure call: a bundle that verifies notifications and calls no operation (a webhook) leaves every row out.
export const kindOperations = /* @__PURE__ */ (() => ({ ...payments.operations, ...settlements.operations, ...refunds.operations, ...transfers.operations, ...division.operations }))();

/** Every kind's notification, by its name. */
export const kindNotifications = {
  [payments.notification.name]: payments.notification,
  [refunds.notification.name]: refunds.notification,
  [transfers.notification.name]: transfers.notification,
  [settlements.notification.name]: settlements.notification,
};
