/**
 * The sweep's public types, derived from the tracked rows of kinds.ts: what `track` takes of a kind's record (by
 * its ids, or by its number after an unknown outcome), what a sweep hands its handlers, the client's reads and the
 * report's counts. A new tracked row gets them all; each kind's group names them (`Refunds.Swept`).
 *
 * @module
 */
import type { OperationName, ResultOf } from '../operations/table.js';
import type { ExpiryTracking } from '../kinds/kind-tracking.js';
import type { notificationKinds, NotificationKindName } from './kinds.js';
import type { IdempotentNotification } from './verify-received.js';

type Kinds = typeof notificationKinds;
/** The kinds whose rows declare a tracking: `payment`, `refund`. */
export type TrackedKindName = { [Name in NotificationKindName]: [NonNullable<Kinds[Name]['tracking']>] extends [never] ? never : Name }[NotificationKindName];
/** A tracked kind's tracking, as its row declares it (its literal read, ids, prefixes). */
type TrackingOf<Name extends TrackedKindName> = NonNullable<Kinds[Name]['tracking']>;
/** The ids a tracked kind's record is read by: `[payOrderId, mchOrderNo]`. */
type IdOf<Name extends TrackedKindName> = TrackingOf<Name>['by'][0];
type NumberOf<Name extends TrackedKindName> = TrackingOf<Name>['by'][1];
/** The signed read that settles a kind's record, and what it resolves to (`PayOrder`, `Refund`). */
type ReadOf<Name extends TrackedKindName> = TrackingOf<Name>['read'] & OperationName;
type RecordOf<Name extends TrackedKindName> = ResultOf<ReadOf<Name>>;
/** The kinds whose records belong to another's (`byKey.of`): `track` asks for them first, so the others' records must not carry their ids. */
type DependentKind = { [Name in TrackedKindName]: TrackingOf<Name>['byKey'] extends { readonly of: string } ? Name : never }[TrackedKindName];
/** The kind a dependent kind's records belong to (a refund's `payment`). */
type OwnerOf<Name extends TrackedKindName> = TrackingOf<Name>['byKey'] extends { readonly of: infer Of extends TrackedKindName } ? Of : never;
/** The kinds whose open records a sweep may close (`expiry`): their read and close are what every client must have. */
type ExpiringKind = { [Name in TrackedKindName]: TrackingOf<Name> extends { readonly expiry: ExpiryTracking } ? Name : never }[TrackedKindName];

/** A record of this kind never carries a dependent kind's ids: such a record is the dependent kind's. */
type NotDependent<Name extends TrackedKindName> = { readonly [Field in IdOf<Exclude<DependentKind, Name>> | NumberOf<Exclude<DependentKind, Name>>]?: undefined };
/** The validity sent with a record of a kind that expires (`sentExpiredTime`), in seconds. */
type SentValidity<Name extends TrackedKindName> = TrackingOf<Name> extends { readonly expiry: { readonly sent: infer Sent extends string } } ? { readonly [Field in Sent]?: number | undefined } : unknown;

/** What `processor.track` takes of a kind's record by its ids: the gateway's id and your number (`Refunds.Trackable`). */
export type Trackable<Name extends TrackedKindName> = { readonly [Field in IdOf<Name> | NumberOf<Name>]: string } & SentValidity<Name> & NotDependent<Name>;

/** Exactly one id of the record it belongs to, as sent (a refund's order, by `payOrderId` or `mchOrderNo`). */
type OneOwnerId<Name extends TrackedKindName> = [OwnerOf<Name>] extends [never]
  ? unknown
  : { [Id in IdOf<OwnerOf<Name>> | NumberOf<OwnerOf<Name>>]: { readonly [Field in Id]: string } & { readonly [Other in Exclude<IdOf<OwnerOf<Name>> | NumberOf<OwnerOf<Name>>, Id>]?: undefined } }[IdOf<OwnerOf<Name>> | NumberOf<OwnerOf<Name>>];

/**
 * What `processor.track` takes of a kind's record whose create rejected with `GatewayOutcomeUnknownError`: your
 * number, the amount and currency sent, (for a kind whose records belong to another's) exactly one id of that
 * record (`Refunds.Unconfirmed`), and what else the record found must carry as sent (a transfer's payee): the
 * parameters you sent, as they are.
 */
export type Unconfirmed<Name extends TrackedKindName> = { readonly [Field in NumberOf<Name>]: string } & { readonly [Field in Kinds[Name]['amountField']]: number } & {
  readonly currency: string;
} & { readonly [Field in IdOf<Name>]?: undefined } & NotDependent<Name> & OneOwnerId<Name> & Marked<Name> & Matched<Name>;

/** The field that tells a kind's record known by its number from another kind's of the same number (a transfer's `entryType`). */
type Marked<Name extends TrackedKindName> = TrackingOf<Name>['byKey'] extends { readonly marker: infer Marker extends string } ? { readonly [Field in Marker]: string } : unknown;

/** What else the record found under the number must carry as sent (a transfer's payee: `ifCode`, `entryType`, `accountNo`). */
type Matched<Name extends TrackedKindName> = TrackingOf<Name>['byKey'] extends { readonly matched: readonly (infer Field extends string)[] } ? { readonly [F in Field]: string } : unknown;

/** Every record `track` and `untrack` take, of every tracked kind. */
export type TrackableRecord = { [Name in TrackedKindName]: Trackable<Name> | Unconfirmed<Name> }[TrackedKindName];

/**
 * A final record as a sweep hands it to its kind's handler: the record of the kind's signed read, with the
 * `idempotencyKey` its notification has and no `reqTime` (nothing was notified) (`Refunds.Swept`).
 */
export type Swept<Name extends TrackedKindName> = RecordOf<Name> & IdempotentNotification & { readonly reqTime?: undefined };

// Methods' types, so that a GatewayClient's overloaded methods are assignable as they were to the hand-written interface.
type ReadMethod<Name extends TrackedKindName> = { read(params: Trackable<Name> | { readonly [Field in NumberOf<Name>]: string }, options?: { signal?: AbortSignal | undefined }): Promise<RecordOf<Name>> }['read'];
type CloseMethod<Name extends TrackedKindName> = { close(params: Trackable<Name>, options: { confirm: true; signal?: AbortSignal | undefined }): Promise<RecordOf<Name>> }['close'];

/**
 * The client reads a sweep needs: each tracked kind's read (optional: a sweep reports the records of a kind whose
 * read its client lacks as not settled), and the read and close of each kind that expires, which every client
 * given to a processor must have.
 */
export type SweepReads = { readonly [Name in TrackedKindName as ReadOf<Name>]?: ReadMethod<Name> } & { readonly [Name in ExpiringKind as ReadOf<Name>]-?: ReadMethod<Name> } & {
  readonly [Name in ExpiringKind as TrackingOf<Name>['expiry'] extends { readonly close: infer Close extends string } ? Close : never]: CloseMethod<Name>;
};

/** The names of the client methods every processor's client must have: each expiring kind's read and close (`query`, `close`). @internal */
export type RequiredClientMethod = { [Name in ExpiringKind]: ReadOf<Name> | (TrackingOf<Name>['expiry'] extends { readonly close: infer Close extends string } ? Close : never) }[ExpiringKind];
