/**
 * Which kind of notification a received message is, by its shape: the rows' `identifiedBy` fields. One notify
 * URL receives every kind, and a refund's state 2 is not a payment's: a message that could be read as two
 * kinds, or as none, is refused before any kind's verification.
 *
 * @module
 */
import { GatewayValidationError } from '../errors/index.js';
import type { DeclaredKind } from './kinds.js';

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
  const foreign = kinds.flatMap((other) => (other === kind ? [] : other.identifiedBy.filter((name) => present(name) && !Object.hasOwn(kind.schema.def.shape, name))));
  if (foreign.length > 0) {
    return new GatewayValidationError(`The message is shaped as a ${kind.label} but carries fields of another kind, so it was not processed as either`, [
      { path: [foreign[0]!], message: `is not a field of a ${kind.label}: do not act on this message` },
    ]);
  }
  return kind;
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

function unidentified(kinds: readonly DeclaredKind[], matching: readonly DeclaredKind[]): GatewayValidationError {
  const shapes = kinds.map((kind) => `a ${kind.label} has ${kind.identifiedBy.join(' and ')}`).join('; ');
  const summary =
    matching.length === 0
      ? 'The message is no notification the gateway sends, so it was not processed'
      : `The message is shaped as ${matching.map((kind) => `a ${kind.label}`).join(' and as ')}, so it was not processed as either`;
  return new GatewayValidationError(summary, [{ path: [], message: `${shapes}: do not act on this message` }]);
}
