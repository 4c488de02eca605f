/**
 * How a kind declares its notification: `defineNotificationKind` checks every name in a declaration against the
 * kind's schemas, its state enum and its own operations, and keeps the literal types that verification, the
 * processor and the sweep derive from. The kinds themselves are declared in their folders (`kinds/<kind>/`).
 *
 * @module
 */
import * as z from 'zod/mini';
import { minorUnits, requiredText } from '../protocol/schemas/fields.js';
import type { Keys } from '../protocol/schemas/keys.js';
import type { CheckedTracking, KindOperations, KindTracking, StateOf } from './kind-tracking.js';

/** A value a field must have, or a list of the values it may have. */
export type Expected = string | number | readonly (string | number)[] | undefined;

/** An event's time, the signed field it was read from and what that field says, which a `stale` error names. */
export interface EventTime<Field extends string = string> {
  readonly field: Field;
  readonly time: number;
  /** e.g. `was paid`, as in "the payment notification was paid at ...". */
  readonly happened: string;
}

/**
 * One handler a kind's row declares: the processor option that holds it (the key of `handlers`), its name in
 * telemetry, and the states it takes.
 */
export interface KindHandler<HandlerName extends `on_${string}` = `on_${string}`, State extends number = number> {
  /** The handler as telemetry names it, e.g. `on_paid`. */
  readonly name: HandlerName;
  /** The values of the row's `stateField` it takes (typed by its enum where a row is declared); absent: every state (a kind without one). */
  readonly states?: readonly State[] | undefined;
}

/** What sets one kind of notification apart from another; the rules are the same for all. */
export interface NotificationKind<
  Schema extends z.ZodMiniObject = z.ZodMiniObject,
  Expect extends z.ZodMiniObject = z.ZodMiniObject,
  Handlers extends { readonly [Option in `on${string}`]?: KindHandler } = { readonly [Option in `on${string}`]?: KindHandler },
  Name extends string = string,
  ExpectOption extends `expect${string}` = `expect${string}`,
  Tracking extends KindTracking | undefined = KindTracking | undefined,
  AmountField extends string = string,
> {
  /** The kind's name, the key of its row, and its name in telemetry (`payment`). */
  readonly name: Name;
  /** For messages, e.g. `payment notification`. */
  readonly label: string;
  /**
   * The plain verifier of this kind (an export of the package, and a `GatewayClient` method of the same name where
   * it has one), named by the refusal of a message shaped as this kind that another kind's verifier was given.
   */
  readonly verifier: `verify${string}Notification`;
  /**
   * The processor options that hold this kind's handlers (`onPaid`), each with its telemetry name and the
   * states it takes. A processor runs the one given that takes the notification's state.
   */
  readonly handlers: Handlers;
  /** The processor option that holds what this kind's notifications must match, e.g. `expect`, `expectRefund`. */
  readonly expectOption: ExpectOption;
  /**
   * The fields every message of this kind carries and no message of another kind does without being refused:
   * a processor picks the kind whose fields are all present, and refuses a message that two kinds or none
   * claim, or that also carries another kind's identifying fields its own schema does not declare.
   */
  readonly identifiedBy: readonly string[];
  /**
   * The fields that name the record, the only ones of a verified notification that telemetry records. Default: its
   * tracking's `by`, and those of the kind it belongs to (a refund's `payOrderId`); an untracked kind declares them.
   */
  readonly ids?: readonly string[] | undefined;
  /** The field whose value picks the handler (`state`); absent: the kind's handlers take every message. */
  readonly stateField?: string | undefined;
  /** The amount an expectation may pin, which is checked only with `currency` (1000 USD is not 1000 JPY). */
  readonly amountField: AmountField;
  /**
   * How the processor's `track` and `sweep` serve this kind: the read that settles a tracked record, the ids it is
   * read by, the states still open. `undefined` (absent where the row is declared): the kind is not tracked.
   */
  readonly tracking: Tracking;
  /** The typed shape of the verified notification. */
  readonly schema: Schema;
  /** What the caller's `expect` may pin: fields of the notification, each optional. */
  readonly expect: Expect;
  /** Whether `mchNo` and `appId` must be present (otherwise they are checked when present). */
  readonly merchantRequired: boolean;
  /** The key under which the event is processed once, from declared fields only (a misspelled one does not compile). */
  // A method, so that a row is also a NotificationKind of any schema (a list of kinds, the verifier's parameter).
  idempotencyKey(notification: Pick<z.output<Schema>, Keys<Schema>>): string;
  /** What every notification of this kind must match unless the caller's `expect` says otherwise; a processor requires it. */
  readonly defaultExpect?: Readonly<Partial<Record<Keys<Schema>, Expected>>> | undefined;
  /**
   * When the event happened, as the gateway signed it in every message of the event alike: what a store's
   * horizon is compared with. Not `reqTime` for a payment: a payer can have the cashier's return redirect
   * signed again, with a new `reqTime`, at will.
   */
  eventTime(notification: Pick<z.output<Schema>, Keys<Schema>>): EventTime<Keys<Schema>>;
  /** What to do about an event the store may have forgotten (a `stale` outcome), e.g. `Query the order (client.query) and fulfil it`. */
  readonly recover: string;
}

/** The field names a row gives outside its functions, each a field of its schemas (checked where a row is declared). */
interface NamedFields<Schema extends z.ZodMiniObject, StateField extends Keys<Schema> | undefined, AmountField> {
  readonly identifiedBy: readonly Keys<Schema>[];
  readonly ids?: readonly Keys<Schema>[];
  readonly stateField?: StateField;
  readonly amountField: AmountField;
}

/** A compile error unless every field an expectation names is a field of the notification. */
type ExpectsOnlyFields<Schema extends z.ZodMiniObject, Expect extends z.ZodMiniObject> =
  [Exclude<Keys<Expect>, Keys<Schema>>] extends [never] ? unknown : { readonly expect: `not a field of the notification: ${Exclude<Keys<Expect>, Keys<Schema>>}` };

/** A compile error unless every handler option is named `onSomething`. */
type HandlersNamedOn<Handlers> =
  [Exclude<keyof Handlers, `on${string}`>] extends [never] ? unknown : { readonly handlers: `not a handler option (onSomething): ${Exclude<keyof Handlers, `on${string}`> & string}` };

/**
 * Declares a notification kind: checks every field name in it against its schema, each handler's states and the
 * open states against the kind's state enum, its tracking's read against the kind's own operations (the second
 * argument of a tracked kind, {@link settledBy}), and keeps its types for those derived.
 */
// Pure, for bundlers that read this (rollup): a notification kind no code reads leaves the bundle.
/* @__NO_SIDE_EFFECTS__ */
export function defineNotificationKind<
  Schema extends z.ZodMiniObject,
  Expect extends z.ZodMiniObject,
  const StateField extends Keys<Schema> | undefined,
  const Handlers extends { readonly [Option in `on${string}`]?: KindHandler<`on_${string}`, StateOf<Schema, StateField>> },
  const Name extends string,
  const ExpectOption extends `expect${string}`,
  const Tracking extends CheckedTracking<StateOf<Schema, StateField>, Ops> | undefined = undefined,
  const AmountField extends Keys<Expect> = Keys<Expect>,
  Ops extends KindOperations = Record<never, never>,
>(
  kind: Omit<NotificationKind<Schema, Expect, Handlers, Name, ExpectOption, Tracking, AmountField>, 'tracking'> & { readonly tracking?: Tracking } & NamedFields<Schema, StateField, AmountField> & ExpectsOnlyFields<Schema, Expect> & HandlersNamedOn<Handlers>,
  // Typing only (settledBy): the reads a tracked kind may be settled with are its own.
  _settledBy?: SettledBy<Ops>,
): NotificationKind<Schema, Expect, Handlers, Name, ExpectOption, Tracking, AmountField> {
  // An untracked row may leave tracking out: read, it is undefined, as its type says.
  return kind as NotificationKind<Schema, Expect, Handlers, Name, ExpectOption, Tracking, AmountField>;
}

/** A kind's operations as a type only: what its tracking's read is checked against, with no code kept for it. */
export interface SettledBy<Ops extends KindOperations> {
  readonly operations?: Ops;
}

/**
 * The second argument of a tracked kind's {@link defineNotificationKind}: its own operations, by type
 * (`settledBy<typeof operations>()`), so that a notification kind keeps none of its rows in a bundle.
 */
export const settledBy = <Ops extends KindOperations>(): SettledBy<Ops> => ({});

/**
 * When an event that ended a record happened: its `successTime`, else (it failed) its `createdAt`, each as the gateway
 * signed it in every message of the event alike; never `reqTime`, which a re-send renews.
 */
export const successElseCreated =
  (succeeded: string, created: string) =>
  (n: { readonly successTime?: number | undefined; readonly createdAt: number }): EventTime<'successTime' | 'createdAt'> =>
    n.successTime !== undefined ? { field: 'successTime', time: n.successTime, happened: succeeded } : { field: 'createdAt', time: n.createdAt, happened: created };

// One state or a non-empty list of them; a check rather than a zod union, which would cost bundle size.
export const expectedState = <State extends number>(states: Readonly<Record<string, State>>, error: string) => {
  const known: ReadonlySet<unknown> = new Set(Object.values(states));
  return z.custom<State | readonly State[]>((v) => known.has(v) || (Array.isArray(v) && v.length > 0 && v.every((s) => known.has(s))), { error });
};

// A payment's and a transfer's: your mchOrderNo, the amount with its currency, the states; one builder for both.
export const orderExpect = <State extends number>(states: Readonly<Record<string, State>>, error: string) =>
  z.strictObject({
    /** Your order or transfer number. */
    mchOrderNo: z.optional(requiredText()),
    /** The amount in integer minor units. */
    amount: z.optional(minorUnits()),
    /** The currency code, compared case-insensitively. */
    currency: z.optional(requiredText()),
    /** The state, or the states, the notification may carry (default: those the gateway notifies). */
    state: z.optional(expectedState(states, error)),
  });
