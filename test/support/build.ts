// The slow suites that run the built command build it themselves (CI starts from a clean clone): once, when
// dist/ is missing or older than a source file, so they never run a stale build.
import { existsSync, readdirSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { npm, repoRoot } from '../../scripts/lib/shipped-package.mjs';

/** The built command, dist/cli.js. */
export const BUILT_CLI = join(repoRoot, 'dist', 'cli.js');

function newestSourceTime(): number {
  const inputs = [join(repoRoot, 'package.json'), join(repoRoot, 'tsup.config.ts')];
  for (const entry of readdirSync(join(repoRoot, 'src'), { withFileTypes: true, recursive: true })) {
    if (entry.isFile()) inputs.push(join(entry.parentPath, entry.name));
  }
  return Math.max(...inputs.map((file) => statSync(file).mtimeMs));
}

/** Runs `npm run build` unless dist/cli.js is newer than every source file. */
export async function ensureBuilt(): Promise<void> {
  if (existsSync(BUILT_CLI) && statSync(BUILT_CLI).mtimeMs >= newestSourceTime()) return;
  await npm(['run', 'build'], { cwd: repoRoot });
}
