/**
 * The reference: Java's `String.CASE_INSENSITIVE_ORDER` written out as its comparator, char by char
 * (compare code units; where they differ, their upper-case forms, then their lower-case forms; a prefix
 * sorts first). The SDK sorts case-folded strings natively instead; the tests hold it to this.
 */
export function compareCaseInsensitive(a: string, b: string): number {
  const shorter = Math.min(a.length, b.length);
  for (let i = 0; i < shorter; i++) {
    let x = a.charCodeAt(i);
    let y = b.charCodeAt(i);
    if (x === y) continue;
    x = upper(x);
    y = upper(y);
    if (x === y) continue;
    x = lower(x);
    y = lower(y);
    if (x !== y) return x - y;
  }
  return a.length - b.length;
}

function upper(c: number): number {
  const s = String.fromCharCode(c).toUpperCase();
  return s.length === 1 ? s.charCodeAt(0) : c;
}

function lower(c: number): number {
  const s = String.fromCharCode(c).toLowerCase();
  return s.length === 1 ? s.charCodeAt(0) : c;
}
