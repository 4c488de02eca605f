/**
 * How a notification kind is tracked (`processor.track`, `processor.sweep`), declared in its row of kinds.ts: the
 * read that settles a tracked record, the ids it is read by, and the states still open. The compiler checks each
 * against the operation table and the kind's schema; the sweep reads them from the row.
 *
 * @module
 */
import type * as z from 'zod/mini';
import type { Keys } from '../protocol/schemas/keys.js';
import type { OperationName, operations } from '../operations/table.js';

/** The operations a tracked record may be settled with: the table's reads (`retry: 'read'`), e.g. `query`, `refundQuery`. */
export type SettlingRead = { [Op in OperationName]: (typeof operations)[Op]['retry'] extends 'read' ? Op : never }[OperationName];

/**
 * How the processor's `track` and `sweep` serve a kind, as generic code reads it (a row's declaration is checked
 * by {@link CheckedTracking}).
 */
export interface KindTracking<Read extends SettlingRead = SettlingRead> {
  /** The signed read a sweep settles a tracked record with: an operation of the table whose `retry` is `read`. */
  readonly read: Read;
  /** The parameters of `read` a tracked record is read by: the gateway's id (the record's tracked key) and your number. */
  readonly by: readonly [id: string, number: string];
  /** The states of a record still open: a sweep leaves it tracked and reads it again later. */
  readonly open: readonly number[];
}

/** The values a kind's `stateField` takes (its state enum); `never` for a kind without one. */
export type StateOf<Schema extends z.ZodMiniObject, StateField> = Extract<StateField extends keyof z.output<Schema> ? z.output<Schema>[StateField] : never, number>;

/** What a row may declare as its tracking: a read of the table, by parameters of that read, with states of the kind's enum. */
export type CheckedTracking<State> = {
  [Read in SettlingRead]: {
    readonly read: Read;
    readonly by: readonly [id: Keys<(typeof operations)[Read]['params']>, number: Keys<(typeof operations)[Read]['params']>];
    readonly open: readonly State[];
  };
}[SettlingRead];

/** Whether `state` is one the row's tracking declares open. */
export const isOpen = (tracking: KindTracking, state: number): boolean => tracking.open.includes(state);

/** The ids a tracked record is read by, named as its row's `by` names them: `{ payOrderId, mchOrderNo }`, `{ refundOrderId, mchRefundNo }`. */
export function readIds<const Id extends string, const No extends string>(tracking: { readonly by: readonly [Id, No] }, id: string, number: string): { readonly [Field in Id | No]: string } {
  return { [tracking.by[0]]: id, [tracking.by[1]]: number } as { readonly [Field in Id | No]: string };
}
