// Whether dist/ is the build of the sources as they are, so that one install or pack builds once: an install
// from a git URL runs `prepare` twice (npm's install in the clone, then again before packing it), `npm pack` runs
// `prepack` and then `prepare`.
import { readFileSync, readdirSync, statSync } from 'node:fs';
import { join } from 'node:path';

// What the build reads: the sources, its configuration, and the pinned versions of what it bundles.
const INPUTS = ['src', 'tsup.config.ts', 'tsconfig.json', 'package.json', 'package-lock.json'];

/** The newest modification time under `path`, directories included (a deleted file changes its folder's). */
function newestUnder(path) {
  const stats = statSync(path, { throwIfNoEntry: false });
  if (stats === undefined) return 0;
  if (!stats.isDirectory()) return stats.mtimeMs;
  return Math.max(stats.mtimeMs, ...readdirSync(path).map((name) => newestUnder(join(path, name))));
}

/**
 * True when every file the package's exports map and bin point at exists and is newer than every input of
 * the build; false when one is missing (never built, or a build cut short) or older.
 */
export function distIsFresh(root) {
  const manifest = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8'));
  const targets = [...JSON.stringify([manifest.exports, manifest.bin]).matchAll(/"\.\/(dist\/[^"]+)"/g)].map(([, path]) => path);
  if (targets.length === 0) return false;
  const built = targets.map((path) => statSync(join(root, path), { throwIfNoEntry: false })?.mtimeMs ?? 0);
  const inputs = Math.max(...INPUTS.map((path) => newestUnder(join(root, path))));
  return Math.min(...built) > inputs;
}
