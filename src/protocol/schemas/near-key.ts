/** Keys longer than this are compared for case only: a misspelling is found among short names, cheaply. */
const MAX_COMPARED_LENGTH = 64;

/**
 * The known key that `key` most likely misspells: the same but for case, `_` or `-` (`payDatatype`,
 * `pay_data_type`), or one edit away (two for a name of 8 characters or more: `buyerUsrId`). `undefined`
 * when none is that close, or when `key` is itself known.
 */
export function nearKey(key: string, known: readonly string[]): string | undefined {
  if (known.includes(key)) return undefined;
  const folded = fold(key);
  const sameButCase = known.find((k) => fold(k) === folded);
  if (sameButCase !== undefined || folded.length > MAX_COMPARED_LENGTH) return sameButCase;
  let best: { key: string; distance: number } | undefined;
  for (const candidate of known) {
    const target = fold(candidate);
    const allowed = target.length >= 8 ? 2 : 1;
    if (Math.abs(target.length - folded.length) > allowed) continue;
    const distance = editDistance(folded, target);
    if (distance <= allowed && (best === undefined || distance < best.distance)) best = { key: candidate, distance };
  }
  return best?.key;
}

const fold = (key: string): string => key.toLowerCase().replace(/[_-]/g, '');

/** Edits (insert, delete, replace, swap two neighbours) that turn `a` into `b`: optimal string alignment. */
function editDistance(a: string, b: string): number {
  const rows = Array.from({ length: a.length + 1 }, (_, i) => Array.from({ length: b.length + 1 }, (_, j) => (i === 0 ? j : j === 0 ? i : 0)));
  for (let i = 1; i <= a.length; i++) {
    for (let j = 1; j <= b.length; j++) {
      const cost = a[i - 1] === b[j - 1] ? 0 : 1;
      let d = Math.min(rows[i - 1]![j]! + 1, rows[i]![j - 1]! + 1, rows[i - 1]![j - 1]! + cost);
      if (i > 1 && j > 1 && a[i - 1] === b[j - 2] && a[i - 2] === b[j - 1]) d = Math.min(d, rows[i - 2]![j - 2]! + 1);
      rows[i]![j] = d;
    }
  }
  return rows[a.length]![b.length]!;
}
