import { JsonNumberText } from '../../../src/protocol/json/lossless-json.js';

/** The value JSON.parse would give: kept literals become (rounded) JS numbers. */
export function toPlain(value: unknown): unknown {
  if (value instanceof JsonNumberText) return Number(value.text);
  if (Array.isArray(value)) return value.map(toPlain);
  if (value && typeof value === 'object') return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, toPlain(v)]));
  return value;
}
