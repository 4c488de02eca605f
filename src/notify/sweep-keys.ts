/**
 * Records tracked by their number alone: one whose create (`unifiedOrder`, `refundOrder`) ended in
 * `GatewayOutcomeUnknownError` (it may or may not exist). Each is tracked under its row's `tracking.byKey.prefix` and
 * its number (`order-key:<mchOrderNo>`, `refund-key:<mchRefundNo>`: no id tracked before can take either form,
 * `track` refuses it), with what was sent written where a tracked record's number goes, so that every store keeps it
 * without a new column and refuses a conflicting track as it refuses any (the record kept has another number).
 *
 * @module
 */
import * as z from 'zod/mini';
import { minorUnits, requiredText } from '../protocol/schemas/fields.js';
import { lazySchemaOf } from '../protocol/schemas/lazy.js';
import { sameFieldValue } from '../protocol/schemas/field-equality.js';
import { trackedKind, type TrackedKind } from './sweep-kinds.js';
import type { TrackedOrder } from './tracking.js';



/** What was sent of a record tracked by its number alone, read back from the store: its kind, and the one id of the record it belongs to (`byKey.of`). @internal */
export interface Sent {
  readonly kind: TrackedKind;
  readonly number: string;
  readonly amount: number;
  readonly currency: string;
  /** The id of the record it belongs to, as sent: which of that kind's ids (`payOrderId` or `mchOrderNo`), and its value. */
  readonly of?: { readonly by: string; readonly id: string } | undefined;
  /** The keyed digest of each of the kind's `byKey.matched` fields as sent, in its order. */
  readonly matched: readonly string[];
}

/** What the digest of a matched field is taken over: the kind, the field and its value, so that no digest stands for another field's. */
const matchedText = (kind: TrackedKind, field: string, value: unknown): string => JSON.stringify([kind.name, field, String(value)]);

/** The keyed digest of each of `kind`'s matched fields of `record` (sent or found), in the declared order. @internal */
export function matchedDigests(kind: TrackedKind, record: Readonly<Record<string, unknown>>, digest: (text: string) => Promise<string>): Promise<string[]> {
  return Promise.all((kind.tracking.byKey.matched ?? []).map((field) => digest(matchedText(kind, field, record[field]))));
}

/** The matched fields a record found carries otherwise than sent, by name (their values are not shown: a payee's account). @internal */
export async function matchedDifferences(sent: Sent, record: Readonly<Record<string, unknown>>, digest: (text: string) => Promise<string>): Promise<string[]> {
  const found = await matchedDigests(sent.kind, record, digest);
  return (sent.kind.tracking.byKey.matched ?? []).filter((field, i) => record[field] === undefined || found[i] !== sent.matched[i]);
}

/**
 * What `track` takes of a kind's record whose create's outcome is unknown: its number, the amount (the row's
 * `amountField`) and currency sent, and exactly one id of the record it belongs to, as sent. Loose: the parameters
 * sent (with a subject, a reason) may be given as they are. Built on first use per kind. @internal
 */
export const sentSchema = lazySchemaOf((kind: TrackedKind): z.ZodMiniType<Readonly<Record<string, unknown>>> => {
  const { by, byKey } = kind.tracking;
  const matched = Object.fromEntries((byKey.matched ?? []).map((field) => [field, requiredText()]));
  const shape = { ...matched, [by[1]]: requiredText(), [kind.amountField]: minorUnits(), currency: byKey.currency() };
  if (byKey.of === undefined) {
    return z.object(shape) as unknown as z.ZodMiniType<Readonly<Record<string, unknown>>>;
  }
  const of = trackedKind(byKey.of);
  const [ofId, ofNumber] = of.tracking.by;
  return z
    .object({ ...shape, [ofId]: z.optional(requiredText()), [ofNumber]: z.optional(requiredText()) })
    .check(
      z.refine((sent: Readonly<Record<string, unknown>>) => (sent[ofId] === undefined) !== (sent[ofNumber] === undefined), {
        error: `give exactly one of ${ofId} and ${ofNumber}: the ${of.tracking.noun} id the ${kind.tracking.noun} was sent with`,
        path: [ofId],
      }),
    ) as unknown as z.ZodMiniType<Readonly<Record<string, unknown>>>;
});

/** The key a record known by its number is tracked under. @internal */
export const numberKey = (kind: TrackedKind, number: string): string => `${kind.tracking.byKey.prefix}${number}`;

/**
 * The tracked record of a kind's record known by its number: what was sent goes where a number goes, as a fixed
 * array (`[number, amount, CURRENCY]`, then `ofBy, ofId` for one that belongs to another record, then the keyed
 * digest of each `byKey.matched` field), so that the same record tracked twice is written the same. Stores hold
 * these: never change the shape. @internal
 */
export async function trackedByNumber(kind: TrackedKind, sent: Readonly<Record<string, unknown>>, trackedAt: number, expiresAt: number | undefined, digest: (text: string) => Promise<string>): Promise<TrackedOrder> {
  const { by, byKey } = kind.tracking;
  const number = sent[by[1]] as string;
  const values: unknown[] = [number, sent[kind.amountField], (sent['currency'] as string).toUpperCase()];
  if (byKey.of !== undefined) {
    const [ofId, ofNumber] = trackedKind(byKey.of).tracking.by;
    values.push(...(sent[ofId] === undefined ? [ofNumber, sent[ofNumber]] : [ofId, sent[ofId]]));
  }
  values.push(...(await matchedDigests(kind, sent, digest)));
  return { payOrderId: numberKey(kind, number), mchOrderNo: JSON.stringify(values), trackedAt, expiresAt };
}

/** What was sent of a record tracked by its number, read back from the store: `'unreadable'` when it is not what `track` wrote. @internal */
export function sentOf(kind: TrackedKind, number: string, stored: string): Sent | 'unreadable' {
  let value: unknown;
  try {
    value = JSON.parse(stored);
  } catch {
    return 'unreadable';
  }
  if (!Array.isArray(value) || value[0] !== number || !Number.isSafeInteger(value[1]) || typeof value[2] !== 'string') return 'unreadable';
  const { of, matched: fields = [] } = kind.tracking.byKey;
  const base = of === undefined ? 3 : 5;
  const matched: unknown[] = value.slice(base);
  if (value.length !== base + fields.length || !matched.every((digest) => typeof digest === 'string' && /^[0-9a-f]{64}$/.test(digest))) return 'unreadable';
  const sent = { kind, number, amount: value[1] as number, currency: value[2], matched: matched as string[] };
  if (of === undefined) return sent;
  if (!trackedKind(of).tracking.by.includes(value[3]) || typeof value[4] !== 'string') return 'unreadable';
  return { ...sent, of: { by: value[3] as string, id: value[4] } };
}

/** What was sent, as a conflict or a mismatch names it. @internal */
export const describeSent = (sent: Sent): string =>
  `${sent.kind.amountField} ${sent.amount}, currency ${JSON.stringify(sent.currency)}${sent.of === undefined ? '' : `, ${sent.of.by} ${JSON.stringify(sent.of.id)}`}${sent.matched.length === 0 ? '' : `, ${(sent.kind.tracking.byKey.matched ?? []).join(', ')} (not shown)`}`;

/** How a record found under a key differs from what was sent (each `field found, not sent`), or `undefined` when it does not. @internal */
export function sentDifferences(sent: Readonly<Record<string, unknown>>, record: Readonly<Record<string, unknown>>): string | undefined {
  const differing = Object.keys(sent).filter((field) => !sameFieldValue(field, sent[field], record[field]));
  if (differing.length === 0) return undefined;
  return differing.map((field) => `${field} ${JSON.stringify(record[field])}, not ${JSON.stringify(sent[field])} as sent`).join('; ');
}
