/**
 * How a notification kind is tracked (`processor.track`, `processor.sweep`), declared in its kind's declaration: the
 * read that settles a tracked record, the ids it is read by, the states still open, the keys it is tracked under,
 * the words the sweep's report uses for it, and what only some kinds can do (close one past its validity). The
 * compiler checks each against the kind's own operations and its schema; the sweep reads them and names no kind.
 *
 * @module
 */
import type * as z from 'zod/mini';
import type { Keys } from '../protocol/schemas/keys.js';

/** A kind's operations, by name, as its declaration gives them (each with its `retry`, `params` and `notFound`). */
export type KindOperations = { readonly [Op in string]: { readonly retry: string; readonly params: z.ZodMiniType; readonly result: z.ZodMiniType; readonly notFound?: readonly string[] | undefined } };

/** The operations of `Ops` a tracked record may be settled with: its reads (`retry: 'read'`), e.g. `query`, `refundQuery`. */
export type ReadsOf<Ops extends KindOperations> = { [Op in keyof Ops & string]: Ops[Op]['retry'] extends 'read' ? Op : never }[keyof Ops & string];

/** How a record whose create's outcome is unknown is tracked by its number alone (`GatewayOutcomeUnknownError`). */
export interface KeyTracking {
  /** What its key begins with before the number: `order-key:`. Stores hold these keys: never change one. */
  readonly prefix: string;
  /** The check of the currency sent (the amount sent is the row's `amountField`, in minor units). */
  readonly currency: () => z.ZodMiniType<string>;
  /**
   * The tracked kind a record belongs to (a refund's `payment`), sent by exactly one of that kind's ids: the record
   * found must be of it (one sent by its number is compared with the id a signed read of it gives).
   */
  readonly of?: string | undefined;
  /**
   * A field one known by its number must carry to be of this kind, where another kind numbers its records by the
   * same field (a transfer's `entryType`: a payment has `mchOrderNo` too). Absent: the number alone.
   */
  readonly marker?: string | undefined;
  /**
   * What else the record found under the number must carry as sent, beyond the amount and currency: the create's
   * decisive fields that tell one record from another under a number used before (a transfer's payee: `ifCode`,
   * `entryType`, `accountNo`). The store keeps each as a digest keyed by the merchant's secret, never the value (a
   * payee's account is personal data). Absent: nothing else.
   */
  readonly matched?: readonly string[] | undefined;
}

/** A capability of a kind whose open record a sweep may close once its validity passed (`closeExpired`): payments. */
export interface ExpiryTracking {
  /** The operation that closes a record and reads it back (`close` with `confirm: true`). */
  readonly close: 'close';
  /** The field of a created record (`track`'s argument) that carries the validity sent, in seconds. */
  readonly sent: string;
}

/**
 * How the processor's `track` and `sweep` serve a kind, as generic code reads it (a row's declaration is checked
 * by {@link CheckedTracking}).
 */
export interface KindTracking<Read extends string = string> {
  /** The signed read a sweep settles a tracked record with: an operation of the kind whose `retry` is `read`. */
  readonly read: Read;
  /** The parameters of `read` a tracked record is read by: the gateway's id (the record's tracked key) and your number. */
  readonly by: readonly [id: string, number: string];
  /** The states of a record still open: a sweep leaves it tracked and reads it again later. */
  readonly open: readonly number[];
  /** Every state of the kind (its enum): a final one no handler takes is counted `closed` and forgotten. */
  readonly states: Readonly<Record<string, number>>;
  /** The refusal of `read` that proves a record absent (one of the read's `notFound`), e.g. `order_not_found`. */
  readonly notFound: string;
  /** What the sweep's messages call one record: `order`, `refund`. */
  readonly noun: string;
  /** What a client's wait for one (`waitFor` and the noun: `waitForRefund`) says to do when it gave up on one still open. */
  readonly waited: string;
  /** What an expectation's refusal of a swept record calls it: `paid order found by a sweep`. */
  readonly found: string;
  /**
   * What its tracked key is before the id: `refund:`; `''` for payments, tracked under their bare `payOrderId` since
   * the first release. Stores hold these keys: never change one.
   */
  readonly prefix: string;
  /** How one is tracked by its number alone, after its create's outcome was unknown. */
  readonly byKey: KeyTracking;
  /** The field of the sweep's report that counts this kind (`refunds`); absent: the report's own fields (one kind only). */
  readonly reportedIn?: string | undefined;
  /**
   * For a kind the gateway stops settling by itself: a record still open this long after its `createdAt` is listed
   * among the report's problems (`warning`) with this advice, and stays tracked. Absent: never said.
   */
  readonly stalled?: { readonly afterMs: number; readonly advice: string } | undefined;
  /** Whether, and how, a sweep may close an open record past its validity; absent: never. */
  readonly expiry?: ExpiryTracking | undefined;
}

/** The values a kind's `stateField` takes (its state enum); `never` for a kind without one. */
export type StateOf<Schema extends z.ZodMiniObject, StateField> = Extract<StateField extends keyof z.output<Schema> ? z.output<Schema>[StateField] : never, number>;

/** The reasons a read's row says prove a record absent. */
type NotFoundOf<Row> = Row extends { readonly notFound: readonly (infer Reason extends string)[] } ? Reason : never;

/**
 * What a kind may declare as its tracking: one of its own reads, by parameters of that read, with states of the
 * kind's enum and a not-found reason of that read.
 */
export type CheckedTracking<State, Ops extends KindOperations> = {
  [Read in ReadsOf<Ops>]: Omit<KindTracking<Read>, 'by' | 'open' | 'states' | 'notFound' | 'byKey'> & {
    readonly by: readonly [id: Keys<Ops[Read]['params']>, number: Keys<Ops[Read]['params']>];
    readonly byKey: Omit<KeyTracking, 'matched'> & { readonly matched?: readonly Keys<Ops[Read]['result']>[] | undefined };
    readonly open: readonly State[];
    readonly states: Readonly<Record<string, State>>;
    readonly notFound: NotFoundOf<Ops[Read]> & string;
  };
}[ReadsOf<Ops>];

/** Whether `state` is one the row's tracking declares open. */
export const isOpen = (tracking: KindTracking, state: number): boolean => tracking.open.includes(state);

/** The ids a tracked record is read by, named as its row's `by` names them: `{ payOrderId, mchOrderNo }`, `{ refundOrderId, mchRefundNo }`. */
export function readIds<const Id extends string, const No extends string>(tracking: { readonly by: readonly [Id, No] }, id: string, number: string): { readonly [Field in Id | No]: string } {
  return { [tracking.by[0]]: id, [tracking.by[1]]: number } as { readonly [Field in Id | No]: string };
}
