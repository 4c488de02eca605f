/**
 * The tracked kinds as `track` and the sweep read them: every row of kinds.ts with a `tracking`, which form a
 * record given to `track` is (a kind's, by its ids or by its number alone), and which kind a stored key is of. No
 * kind is named here: a new tracked row is served by these alone.
 *
 * @module
 */
import * as z from 'zod/mini';
import { requiredText, safeInteger } from '../protocol/schemas/fields.js';
import { lazySchemaOf } from '../protocol/schemas/lazy.js';
import type { KindTracking } from '../kinds/kind-tracking.js';
import { notificationKinds, type DeclaredKind } from './kinds.js';

/** A row of kinds.ts that declares its tracking. @internal */
export type TrackedKind = DeclaredKind & { readonly tracking: KindTracking };

/** Every tracked kind, in the table's order: the first is the one a record of no kind's form is read as. @internal */
// Pure: a bundle that never sweeps drops it (the dist chunk holds every module, so only this tells the bundler).
export const trackedKinds: readonly TrackedKind[] = /* @__PURE__ */ Object.values(notificationKinds as Readonly<Record<string, DeclaredKind>>).filter((row): row is TrackedKind => row.tracking !== undefined);

/** The tracked kind of a name, as a row's `byKey.of` names it. @internal */
export function trackedKind(name: string): TrackedKind {
  const kind = trackedKinds.find((row) => row.name === name);
  if (kind === undefined) throw new Error(`No tracked notification kind is named ${JSON.stringify(name)} (kinds.ts)`);
  return kind;
}

/** What a stored key is: a kind's record tracked by its id, or by its number alone; `rest` is that id or number. @internal */
export interface KeyOwner {
  readonly kind: TrackedKind;
  readonly byKey: boolean;
  readonly rest: string;
}

// Keys by their number first, then ids with a prefix (longest first), then the kind tracked under its bare id.
const prefixes: readonly { readonly prefix: string; readonly kind: TrackedKind; readonly byKey: boolean }[] = /* @__PURE__ */ trackedKinds
  .map((kind) => ({ prefix: kind.tracking.byKey.prefix, kind, byKey: true }))
  .concat(/* @__PURE__ */ trackedKinds.map((kind) => ({ prefix: kind.tracking.prefix, kind, byKey: false })).sort((a, b) => b.prefix.length - a.prefix.length));

/** The kind and form of a stored key (`refund:R1` is a refund's by its id). @internal */
export function keyOwner(key: string): KeyOwner | undefined {
  const owner = prefixes.find(({ prefix }) => key.startsWith(prefix));
  return owner && { kind: owner.kind, byKey: owner.byKey, rest: key.slice(owner.prefix.length) };
}

/** The key a kind's record is tracked under by its id. @internal */
export const idKey = (kind: TrackedKind, id: string): string => `${kind.tracking.prefix}${id}`;

/**
 * Which kind, and which form, a record given to `track` is: a kind's by its id when it carries that id, else by its
 * number alone when it carries that. A kind whose records belong to another's (`byKey.of`) is asked first: its
 * records carry the other's ids too. A record of no form is the first tracked kind's by its id (its check says why). @internal
 */
export function trackedForm(record: unknown): { readonly kind: TrackedKind; readonly byKey: boolean } {
  const has = (field: string) => typeof record === 'object' && record !== null && field in record;
  const dependents = trackedKinds.filter((kind) => kind.tracking.byKey.of !== undefined);
  for (const kind of dependents) {
    if (has(kind.tracking.by[0])) return { kind, byKey: false };
    if (has(kind.tracking.by[1])) return { kind, byKey: true };
  }
  // The others' ids before any number: two kinds may number their records by one field (a payment's and a
  // transfer's mchOrderNo), and one known by its number alone is then told by its kind's marker.
  const others = trackedKinds.filter((kind) => kind.tracking.byKey.of === undefined);
  const byId = others.find((kind) => has(kind.tracking.by[0]));
  if (byId) return { kind: byId, byKey: false };
  const marked = [...others.filter((kind) => kind.tracking.byKey.marker !== undefined), ...others.filter((kind) => kind.tracking.byKey.marker === undefined)];
  const byNumber = marked.find(({ tracking: { by, byKey } }) => has(by[1]) && (byKey.marker === undefined || has(byKey.marker)));
  return byNumber ? { kind: byNumber, byKey: true } : { kind: trackedKinds[0]!, byKey: false };
}

/** `a order` is `an order`: how messages name one record of a kind. @internal */
export const aRecord = (kind: TrackedKind): string => `${/^[aeiou]/.test(kind.tracking.noun) ? 'an' : 'a'} ${kind.tracking.noun}`;

// Ten years: every store holds the expiry exactly (past 2^53 ms a SQLite row or a Redis record read back fails every sweep).
const MAX_EXPIRED_TIME_S = 315_360_000;
/** A validity in seconds, as `track` takes it. @internal */
export const expiredTimeSchema = () => z.optional(safeInteger(1).check(z.refine((value: number) => value <= MAX_EXPIRED_TIME_S, { error: `must be at most ${MAX_EXPIRED_TIME_S} (ten years)` })));

/**
 * What `track` takes of a kind's record by its ids: its id and number, and (with the expiry capability) the validity
 * it was created with. The id of a kind tracked under its bare id may not begin as another key does: it would be
 * read as that. Built on first use per kind. @internal
 */
export const idSchema = lazySchemaOf((kind: TrackedKind): z.ZodMiniType<Readonly<Record<string, unknown>>> => {
  const { by, prefix, expiry } = kind.tracking;
  const keyPrefixes = trackedKinds.map((other) => JSON.stringify(other.tracking.byKey.prefix)).join(' or ');
  const id =
    prefix !== ''
      ? requiredText()
      : requiredText().check(
          ...trackedKinds
            .filter((other) => other.tracking.prefix !== '')
            .map((other) => z.refine((value: unknown) => !String(value).startsWith(other.tracking.prefix), { error: `must not begin with ${JSON.stringify(other.tracking.prefix)}: track ${aRecord(other)} by its ${other.tracking.by[0]} and ${other.tracking.by[1]}` })),
          z.refine((value: unknown) => !trackedKinds.some((other) => String(value).startsWith(other.tracking.byKey.prefix)), {
            error: `must not begin with ${keyPrefixes}: track ${aRecord(kind)} whose outcome is unknown by { ${by[1]}, ${kind.amountField}, currency }`,
          }),
        );
  return z.object({ [by[0]]: id, [by[1]]: requiredText(), ...(expiry === undefined ? {} : { [expiry.sent]: expiredTimeSchema() }) }) as unknown as z.ZodMiniType<Readonly<Record<string, unknown>>>;
});
