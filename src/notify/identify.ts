/**
 * Which kind of notification a received message is, by its shape: the rows' `identifiedBy` fields. One notify
 * URL receives every kind, and a refund's state 2 is not a payment's: a message that could be read as two
 * kinds, or as none, is refused before any kind's verification, by a processor and by each plain verifier alike.
 *
 * @module
 */
import { GatewayValidationError } from '../errors/index.js';
import { notificationKinds, type DeclaredKind } from './kinds.js';

/**
 * The one kind whose identifying fields are all present (signed: neither `sign`, an ignored key nor an empty
 * value, which the gateway does not sign), provided that the message carries no identifying field of another
 * kind that its own schema does not declare; otherwise a refusal naming the kinds it could be.
 */
export function identifyKind<Kind extends DeclaredKind>(kinds: readonly Kind[], fields: ReadonlyMap<string, string | null>, ignoreKeys: readonly string[]): Kind | GatewayValidationError {
  const present = signedPresence(fields, ignoreKeys);
  const matching = matchingKinds(kinds, fields, ignoreKeys);
  const [kind] = matching;
  if (matching.length !== 1 || kind === undefined) return unidentified(kinds, matching);
  for (const other of kinds) {
    const foreign = other === kind ? undefined : other.identifiedBy.find((name) => present(name) && !Object.hasOwn(kind.schema.def.shape, name));
    if (foreign === undefined) continue;
    return new GatewayValidationError(`The message is shaped as a ${kind.label} but carries fields of another kind, so it was not processed as either`, [
      { path: [foreign], message: `is not a field of a ${kind.label} but of a ${other.label} (${takenBy(other)}); the gateway sends no message with both: do not act on this message` },
    ]);
  }
  return kind;
}

/**
 * Why a plain verifier of `kind` refuses the (signed, non-empty) fields: they are shaped as another kind, as two
 * kinds, or as `kind` with another kind's identifying field, so that no verifier takes a message a processor would
 * dispatch elsewhere or refuse. `undefined` when a processor would take them as `kind`, or when no kind's
 * identifying fields are all present (the kind's schema then says what is missing).
 */
export function shapeRefusal(kind: DeclaredKind, fields: ReadonlyMap<string, string>): GatewayValidationError | undefined {
  const kinds: readonly DeclaredKind[] = Object.values(notificationKinds);
  if (matchingKinds(kinds, fields, []).length === 0) return undefined;
  const found = identifyKind(kinds, fields, []);
  if (found instanceof GatewayValidationError) return found;
  if (found.name === kind.name) return undefined;
  // The field that sets it apart: one the verifier's own kind does not declare (a refund has a payOrderId too).
  const field = found.identifiedBy.find((name) => !Object.hasOwn(kind.schema.def.shape, name)) ?? found.identifiedBy[0] ?? '';
  return new GatewayValidationError(`The message is shaped as a ${found.label}, not a ${kind.label}, so ${kind.verifier} refused it`, [
    { path: [field], message: `is a field of a ${found.label}: take it with ${takenBy(found)}, never as a ${kind.label}` },
  ]);
}

/** The kinds whose identifying fields are all present: one for a notification, none for a request or an answer. */
export function matchingKinds<Kind extends DeclaredKind>(kinds: readonly Kind[], fields: ReadonlyMap<string, string | null>, ignoreKeys: readonly string[]): Kind[] {
  const present = signedPresence(fields, ignoreKeys);
  return kinds.filter((kind) => kind.identifiedBy.every(present));
}

// The gateway signs neither `sign`, the merchant's own notifyUrl parameters nor an empty value.
function signedPresence(fields: ReadonlyMap<string, string | null>, ignoreKeys: readonly string[]): (name: string) => boolean {
  return (name) => name !== 'sign' && !ignoreKeys.includes(name) && (fields.get(name) ?? '') !== '';
}

/** What verifies and handles a kind, for a refusal's advice: `verifyRefundNotification or a processor's onRefunded and onRefundFailed`. */
function takenBy(kind: DeclaredKind): string {
  return `${kind.verifier} or a processor's ${Object.keys(kind.handlers).join(' and ')}`;
}

function unidentified(kinds: readonly DeclaredKind[], matching: readonly DeclaredKind[]): GatewayValidationError {
  const shapes = kinds.map((kind) => `a ${kind.label} has ${kind.identifiedBy.join(' and ')}`).join('; ');
  if (matching.length === 0) {
    return new GatewayValidationError('The message is no notification the gateway sends, so it was not processed', [{ path: [], message: `${shapes}: do not act on this message` }]);
  }
  const summary = `The message is shaped as ${matching.map((kind) => `a ${kind.label}`).join(' and as ')}, so it was not processed as either`;
  const takers = matching.map((kind) => `a ${kind.label} is taken by ${takenBy(kind)}`).join('; ');
  return new GatewayValidationError(summary, [{ path: [], message: `${shapes}. The gateway sends no message of two kinds (${takers}): do not act on this message` }]);
}
