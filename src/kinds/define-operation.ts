/**
 * What one operation of the gateway is: `defineOperation` checks a declaration's shape and keeps its
 * literal types, so the client's methods, their parameter and result types, the mock's routing and the
 * docs can all be derived from the one table (`operations/table.ts`, each row declared in its kind's `declaration.ts`).
 *
 * @module
 */
import type * as z from 'zod/mini';
import type { Keys, KnownKeys } from '../protocol/schemas/keys.js';
import type { Refusals } from './refusals.js';

export type { Keys, KnownKeys };

/**
 * How an operation may be repeated after a failure whose outcome is unknown:
 * - `read`: no effect on the gateway, safe to repeat;
 * - `idempotent`: repeating has the same effect as doing it once (close);
 * - `create`: makes a record keyed by the merchant's own id; never replayed blindly.
 *
 * @example
 * ```ts
 * import { operations } from '../operations/table.js';
 *
 * // What an operator may do after a failure whose outcome is unknown.
 * function afterUnknownOutcome(retry: RetryClass): string {
 *   switch (retry) {
 *     case 'read': return 'run it again';
 *     case 'idempotent': return 'run it again: doing it twice is doing it once';
 *     case 'create': return 'look the record up by your own key before sending it again';
 *   }
 * }
 * afterUnknownOutcome(operations.settleRequest.retry); // 'look the record up by your own key before sending it again'
 * ```
 */
export type RetryClass = 'read' | 'idempotent' | 'create';

/** The named fields of a record that are present (`undefined` ones are left out), each name checked against the record's type. */
export function pick<T extends object, const K extends KnownKeys<T>>(record: T, keys: readonly K[]): Pick<T, K> {
  return pickFields(record as Readonly<Record<string, unknown>>, keys) as Pick<T, K>;
}

/** {@link pick} for generic code, which reads the names from a declaration (where the compiler checked them). */
export function pickFields(record: Readonly<Record<string, unknown>>, keys: readonly string[]): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const key of keys) if (record[key] !== undefined) out[key] = record[key];
  return out;
}

/**
 * How a create's record is looked up by the merchant's key after an ambiguous failure, and turned into the
 * create's result. The record is the result only if every field the create sent that the record's schema
 * has is equal; a `decisive` field that the record cannot show leaves the outcome unknown.
 */
export interface ReconcileDefinition<Lookup extends string = string, Param extends string = string> {
  /** The read operation that finds the record. */
  readonly lookup: Lookup;
  /** The create's parameters that are the lookup's parameters (the merchant's key). */
  readonly by: readonly Param[];
  /** The create's result, from the record found. */
  toResult(record: Readonly<Record<string, unknown>>): Record<string, unknown>;
  /** The fields that decide the payment: sent but not shown by the record, the outcome stays unknown. */
  readonly decisive: readonly Param[];
  /**
   * For a create that may name what its record belongs to by an id the record does not show (a refund asked by
   * `mchOrderNo`, whose record names its order by `payOrderId` only): a signed read `by` those ids that `gives` the
   * ids the record shows, so that the record found is compared with them. The read binds what it was asked, so
   * the `by` fields are proved by it. Without it such a field is `decisive` and the outcome stays unknown.
   */
  readonly resolve?: { readonly lookup: Lookup; readonly by: readonly Param[]; readonly gives: readonly Param[] };
}

/**
 * How the `confirm` option reads back the record of a call whose answer binds nothing of the request
 * (close answers `{}`, settleRequest `{ serverRequestId, status }`).
 */
export interface ConfirmDefinition<Lookup extends string = string, Param extends string = string, Answered extends string = string> {
  /** The read operation that finds the record. */
  readonly lookup: Lookup;
  /** The call's parameters that are the lookup's parameters. */
  readonly by: readonly Param[];
  /** Fields of the call's answer that the record read back must repeat. */
  readonly answered?: readonly Answered[];
  /**
   * For a repeatable call the gateway refused: whether the record read back shows the call already took
   * effect (a close refused because the order is closed already), so the refusal is a success.
   */
  done?(record: Readonly<Record<string, unknown>>): boolean;
  /**
   * Whether the record read back shows the call done (close: the order left states 0 and 1). A record that
   * does not is no confirmation, whatever the answer said: `confirm` throws `GatewayOrderNotFinalError`.
   */
  settled?(record: Readonly<Record<string, unknown>>): boolean;
}

/**
 * For a create the gateway can neither tell a repeat of nor look up (a division receiver's bind, an order's
 * division): it has no key of the merchant's, so an unknown outcome names its record by the parameters that do
 * (the first of `named` given), and says where only a person can learn it. Such a create is never sent again
 * once an attempt may have reached the gateway (it has no `reconcile`).
 */
export interface OneShotDefinition<Param extends string = string> {
  /** The parameters that name the record, in order: the first one given is the unknown outcome's `key`. */
  readonly named: readonly Param[];
  /** Where the merchant learns what became of it (no API can tell), for the record these parameters name. */
  findOut(params: Readonly<Record<string, string | number>>): string;
}

/**
 * One operation of the gateway, as the operation table declares it, and as generic code (the runner,
 * the mock) reads it. `defineOperation` checks every field name against the operation's schemas.
 */
export interface OperationDefinition<Lookup extends string = string> {
  /** Path below `baseUrl`. */
  readonly path: `/${string}`;
  /** Zod schema of the operation's own parameters (the client adds the common fields). */
  readonly params: z.ZodMiniObject;
  /** Zod schema of the response's `data`. */
  readonly result: z.ZodMiniObject;
  /** How the operation may be repeated. */
  readonly retry: RetryClass;
  /** What the method resolves to: the response's `data` (default), or nothing (close's `data` is `{}`). */
  readonly resolves?: 'data' | 'nothing';
  /** Turns the gateway's own answer, and the parameters sent, into the method's result (e.g. marks it apart from a recovered one). */
  readonly answer?: (data: never, params: never) => unknown;
  /** For creates: the merchant's parameter that identifies the record (the idempotency key). */
  readonly key?: string;
  /**
   * The parameters the response's `data` must echo, compared as typed values: another record (a replayed answer)
   * is refused. Only a field whose parameter and answer have the same type can be named.
   */
  readonly binds: readonly string[];
  /**
   * The operation's own refusals: reason to the rule that reads it from the gateway's `msg` and the advice its
   * error leads with. Every operation also has the shared ones (`refusals.ts`); a rule several rows share is
   * written once there and named in each row.
   */
  readonly refusals?: Refusals;
  /** For reads: the reasons of its own refusals that prove the record absent (a lookup that finds nothing). */
  readonly notFound?: readonly string[];
  /**
   * For creates: the reasons of its own refusals the gateway decides before it stores any record (besides the
   * shared signature, merchant, app and parameter checks, `BEFORE_ANY_RECORD`). Only these are final: any other
   * refusal (a duplicate, a state or sum check, a system error, a channel's text) is looked up by the key first.
   */
  readonly refusedBeforeRecord?: readonly string[];
  /** Why the gateway answers this operation with an empty body, and what to do (close: the channel refused). */
  readonly emptyAnswer?: string;
  /** For creates with a lookup: how to settle an ambiguous failure. Absent: no lookup, the outcome stays unknown. */
  readonly reconcile?: ReconcileDefinition<Lookup>;
  /** For answers that bind nothing: how `confirm: true` reads the record back. */
  readonly confirm?: ConfirmDefinition<Lookup>;
  /** For creates with neither a key nor a lookup: what names the record and where to learn its outcome. */
  readonly oneShot?: OneShotDefinition;
  /**
   * Parameters that are valid but likely a mistake the gateway would act on (receivers named by id and by group):
   * the warning the client logs before sending, or `undefined`. Reads the caller's parameters as given.
   */
  readonly caution?: (params: Readonly<Record<string, unknown>>) => string | undefined;
  /** The answer's fields a log shows (the ids the gateway made, the state): the mock's request log. */
  readonly logged?: readonly string[];
  /** One line for documentation (the README's operation table). */
  readonly summary: string;
}

/** The fields of both schemas whose parameter and answer have the same type: what `binds` may name (they are compared as typed values). */
export type BindableKeys<P extends z.ZodMiniObject, R extends z.ZodMiniObject> = {
  [K in Keys<P> & Keys<R>]: [NonNullable<z.output<P>[K]>] extends [NonNullable<z.output<R>[K]>] ? ([NonNullable<z.output<R>[K]>] extends [NonNullable<z.output<P>[K]>] ? K : never) : never;
}[Keys<P> & Keys<R>];

/**
 * What `defineOperation` checks of a declaration beyond its shape: every field name it holds is one
 * its schemas declare (a misspelled name does not compile), and a binding compares values of one type.
 */
interface CheckedFields<P extends z.ZodMiniObject, R extends z.ZodMiniObject> {
  readonly key?: Keys<P>;
  readonly binds: readonly BindableKeys<P, R>[];
  readonly reconcile?: ReconcileDefinition<string, Keys<P>>;
  readonly confirm?: ConfirmDefinition<string, Keys<P>, Keys<R>>;
  readonly oneShot?: OneShotDefinition<Keys<P>>;
  readonly logged?: readonly Keys<R>[];
}

/** A compile error naming each property a row has that an operation does not (a misspelled or removed one). */
type OnlyRowProperties<Definition> = {
  readonly [K in Exclude<keyof Definition, keyof OperationDefinition>]: `not a property of an operation row: ${K & string}`;
} & {
  readonly reconcile?: Definition extends { readonly reconcile: infer R } ? { readonly [K in Exclude<keyof R, keyof ReconcileDefinition>]: `not a property of reconcile: ${K & string}` } : unknown;
  readonly confirm?: Definition extends { readonly confirm: infer C } ? { readonly [K in Exclude<keyof C, keyof ConfirmDefinition>]: `not a property of confirm: ${K & string}` } : unknown;
};

/** A compile error unless every reason the row's `Property` names is one of the row's own `refusals`. */
type ReasonsAreOwn<Definition, Property extends 'notFound' | 'refusedBeforeRecord'> = Definition extends { readonly [P in Property]: readonly (infer Reason)[] }
  ? [Exclude<Reason, keyof (Definition extends { readonly refusals: infer Own } ? Own : {})>] extends [never]
    ? unknown
    : { readonly [P in Property]: `not a reason of this row's refusals: ${Exclude<Reason, keyof (Definition extends { readonly refusals: infer Own } ? Own : {})> & string}` }
  : unknown;

/**
 * Declares an operation: checks its shape, every property and field name in it, and keeps its literal types for
 * the derived ones.
 */
// Pure, for bundlers that read this (rollup); esbuild reads the `@__PURE__` before each call.
/* @__NO_SIDE_EFFECTS__ */
export function defineOperation<P extends z.ZodMiniObject, R extends z.ZodMiniObject, const Definition extends OperationDefinition & CheckedFields<P, R>>(
  definition: Definition & { readonly params: P; readonly result: R } & OnlyRowProperties<Definition> & ReasonsAreOwn<Definition, 'notFound'> & ReasonsAreOwn<Definition, 'refusedBeforeRecord'>,
): Definition {
  return definition;
}

/**
 * The parameters that name an operation's record: a create's key, the ids its lookups find it by, and a read's
 * bindings (the ids it asked for). Logs, traces and the mock's request log show them.
 */
export function recordFields(definition: OperationDefinition): readonly string[] {
  const read = definition.retry === 'read' ? definition.binds : [];
  const names = [definition.key, ...read, ...(definition.reconcile?.by ?? []), ...(definition.confirm?.by ?? []), ...(definition.oneShot?.named ?? [])];
  return [...new Set(names.filter((name): name is string => name !== undefined))];
}
