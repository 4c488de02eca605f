/**
 * The kinds of notification the gateway sends, each declared in its kind's folder (`kinds/<kind>/declaration.ts`)
 * and gathered here: verification (`verify.ts`), its options (`options.ts`), and the processor's option types
 * (`processor-options.ts`), option checks (`processor-settings.ts`), identification (`identify.ts`), dispatch and
 * telemetry names (`delivery.ts`) derive from these rows.
 *
 * @module
 */
import type * as z from 'zod/mini';
import type { EventTime, Expected, KindHandler, NotificationKind } from '../kinds/define-notification.js';
import { kindNotifications } from '../kinds/index.js';
import type { KindTracking } from '../kinds/kind-tracking.js';
import type { operations, OperationName } from '../operations/table.js';

export { defineNotificationKind, type EventTime, type Expected, type KindHandler, type NotificationKind } from '../kinds/define-notification.js';

/** The operations a tracked record may be settled with: the table's reads (`retry: 'read'`), e.g. `query`, `refundQuery`. */
export type SettlingRead = { [Op in OperationName]: (typeof operations)[Op]['retry'] extends 'read' ? Op : never }[OperationName];

/** A kind's tracking as generic code reads it: its read is one of the table's. */
export type TableTracking = KindTracking<SettlingRead>;

/** Every kind, by name (see CONTRIBUTING.md, "Adding a record kind"). */
export const notificationKinds = kindNotifications satisfies { readonly [Name in string]: { readonly name: Name } };

/** A kind's name: `payment`, `refund`, `transfer`, `settlement`. */
export type NotificationKindName = keyof typeof notificationKinds;

/** A row of {@link notificationKinds}, of the given schema: what verification and the processor take. */
export type DeclaredKind<Schema extends z.ZodMiniObject = z.ZodMiniObject> = NotificationKind<
  Schema,
  z.ZodMiniObject,
  { readonly [Option in `on${string}`]?: KindHandler },
  NotificationKindName,
  (typeof notificationKinds)[NotificationKindName]['expectOption']
>;
