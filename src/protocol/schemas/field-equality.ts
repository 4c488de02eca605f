// Gateways differ in the case of currency codes (`usd` vs `USD`); the code means the same either way.
const CASE_INSENSITIVE = new Set(['currency']);

/** Whether two values of the gateway field `field` mean the same: equal, or for a currency equal in any case. */
export function sameFieldValue(field: string, a: unknown, b: unknown): boolean {
  return CASE_INSENSITIVE.has(field) && typeof a === 'string' && typeof b === 'string' ? a.toUpperCase() === b.toUpperCase() : a === b;
}
