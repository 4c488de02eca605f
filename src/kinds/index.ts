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

/** Each kind's operations, in the order the docs list them (a kind's create before its read). */
const rowsOfKinds = [payments.operations, settlements.operations, refunds.operations, transfers.operations, division.operations] as const;

type Gathered<Rows extends readonly object[]> = Rows extends readonly [infer First, ...infer Rest extends readonly object[]] ? First & Gathered<Rest> : unknown;
type RowNames<Rows> = Rows extends unknown ? keyof Rows : never;
type SharedRowNames<Rows extends readonly object[]> = Rows extends readonly [infer First, ...infer Rest extends readonly object[]] ? (keyof First & RowNames<Rest[number]>) | SharedRowNames<Rest> : never;
type NoneShared<Names extends never> = Names;
/** Compiles only while no two kinds declare an operation of the same name (one row would silently replace the other). */
export type DisjointOperationNames = NoneShared<SharedRowNames<typeof rowsOfKinds>>;

/** Every kind's operations in one table. */
// Made in a pure call: a bundle that verifies notifications and calls no operation (a webhook) leaves every row out.
export const kindOperations = /* @__PURE__ */ (() => Object.assign({}, ...rowsOfKinds) as Gathered<typeof rowsOfKinds>)();

/** Every kind's notification, by its name. */
export const kindNotifications = {
  [payments.notification.name]: payments.notification,
  [refunds.notification.name]: refunds.notification,
  [transfers.notification.name]: transfers.notification,
  [settlements.notification.name]: settlements.notification,
};
